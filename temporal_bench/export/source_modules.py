"""The package modules an exported task folder needs, copied as readable source.

lmms-eval's own task folders keep their code in several modules next to ``utils.py``, import them
absolutely (``from lmms_eval.tasks.mmbench.mmbench_evals import ...``) and share helpers through
``lmms_eval/tasks/_task_utils/``. The export does the same: starting from our task folder's ``utils.py``
it follows every ``temporal_bench`` import (found in the syntax tree, at any depth, so a lazy import
inside a function counts) and copies each module it reaches, with the package's dotted names renamed:
a benchmark's own module (``temporal_bench.<benchmark>.<module>``) goes into its folder
(``lmms_eval.tasks.<benchmark>.<module>``), a shared one (``temporal_bench.utils.<module>``) once into
``SHARED_FOLDER`` (``lmms_eval.tasks._task_utils.temporal_reasoning.<module>``), which the folders import.
A module of ``UPSTREAM_VERSIONS`` is copied in its upstream version; the names the benchmark's facts
redirect are imported from where the export has them (export/redirects.py), code only the plugin needs is
dropped (export/plugin_only.py; a name ``<module>.<name>`` applies to that module alone, ``utils.<name>`` to
the task folder's utils.py), and so are the citations of our docs pages (export/citations.py).
Anything else of the package (``temporal_bench.paths``, the report ...) cannot be exported and is an
``ExportError`` naming the import.
"""

import ast
import importlib.util
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Dict, FrozenSet, Iterator, List, Mapping, Optional, Tuple

from temporal_bench.export.citations import strip_doc_citations
from temporal_bench.export.errors import ExportError
from temporal_bench.export.plugin_only import strip_plugin_only
from temporal_bench.export.redirects import redirect_imports

PACKAGE = "temporal_bench"
SHARED = "utils"  # temporal_bench.utils: the modules the benchmarks share
UPSTREAM_PACKAGE = "lmms_eval.tasks"
SHARED_FOLDER = PurePosixPath("_task_utils") / "temporal_reasoning"  # under lmms_eval/tasks/
SHARED_UPSTREAM = f"{UPSTREAM_PACKAGE}.{'.'.join(SHARED_FOLDER.parts)}"
# Modules exported as another source with the same interface. The plugin's fail_fast ends the run on a
# data error (a SystemExit, so lmms-eval does not retry the load); task code upstream raises the error.
UPSTREAM_VERSIONS = {f"{PACKAGE}.{SHARED}.fail_fast": Path(__file__).parent / "upstream" / "fail_fast.py"}
# Shared names only the plugin's commands use (rescore, browse and the demo set data folders; the
# fixtures write the synthetic-data marker) or its release readers (the fingerprint of the files read):
# dropped from every exported module.
SHARED_PLUGIN_ONLY = frozenset({"DATA_ENVS", "parse_locations", "data_locations", "mark_synthetic", "DataSource", "fingerprint", "log_source"})


@dataclass(frozen=True)
class CopiedModule:
    module: str  # e.g. temporal_bench.tempvs.hooks
    folder: PurePosixPath  # its folder under lmms_eval/tasks/: the benchmark's, or SHARED_FOLDER
    text: str  # its rewritten source

    @property
    def file_name(self) -> str:
        return self.module.rpartition(".")[2] + ".py"

    @property
    def path(self) -> PurePosixPath:
        """Its file under lmms_eval/tasks/."""
        return self.folder / self.file_name

    @property
    def is_shared(self) -> bool:
        return self.folder == SHARED_FOLDER


def _in_package(module: str) -> bool:
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def is_shared(module: str) -> bool:
    return module.startswith(f"{PACKAGE}.{SHARED}.")


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
                    raise ExportError(f"{where}:{node.lineno}: `import {alias.name}` would need its uses renamed; use `from ... import ...`")
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


def _label(module: str) -> str:
    return module.replace(".", "/") + ".py"


def names_for(module: str, plugin_only: FrozenSet[str]) -> FrozenSet[str]:
    """The names of ``plugin_only`` that apply to ``module``: the bare ones and its own (``<module>.<name>``)."""
    stem = module.rpartition(".")[2]
    return frozenset(name.partition(".")[2] if "." in name else name for name in plugin_only if "." not in name or name.startswith(f"{stem}."))


def exported_source(module: str, path: Path, plugin_only: FrozenSet[str], imported_from: Mapping[str, str], where: str = "") -> str:
    """The source the export starts from for ``module``: its upstream version if it has one, the names of
    ``imported_from`` imported from their modules, without the code of the ``plugin_only`` names that apply to
    it and without citations of our docs pages (names not yet renamed)."""
    where = where or _label(module)
    text = redirect_imports(UPSTREAM_VERSIONS.get(module, path).read_text(encoding="utf-8"), dict(imported_from), module, where)
    return strip_doc_citations(strip_plugin_only(text, names_for(module, plugin_only), where), where)


