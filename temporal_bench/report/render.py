"""Render measured runs next to the published rows of a paper table (markdown or CSV)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from temporal_bench.published import load_table, parse_flags
from temporal_bench.report.bootstrap import FEW_CLUSTERS
from temporal_bench.report.cluster_stats import cluster_stats_of as benchmark_of
from temporal_bench.report.intervals import cell_interval, within
from temporal_bench.report.layouts import Column, Layout, Setting
from temporal_bench.report.reproduction import CLOSE, DEFAULT_TOLERANCES, DIFFERS, OUTSIDE, REPRODUCED, WITHIN, classify
from temporal_bench.report.results import Limit, Run

PUBLISHED = "published"
MEASURED = "measured"

# cell markers for flagged published cells (see temporal_bench/published/__init__.py)
CELL_MARKS = {"typo": "*", "ocr_uncertain": "?", "suspect": "?"}
ROW_MARKS = {"dagger": "†"}


@dataclass
class TableRow:
    source: str  # PUBLISHED or MEASURED
    model: str
    setting: str | None
    values: dict[str, float | None]  # printed units
    marks: dict[str, str] = field(default_factory=dict)  # column key -> marker
    row_mark: str = ""
    note: str = ""  # published: the paper row's note
    tasks: dict[str, str] = field(
        default_factory=dict
    )  # measured: setting label -> task used
    missing: list[str] = field(
        default_factory=list
    )  # measured: what could not be filled
    flags: str = ""  # published: the paper row's flags, as in the published CSV
    intervals: dict[str, tuple[float, float]] = field(
        default_factory=dict
    )  # measured: column key -> 95% interval (printed units)
    no_interval: list[str] = field(
        default_factory=list
    )  # measured: why cells that could have an interval have none
    few_clusters: dict[str, int] = field(
        default_factory=dict
    )  # measured: task -> its clusters, where fewer than FEW_CLUSTERS
    partial: dict[str, Limit] = field(default_factory=dict)  # measured: task -> how its run left out docs (--limit)
    set_aside: list[str] = field(default_factory=list)  # measured: Run.sources_note of its tasks that several files hold

    @property
    def label(self) -> str:
        """The row's model as the notes name it (bold for a measured row), with its setting."""
        name = f"**{self.model}**" if self.source == MEASURED else self.model
        return name + (f" ({self.setting})" if self.setting else "")


def _use_task(row: TableRow, run: Run, task: str | None) -> None:
    """Note on the row where the values of ``task`` came from: a partial run, other files set aside."""
    if task is None:
        return
    if task in run.partial:
        row.partial[task] = run.partial[task]
    note = run.sources_note(task)
    if note and note not in row.set_aside:
        row.set_aside.append(note)


def _matching_tasks(run: Run, patterns: Sequence[str]) -> list[str]:
    out: list[str] = []
    for pattern in patterns:
        out.extend(t for t in run.tasks if fnmatchcase(t, pattern) and t not in out)
    return out


def _sampled_as(run: Run, task: str, sampling: tuple[int, float] | None) -> bool:
    """Whether the task's recorded (k, T) is ``sampling`` (always, for a setting without one)."""
    if sampling is None:
        return True
    k, t = run.sampling(task)
    return k is not None and t is not None and (int(k), float(t)) == sampling


def resolve_setting(run: Run, setting: Setting) -> list[str]:
    """The run's tasks for a setting: those of the first task group present in the run (and
    recorded with the setting's sampling, if it names one)."""
    for group in setting.tasks:
        found = [t for t in _matching_tasks(run, group) if _sampled_as(run, t, setting.sampling)]
        if found:
            return found
    return []


def unplaced_tasks(layout: Layout, run: Run) -> list[str]:
    """Tasks that match a sampling setting's names but whose recorded (k, T) fits none of them."""
    sampled = [s for s in layout.settings if s.sampling is not None]
    candidates = {t for s in sampled for group in s.tasks for t in _matching_tasks(run, group)}
    out = []
    for task in sorted(candidates):
        if not any(_sampled_as(run, task, s.sampling) for s in sampled):
            k, t = run.sampling(task)
            out.append(f"`{task}` recorded k={k}, T={t}: not a setting of this table")
    return out


