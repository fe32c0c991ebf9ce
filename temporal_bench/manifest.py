"""A benchmark declares itself in one place: the ``MANIFEST`` of its folder's ``manifest.py`` (its names and the
modules that hold its parts, as lmms-eval's ``ModelManifest`` declares a model). Everything else that lists the
benchmarks is derived from the manifests: the installed packages, package data and entry points (setup.py), the
data variables, the subcommands, the registry (temporal_bench/benchmarks.py) and the layering test. A manifest is
found through the entry point setup.py writes for every top-level folder holding a ``manifest.py``
(docs/adding_a_benchmark.md)."""

import functools
import importlib.metadata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

ENTRY_POINT_GROUP = "temporal_bench.benchmarks"


class Subcommand(NamedTuple):
    """``temporal-bench NAME``: where its ``main(argv)`` lives and its one-line summary (temporal_bench/commands.py)."""

    module: str
    function: str  # main(argv) -> exit status (None: 0)
    summary: str  # lower case, no final full stop: the top-level help's line


@dataclass(frozen=True, eq=False)
class Manifest:
    name: str  # the task prefix and its folders' name (tempvs/, lmms_eval_tasks/tempvs/), e.g. "tempvs"
    title: str  # as its paper writes it, e.g. "TempVS"
    paper: str | None = None  # the module whose BENCHMARK (temporal_bench.benchmarks.Benchmark) says what its paper reports
    upstream: str | None = None  # the module whose UPSTREAM the upstream export reads (temporal_bench/export/facts.py)
    dataset_builder: str | None = None  # the module converting its release for the hub (``temporal-bench build-dataset``)
    task_folder: str | None = None  # its lmms-eval task folder, when not this package's lmms_eval_tasks/<name>/
    commands: Mapping[str, Subcommand] = field(default_factory=dict)  # its own subcommands (``temporal-bench NAME``)

    @property
    def data_variable(self) -> str:
        return data_variable(self.name)


def data_variable(benchmark: str) -> str:
    """The environment variable naming a local copy of a benchmark's data (TEMPVS_DATA_DIR)."""
    return f"{benchmark.upper()}_DATA_DIR"


@functools.cache
def manifests() -> dict[str, Manifest]:
    """Every installed benchmark's manifest by name, in the order of the names (the order reports list them)."""
    found = {point.name: point.load() for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return dict(sorted(found.items()))
