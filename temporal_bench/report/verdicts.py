"""Reproduction verdicts: each published cell of a model held against a full run's measured cell (docs/uncertainty.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from temporal_bench.report.intervals import within
from temporal_bench.report.layouts import Column, Layout
from temporal_bench.report.reproduction import CLOSE, DEFAULT_TOLERANCES, DIFFERS, OUTSIDE, REPRODUCED, WITHIN, classify
from temporal_bench.report.rows import MEASURED, PUBLISHED, TableRow, bounds_text, build_rows, cell_text
from temporal_bench.runs.results import Run

# our baselines (by the model name that starts a run label) -> the published row they reproduce:
# TempVS Table 3's Random row is what a uniform random answer scores, which random_choice gives
PAPER_ROW_OF_BASELINE = {"random_choice": "Random"}


def _same_model(name: str) -> str:
    """Model names compared without case and punctuation (the TempVS release's ``GPT4o`` folder is
    the paper's ``GPT-4o``); a baseline run, e.g. ``random_choice (seed=1)``, as the row it reproduces."""
    name = PAPER_ROW_OF_BASELINE.get(name.split(" (", 1)[0], name)
    return re.sub(r"[^0-9a-z]", "", name.lower())


def is_baseline(name: str) -> bool:
    return name.split(" (", 1)[0] in PAPER_ROW_OF_BASELINE


def _measured_with_published(rows: Sequence[TableRow]) -> list[tuple[TableRow, TableRow]]:
    """(measured row, published row) for each full-run measured row of a model (and setting) the
    paper lists; a partial run's row (``--limit``) is never held against the paper."""
    published = {(_same_model(r.model), r.setting): r for r in rows if r.source == PUBLISHED}
    return [(row, published[_same_model(row.model), row.setting]) for row in rows if row.source == MEASURED and not row.partial and (_same_model(row.model), row.setting) in published]


VERDICT_MARKS = {REPRODUCED: "=", CLOSE: "≈", DIFFERS: "≠", WITHIN: "∈", OUTSIDE: "∉"}
VERDICT_LEGEND = (
    "Reproduction verdicts on the published cells of a model that a full run's measured row also has "
    "(measured vs published, difference): = reproduced (the measured value is within the published rounding), "
    "≈ close (within the benchmark's tolerance for run-to-run nondeterminism beyond that), ≠ differs; a "
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


def tolerance_of(layout: Layout, tolerances: dict[str, float] | None) -> float:
    """The layout's benchmark tolerance in points (docs/uncertainty.md)."""
    return (tolerances or DEFAULT_TOLERANCES)[layout.benchmark]


def _verdict(row: TableRow, paper: TableRow, column: Column, decimals: int, points: float) -> Verdict | None:
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
    return Verdict(row, paper, column, kind, decimals, ours - theirs, beyond)


def verdicts(layout: Layout, rows: Sequence[TableRow], tolerances: dict[str, float] | None = None) -> list[Verdict]:
    """The verdict on each published cell of a model (and setting) that a full-run measured row also has."""
    pairs = _measured_with_published(rows)
    if not pairs:
        return []
    decimals = {c.key: layout.published_decimals if layout.published_decimals is not None else c.decimals for c in layout.columns}
    points = tolerance_of(layout, tolerances)
    found = [_verdict(row, paper, c, decimals[c.key], points) for row, paper in pairs for c in layout.columns]
    return [v for v in found if v is not None]


def _counts(found: Sequence[Verdict], kinds: Sequence[str]) -> str:
    return ", ".join(f"{sum(v.kind == kind for v in found)} {kind}" for kind in kinds)


def verdict_line(found: Sequence[Verdict], points: float) -> str:
    """How the table's published cells fared: reproduction verdicts, then the baselines' interval checks."""
    runs = [v for v in found if v.kind in (REPRODUCED, CLOSE, DIFFERS)]
    baselines = [v for v in found if v.kind in (WITHIN, OUTSIDE)]
    parts = []
    if runs:
        parts.append(f"{_counts(runs, (REPRODUCED, CLOSE, DIFFERS))} of {len(runs)} published cells " f"(tolerance {points:g} point{'s' if points != 1 else ''})")
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
            cells = [_difference(v) for v in mine if v.kind == kind]
            if cells:
                parts.append(f"{kind}: {'; '.join(cells)}")
        out.append(f"- {row.label}: " + "; ".join(parts))
    return out


def verdict_marks(found: Sequence[Verdict]) -> dict[tuple[int, str], str]:
    """(published row, column key) -> mark; every mark where measured rows of the model disagree."""
    by_cell: dict[tuple[int, str], set[str]] = {}
    for v in found:
        by_cell.setdefault((id(v.published), v.column.key), set()).add(v.kind)
    return {cell: "".join(mark for kind, mark in VERDICT_MARKS.items() if kind in kinds) for cell, kinds in by_cell.items()}


def verdict_summary(runs: Sequence[Run], layouts: Sequence[Layout], include_published: bool = True, tolerances: dict[str, float] | None = None) -> str:
    """The report's closing section: one verdict line per table that has verdicts."""
    lines = []
    for layout in layouts:
        found = verdicts(layout, build_rows(layout, runs, include_published), tolerances)
        if found:
            lines.append(f"- {layout.title}: {verdict_line(found, tolerance_of(layout, tolerances))}.")
    if not lines:
        return ""
    return "\n## Reproduction verdicts\n\n" + "\n".join(lines) + "\n"
