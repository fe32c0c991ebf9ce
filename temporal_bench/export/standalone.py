"""The final check of an exported ``utils.py``: it compiles and nothing in its code names our package."""

import ast
import io
import tokenize

from temporal_bench.export.amalgamation import PACKAGE


class NotStandalone(ValueError):
    """The exported code would still need (or mention) our package."""


def _imported_modules(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, "." * node.level + (node.module or "")


def check_standalone(source: str, filename: str) -> None:
    """Raise ``NotStandalone`` if ``source`` imports from the package, relatively, or names it in code or a
    string; comments (the provenance lines) may name it. A syntax error propagates."""
    tree = ast.parse(source, filename=filename)
    compile(tree, filename, "exec")
    for line, module in _imported_modules(tree):
        if module.startswith(".") or module.split(".")[0] == PACKAGE:
            raise NotStandalone(f"{filename}:{line}: imports {module}")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.NAME, tokenize.STRING) and PACKAGE in token.string:
            raise NotStandalone(f"{filename}:{token.start[0]}: still refers to {PACKAGE}: {token.line.strip()!r}")
