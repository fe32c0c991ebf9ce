"""The benchmarks that the generic layers (run reading, report, compare, browse, export, demo, CLI) serve.

The generic layers ask this registry and never import a benchmark's modules by name. Each benchmark declares
itself in its manifest (temporal_bench/manifest.py), which names the module whose ``BENCHMARK`` (a
:class:`Benchmark`) says what its paper reports and how its runs are read. A task belongs to the benchmark whose
name is the task's prefix (``tempvs_mt1_two`` -> ``tempvs``). A benchmark defined elsewhere (a test's toy
benchmark) joins with :func:`register`. docs/adding_a_benchmark.md describes the fields.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from temporal_bench.manifest import Manifest, manifests

if TYPE_CHECKING:  # the generic layers' own types: this module imports none of them, so that every layer can import it
    from importlib.resources.abc import Traversable

    from temporal_bench.browse.benchmarks import BenchmarkCards
    from temporal_bench.browse.examples import ExampleFigure
    from temporal_bench.demo import DemoTasks
    from temporal_bench.protocol_gaps import ProtocolGap
    from temporal_bench.report.cluster_stats import ClusterStats
    from temporal_bench.report.figures import Figure
    from temporal_bench.report.headline import Summary
    from temporal_bench.report.layouts import Layout
    from temporal_bench.report.size_figure import SizeFigure
    from temporal_bench.runs.record_reader import RecordReader

_registered: Dict[str, "Benchmark"] = {}


def _no_holding_tasks(task: str) -> List[str]:
    return []


def _base_record_reader() -> RecordReader:
    from temporal_bench.runs.record_reader import RecordReader

    return RecordReader()


@dataclass(frozen=True, eq=False)  # one object per benchmark: compared and hashed by identity
class Benchmark:
    """What the generic layers need from one benchmark besides its manifest; every field but that may be left out."""

    manifest: Manifest  # its names and the modules of its parts
    layouts: Tuple[Layout, ...] = ()  # its paper tables (``report --table``), in the paper's order
    figures: Tuple[Figure, ...] = ()  # its paper figures drawn from measured runs (``report --output-dir``)
    size_figures: Tuple[SizeFigure, ...] = ()  # its paper figures by model size (``report --param-count``)
    published: Optional[Traversable] = None  # the folder of its published tables, ``<name>_table<N>.csv``
    cluster_stats: Optional[ClusterStats] = None  # its metrics from per-cluster counts (intervals, compare)
    tolerance: float = 1.0  # points a faithful re-run may differ from a published value (reproduction verdicts)
    # a published row's model name -> the model's other names: its hub id, the spellings other tables use (report/model_names.py)
    model_names: Mapping[str, Tuple[str, ...]] = field(default_factory=dict)
    # a published row of an API model -> the names its paper gives it: a dated version (gpt-4o-2024-05-13) is the row's
    # only run name, a moving alias (gemini-1.5-pro-latest) none (report/model_names.py)
    api_models: Mapping[str, Tuple[str, ...]] = field(default_factory=dict)
    not_models: Tuple[str, ...] = ()  # its published rows that are no model's run (a human baseline, an average over models)
    protocol_gaps: Tuple[ProtocolGap, ...] = ()  # what a model class sends differently from the official run of some published models
    summary: Optional[Summary] = None  # its headline rows beside random answers (the demo's summary)
    cards: Optional[BenchmarkCards] = None  # what a browse card shows of its logged records
    examples: Tuple[ExampleFigure, ...] = ()  # its qualitative figures (``browse --examples``)
    demo: Optional[DemoTasks] = None  # its synthetic data and tasks in ``temporal-bench demo``
    # the tasks that may log ``task``'s questions together with other questions (TempVS: a suite task)
    holding_tasks: Callable[[str], List[str]] = _no_holding_tasks
    # the single tests' task names ``task`` asks, which ``browse --tasks`` accepts for it (tempvs -> [tempvs_mt1_two, ...])
    held_tests: Callable[[str], List[str]] = _no_holding_tasks
    task_labels: Mapping[str, str] = field(default_factory=dict)  # task -> its name in ``compare`` rows (default: the task)
    # ---- how its runs are read (temporal_bench/runs, temporal_bench/rescore); None: nothing special ----
    record_reader: RecordReader = field(default_factory=_base_record_reader)  # how its logged records read (the base: as logged, no release known)
    # (task, its per-doc records) -> every breakdown key the report adds to the task's results
    breakdown_metrics: Optional[Callable[[str, List[Dict]], Dict[str, Any]]] = None
    # (task, its results entry) -> {task name: entry} for a task holding several tests, each under its own task's name
    per_test_results: Optional[Callable[[str, Dict], Dict[str, Dict]]] = None
    # (task, its per-doc records) -> {task name: records}, split as per_test_results splits the metrics
    per_test_records: Optional[Callable[[str, List[Dict]], Dict[str, List[Dict]]]] = None
    # (a results JSON's data) -> whether it holds a release's scored outputs (no model's run: compare and check pass it over)
    is_released_outputs: Optional[Callable[[Dict], bool]] = None

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def title(self) -> str:
        return self.manifest.title


def register(benchmark: Benchmark) -> None:
    """Add (or replace) a benchmark defined outside this package."""
    _registered[benchmark.name] = benchmark


def unregister(name: str) -> None:
    """Remove a benchmark :func:`register` added (a test's toy benchmark, after the test)."""
    del _registered[name]


def names() -> List[str]:
    """Every benchmark's name: the installed ones (their manifests), then the registered ones."""
    return [*manifests(), *(name for name in _registered if name not in manifests())]


def get(name: str) -> Benchmark:
    """The benchmark called ``name`` (KeyError naming the known ones otherwise)."""
    if name in _registered:
        return _registered[name]
    if name not in manifests():
        raise KeyError(f"no benchmark {name!r}; known: {', '.join(names())}")
    return importlib.import_module(manifests()[name].paper).BENCHMARK


def all_benchmarks() -> List[Benchmark]:
    return [get(name) for name in names()]


def of_task(task: str) -> Optional[Benchmark]:
    """The benchmark ``task`` belongs to (by its prefix), None for a task of no benchmark."""
    prefix = task.split("_", 1)[0]
    return get(prefix) if prefix in names() else None


class Collected(Mapping):
    """Name -> item over every benchmark's items (e.g. all table layouts), in the registry's order;
    read afresh at each use, so a benchmark registered after import is in."""

    def __init__(self, items: Callable[[Benchmark], Iterable[Tuple[str, Any]]]):
        self._items = items

    def _current(self) -> Dict[str, Any]:
        return {name: item for benchmark in all_benchmarks() for name, item in self._items(benchmark)}

    def __getitem__(self, name: str) -> Any:
        return self._current()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())


def named(items: Sequence[Any]) -> List[Tuple[str, Any]]:
    """``(item.name, item)`` of each item: the entries of a :class:`Collected` of named things."""
    return [(item.name, item) for item in items]
