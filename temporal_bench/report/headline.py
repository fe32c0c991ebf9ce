"""A run's headline metrics, one compact table per benchmark, beside what random answers score.

Each cell is ``measured (reference)``. The reference is the paper's Random row where the paper
prints one (TempVS Table 3: GT_strict and MT of each main test), else, marked ``*``, the value a
uniform random answer is expected to score (TempVS GT: one of a sequence's five images; GT_strict:
every grounding question of the main question right; CaT-Bench and ISO-Bench: a yes/no coin on
balanced classes). The demo prints it for its random_choice run (temporal_bench/demo.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from temporal_bench.report.layouts import LAYOUTS, TEMPVS_METRICS, TEMPVS_TESTS
from temporal_bench.report.rows import published_rows
from temporal_bench.runs.results import Run
from temporal_bench.tempvs.spec import SUITE_GROUNDING_TASK

RANDOM_ROW = "Random"  # the model name of the papers' random baseline rows


@dataclass(frozen=True)
class Headline:
    header: str
    metric: str  # metric key in the results JSON
    scale: float = 1.0  # harness value (a fraction) x scale = printed unit
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

    def rows_of(self, run: Run) -> list[Row]:
        """The summary's rows ``run`` has, then one per other task of the run named ``task_prefix...``."""
        rows = [row for row in self.rows if row.task in run.results]
        if self.task_prefix:
            listed = {row.task for row in self.rows}
            chance = self.rows[0].chance
            rows += [Row(task, task, chance) for task in run.tasks if task.startswith(self.task_prefix) and task not in listed]
        return rows


def _tempvs_row(prefix: str, label: str, task: str) -> Row:
    two_options = prefix in ("two_event", "three_event")  # MT1: A/B; MT2, MT3: five orders A-E
    mt = 0.5 if two_options else 0.2
    partners = {"two_event": 2, "three_event": 3}.get(prefix, 5)  # MT2, MT3: every image of the sequence
    chance = {"gt_acc": 0.2, "gtstrict_rate": 0.2 ** partners, "mt_acc": mt, "mt_given_gtstrict": mt, "invalid_rate": 0.0}
    published = {metric: f"{prefix}_{suffix}" for suffix, (_, metric) in TEMPVS_METRICS.items()}
    return Row(label, task, chance, published)


IMAGES_ONLY_ROW = Row("MT3 images only", "tempvs_mt3_images_only",  # Table 19: MT alone (no text, no grounding)
                      {"gt_acc": 0.2, "gtstrict_rate": 0.2 ** 5, "mt_acc": 0.2, "mt_given_gtstrict": 0.2, "invalid_rate": 0.0})


def _cot_row(row: Row) -> Row:
    """The CoT variant of a TempVS test (Table 6): the same chance values; the paper prints Random for standard prompts."""
    return Row(f"{row.label} CoT", f"{row.task}_cot", row.chance)


_YES_NO = {"f1_macro": 0.5, "f1_dep": 0.5, "f1_nondep": 0.5, "f1_weighted": 0.5, "tc": 0.5, "occ": 0.5,
           "invalid_rate": 0.0, "coverage": 1.0}

SUMMARIES = (
    Summary(
        "CaT-Bench",
        (Headline("macro F1", "f1_macro"), Headline("Dep F1", "f1_dep"), Headline("NonDep F1", "f1_nondep"),
         Headline("TC %", "tc", 100.0, 1), Headline("OCC %", "occ", 100.0, 1), Headline("invalid", "invalid_rate")),
        tuple(Row(task, task, _YES_NO) for task in ("catbench_switched", "catbench")),
        task_prefix="catbench",
    ),
    Summary(
        "ISO-Bench",
        (Headline("weighted F1", "f1_weighted"), Headline("macro F1", "f1_macro"), Headline("coverage", "coverage")),
        (Row("isobench", "isobench", _YES_NO),),
        task_prefix="isobench",
    ),
    Summary(
        "TempVS, %",
        (Headline("GT", "gt_acc", 100.0, 1), Headline("GT_strict", "gtstrict_rate", 100.0, 1),
         Headline("MT", "mt_acc", 100.0, 1), Headline("MT|GT_strict", "mt_given_gtstrict", 100.0, 1),
         Headline("invalid", "invalid_rate", 100.0, 1)),
        tuple(_tempvs_row(prefix, label, task) for prefix, (label, task) in TEMPVS_TESTS.items())
        + tuple(_cot_row(_tempvs_row(prefix, label, task)) for prefix, (label, task) in TEMPVS_TESTS.items()) + (IMAGES_ONLY_ROW,),
        published_layout="tempvs-table3",
        row_header="test",
    ),
)


def _random_row(summary: Summary):
    if summary.published_layout is None:
        return None
    return next(row for row in published_rows(LAYOUTS[summary.published_layout]) if row.model == RANDOM_ROW)


def _reference(row: Row, column: Headline, random_row) -> str:
    key = row.published.get(column.metric)
    if random_row is not None and key and random_row.values.get(key) is not None:
        return f"{random_row.values[key]:g}{random_row.marks.get(key, '')}"
    return f"{row.chance[column.metric] * column.scale:g}*"


def _measured(run: Run, row: Row, column: Headline) -> str:
    value = run.metric(row.task, column.metric)
    return "–" if value is None else f"{value * column.scale:.{column.decimals}f}"


def _table(header: list[str], lines: list[list[str]]) -> list[str]:
    widths = [max(len(cells[i]) for cells in [header, *lines]) for i in range(len(header))]
    return ["  " + "  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip() for cells in [header, *lines]]


def render_summary(run: Run) -> str:
    """The summary tables of the benchmarks ``run`` has tasks of, with their legend; the run's tasks
    without a row are named."""
    out, shown = [], set()
    for summary in SUMMARIES:
        rows = summary.rows_of(run)
        shown.update(row.task for row in rows)
        if not rows:
            continue
        random_row = _random_row(summary)
        lines = [[row.label] + [f"{_measured(run, row, c)} ({_reference(row, c, random_row)})" for c in summary.columns]
                 for row in rows]
        title = summary.title + (f" (in brackets: the paper's {RANDOM_ROW} row where it prints one)" if random_row else "")
        out += ["", title, *_table([summary.row_header] + [c.header for c in summary.columns], lines)]
        if random_row is not None and random_row.marks:
            out.append(f"  ? {random_row.note}")
    out.append("\n* the value a uniform random answer is expected to score; – undefined (e.g. no GT_strict pass)")
    if SUITE_GROUNDING_TASK in run.tasks:  # --tasks tempvs asks each distinct grounding question once, for every test
        shown.add(SUITE_GROUNDING_TASK)
        out.append(f"GT of the tests of --tasks tempvs: the grounding questions {SUITE_GROUNDING_TASK} asked, each distinct one once")
    # a group's entry holds no "metric,filter" key: its tasks are listed themselves
    left_out = [task for task in run.tasks if task not in shown and any("," in key for key in run.results[task])]
    if left_out:
        out.append(f"Not in the summary (no headline row of this kind; see the report's tables): {', '.join(left_out)}")
    return "\n".join(out)
