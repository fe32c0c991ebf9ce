"""Reproduction verdicts: each published cell of a model held against a full run's measured cell on the
release's data (docs/uncertainty.md); a cell that differs where the run's model class is known not to
send what the official run sent names that protocol gap."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from temporal_bench import benchmarks
from temporal_bench.published import parse_flags
from temporal_bench.report.intervals import within
from temporal_bench.report.layouts import Column, Layout
from temporal_bench.report.model_names import OUR_MODEL_CLASSES, api_version_note, is_baseline, is_model, model_key, nearest, run_key
from temporal_bench.report.reproduction import CLOSE, DEFAULT_TOLERANCES, DIFFERS, OUTSIDE, REPRODUCED, WITHIN, classify
from temporal_bench.report.rows import FAILED_REQUESTS, MEASURED, OTHER_RULE, PUBLISHED, TableRow, bounds_text, build_rows, cell_text, published_rows
from temporal_bench.runs.results import Run


def judged(row: TableRow) -> bool:
    """Whether a measured row is held against the paper: a full run (no ``--limit``) on the release's data (its
    fingerprint, or the paper's counts) whose every request succeeded; a baseline's interval check needs only a full
    run (random answers score their expectation on any questions)."""
    if row.source != MEASURED or row.partial:
        return False
    return not row.data_notes or (is_baseline(row.model) and all(mark != FAILED_REQUESTS for mark, _, _ in row.data_notes))


def _measured_with_published(layout: Layout, rows: Sequence[TableRow]) -> list[tuple[TableRow, TableRow]]:
    """(measured row, published row) for each judged measured row of a model (and setting) the paper
    lists, through the benchmark's alias tables (temporal_bench/report/model_names.py: an API model's
    moving alias finds no row)."""
    published = {(model_key(layout.benchmark, r.model), r.setting): r for r in rows if r.source == PUBLISHED}
    keys = {id(row): (run_key(layout.benchmark, row.model), row.setting) for row in rows if judged(row)}
    return [(row, published[keys[id(row)]]) for row in rows if keys.get(id(row)) in published]


VERDICT_MARKS = {REPRODUCED: "=", CLOSE: "≈", DIFFERS: "≠", WITHIN: "∈", OUTSIDE: "∉"}
VERDICT_LEGEND = (
    "Reproduction verdicts on the published cells of a model that a full run's measured row also has "
    "(measured vs published, difference): = reproduced (the measured value is within the published rounding), "
    "≈ close (within the benchmark's tolerance for run-to-run nondeterminism beyond that), ≠ differs (≠ gap: with a known "
    "protocol gap of the run's model class, named below); a "
    "baseline against the paper's Random row, an expectation rather than a run: ∈ / ∉ the published value "
    "within / outside the measured 95% interval, allowing for the published rounding (docs/uncertainty.md)."
)


@dataclass
class Verdict:
    measured: TableRow
    published: TableRow
    column: Column
    kind: str  # REPRODUCED, CLOSE or DIFFERS; WITHIN or OUTSIDE for a baseline row
    decimals: int  # the published value's printed decimals
    difference: float  # measured - published, printed units
    # DIFFERS: whether the published value is also outside the measured 95% interval (None: no interval)
    beyond_interval: bool | None = None
    gap: str | None = None  # DIFFERS: the known protocol gap of the run's model class for this model


def tolerance_of(layout: Layout, tolerances: dict[str, float] | None) -> float:
    """The layout's benchmark tolerance in points (docs/uncertainty.md)."""
    return (tolerances or DEFAULT_TOLERANCES)[layout.benchmark]


def _verdict(row: TableRow, paper: TableRow, column: Column, decimals: int, points: float, gap: str | None) -> Verdict | None:
    theirs, ours, bounds = paper.values.get(column.key), row.values.get(column.key), row.intervals.get(column.key)
    if theirs is None or ours is None:
        return None
    if is_baseline(row.model):
        # a one-point interval (every draw scores alike, e.g. no success at all) says nothing
        if bounds is None or bounds[0] >= bounds[1]:
            return None
        return Verdict(row, paper, column, WITHIN if within(theirs, decimals, *bounds) else OUTSIDE, decimals, ours - theirs)
    kind = classify(theirs, decimals, ours, points * column.scale / 100)
    beyond = None if kind != DIFFERS or bounds is None else not within(theirs, decimals, *bounds)
    return Verdict(row, paper, column, kind, decimals, ours - theirs, beyond, gap if kind == DIFFERS else None)


