"""The benchmarks that the generic layers (run reading, report, compare, browse, export, demo, CLI) serve.

The generic layers ask this registry and never import a benchmark's modules by name. Each benchmark declares
itself in its manifest (temporal_bench/manifest.py), which names the module whose ``BENCHMARK`` (a
:class:`Benchmark`) says what its paper reports and how its runs are read. A task belongs to the benchmark whose
name is the task's prefix (``tempvs_mt1_two`` -> ``tempvs``). A benchmark defined elsewhere (a test's toy
benchmark) joins with :func:`register`. docs/adding_a_benchmark.md describes the fields.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from temporal_bench.manifest import Manifest, manifests

_registered: dict[str, Benchmark] = {}


def _no_holding_tasks(task: str) -> list[str]:
    return []


@dataclass(frozen=True, eq=False)  # one object per benchmark: compared and hashed by identity
class Benchmark:
    """What the generic layers need from one benchmark besides its manifest; every field but that may be left out. The
    registry knows no layer above it: a field holding a layer's object names that layer's type in its comment, and only
    that layer reads it."""

    manifest: Manifest  # its names and the modules of its parts
    # ---- what the report (temporal_bench/report/) shows of it ----
    layouts: tuple[Any, ...] = ()  # its paper tables, report.layouts.Layout (``report --table``), in the paper's order
    figures: tuple[Any, ...] = ()  # its paper figures drawn from measured runs, report.figures.Figure (``report --output-dir``)
    size_figures: tuple[Any, ...] = ()  # its paper figures by model size, report.size_figure.SizeFigure (``report --param-count``)
    published: Any = None  # the folder of its published tables, ``<name>_table<N>.csv`` (an importlib Traversable)
    cluster_stats: Any = None  # its metrics from per-cluster counts, report.cluster_stats.ClusterStats (intervals, compare)
    tolerance: float = 1.0  # points a faithful re-run may differ from a published value (reproduction verdicts)
    # a published row's model name -> the model's other names: its hub id, the spellings other tables use (report/model_names.py)
    model_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # a published row of an API model -> the names its paper gives it: a dated version (gpt-4o-2024-05-13) is the row's
    # only run name, a moving alias (gemini-1.5-pro-latest) none (report/model_names.py)
    api_models: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    not_models: tuple[str, ...] = ()  # its published rows that are no model's run (a human baseline, an average over models)
    protocol_gaps: tuple[Any, ...] = ()  # protocol_gaps.ProtocolGap: what a model class sends differently from the official run of some published models
    summary: Any = None  # its headline rows beside random answers, report.headline.Summary (the demo's summary)
    # ---- what browse (temporal_bench/browse/) and the demo show of it ----
    cards: Any = None  # what a browse card shows of its logged records, browse.benchmarks.BenchmarkCards
    examples: tuple[Any, ...] = ()  # its qualitative figures (``browse --examples``), browse.examples.ExampleFigure
    demo: Any = None  # its synthetic data and tasks in ``temporal-bench demo``, demo.DemoTasks
    # the tasks that may log ``task``'s questions together with other questions (TempVS: a suite task)
    holding_tasks: Callable[[str], list[str]] = _no_holding_tasks
    # the single tests' task names ``task`` asks, which ``browse --tasks`` accepts for it (tempvs -> [tempvs_mt1_two, ...])
    held_tests: Callable[[str], list[str]] = _no_holding_tasks
    task_labels: Mapping[str, str] = field(default_factory=dict)  # task -> its name in ``compare`` rows (default: the task)
    # ---- how its runs are read (temporal_bench/runs, temporal_bench/rescore); None: nothing special ----
    record_reader: Any = None  # runs.record_reader.RecordReader: how its logged records read (None: the base, as logged)
    # (task, its per-doc records) -> every breakdown key the report adds to the task's results
    breakdown_metrics: Callable[[str, list[dict]], dict[str, Any]] | None = None
    # (task, its results entry) -> {task name: entry} for a task holding several tests, each under its own task name
    per_test_results: Callable[[str, dict], dict[str, dict]] | None = None
    # (task, its per-doc records) -> {task name: records}, split as per_test_results splits the metrics
    per_test_records: Callable[[str, list[dict]], dict[str, list[dict]]] | None = None
    # (a results JSON's data) -> whether it holds a release's scored outputs (no model's run: compare and check pass it over)
    is_released_outputs: Callable[[dict], bool] | None = None

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


def names() -> list[str]:
    """Every benchmark's name: the installed ones (their manifests), then the registered ones."""
    return [*manifests(), *(name for name in _registered if name not in manifests())]


def get(name: str) -> Benchmark:
    """The benchmark called ``name`` (KeyError naming the known ones otherwise)."""
    if name in _registered:
        return _registered[name]
    if name not in manifests():
        raise KeyError(f"no benchmark {name!r}; known: {', '.join(names())}")
    return _installed(name)


@functools.cache
def _installed(name: str) -> Benchmark:
    """An installed benchmark, its paper module imported once."""
    paper = manifests()[name].paper
    if paper is None:
        raise KeyError(f"benchmark {name!r}: its manifest names no paper module, so it has no Benchmark")
    return importlib.import_module(paper).BENCHMARK


def all_benchmarks() -> list[Benchmark]:
    return [get(name) for name in names()]


def of_task(task: str) -> Benchmark | None:
    """The benchmark ``task`` belongs to (by its prefix), None for a task of no benchmark (an installed one's resolved
    once: a run's records ask it for every line)."""
    prefix = task.split("_", 1)[0]
    return _registered[prefix] if prefix in _registered else _installed_of(prefix)


@functools.cache
def _installed_of(prefix: str) -> Benchmark | None:
    return _installed(prefix) if prefix in manifests() else None


class Collected(Mapping):
    """Name -> item over every benchmark's items (e.g. all table layouts), in the registry's order;
    read afresh at each use, so a benchmark registered after import is in."""

    def __init__(self, items: Callable[[Benchmark], Iterable[tuple[str, Any]]]):
        self._items = items

    def _current(self) -> dict[str, Any]:
        return {name: item for benchmark in all_benchmarks() for name, item in self._items(benchmark)}

    def __getitem__(self, name: str) -> Any:
        return self._current()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())


def named(items: Sequence[Any]) -> list[tuple[str, Any]]:
    """``(item.name, item)`` of each item: the entries of a :class:`Collected` of named things."""
    return [(item.name, item) for item in items]