def _fill(
    run: Run, setting: Setting, tasks: list[str], column
) -> tuple[float | None, str | None]:
    """The first numeric value among the tasks; else (None, task) when a task reports the metric
    as undefined (null, e.g. MT|GT_strict without GT_strict passes); else (None, None)."""
    for task in tasks:
        value = run.metric(task, column.metric, setting.filters)
        if value is not None:
            return value * column.scale, task
    return None, next((t for t in tasks if run.undefined(t, column.metric)), None)


def _attach_interval(
    row: TableRow, run: Run, column: Column, task: str | None, value: float | None
) -> None:
    if task is None or value is None:
        return
    found, why = cell_interval(run, task, column.metric, value / column.scale)
    if found is not None:
        row.intervals[column.key] = (found.low * column.scale, found.high * column.scale)
        if found.clusters < FEW_CLUSTERS:
            row.few_clusters[task] = found.clusters
    elif why and why not in row.no_interval:
        row.no_interval.append(why)


def _patterns(setting: Setting) -> str:
    names = ", ".join(p for group in setting.tasks for p in group)
    if setting.sampling is None:
        return names
    return f"{names} recorded with k={setting.sampling[0]}, T={setting.sampling[1]}"


def measured_rows(layout: Layout, run: Run) -> list[TableRow]:
    """The rows one run contributes to a layout (none when it ran none of the layout's tasks)."""
    rows: list[TableRow] = []
    if layout.rows == "setting":
        for setting in layout.settings:
            tasks = resolve_setting(run, setting)
            if not tasks:
                continue
            row = TableRow(MEASURED, run.label, setting.label, {})
            used = []
            for column in layout.columns:
                value, task = _fill(run, setting, tasks, column)
                row.values[column.key] = value
                _attach_interval(row, run, column, task, value)
                row.missing += _missing(column, tasks, value, task)
                _use_task(row, run, task)
                if task is not None and task not in used:
                    used.append(task)
            row.tasks[setting.label] = ", ".join(used) or ", ".join(tasks)
            rows.append(row)
        return rows
    resolved = {s.label: resolve_setting(run, s) for s in layout.settings}
    if not any(resolved.values()):
        return rows
    row = TableRow(MEASURED, run.label, None, {})
    for setting in layout.settings:
        if not resolved[setting.label]:
            row.missing.append(
                f"{setting.label}: not run (no task matching {_patterns(setting)})"
            )
    for column in layout.columns:
        setting = layout.setting(column.setting)
        tasks = resolved[setting.label]
        value, task = _fill(run, setting, tasks, column) if tasks else (None, None)
        _use_task(row, run, task)
        if column.minus is not None:  # a difference of two cells: no interval of its own
            baseline = layout.setting(column.minus)
            base, base_task = _fill(run, baseline, resolved[baseline.label], column)
            _use_task(row, run, base_task)
            row.values[column.key] = None if value is None or base is None else value - base
            continue
        row.values[column.key] = value
        _attach_interval(row, run, column, task, value)
        if tasks:
            row.missing += _missing(column, tasks, value, task)
        if task is not None:
            used = row.tasks.setdefault(setting.label, "")
            if task not in used.split(", "):
                row.tasks[setting.label] = f"{used}, {task}" if used else task
    return [row]


def _missing(column, tasks: list[str], value: float | None, task: str | None) -> list[str]:
    """The note for a measured cell left empty: the metric is absent, or reported as null."""
    if task is None:
        return [f"`{column.metric}` ({column.header}) not in {', '.join(tasks)}"]
    if value is None:
        return [f"`{column.metric}` ({column.header}) undefined (null) in {task}"]
    return []


