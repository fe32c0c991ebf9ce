"""Third-party modules the exported code imports that lmms-eval does not install.

An upstream task folder can rely only on lmms-eval's own requirements; anything else must be added
to them in the pull request, and the folder's README names it. An import inside a function or a
``try`` is needed only when that code runs (``rank_bm25``, only by CaT-Bench's few-shot tasks).
"""

import ast
import importlib.metadata
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from packaging.requirements import Requirement as _Specifier
from packaging.utils import canonicalize_name

HARNESS = "lmms-eval"


@dataclass(frozen=True)
class Requirement:
    module: str  # the top-level module imported, e.g. rank_bm25
    distribution: str  # what to install, e.g. rank-bm25
    files: tuple[str, ...]  # the exported files importing it
    when_used: bool  # imported only where it is used (in a function or a try), not when the module loads


@lru_cache(maxsize=1)
def _installed() -> Mapping[str, list[str]]:
    """Top-level module -> distributions (reads every installed distribution's file list: ~1 s)."""
    return importlib.metadata.packages_distributions()


def _requires(distribution: str) -> list[str]:
    """The distributions ``distribution`` always installs (no extras), normalized names."""
    try:
        lines = importlib.metadata.requires(distribution) or []
    except importlib.metadata.PackageNotFoundError:
        return []
    return [canonicalize_name(r.name) for r in map(_Specifier, lines) if r.marker is None or "extra" not in str(r.marker)]


@lru_cache(maxsize=1)
def harness_requirements() -> frozenset[str]:
    """lmms-eval and every distribution it installs, directly or through its requirements (no extras),
    normalized names: an upstream checkout has them all (``datasets`` brings ``pandas``, ``pyarrow``, ``huggingface-hub``)."""
    names: set[str] = set()
    todo: list[str] = [canonicalize_name(HARNESS)]
    while todo:
        name = todo.pop()
        if name not in names:
            names.add(name)
            todo.extend(_requires(name))
    return frozenset(names)


def _imported(node: ast.AST) -> list[str]:
    modules = [a.name for a in node.names] if isinstance(node, ast.Import) else ([node.module] if isinstance(node, ast.ImportFrom) and not node.level and node.module else [])
    return [module.split(".")[0] for module in modules]


def extra_requirements(source: str, when_used: bool = False) -> dict[str, str]:
    """Imported module -> distribution, for each import of ``source`` that is neither in the standard library
    nor among lmms-eval's requirements: the module-level ones, or (``when_used``) those in functions and ``try``."""
    tree = ast.parse(source)
    at_load = {id(node) for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))}
    nodes = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)) and (id(node) in at_load) != when_used]
    installed, required = _installed(), harness_requirements()
    extra = {}
    for top in (top for node in nodes for top in _imported(node)):
        distributions = installed.get(top, [top])
        if top not in sys.stdlib_module_names and not any(canonicalize_name(d) in required for d in distributions):
            extra[top] = distributions[0]
    return extra


def requirements_of(texts: Mapping[str, str]) -> list[Requirement]:
    """Every extra requirement of the exported files ``texts`` (file -> source), those needed at load first."""
    found: dict[tuple[str, bool], dict] = {}
    for when_used in (False, True):
        for file_name, text in texts.items():
            for module, distribution in extra_requirements(text, when_used).items():
                entry = found.setdefault((module, when_used), {"distribution": distribution, "files": []})
                entry["files"].append(file_name)
    return [Requirement(module, entry["distribution"], tuple(entry["files"]), when_used) for (module, when_used), entry in found.items() if when_used is False or (module, False) not in found]