def protocol_gap(layout: Layout, row: TableRow, paper: TableRow) -> str | None:
    """The known protocol gaps of the measured row's model classes for the published row's model."""
    gaps = [gap.text for gap in benchmarks.get(layout.benchmark).protocol_gaps if gap.applies(paper.model, row.model_classes)]
    return "; ".join(gaps) or None


def _other_rule(published: TableRow) -> bool:
    return OTHER_RULE in parse_flags(published.flags)


def other_rule_rows(layout: Layout, rows: Sequence[TableRow]) -> list[str]:
    """One line per full-run measured row whose published row fits another scoring rule than the
    measured one (flagged ``other_rule``): no verdict, and why."""
    return [f"- {row.label}: its published row fits another scoring rule than the measured row (the flagged published cells above say which)" for row, paper in _measured_with_published(layout, rows) if _other_rule(paper)]


def verdicts(layout: Layout, rows: Sequence[TableRow], tolerances: dict[str, float] | None = None) -> list[Verdict]:
    """The verdict on each published cell of a model (and setting) that a full-run measured row also
    has, but the cells of a published row that fits another scoring rule (``other_rule``)."""
    pairs = [(row, paper) for row, paper in _measured_with_published(layout, rows) if not _other_rule(paper)]
    if not pairs:
        return []
    decimals = {c.key: layout.published_decimals if layout.published_decimals is not None else c.decimals for c in layout.columns}
    points = tolerance_of(layout, tolerances)
    found = [_verdict(row, paper, c, decimals[c.key], points, protocol_gap(layout, row, paper)) for row, paper in pairs for c in layout.columns]
    return [v for v in found if v is not None]


def _counts(found: Sequence[Verdict], kinds: Sequence[str]) -> str:
    return ", ".join(f"{sum(v.kind == kind for v in found)} {kind}" for kind in kinds)


def verdict_line(found: Sequence[Verdict], points: float) -> str:
    """How the table's published cells fared: reproduction verdicts, then the baselines' interval checks."""
    runs = [v for v in found if v.kind in (REPRODUCED, CLOSE, DIFFERS)]
    baselines = [v for v in found if v.kind in (WITHIN, OUTSIDE)]
    parts = []
    if runs:
        parts.append(f"{_counts(runs, (REPRODUCED, CLOSE, DIFFERS))} of {len(runs)} published cells (tolerance {points:g} point{'s' if points != 1 else ''})")
    if baselines:
        inside = sum(v.kind == WITHIN for v in baselines)
        parts.append(f"baseline against the Random row: {inside} of {len(baselines)} cells within the 95% interval")
    return "; ".join(parts)


def _difference(v: Verdict) -> str:
    """A cell that is not reproduced: measured vs published, the difference, and for one that differs
    whether the published value is also outside the measured 95% interval."""
    theirs = cell_text(v.published.values[v.column.key], v.decimals, PUBLISHED)
    if v.kind == OUTSIDE:
        return f"{v.column.header} {theirs} vs {bounds_text(v.measured.intervals[v.column.key], v.decimals)}"
    ours = cell_text(v.measured.values[v.column.key], v.decimals + 1, PUBLISHED)  # a decimal more: the gap shows
    interval = {None: "", True: ", also outside the 95% interval", False: ", within the 95% interval"}[v.beyond_interval]
    return f"{v.column.header} {ours} vs {theirs} ({v.difference:+.{v.decimals + 1}f}{interval})"


