"""The benchmarks that the generic layers (run reading, report, compare, browse, export, demo, CLI) serve.

This is the one generic module that names them. Each benchmark's folder has a ``paper`` module whose
``BENCHMARK`` (a :class:`Benchmark`) says what that benchmark's paper reports and how its runs are read;
the generic layers ask this registry and never import a benchmark's modules by name. A task belongs to
the benchmark whose name is the task's prefix (``tempvs_mt1_two`` -> ``tempvs``). A benchmark defined
elsewhere (a test's toy benchmark) joins with :func:`register`.
"""

import importlib
from dataclasses import dataclass
from typing import Dict, List, Optional

# benchmark name -> the module holding its BENCHMARK
PAPER_MODULES = {
    "tempvs": "temporal_bench.tempvs.paper",
    "isobench": "temporal_bench.isobench.paper",
    "catbench": "temporal_bench.catbench.paper",
}

_registered: Dict[str, "Benchmark"] = {}


@dataclass(frozen=True)
class Benchmark:
    """What the generic layers need from one benchmark."""

    name: str  # the task prefix and the folder name, e.g. "tempvs"
    title: str  # as the paper writes it, e.g. "TempVS"
    upstream: Optional[str] = None  # the module whose UPSTREAM (export/facts.py) the upstream export reads


def register(benchmark: Benchmark) -> None:
    """Add (or replace) a benchmark defined outside this package."""
    _registered[benchmark.name] = benchmark


def names() -> List[str]:
    """Every benchmark's name: this package's three, then the registered ones."""
    return [*PAPER_MODULES, *(name for name in _registered if name not in PAPER_MODULES)]


def get(name: str) -> Benchmark:
    """The benchmark called ``name`` (KeyError naming the known ones otherwise)."""
    if name in _registered:
        return _registered[name]
    if name not in PAPER_MODULES:
        raise KeyError(f"no benchmark {name!r}; known: {', '.join(names())}")
    return importlib.import_module(PAPER_MODULES[name]).BENCHMARK


def all_benchmarks() -> List[Benchmark]:
    return [get(name) for name in names()]


def of_task(task: str) -> Optional[Benchmark]:
    """The benchmark ``task`` belongs to (by its prefix), None for a task of no benchmark."""
    prefix = task.split("_", 1)[0]
    return get(prefix) if prefix in names() else None