def unrun_settings(layout: Layout, run: Run) -> list[str]:
    """Settings of a per-setting layout that the run has no task for."""
    if layout.rows != "setting":
        return []
    return [s.label for s in layout.settings if not resolve_setting(run, s)]


def published_rows(layout: Layout) -> list[TableRow]:
    if layout.published is None:
        return []
    printed = (
        layout.published_rows()
        if layout.published_rows
        else load_table(*layout.published).rows
    )
    rows = []
    for raw in printed:
        model = (
            raw.get(layout.published_model_column)
            if layout.published_model_column
            else layout.published_model
        )
        setting = None
        if layout.rows == "setting":
            setting = (
                raw.get(layout.published_setting_column)
                if layout.published_setting_column
                else None
            )
            setting = setting or "–"
        values = {c.key: raw.get(c.key) for c in layout.columns}
        flags = parse_flags(raw.get("flags"))
        marks = {}
        for column in layout.columns:  # in column order, so the output is deterministic
            for kind in sorted(flags):
                if (
                    column.key in flags[kind]
                    and kind in CELL_MARKS
                    and CELL_MARKS[kind] not in marks.get(column.key, "")
                ):
                    marks[column.key] = marks.get(column.key, "") + CELL_MARKS[kind]
        row_mark = "".join(ROW_MARKS[k] for k in sorted(flags) if k in ROW_MARKS)
        rows.append(
            TableRow(
                PUBLISHED,
                str(model),
                setting,
                values,
                marks,
                row_mark,
                raw.get("note") or "",
                flags=raw.get("flags") or "",
            )
        )
    return rows


def build_rows(
    layout: Layout, runs: Iterable[Run], include_published: bool = True
) -> list[TableRow]:
    rows = published_rows(layout) if include_published else []
    for run in runs:
        rows.extend(measured_rows(layout, run))
    if layout.rank_by:
        # stable: ties keep published (paper order) before measured (run order)
        rows.sort(key=lambda r: _rank_key(layout, r))
    return rows


def rank_value(layout: Layout, row: TableRow) -> float | None:
    """The row's ranking value: its ``rank_by`` column, or the mean of several (None if one is missing)."""
    keys = (layout.rank_by,) if isinstance(layout.rank_by, str) else layout.rank_by
    values = [row.values.get(k) for k in keys or ()]
    if not values or any(v is None for v in values):
        return None
    return sum(values) / len(values)


def _rank_key(layout: Layout, row: TableRow) -> tuple[bool, float]:
    value = rank_value(layout, row)
    return (value is None, -(value or 0.0))


# our baselines (by the model name that starts a run label) -> the published row they reproduce:
# TempVS Table 3's Random row is what a uniform random answer scores, which random_choice gives
PAPER_ROW_OF_BASELINE = {"random_choice": "Random"}


def _same_model(name: str) -> str:
    """Model names compared without case and punctuation (the TempVS release's ``GPT4o`` folder is
    the paper's ``GPT-4o``); a baseline run, e.g. ``random_choice (seed=1)``, as the row it reproduces."""
    name = PAPER_ROW_OF_BASELINE.get(name.split(" (", 1)[0], name)
    return re.sub(r"[^0-9a-z]", "", name.lower())


def _is_baseline(name: str) -> bool:
    return name.split(" (", 1)[0] in PAPER_ROW_OF_BASELINE


def _measured_with_published(rows: Sequence[TableRow]) -> list[tuple[TableRow, TableRow]]:
    """(measured row, published row) for each full-run measured row of a model (and setting) the
    paper lists; a partial run's row (``--limit``) is never held against the paper."""
    published = {(_same_model(r.model), r.setting): r for r in rows if r.source == PUBLISHED}
    return [(row, published[_same_model(row.model), row.setting]) for row in rows
            if row.source == MEASURED and not row.partial and (_same_model(row.model), row.setting) in published]


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
    if _is_baseline(row.model):
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
        parts.append(f"{_counts(runs, (REPRODUCED, CLOSE, DIFFERS))} of {len(runs)} published cells "
                     f"(tolerance {points:g} point{'s' if points != 1 else ''})")
    if baselines:
        inside = sum(v.kind == WITHIN for v in baselines)
        parts.append(f"baseline against the Random row: {inside} of {len(baselines)} cells within the 95% interval")
    return "; ".join(parts)


