"""The package modules an exported task folder needs, copied as readable source.

lmms-eval's own task folders keep their code in several modules next to ``utils.py`` and import
them absolutely (``from lmms_eval.tasks.mmbench.mmbench_evals import ...``). The export does the
same: starting from our task folder's ``utils.py`` it follows every ``temporal_bench`` import (found
in the syntax tree, at any depth, so a lazy import inside a function counts) and copies each module
it reaches into the folder, unchanged but for the package's dotted names: ``temporal_bench.<benchmark>``
and ``temporal_bench.utils`` both become ``lmms_eval.tasks.<benchmark>`` (the shared modules are
copied into each benchmark's folder), except a module of ``UPSTREAM_VERSIONS``, whose upstream version
is copied instead. Anything else of the package (``temporal_bench.paths``, the
report ...) cannot be exported and is an ``ExportError`` naming the import.
"""

import ast
import importlib.util
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

PACKAGE = "temporal_bench"
SHARED = "utils"  # temporal_bench.utils: modules every benchmark uses, copied into each folder
UPSTREAM_PACKAGE = "lmms_eval.tasks"
# Modules exported as another source with the same interface. The plugin's fail_fast ends the run on a
# data error (a SystemExit, so lmms-eval does not retry the load); task code upstream raises the error.
UPSTREAM_VERSIONS = {f"{PACKAGE}.{SHARED}.fail_fast": Path(__file__).parent / "upstream" / "fail_fast.py"}


class ExportError(RuntimeError):
    """The task folder cannot be written as asked."""


@dataclass(frozen=True)
class CopiedModule:
    module: str  # e.g. temporal_bench.tempvs.hooks
    source: Path  # the file copied (its own, or its UPSTREAM_VERSIONS entry)
    file_name: str  # its file in the exported folder, e.g. hooks.py
    text: str  # its rewritten source


def _in_package(module: str) -> bool:
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def _imports(tree: ast.AST, where: str) -> Iterator[Tuple[int, str, List[str]]]:
    """(line, module, imported names) of every import of a package module in ``tree``; the names are
    those of a ``from`` import (a name may be a submodule), empty for ``import``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            raise ExportError(f"{where}:{node.lineno}: relative import; import {PACKAGE} modules absolutely")
        if isinstance(node, ast.ImportFrom) and _in_package(node.module or ""):
            yield node.lineno, node.module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _in_package(alias.name) and alias.asname is None:
                    raise ExportError(f"{where}:{node.lineno}: `import {alias.name}` would need its uses renamed; "
                                      f"use `from ... import ...`")
                if _in_package(alias.name):
                    yield node.lineno, alias.name, []


def _source_file(module: str) -> Path:
    """The file of a package module (found by the import system: setup.cfg maps the folders); raises
    ``ModuleNotFoundError`` for a name that is not a module."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not Path(spec.origin).is_file():
        raise ModuleNotFoundError(module)
    return Path(spec.origin)


def _is_module(module: str) -> bool:
    try:
        return _source_file(module).name != "__init__.py"
    except ModuleNotFoundError:
        return False


class Closure:
    """The package modules one benchmark's task folder reaches, and how each is named in the export."""

    def __init__(self, benchmark: str) -> None:
        self.benchmark = benchmark
        self.exportable = (f"{PACKAGE}.{benchmark}", f"{PACKAGE}.{SHARED}")
        self.modules: Dict[str, Path] = {}  # module -> file, in the order they were reached

    def _check_exportable(self, module: str, where: str) -> None:
        if module not in self.exportable and module.rpartition(".")[0] not in self.exportable:
            raise ExportError(f"{where}: imports {module}; an exported folder can hold only modules of "
                              f"{' and '.join(self.exportable)}")

    def follow(self, source: str, where: str) -> None:
        """Add every package module ``source`` imports, and theirs, recursively."""
        for line, module, names in _imports(ast.parse(source, filename=where), where):
            self._check_exportable(module, f"{where}:{line}")
            reached = [f"{module}.{name}" for name in names if _is_module(f"{module}.{name}")]
            if module not in self.exportable:  # a module itself, not one of the two packages
                reached.append(module)
            for name in reached:
                self._add(name)

    def _add(self, module: str) -> None:
        if module in self.modules:
            return
        path = _source_file(module)
        self.modules[module] = path
        self.follow(path.read_text(encoding="utf-8"), _label(module))


def _label(module: str) -> str:
    return module.replace(".", "/") + ".py"


def rewrite(source: str, benchmark: str) -> str:
    """``source`` with ``temporal_bench.<benchmark>`` and ``temporal_bench.utils`` (in imports, docstrings
    and comments alike) renamed to ``lmms_eval.tasks.<benchmark>``."""
    pattern = re.compile(rf"\b{PACKAGE}\.(?:{re.escape(benchmark)}|{SHARED})\b")
    return pattern.sub(f"{UPSTREAM_PACKAGE}.{benchmark}", source)


def check_standalone(text: str, where: str) -> None:
    """Raise ``ExportError`` if the exported ``text`` does not compile or its code or strings still name
    the package (a comment may: provenance)."""
    compile(ast.parse(text, filename=where), where, "exec")
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.NAME, tokenize.STRING) and PACKAGE in token.string:
            raise ExportError(f"{where}:{token.start[0]}: still refers to {PACKAGE}: {token.line.strip()!r}")


def copied_modules(benchmark: str, entry: Path, taken: List[str]) -> Tuple[str, List[CopiedModule]]:
    """(the rewritten ``entry``, the modules it reaches, rewritten) for ``benchmark``'s folder; ``taken``
    names the folder's other files, which a copied module must not replace."""
    closure = Closure(benchmark)
    entry_text = entry.read_text(encoding="utf-8")
    closure.follow(entry_text, str(entry))
    copies: Dict[str, CopiedModule] = {}
    for module, path in closure.modules.items():
        file_name = module.rpartition(".")[2] + ".py"
        clash = copies.get(file_name)
        if clash or file_name in taken:
            other = clash.module if clash else f"the task folder's {file_name}"
            raise ExportError(f"{module} and {other} would both be {benchmark}/{file_name} in the export")
        source = UPSTREAM_VERSIONS.get(module, path)
        text = rewrite(source.read_text(encoding="utf-8"), benchmark)
        check_standalone(text, f"{benchmark}/{file_name} (from {_label(module)})")
        copies[file_name] = CopiedModule(module, source, file_name, text)
    utils = rewrite(entry_text, benchmark)
    check_standalone(utils, f"{benchmark}/{entry.name}")
    return utils, list(copies.values())
