"""Names an exported module imports from another module than the plugin's module does.

The plugin's hooks take a few names from the modules that read the release and the data variables
(``loading``): the exported folders read the converted hub dataset that lmms-eval loads, so those names
come from the modules the export has them in (a benchmark's ``hub_dataset``, the module defining an error
class), and the release readers are not exported at all. A benchmark's facts list them
(``UpstreamFacts.imported_from``: name -> module). In a module's source, each ``from M import name`` of
such a name (M another module) becomes ``from TARGET import name``, and a module that uses the name
without defining or importing it by name (it came with a star import) gets that import.
"""

import ast
from typing import Dict, List

from temporal_bench.export.plugin_only import Source, import_edits


def _explicit_imports(tree: ast.Module) -> Dict[str, str]:
    """name -> module of each module-level ``from M import name``."""
    return {alias.asname or alias.name: node.module or "" for node in tree.body if isinstance(node, ast.ImportFrom) for alias in node.names}


def redirect_imports(text: str, imported_from: Dict[str, str], module: str, where: str) -> str:
    """``text`` (the source of ``module``) importing each name of ``imported_from`` from its module there."""
    tree = ast.parse(text, filename=where)
    imported = _explicit_imports(tree)
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    moved = {name for name, target in imported_from.items() if target != module and name in imported and imported[name] != target}
    added = sorted(moved | {name for name, target in imported_from.items() if target != module and name in used and name not in imported and name not in defined})
    if not added:
        return text
    source = Source(text)
    text = source.apply(import_edits(source, tree, frozenset(moved)))
    lines: List[str] = text.splitlines(keepends=True)
    tree = ast.parse(text, filename=where)
    after = max((node.end_lineno for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))), default=0)
    new = [f"from {imported_from[name]} import {name}\n" for name in added]
    return "".join(lines[:after] + new + lines[after:])