def _difference(v: Verdict) -> str:
    """A cell that is not reproduced: measured vs published, the difference, and for one that differs
    whether the published value is also outside the measured 95% interval."""
    theirs = _cell(v.published.values[v.column.key], v.decimals, PUBLISHED)
    if v.kind == OUTSIDE:
        return f"{v.column.header} {theirs} vs {_bounds(v.measured.intervals[v.column.key], v.decimals)}"
    ours = _cell(v.measured.values[v.column.key], v.decimals + 1, PUBLISHED)  # a decimal more: the gap shows
    interval = {None: "", True: ", also outside the 95% interval", False: ", within the 95% interval"}[v.beyond_interval]
    return f"{v.column.header} {ours} vs {theirs} ({v.difference:+.{v.decimals + 1}f}{interval})"


def _verdict_details(found: Sequence[Verdict]) -> list[str]:
    """Per measured row: its counts, then each cell not reproduced (close, differs; a baseline's outside)."""
    out = []
    for row in {id(v.measured): v.measured for v in found}.values():
        mine = [v for v in found if v.measured is row]
        if _is_baseline(row.model):
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


def _verdict_marks(found: Sequence[Verdict]) -> dict[tuple[int, str], str]:
    """(published row, column key) -> mark; every mark where measured rows of the model disagree."""
    by_cell: dict[tuple[int, str], set[str]] = {}
    for v in found:
        by_cell.setdefault((id(v.published), v.column.key), set()).add(v.kind)
    return {cell: "".join(mark for kind, mark in VERDICT_MARKS.items() if kind in kinds) for cell, kinds in by_cell.items()}


def _bounds(bounds: tuple[float, float], decimals: int) -> str:
    return f"[{bounds[0]:.{decimals}f}, {bounds[1]:.{decimals}f}]"


def _decimals(layout: Layout) -> dict[str, int]:
    return {c.key: c.decimals for c in layout.columns}


def _cell(value: float | None, decimals: int, source: str) -> str:
    if value is None:
        return "-" if source == PUBLISHED else "–"
    return f"{value:.{decimals}f}"


def _provenance(layout: Layout) -> str:
    if layout.published is None:
        return ""
    meta = load_table(*layout.published).meta
    paper = meta.get("paper", "")
    arxiv = meta.get("arxiv", "")
    arxiv = f" (arXiv {arxiv})" if arxiv and arxiv[0].isdigit() else ""
    table = meta.get("table", layout.published[1])
    tables = (
        f"Tables {table.replace('_', ' and ')}" if "_" in table else f"Table {table}"
    )
    return f"{paper}{arxiv}, {tables}"


def _partial_flags(row: TableRow) -> str:
    return ", ".join(dict.fromkeys(limit.flags for limit in row.partial.values()))