class Closure:
    """The package modules one benchmark's task folder reaches, and their sources as exported."""

    def __init__(self, benchmark: str, plugin_only: FrozenSet[str], imported_from: Mapping[str, str]) -> None:
        self.benchmark = benchmark
        self.imported_from = imported_from
        self.plugin_only = plugin_only | SHARED_PLUGIN_ONLY
        self.modules: Dict[str, str] = {}  # module -> its exported source (not yet renamed), in the order reached

    def _check_exportable(self, module: str, importer: str, where: str) -> None:
        packages = (f"{PACKAGE}.{SHARED}",) if is_shared(importer) else (f"{PACKAGE}.{self.benchmark}", f"{PACKAGE}.{SHARED}")
        if module not in packages and module.rpartition(".")[0] not in packages:
            raise ExportError(f"{where}: imports {module}; an exported {'shared module' if is_shared(importer) else 'folder'} can hold only modules of {' and '.join(packages)}")

    def follow(self, source: str, where: str, importer: str = "") -> None:
        """Add every package module ``source`` imports, and theirs, recursively."""
        for line, module, names in _imports(ast.parse(source, filename=where), where):
            self._check_exportable(module, importer, f"{where}:{line}")
            reached = [f"{module}.{name}" for name in names if _is_module(f"{module}.{name}")]
            if _is_module(module):
                reached.append(module)
            for name in reached:
                self._add(name)

    def _add(self, module: str) -> None:
        if module in self.modules:
            return
        # a shared module is exported once for every benchmark: only the shared plugin-only names apply to it
        shared = is_shared(module)
        self.modules[module] = exported_source(module, _source_file(module), SHARED_PLUGIN_ONLY if shared else self.plugin_only, {} if shared else self.imported_from)
        self.follow(self.modules[module], _label(module), module)


def rewrite(source: str, benchmark: Optional[str]) -> str:
    """``source`` with the package's dotted names (in imports, docstrings and comments alike) renamed:
    ``temporal_bench.utils`` to the shared folder's, ``temporal_bench.<benchmark>`` to the benchmark's folder
    (``benchmark`` None: a shared module, which names no benchmark)."""
    source = re.sub(rf"\b{PACKAGE}\.{SHARED}\b", SHARED_UPSTREAM, source)
    return re.sub(rf"\b{PACKAGE}\.{re.escape(benchmark)}\b", f"{UPSTREAM_PACKAGE}.{benchmark}", source) if benchmark else source


def check_standalone(text: str, where: str) -> None:
    """Raise ``ExportError`` if the exported ``text`` does not compile or its code or strings still name
    the package (a comment may: provenance)."""
    compile(ast.parse(text, filename=where), where, "exec")
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.NAME, tokenize.STRING) and PACKAGE in token.string:
            raise ExportError(f"{where}:{token.start[0]}: still refers to {PACKAGE}: {token.line.strip()!r}")


def copied_modules(benchmark: str, entry: Path, taken: List[str], plugin_only: FrozenSet[str] = frozenset(), imported_from: Optional[Mapping[str, str]] = None) -> Tuple[str, List[CopiedModule]]:
    """(the rewritten ``entry``, the modules it reaches, rewritten) for ``benchmark``'s folder; ``taken``
    names the folder's other files, which a copied module must not replace."""
    closure = Closure(benchmark, plugin_only, imported_from or {})
    entry_text = exported_source(f"{PACKAGE}.{benchmark}.utils", entry, closure.plugin_only, closure.imported_from, str(entry))
    closure.follow(entry_text, str(entry))
    copies: Dict[PurePosixPath, CopiedModule] = {}
    for module, source in closure.modules.items():
        shared = is_shared(module)
        copy = CopiedModule(module, SHARED_FOLDER if shared else PurePosixPath(benchmark), rewrite(source, None if shared else benchmark))
        clash = copies.get(copy.path)
        if clash or (not shared and copy.file_name in taken):
            other = clash.module if clash else f"the task folder's {copy.file_name}"
            raise ExportError(f"{module} and {other} would both be {copy.path} in the export")
        check_standalone(copy.text, f"{copy.path} (from {_label(module)})")
        copies[copy.path] = copy
    utils = rewrite(entry_text, benchmark)
    check_standalone(utils, f"{benchmark}/{entry.name}")
    return utils, list(copies.values())
