"""Reproduction verdicts: does a measured value reproduce the number a paper printed for the same model?
(docs/uncertainty.md, "Reproduction verdicts")

The published number was computed on the same questions as a faithful re-run, so the question is not the sampling
interval's (how far the score would move on other questions) but whether the two agree up to the published rounding
and the run-to-run nondeterminism of decoding:

- reproduced: the measured value lies within the rounding of the printed one (a printed 58.8 stands for any value in
  [58.75, 58.85));
- close: it differs by at most the benchmark's tolerance beyond that rounding;
- differs: otherwise; where the run's model class is known not to send what the official run sent, naming that
  protocol gap.

Only a full run's row on the release's data is judged, against the published row of its model (and setting). A full
run's row on data that has every count known of the release but no fingerprint of the release to check it against is
marked unverified in those cells instead: shown beside the published value, never judged. Baseline
rows are the exception: the papers' Random row is the expected score of random answers, not a run, so a random
baseline is checked against it with the sampling interval (within/outside).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from temporal_bench import benchmarks
from temporal_bench.benchmarks import Collected
from temporal_bench.published import parse_flags
from temporal_bench.report.layouts import Column, Layout
from temporal_bench.report.model_names import api_version_note, is_baseline, is_model, model_key, nearest, run_key
from temporal_bench.report.rows import FAILED_REQUESTS, MEASURED, OTHER_RULE, PUBLISHED, UNPARSEABLE_ANSWERS, UNVERIFIED_DATA, TableRow, published_rows

REPRODUCED, CLOSE, DIFFERS = "reproduced", "close", "differs"
WITHIN, OUTSIDE = "within", "outside"  # a baseline against an expectation: the sampling interval's check
UNVERIFIED = "unverified"  # no verdict: the run's data has the release's counts, but no fingerprint of the release is recorded
VERDICT_MARKS = {REPRODUCED: "=", CLOSE: "≈", DIFFERS: "≠", WITHIN: "∈", OUTSIDE: "∉", UNVERIFIED: "unverified"}
VERDICT_LEGEND = (
    "Reproduction verdicts on the published cells of a model that a full run's measured row also has "
    "(measured vs published, difference): = reproduced (the measured value is within the published rounding), "
    "≈ close (within the benchmark's tolerance for run-to-run nondeterminism beyond that), ≠ differs (≠ gap: with a known "
    "protocol gap of the run's model class, named below); a "
    "baseline against the paper's Random row, an expectation rather than a run: ∈ / ∉ the published value "
    "within / outside the measured 95% interval, allowing for the published rounding; unverified: no verdict, the run's "
    "data has every count known of the release but no fingerprint of the release is recorded to tell it from a copy "
    "(docs/uncertainty.md)."
)

# Points (hundredths of a metric's fraction: 1 point of accuracy or F1) a faithful greedy re-run may
# differ by, per benchmark (its registry entry's ``tolerance``); the reasons are in docs/uncertainty.md.
DEFAULT_TOLERANCES = Collected(lambda benchmark: [(benchmark.name, benchmark.tolerance)])
FLOAT_SLACK = 1e-9  # published values scaled in floating point (e.g. x 100) are off by ~1e-14


def rounding_half_width(decimals: int) -> float:
    """A value printed with ``decimals`` decimals stands for itself +- this (58.8: [58.75, 58.85)), and the slack of
    floating point."""
    return 0.5 * 10.0**-decimals + FLOAT_SLACK


def within(published: float, decimals: int, low: float, high: float) -> bool:
    """Whether any value the printed ``published`` stands for lies in ``[low, high]``."""
    half = rounding_half_width(decimals)
    return published - half <= high and published + half > low


def classify(published: float, decimals: int, measured: float, tolerance: float) -> str:
    """The verdict on a published value printed with ``decimals`` against the measured one, with
    ``tolerance`` in the same units as both."""
    gap = abs(measured - published)
    half = rounding_half_width(decimals)
    if gap <= half:
        return REPRODUCED
    return CLOSE if gap <= tolerance + half else DIFFERS


def parse_tolerances(values: Sequence[str]) -> dict[str, float]:
    """The tolerances (points) per benchmark from ``--tolerance`` values: ``2`` for every benchmark,
    ``catbench=2`` for one; later values override earlier ones, unnamed benchmarks keep their default."""
    tolerances = dict(DEFAULT_TOLERANCES)
    for value in values:
        name, sep, points = value.rpartition("=")
        if sep and name not in DEFAULT_TOLERANCES:
            raise ValueError(f"--tolerance {value}: unknown benchmark {name!r} (one of {', '.join(DEFAULT_TOLERANCES)})")
        try:
            number = float(points)
        except ValueError:
            raise ValueError(f"--tolerance {value}: {points!r} is not a number of points") from None
        if not number >= 0:
            raise ValueError(f"--tolerance {value}: a tolerance is a number of points, 0 or more")
        for benchmark in [name] if sep else DEFAULT_TOLERANCES:
            tolerances[benchmark] = number
    return tolerances


@dataclass
class Verdict:
    measured: TableRow
    published: TableRow
    column: Column
    kind: str  # REPRODUCED, CLOSE or DIFFERS; WITHIN or OUTSIDE for a baseline row; UNVERIFIED: none of them
    decimals: int  # the published value's printed decimals
    difference: float  # measured - published, printed units
    # DIFFERS: whether the published value is also outside the measured 95% interval (None: no interval)
    beyond_interval: bool | None = None
    gap: str | None = None  # DIFFERS: the known protocol gap of the run's model class for this model


def judged(row: TableRow) -> bool:
    """Whether a measured row is held against the paper: a full run (no ``--limit``) on the release's data (its
    fingerprint) whose every request succeeded with some answer parsed; a baseline's interval check needs only a full run
    of such requests (random answers score their expectation on any questions)."""
    if row.source != MEASURED or row.partial:
        return False
    return not row.data_notes or (is_baseline(row.judged_as or "") and all(mark not in (FAILED_REQUESTS, UNPARSEABLE_ANSWERS) for mark, _, _ in row.data_notes))


def unverified(row: TableRow) -> bool:
    """Whether a measured row would be judged but for its data, which has every count known of the release and no
    fingerprint of the release to check it against: its published cells say unverified."""
    return row.source == MEASURED and not row.partial and bool(row.data_notes) and all(mark == UNVERIFIED_DATA for mark, _, _ in row.data_notes)


def with_published(layout: Layout, rows: Sequence[TableRow]) -> list[tuple[TableRow, TableRow]]:
    """(measured row, published row) for each judged (or unverified) measured row of a model (and setting) the paper
    lists: the model its results files record, whatever ``--label`` named the row, through the benchmark's alias
    tables (temporal_bench/report/model_names.py: an API model's moving alias finds no row)."""
    published: dict[tuple[str | None, str | None], TableRow] = {(model_key(layout.benchmark, r.model), r.setting): r for r in rows if r.source == PUBLISHED}
    keys = {id(row): (run_key(layout.benchmark, row.judged_as) if row.judged_as else None, row.setting) for row in rows if judged(row) or unverified(row)}
    return [(row, published[keys[id(row)]]) for row in rows if keys.get(id(row)) in published]


def other_rule(published: TableRow) -> bool:
    """Whether a published row fits another scoring rule than the measured rows (flagged ``other_rule``): no verdict."""
    return OTHER_RULE in parse_flags(published.flags)


def _verdict(row: TableRow, paper: TableRow, column: Column, decimals: int, points: float, gap: str | None) -> Verdict | None:
    theirs, ours, bounds = paper.values.get(column.key), row.values.get(column.key), row.intervals.get(column.key)
    if theirs is None or ours is None:
        return None
    if is_baseline(row.judged_as or ""):
        # a one-point interval (every draw scores alike, e.g. no success at all) says nothing
        if bounds is None or bounds[0] >= bounds[1]:
            return None
        return Verdict(row, paper, column, WITHIN if within(theirs, decimals, *bounds) else OUTSIDE, decimals, ours - theirs)
    if unverified(row):
        return Verdict(row, paper, column, UNVERIFIED, decimals, ours - theirs)
    kind = classify(theirs, decimals, ours, points * column.scale / 100)
    beyond = None if kind != DIFFERS or bounds is None else not within(theirs, decimals, *bounds)
    return Verdict(row, paper, column, kind, decimals, ours - theirs, beyond, gap if kind == DIFFERS else None)


def verdicts(layout: Layout, rows: Sequence[TableRow], tolerances: dict[str, float] | None = None) -> list[Verdict]:
    """The verdict on each published cell of a model (and setting) that a full-run measured row also
    has, but the cells of a published row that fits another scoring rule (``other_rule``); a cell that differs
    names the known protocol gaps of the measured row's model classes for the published row's model."""
    pairs = [(row, paper) for row, paper in with_published(layout, rows) if not other_rule(paper)]
    if not pairs:
        return []
    decimals = {c.key: layout.published_decimals if layout.published_decimals is not None else c.decimals for c in layout.columns}
    points = (tolerances or DEFAULT_TOLERANCES)[layout.benchmark]
    gaps = benchmarks.get(layout.benchmark).protocol_gaps
    found = []
    for row, paper in pairs:
        gap = "; ".join(gap.text for gap in gaps if gap.applies(paper.model, row.model_classes)) or None
        found += [_verdict(row, paper, c, decimals[c.key], points, gap) for c in layout.columns]
    return [v for v in found if v is not None]


def unmatched_models(benchmark: str, records: dict[str, list[str]]) -> dict[str, str]:
    """Label -> why its run gets no verdict, for each label whose recorded models (``records``: what its results files
    record, which ``--label`` never replaces) are no published model of the benchmark: several models under one label,
    an API model's moving alias or other version with the version the paper evaluated, else the nearest published names."""
    names = [name for name in dict.fromkeys(row.model for layout in benchmarks.get(benchmark).layouts for row in published_rows(layout)) if is_model(benchmark, name)]
    known = {model_key(benchmark, name) for name in names}
    found = {}
    for label, recorded in records.items():
        recorded = recorded or [label]  # a row that read no task records no model
        if len(recorded) > 1:
            found[label] = f"**{label}** names runs whose results files record different models ({', '.join(recorded)}), so it gets no verdict"
            continue
        (model,) = recorded
        if run_key(benchmark, model) not in known:
            shown = f"**{label}**" + (f" (its results file records **{model}**)" if model != label else "")
            found[label] = api_version_note(benchmark, model, shown) or _no_model_line(benchmark, model, names, shown)
    return found


def _no_model_line(benchmark: str, model: str, names: Sequence[str], shown: str) -> str:
    close = nearest(benchmark, model.split(" (", 1)[0], names)
    hint = f"nearest published names: {', '.join(close)}" if close else "no published name is close"
    return f"{shown} is no model the {benchmarks.get(benchmark).title} paper lists, so it gets no verdict ({hint}; a run of one of them records its name as the model, e.g. --model_args model=NAME)"