def render_markdown(
    layout: Layout, runs: Sequence[Run], include_published: bool = True, tolerances: dict[str, float] | None = None
) -> str:
    rows = build_rows(layout, runs, include_published)
    decimals = _decimals(layout)
    found = verdicts(layout, rows, tolerances)
    verdict_marks = _verdict_marks(found)
    title = layout.title + (" (provisional)" if layout.provisional else "")
    out = [f"## {title}", ""]
    head = (
        (["#"] if layout.rank_by else [])
        + ["model"]
        + (["setting"] if layout.rows == "setting" else [])
    )
    head += ["source"] + [c.header for c in layout.columns]
    align = (["--:"] if layout.rank_by else []) + ["---"] * (
        len(head) - len(layout.columns) - bool(layout.rank_by)
    )
    align += ["--:"] * len(layout.columns)
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(align) + "|")
    for i, row in enumerate(rows, 1):
        model = (
            f"**{row.model}**" if row.source == MEASURED else row.model + row.row_mark
        )
        if row.partial:
            model += f" (partial: {_partial_flags(row)})"
        cells = ([str(i)] if layout.rank_by else []) + [model]
        if layout.rows == "setting":
            cells.append(row.setting or "")
        cells.append(row.source)
        for c in layout.columns:
            text = _cell(row.values.get(c.key), decimals[c.key], row.source)
            if c.key in row.intervals:
                text += " " + _bounds(row.intervals[c.key], decimals[c.key])
            mark = verdict_marks.get((id(row), c.key))
            cells.append(text + row.marks.get(c.key, "") + (f" {mark}" if mark else ""))
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    if isinstance(layout.rank_by, str):
        header = {c.key: c.header for c in layout.columns}[layout.rank_by]
        out.append(f"Ranked by {header}, highest first.")
    if include_published and layout.published:
        out.append(f"Published rows: {_provenance(layout)}, as printed.")
    measured = [r for r in rows if r.source == MEASURED]
    out.append(
        f"Measured rows (bold): {len(measured)} from the results files listed below."
    )
    if any(r.intervals for r in measured):
        out.append(
            "Measured cells with brackets: value [low, high], the 95% cluster-bootstrap interval from "
            "the run's logged samples (docs/uncertainty.md)."
        )
    for note in layout.notes:
        out.append(note)
    flagged = [r for r in rows if r.source == PUBLISHED and (r.marks or r.row_mark)]
    if flagged:
        out += ["", "Flagged published cells (kept as printed):"]
        for r in flagged:
            where = f"{r.model} ({r.setting})" if r.setting else r.model
            headers = {c.key: c.header for c in layout.columns}
            marks = ", ".join(f"{m} {headers[k]}" for k, m in r.marks.items())
            if r.row_mark:
                marks = f"{r.row_mark} row" + (f"; {marks}" if marks else "")
            out.append(f"- {where}: {marks}: {r.note}")
    runs_in_table = [run for run in runs if measured_rows(layout, run)]
    if runs_in_table:
        out += ["", "Measured runs:"]
        for run in runs_in_table:
            files = ", ".join(f"`{p.as_posix()}`" for p in run.paths)
            tasks = "; ".join(
                f"{label} = {task}"
                for r in measured_rows(layout, run)
                for label, task in r.tasks.items()
            )
            out.append(f"- **{run.label}**: {files}; tasks: {tasks or 'none'}")
    missing = []
    for run in runs_in_table:
        for label in unrun_settings(layout, run):
            setting = layout.setting(label)
            missing.append(
                f"- **{run.label}** ({label}): not run (no task matching {_patterns(setting)})"
            )
        for r in measured_rows(layout, run):
            where = f"**{r.model}** ({r.setting})" if r.setting else f"**{r.model}**"
            missing.extend(f"- {where}: {m}" for m in r.missing)
    for run in runs:
        missing.extend(f"- **{run.label}**: {m}" for m in unplaced_tasks(layout, run))
    if missing:
        out += ["", "Missing from the runs:"] + missing
    no_interval = [
        f"- **{r.model}**: {why}"
        for r in measured
        for why in r.no_interval
    ]
    if no_interval:
        out += ["", "Measured cells without an interval:"] + list(dict.fromkeys(no_interval))
    partial = [f"- {r.label}: " + "; ".join(f"{task} {limit}" for task, limit in r.partial.items()) for r in measured if r.partial]
    if partial:
        out += ["", "Partial runs (made with --limit or --offset; marked partial, no reproduction verdict):"] + partial
    set_aside = [f"- {r.label}: {note}" for r in measured for note in r.set_aside]
    if set_aside:
        out += ["", "Results files of the same model holding the same task (one is shown: a full run before a partial "
                "one, then the newer):"] + list(dict.fromkeys(set_aside))
    few = [
        f"- **{r.model}**: "
        + ", ".join(f"{task} ({clusters})" for task, clusters in r.few_clusters.items())
        for r in measured
        if r.few_clusters
    ]
    if few:
        heading = (
            f"Intervals from fewer than {FEW_CLUSTERS} clusters (image sequences, plans) are too narrow; "
            "read them as rough (task, clusters):"
        )
        out += ["", heading] + list(dict.fromkeys(few))
    skipped = [run.label for run in runs if run not in runs_in_table and not _of_other_benchmarks(layout, run)]
    if skipped:
        out += [
            "",
            "Runs with no task of this table: "
            + ", ".join(f"**{s}**" for s in skipped),
        ]
    if found:
        out += ["", VERDICT_LEGEND] + _verdict_details(found)
        out += ["", f"Verdict: {verdict_line(found, tolerance_of(layout, tolerances))}."]
    return "\n".join(out) + "\n"