def verdict_details(found: Sequence[Verdict]) -> list[str]:
    """Per measured row: its counts, then each cell not reproduced (close, differs; a baseline's outside)."""
    out = []
    for row in {id(v.measured): v.measured for v in found}.values():
        mine = [v for v in found if v.measured is row]
        if is_baseline(row.model):
            parts = [f"{sum(v.kind == WITHIN for v in mine)} of {len(mine)} within"]
            kinds = (OUTSIDE,)
        else:
            parts = [_counts(mine, (REPRODUCED, CLOSE, DIFFERS))]
            kinds = (CLOSE, DIFFERS)
        for kind in kinds:
            for gap in dict.fromkeys(v.gap for v in mine if v.kind == kind):
                cells = [_difference(v) for v in mine if v.kind == kind and v.gap == gap]
                parts.append(f"{kind}{f'; known protocol gap: {gap}' if gap else ''}: {'; '.join(cells)}")
        out.append(f"- {row.label}: " + "; ".join(parts))
    return out


def verdict_marks(found: Sequence[Verdict]) -> dict[tuple[int, str], str]:
    """(published row, column key) -> mark; every mark where measured rows of the model disagree; a
    cell that differs with a known protocol gap is marked ``≠ gap``."""
    by_cell: dict[tuple[int, str], set[str]] = {}
    for v in found:
        by_cell.setdefault((id(v.published), v.column.key), set()).add(f"{v.kind} gap" if v.gap else v.kind)
    marks = {**VERDICT_MARKS, f"{DIFFERS} gap": f"{VERDICT_MARKS[DIFFERS]} gap"}
    return {cell: "".join(mark for kind, mark in marks.items() if kind in kinds) for cell, kinds in by_cell.items()}


def published_models(benchmark: str) -> list[str]:
    """Every model name of the benchmark's published tables (no baseline, human or average row)."""
    names = (row.model for layout in benchmarks.get(benchmark).layouts for row in published_rows(layout))
    return [name for name in dict.fromkeys(names) if is_model(benchmark, name)]


def unmatched_models(runs: Sequence[Run], layouts: Sequence[Layout]) -> list[str]:
    """One line per (judged run, benchmark of the layouts) whose model is no published model of the
    benchmark: an API model's moving alias or other version with the version the paper evaluated,
    else the nearest published names; this package's baseline and test models are no paper's and
    are not named."""
    lines = []
    for benchmark in dict.fromkeys(layout.benchmark for layout in layouts):
        names = published_models(benchmark)
        known = {model_key(benchmark, name) for name in names}
        shown = [layout for layout in layouts if layout.benchmark == benchmark]
        for run in (run for run in runs if not {run.model_class(task) for task in run.tasks} <= set(OUR_MODEL_CLASSES)):
            rows = [row for layout in shown for row in build_rows(layout, [run], include_published=False)]
            if rows and any(judged(row) and not is_baseline(row.model) for row in rows) and run_key(benchmark, run.label) not in known:
                lines.append(f"- {api_version_note(benchmark, run.label) or _no_model_line(benchmark, run.label, names)}")
    return lines


def _no_model_line(benchmark: str, label: str, names: Sequence[str]) -> str:
    close = nearest(benchmark, label.split(" (", 1)[0], names)
    hint = f"nearest published names: {', '.join(close)}" if close else "no published name is close"
    return f"**{label}** is no model the {benchmarks.get(benchmark).title} paper lists, so it gets no verdict ({hint}; if it is one of them, name the run with --label)"


def verdict_summary(runs: Sequence[Run], layouts: Sequence[Layout], include_published: bool = True, tolerances: dict[str, float] | None = None) -> str:
    """The report's closing section: one verdict line per table that has verdicts, then the runs whose
    model the papers do not list (with the nearest published names)."""
    lines = []
    for layout in layouts:
        found = verdicts(layout, build_rows(layout, runs, include_published), tolerances)
        if found:
            lines.append(f"- {layout.title}: {verdict_line(found, tolerance_of(layout, tolerances))}.")
    unmatched = unmatched_models(runs, layouts) if include_published else []
    if not lines and not unmatched:
        return ""
    return "\n## Reproduction verdicts\n\n" + "\n".join(lines + unmatched) + "\n"
