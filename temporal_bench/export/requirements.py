"""Third-party modules an exported ``utils.py`` imports when loaded that lmms-eval does not install.

An upstream task folder can rely only on lmms-eval's own requirements; anything else must be added
to them in the pull request (or imported lazily, where only some tasks need it).
"""

import ast
import importlib.metadata
import re
import sys
from functools import lru_cache
from typing import Dict, FrozenSet, List, Mapping

from packaging.requirements import Requirement

HARNESS = "lmms-eval"


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@lru_cache(maxsize=1)
def _installed() -> Mapping[str, List[str]]:
    """Top-level module -> distributions (reads every installed distribution's file list: ~1 s)."""
    return importlib.metadata.packages_distributions()


@lru_cache(maxsize=1)
def harness_requirements() -> FrozenSet[str]:
    """lmms-eval and the distributions it always installs (no extras), normalized names."""
    names = {_normalized(HARNESS)}
    for line in importlib.metadata.requires(HARNESS) or []:
        requirement = Requirement(line)
        if requirement.marker is None or "extra" not in str(requirement.marker):
            names.add(_normalized(requirement.name))
    return frozenset(names)


def extra_requirements(source: str) -> Dict[str, str]:
    """Imported module -> distribution, for each module-level import of ``source`` that is neither in the
    standard library nor among lmms-eval's requirements. Imports inside functions or ``try`` are optional."""
    installed = _installed()
    required = harness_requirements()
    extra = {}
    for node in ast.parse(source).body:
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module] if isinstance(node, ast.ImportFrom) else [])
        for top in (module.split(".")[0] for module in modules):
            distributions = installed.get(top, [top])
            if top not in sys.stdlib_module_names and not any(_normalized(d) in required for d in distributions):
                extra[top] = distributions[0]
    return extra