def render_csv(
    layout: Layout, runs: Sequence[Run], include_published: bool = True
) -> str:
    """Machine-readable: published values as printed, measured ones unrounded (same units)."""
    rows = build_rows(layout, runs, include_published)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    head = (
        ["layout", "rank", "model"]
        + (["setting"] if layout.rows == "setting" else [])
        + ["source"]
    )
    head += [c.key for c in layout.columns] + ["flags", "tasks", "missing"]
    with_partial = any(r.partial for r in rows)
    if with_partial:  # the --limit each partial task was run with
        head.append("partial")
    with_set_aside = any(r.set_aside for r in rows)
    if with_set_aside:  # the results files shown and not shown, for tasks several files hold
        head.append("not_shown")
    with_intervals = any(r.intervals for r in rows)
    if with_intervals:  # the 95% interval of each measured cell
        head += [f"{c.key}_{end}" for c in layout.columns for end in ("low", "high")]
    writer.writerow(head)
    decimals = _decimals(layout)
    for i, row in enumerate(rows, 1):
        cells = [layout.name, i if layout.rank_by else "", row.model]
        if layout.rows == "setting":
            cells.append(row.setting or "")
        cells.append(row.source)
        for c in layout.columns:
            v = row.values.get(c.key)
            if v is None:
                cells.append("")
            elif row.source == PUBLISHED:
                cells.append(f"{v:.{decimals[c.key]}f}")
            else:
                cells.append(repr(round(v, 6)))
        cells.append(row.flags)
        cells.append("; ".join(f"{k}={v}" for k, v in row.tasks.items()))
        cells.append("; ".join(m.replace("`", "") for m in row.missing))
        if with_partial:
            cells.append("; ".join(f"{task} {limit}" for task, limit in row.partial.items()))
        if with_set_aside:
            cells.append("; ".join(note.replace("`", "") for note in row.set_aside))
        if with_intervals:
            for c in layout.columns:
                bounds = row.intervals.get(c.key)
                cells += [repr(round(b, 6)) for b in bounds] if bounds else ["", ""]
        writer.writerow(cells)
    return buf.getvalue()


def verdict_summary(
    runs: Sequence[Run], layouts: Sequence[Layout], include_published: bool = True, tolerances: dict[str, float] | None = None
) -> str:
    """The report's closing section: one verdict line per table that has verdicts."""
    lines = []
    for layout in layouts:
        found = verdicts(layout, build_rows(layout, runs, include_published), tolerances)
        if found:
            lines.append(f"- {layout.title}: {verdict_line(found, tolerance_of(layout, tolerances))}.")
    if not lines:
        return ""
    return "\n## Reproduction verdicts\n\n" + "\n".join(lines) + "\n"


