"""A run's headline metrics, one compact table per benchmark, beside what random answers score.

Each cell is ``measured (reference)``. The reference is the paper's Random row where the paper
prints one (TempVS Table 3: GT_strict and MT of each main test), else, marked ``*``, the value a
uniform random answer is expected to score (TempVS GT: one of a sequence's five images; GT_strict:
every grounding question of the main question right; CaT-Bench and ISO-Bench: a yes/no coin on
balanced classes). A cell resting on fewer than :data:`FEW_QUESTIONS` questions says how many
(``n=2``). Every cell of a table is in its one unit (``Summary.scale``), which its title names beside the paper's
convention where the paper prints another. Each benchmark gives its table as its registry entry's ``summary`` (e.g.
tempvs/headline.py). The demo prints it for its random_choice run (temporal_bench/demo.py), with a
sentence on the sampling error taken from the cells' own 95% intervals (:func:`noise_note`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from temporal_bench import benchmarks
from temporal_bench.report.intervals import TaskIntervals, task_intervals
from temporal_bench.report.layouts import LAYOUTS
from temporal_bench.report.model_names import RANDOM_ROW
from temporal_bench.report.rows import published_rows
from temporal_bench.runs.results import Run

FEW_QUESTIONS = 20  # a cell on fewer questions than this says how many: its value is an anecdote


@dataclass(frozen=True)
class Headline:
    header: str
    metric: str  # metric key in the results JSON
    decimals: int = 2


@dataclass(frozen=True)
class Row:
    label: str
    task: str
    chance: dict[str, float]  # metric -> a uniform random answer's expected value (a fraction)
    published: dict[str, str] = field(default_factory=dict)  # metric -> column of the paper's Random row


@dataclass(frozen=True)
class Summary:
    title: str
    columns: tuple[Headline, ...]
    rows: tuple[Row, ...]
    published_layout: str | None = None  # report layout whose published rows hold the Random row
    row_header: str = "task"
    task_prefix: str | None = None  # a run's other tasks of this name get a row too (same chance values)
    task_notes: dict[str, str] = field(default_factory=dict)  # task -> a line said of it instead of a row
    scale: float = 1.0  # harness value (a fraction) x scale = the table's unit (100: %), every cell's

    def rows_of(self, run: Run) -> list[Row]:
        """The summary's rows ``run`` has, then one per other task of the run named ``task_prefix...``."""
        rows = [row for row in self.rows if row.task in run.results]
        if self.task_prefix:
            listed = {row.task for row in self.rows}
            chance = self.rows[0].chance
            rows += [Row(task, task, chance) for task in run.tasks if task.startswith(self.task_prefix) and task not in listed]
        return rows


# a yes/no coin's expected scores on balanced classes (CaT-Bench and ISO-Bench's metrics)
YES_NO_CHANCE = {"f1_macro": 0.5, "f1_dep": 0.5, "f1_nondep": 0.5, "f1_weighted": 0.5, "tc": 0.5, "occ": 0.5, "invalid_rate": 0.0, "coverage": 1.0}


def _random_row(summary: Summary):
    if summary.published_layout is None:
        return None
    return next(row for row in published_rows(LAYOUTS[summary.published_layout]) if row.model == RANDOM_ROW)


def _reference(row: Row, column: Headline, random_row, scale: float) -> str:
    key = row.published.get(column.metric)
    if random_row is not None and key and random_row.values.get(key) is not None:
        return f"{random_row.values[key]:g}{random_row.marks.get(key, '')}"
    return f"{row.chance[column.metric] * scale:g}*"


def _measured(run: Run, row: Row, column: Headline, scale: float) -> str:
    value = run.metric(row.task, column.metric)
    return "–" if value is None else f"{value * scale:.{column.decimals}f}"


def _few(run: Run, row: Row, column: Headline, intervals: TaskIntervals) -> str:
    """`` n=2`` for a defined cell resting on fewer than FEW_QUESTIONS questions, else empty."""
    n = intervals.support.get(column.metric) if run.metric(row.task, column.metric) is not None else None
    return f" n={n}" if n is not None and n < FEW_QUESTIONS else ""


def _table(header: list[str], lines: list[list[str]]) -> list[str]:
    widths = [max(len(cells[i]) for cells in [header, *lines]) for i in range(len(header))]
    return ["  " + "  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip() for cells in [header, *lines]]


def render_summary(run: Run) -> str:
    """The summary tables of the benchmarks ``run`` has tasks of, with their legend; the run's tasks
    without a row are named."""
    out: list[str] = []
    shown: set[str] = set()
    summaries = [benchmark.summary for benchmark in benchmarks.all_benchmarks() if benchmark.summary is not None]
    for summary in summaries:
        rows = summary.rows_of(run)
        shown.update(row.task for row in rows)
        if not rows:
            continue
        random_row = _random_row(summary)
        lines = []
        for row in rows:
            intervals = task_intervals(run, row.task)
            lines.append([row.label] + [f"{_measured(run, row, c, summary.scale)} ({_reference(row, c, random_row, summary.scale)}){_few(run, row, c, intervals)}" for c in summary.columns])
        title = summary.title + (f" (in brackets: the paper's {RANDOM_ROW} row where it prints one)" if random_row else "")
        out += ["", title, *_table([summary.row_header] + [c.header for c in summary.columns], lines)]
        if random_row is not None and random_row.marks:
            out.append(f"  ? {random_row.note}")
    out.append(f"\n* the value a uniform random answer is expected to score; – undefined (e.g. no GT_strict pass); n=…: a cell resting on fewer than {FEW_QUESTIONS} questions (pairs for TC and OCC), which says next to nothing")
    for summary in summaries:
        for task, note in summary.task_notes.items():
            if task in run.tasks:
                shown.add(task)
                out.append(note)
    # a group's entry holds no "metric,filter" key: its tasks are listed themselves
    left_out = [task for task in run.tasks if task not in shown and any("," in key for key in run.results[task])]
    if left_out:
        out.append(f"Not in the summary (no headline row of this kind; see the report's tables): {', '.join(left_out)}")
    return "\n".join(out)


def noise_note(run: Run) -> str:
    """How far sampling alone moves the summary's cells: the range of their 95% intervals' half-widths
    in points, and the widest, over the cells on at least FEW_QUESTIONS questions (those on fewer are
    marked in the table); empty when no cell has an interval (no samples logged)."""
    widths = []
    for benchmark in benchmarks.all_benchmarks():
        for row in benchmark.summary.rows_of(run) if benchmark.summary else []:
            intervals = task_intervals(run, row.task)
            for column in benchmark.summary.columns:
                value = run.metric(row.task, column.metric)
                found = intervals.cell(column.metric, value)[0] if value is not None else None
                n = intervals.support.get(column.metric)
                if found is not None and found.low is not None and found.high is not None and found.high > found.low and (n is None or n >= FEW_QUESTIONS):
                    widths.append((50 * (found.high - found.low), f"{row.label} {column.header}", n))
    if not widths:
        return ""
    half, name, n = max(widths)
    on = f" on {n:,} questions or pairs" if n is not None else ""
    return (
        f"Sampling error alone moves these cells by ±{min(widths)[0]:.0f} to ±{half:.0f} points (half-widths of their 95% "
        f"intervals, docs/uncertainty.md; the widest: {name}{on}); the cells marked n= rest on too few questions to say anything."
    )
