"""Declarative table layouts: which results metric of which task fills which column of a paper table.

A layout is data. To add a benchmark table, write a :class:`Layout` and list it in the ``layouts``
of the benchmark's ``BENCHMARK`` (temporal_bench/benchmarks.py; e.g. catbench/tables.py):

- ``settings``: the prompting settings a table compares. Each names the harness tasks that measure
  it as groups of fnmatch patterns (a group = one prompt, e.g. a task and its ``_switched``
  variant); the first group with a task in the run is used, and inside it every column takes
  the first task that has a numeric value for its metric.
- ``columns``: header, the column name in the published CSV (the benchmark's ``published/``), the
  metric key in the results JSON, the scale from the harness value (a fraction) to the printed
  unit, decimals, and for tables whose columns span settings, the setting.
- ``rows``: ``"setting"`` gives one row per (model, setting) (CaT-Bench Table 1),
  ``"model"`` one row per model with the settings in the columns (CaT-Bench Table 3).
- ``published_rows``: for a table whose published rows are not one CSV as printed (TempVS Table 3
  from Tables 14-16, Table 5 transposed), a function returning them in the CSV's row shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from temporal_bench.benchmarks import Collected, named


@dataclass(frozen=True)
class Column:
    header: str
    key: str  # column name in the published CSV and in the CSV output
    metric: str  # metric key in the results JSON ("<metric>,<filter>")
    scale: float = 1.0  # harness value (fraction) x scale = printed unit
    decimals: int = 2
    setting: str | None = None  # for rows="model": the setting whose tasks give this column
    minus: str | None = None  # for rows="model": a setting whose value of the metric is subtracted


@dataclass(frozen=True)
class Setting:
    label: str  # as printed in the table (and in the published CSV's setting column)
    tasks: tuple[tuple[str, ...], ...]  # groups of fnmatch patterns, in order of preference
    filters: tuple[str, ...] = ("none",)  # preferred filter names of the metric keys
    # (samples per question, temperature) a task's recorded config must show (``repeats``, ``generation_kwargs.temperature``)
    sampling: tuple[int, float] | None = None

    @classmethod
    def of(
        cls,
        label: str,
        *tasks: str,
        filters: tuple[str, ...] = ("none",),
        sampling: tuple[int, float] | None = None,
    ) -> Setting:
        return cls(label, (tuple(tasks),), filters, sampling)


@dataclass(frozen=True)
class Layout:
    name: str  # CLI name, e.g. "catbench-table1"
    title: str
    benchmark: str
    settings: tuple[Setting, ...]
    columns: tuple[Column, ...]
    rows: str = "setting"  # "setting" or "model"
    published: tuple[str, str] | None = None  # (benchmark, table) of temporal_bench.published.load_table
    published_model_column: str | None = "model"
    published_model: str | None = None  # fixed model name when the table has no model column
    published_setting_column: str | None = "setting"
    rank_by: str | tuple[str, ...] | None = None  # column key, or keys whose mean ranks; high to low
    published_rows: Callable[[], list[dict[str, Any]]] | None = None
    # decimals the published values were printed with, where not the columns' (reproduction verdicts)
    published_decimals: int | None = None
    provisional: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)

    def setting(self, label: str) -> Setting:
        for s in self.settings:
            if s.label == label:
                return s
        raise KeyError(label)

    @property
    def tasks(self) -> list[str]:
        return [p for s in self.settings for group in s.tasks for p in group]


def prf_columns(prefix_key: str, prefix_header: str, suffix: str) -> tuple[Column, ...]:
    return (
        Column(f"{prefix_header} P", f"{prefix_key}_p", f"precision_{suffix}"),
        Column(f"{prefix_header} R", f"{prefix_key}_r", f"recall_{suffix}"),
        Column(f"{prefix_header} F", f"{prefix_key}_f", f"f1_{suffix}"),
    )


# every benchmark's table layouts by CLI name
LAYOUTS = Collected(lambda benchmark: named(benchmark.layouts))