def runs_summary(runs: Sequence[Run]) -> str:
    """The report's closing notes on the runs themselves: each task shown from a partial run, and each
    task that more than one results file of a model holds (which one is shown, which are not)."""
    partial = [f"- **{run.label}**: {task} {limit} (`{run.sources[task].as_posix()}`)"
               for run in runs for task, limit in sorted(run.partial.items())]
    set_aside = [f"- **{run.label}**: {run.sources_note(task)}" for run in runs for task in sorted(run.set_aside)]
    text = ""
    if partial:
        text += ("\n## Partial runs\n\nThese tasks were run with --limit or --offset: their rows are marked partial "
                 "and get no reproduction verdict.\n\n" + "\n".join(partial) + "\n")
    if set_aside:
        text += ("\n## Results files not shown\n\nThese tasks are in more than one results file of the same model; "
                 "a full run is shown before a partial one, then the newer file (report a file alone to see "
                 "another).\n\n" + "\n".join(set_aside) + "\n")
    return text


def _of_other_benchmarks(layout: Layout, run: Run) -> bool:
    """Whether every task of ``run`` belongs to another of the three benchmarks than ``layout``'s (its
    rows are in those tables; naming it under each of this one's would be noise)."""
    benchmarks = {getattr(benchmark_of(task), "name", None) for task in run.tasks}
    return bool(benchmarks) and None not in benchmarks and layout.benchmark not in benchmarks


def layouts_for(runs: Sequence[Run], layouts: Iterable[Layout]) -> list[Layout]:
    """The layouts that at least one run has a task for."""
    return [lay for lay in layouts if any(measured_rows(lay, run) for run in runs)]


def samples_note(runs: Sequence[Run]) -> str:
    """Names the tasks whose breakdown cells stay empty because their run logged no samples."""
    lines = [f"- {run.label}: {', '.join(sorted(set(run.without_samples)))}" for run in runs if run.without_samples]
    if not lines:
        return ""
    return ("\nBreakdowns (per source, per relation, ...) are computed from the samples files; these runs "
            "have none beside their results (run with `--log_samples`):\n" + "\n".join(lines) + "\n")


def render_report(
    runs: Sequence[Run],
    layouts: Sequence[Layout],
    fmt: str = "markdown",
    include_published: bool = True,
    tolerances: dict[str, float] | None = None,
) -> str:
    if fmt == "markdown":
        text = "\n".join(
            render_markdown(lay, runs, include_published, tolerances) for lay in layouts
        )
        return text + verdict_summary(runs, layouts, include_published, tolerances) + runs_summary(runs) + samples_note(runs)
    if fmt == "csv":
        if len(layouts) == 1:
            return render_csv(layouts[0], runs, include_published)
        return "\n".join(
            f"# {lay.name}\n" + render_csv(lay, runs, include_published)
            for lay in layouts
        )
    raise ValueError(f"unknown format {fmt!r} (markdown or csv)")


def metric_rows(runs: Sequence[Run]) -> list[tuple[str, str, str, str, Any]]:
    """(model, task, metric, filter, value) for every metric key of every task of the runs: the
    headline numbers and the breakdowns, in the order the results hold them (without the harness's
    "N/A" standard-error placeholders)."""
    return [(run.label, task, *key.partition(",")[::2], value)
            for run in runs for task in run.tasks for key, value in run.results[task].items()
            if "," in key and not ("_stderr" in key and value == "N/A")]


def render_breakdowns(runs: Sequence[Run], fmt: str) -> str:
    """Every metric key of every task (``report --breakdowns``): markdown, one table per task, or
    CSV, one line per key; an undefined value (null) is "–" in markdown, empty in CSV."""
    rows = metric_rows(runs)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["model", "task", "metric", "filter", "value"])
        writer.writerows((*row[:4], "" if row[4] is None else row[4]) for row in rows)
        return out.getvalue()
    lines, heading = [], None
    for model, task, metric, flt, value in rows:
        if (model, task) != heading:
            heading = (model, task)
            lines += ["", f"## {model}: {task}", "", "| metric | filter | value |", "|---|---|--:|"]
        lines.append(f"| {metric} | {flt} | {'–' if value is None else value} |")
    return "\n".join(lines[1:]) + "\n" + samples_note(runs)
