"""The report's model (model.py) as text: each table in markdown, measured runs next to the published rows, or as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from temporal_bench.report.model import Report, Table, without_samples
from temporal_bench.report.notes import Notes
from temporal_bench.report.rows import MEASURED, PUBLISHED, TableRow
from temporal_bench.report.verdicts import CLOSE, DIFFERS, OUTSIDE, REPRODUCED, UNVERIFIED, VERDICT_LEGEND, VERDICT_MARKS, WITHIN, Verdict
from temporal_bench.runs.results import Run

FAILED_CELL = "requests failed"  # a measured cell whose task had every request fail: no value, no interval


def cell_text(value: float | None, decimals: int, source: str) -> str:
    if value is None:
        return "-" if source == PUBLISHED else "–"
    return f"{value:.{decimals}f}"


def bounds_text(bounds: tuple[float, float], decimals: int) -> str:
    return f"[{bounds[0]:.{decimals}f}, {bounds[1]:.{decimals}f}]"


def data_notes_text(row: TableRow) -> str:
    """The row's data notes, tasks of the same note together: ``a, b read synthetic data (...)``."""
    by_how: dict[str, list[str]] = {}
    for _, task, how in row.data_notes:
        by_how.setdefault(how, []).append(task)
    return "; ".join(f"{', '.join(tasks)} {how}" for how, tasks in by_how.items())


def _counts(found: Sequence[Verdict], kinds: Sequence[str]) -> str:
    return ", ".join(f"{sum(v.kind == kind for v in found)} {kind}" for kind in kinds)


def verdict_line(table: Table) -> str:
    """How the table's published cells fared: reproduction verdicts, then the baselines' interval checks."""
    runs = [v for v in table.verdicts if v.kind in (REPRODUCED, CLOSE, DIFFERS)]
    baselines = [v for v in table.verdicts if v.kind in (WITHIN, OUTSIDE)]
    parts = []
    if runs:
        points = table.tolerance
        parts.append(f"{_counts(runs, (REPRODUCED, CLOSE, DIFFERS))} of {len(runs)} published cells (tolerance {points:g} point{'s' if points != 1 else ''})")
    if baselines:
        inside = sum(v.kind == WITHIN for v in baselines)
        parts.append(f"baseline against the Random row: {inside} of {len(baselines)} cells within the 95% interval")
    unjudged = sum(v.kind == UNVERIFIED for v in table.verdicts)
    if unjudged:
        parts.append(f"{unjudged} published cells unverified, not judged (the run's data has the release's counts; no fingerprint of the release is recorded)")
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
        if any(v.kind in (WITHIN, OUTSIDE) for v in mine):
            parts = [f"{sum(v.kind == WITHIN for v in mine)} of {len(mine)} within"]
            kinds: tuple[str, ...] = (OUTSIDE,)
        elif any(v.kind == UNVERIFIED for v in mine):
            parts, kinds = [f"{len(mine)} unverified, not judged: its data has the release's counts, but no fingerprint of the release is recorded"], ()
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


def _section(heading: str, lines: Sequence[str]) -> list[str]:
    """A note under the table: a blank line, its heading and its lines (a line said twice once); nothing without lines."""
    return ["", heading, *dict.fromkeys(lines)] if lines else []


def render_markdown(table: Table, notes: Notes, said: dict[str, str] | None = None) -> str:
    """One table with what is its own (ranking, provenance, the tasks of its rows, flagged published cells, verdicts);
    its measured rows refer to the report's ``notes`` by number, and a note of its layout that an earlier table said
    (``said``: note -> that table, updated) is pointed to, not said again."""
    said = {} if said is None else said
    layout, rows, found = table.layout, table.rows, table.verdicts
    decimals = {c.key: c.decimals for c in layout.columns}
    headers = {c.key: c.header for c in layout.columns}
    marks = verdict_marks(found)
    title = layout.title + (" (provisional)" if layout.provisional else "")
    out = [f"## {title}", ""]
    head = (["#"] if layout.rank_by else []) + ["model"] + (["setting"] if layout.rows == "setting" else [])
    head += ["source"] + [c.header for c in layout.columns]
    align = (["--:"] if layout.rank_by else []) + ["---"] * (len(head) - len(layout.columns) - bool(layout.rank_by))
    align += ["--:"] * len(layout.columns)
    with_notes = any(notes.of(row) for row in rows)
    if with_notes:  # the numbers of each measured row's notes, after the tables
        head.append("notes")
        align.append("---")
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(align) + "|")
    for i, row in enumerate(rows, 1):
        model = f"**{row.model}**" if row.source == MEASURED else row.model + row.row_mark
        if row.relabelled:  # --label names the row; the verdict reads the model its results files record
            model += f" (recorded: {', '.join(row.recorded)})"
        if row.partial:
            model += f" (partial: {', '.join(dict.fromkeys(limit.flags for limit in row.partial.values()))})"
        if any(mark for mark, _, _ in row.beside + row.data_notes):
            model += f" ({'; '.join(dict.fromkeys(mark for mark, _, _ in row.beside + row.data_notes if mark))})"
        cells = ([str(i)] if layout.rank_by else []) + [model]
        if layout.rows == "setting":
            cells.append(row.setting or "")
        cells.append(row.source)
        for c in layout.columns:
            text = FAILED_CELL if c.key in row.failed else cell_text(row.values.get(c.key), decimals[c.key], row.source)
            if c.key in row.intervals:
                text += " " + bounds_text(row.intervals[c.key], decimals[c.key])
            mark = marks.get((id(row), c.key))
            cells.append(text + row.marks.get(c.key, "") + (f" {mark}" if mark else ""))
        if with_notes:
            cells.append(", ".join(map(str, notes.of(row))))
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    if isinstance(layout.rank_by, str):
        out.append(f"Ranked by {headers[layout.rank_by]}, highest first.")
    if table.provenance:
        out.append(f"Published rows: {table.provenance}, as printed.")
    tasks = ["**" + part.label + "** " + (", ".join(f"{label} = {task}" for r in part.rows for label, task in r.tasks.items()) or "no task") for part in table.parts if part.rows]
    if tasks:
        out.append("Measured rows (bold) and their tasks: " + "; ".join(dict.fromkeys(tasks)) + ".")
    earlier = list(dict.fromkeys(said[note] for note in layout.notes if note in said))
    out += [note for note in layout.notes if note not in said]
    out += [f"The notes on its columns under {title} above hold here too." for title in earlier]
    said.update((note, f"the {layout.title.split(':')[0]}") for note in layout.notes if note not in said)
    flagged = []
    for r in (r for r in rows if r.source == PUBLISHED and (r.marks or r.row_mark)):
        marked = ", ".join(f"{m} {headers[k]}" for k, m in r.marks.items())
        if r.row_mark:
            marked = f"{r.row_mark} row" + (f"; {marked}" if marked else "")
        flagged.append(f"- {r.label}: {marked}: {r.note}")
    out += _section("Flagged published cells (kept as printed):", flagged)
    skipped = [part.label for part in table.parts if not part.rows and not part.elsewhere]
    out += ["", "Runs with no task of this table: " + ", ".join(f"**{s}**" for s in skipped)] if skipped else []
    other_rule = [f"- {row.label}: its published row fits another scoring rule than the measured row (the flagged published cells above say which)" for row in table.other_rule]
    out += _section("Measured rows whose published row fits another scoring rule (‡, no reproduction verdict):", other_rule)
    if found:
        out += ["", "Reproduction verdicts of its measured rows (how they are judged: Reproduction verdicts, after the tables):"] + verdict_details(found)
        out += ["", f"Verdict: {verdict_line(table)}."]
    return "\n".join(out) + "\n"


def render_notes(report: Report, notes: Notes) -> str:
    """The report's notes after its tables, each once: what the measured cells show, the results files, then each
    group of numbered notes the rows refer to."""
    measured = [row for table in report.tables for row in table.rows if row.source == MEASURED]
    if not measured and not notes.groups:
        return ""
    out = ["", "## Notes", ""]
    if notes.groups:
        out.append("A table's notes column names the notes below on each measured row; each note is said once, for every table it concerns.")
    if any(row.intervals for row in measured):
        out.append("Measured cells with brackets: value [low, high], the 95% cluster-bootstrap interval from the run's logged samples (docs/uncertainty.md).")
    if any(row.failed for row in measured):
        out.append(f"A measured cell `{FAILED_CELL}`: every request of its task failed, so it has no value (the notes below count them).")
    out += _section("Measured runs (bold rows) and their results files:", [f"- {line}" for line in notes.files])
    for heading, lines in notes.groups:
        out += _section(heading, [f"- [{number}] {text}" for number, text in lines])
    return "\n".join(out) + "\n"


def render_csv(table: Table) -> str:
    """Machine-readable: published values as printed, measured ones unrounded (same units)."""
    layout, rows = table.layout, table.rows
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    head = ["layout", "rank", "model"] + (["setting"] if layout.rows == "setting" else []) + ["source"]
    head += [c.key for c in layout.columns] + ["flags", "tasks", "missing"]
    with_partial = any(r.partial for r in rows)
    if with_partial:  # the --limit each partial task was run with
        head.append("partial")
    with_set_aside = any(r.set_aside for r in rows)
    if with_set_aside:  # the results files shown and not shown, for tasks several files hold
        head.append("not_shown")
    with_data_notes = any(r.data_notes for r in rows)
    if with_data_notes:  # why a row's data is not the benchmark's release
        head.append("not_release_data")
    with_recorded = any(r.relabelled for r in rows)
    if with_recorded:  # the model the results files record, where --label named the row otherwise
        head.append("recorded_model")
    with_intervals = any(r.intervals for r in rows)
    if with_intervals:  # the 95% interval of each measured cell
        head += [f"{c.key}_{end}" for c in layout.columns for end in ("low", "high")]
    writer.writerow(head)
    for i, row in enumerate(rows, 1):
        cells = [layout.name, i if layout.rank_by else "", row.model]
        if layout.rows == "setting":
            cells.append(row.setting or "")
        cells.append(row.source)
        for c in layout.columns:
            v = row.values.get(c.key)
            cells.append("" if v is None else f"{v:.{c.decimals}f}" if row.source == PUBLISHED else repr(round(v, 6)))
        cells.append(row.flags)
        cells.append("; ".join(f"{k}={v}" for k, v in row.tasks.items()))
        cells.append("; ".join(m.replace("`", "") for m in row.missing))
        if with_partial:
            cells.append("; ".join(f"{task} {limit}" for task, limit in row.partial.items()))
        if with_set_aside:
            cells.append("; ".join(note.replace("`", "") for note in row.set_aside))
        if with_data_notes:
            cells.append(data_notes_text(row))
        if with_recorded:
            cells.append("; ".join(row.recorded))
        if with_intervals:
            for c in layout.columns:
                bounds = row.intervals.get(c.key)
                cells += [repr(round(b, 6)) for b in bounds] if bounds else ["", ""]
        writer.writerow(cells)
    return buf.getvalue()


def verdict_lines(report: Report) -> list[str]:
    """One verdict line per table that has verdicts, then the runs whose model the papers do not list (with the nearest
    published names)."""
    lines = [f"- {table.layout.title}: {verdict_line(table)}." for table in report.tables if table.verdicts]
    for benchmark in dict.fromkeys(table.layout.benchmark for table in report.tables):
        judged = {label for table in report.tables if table.layout.benchmark == benchmark for label in table.judged_models}
        lines += [f"- {report.unmatched[benchmark, label]}" for label in report.labels if label in judged and (benchmark, label) in report.unmatched]
    return lines


def verdict_summary(report: Report) -> str:
    """The report's closing section on verdicts: how they are judged (where a table has any), then :func:`verdict_lines`."""
    lines = verdict_lines(report)
    legend = ["", VERDICT_LEGEND] if any(table.verdicts for table in report.tables) else []
    return "\n## Reproduction verdicts\n\n" + "\n".join(lines + legend) + "\n" if lines else ""


def samples_note(lines: Sequence[str]) -> str:
    """Names the tasks whose breakdown cells stay empty because their run logged no samples."""
    if not lines:
        return ""
    return "\nBreakdowns (per source, per relation, ...) are computed from the samples files; these runs have none beside their results (run with `--log_samples`):\n" + "".join(f"- {line}\n" for line in lines)


def render_report(report: Report, fmt: str = "markdown") -> str:
    if fmt == "markdown":
        notes = report.notes
        said: dict[str, str] = {}
        return "\n".join(render_markdown(table, notes, said) for table in report.tables) + verdict_summary(report) + render_notes(report, notes) + samples_note(report.without_samples)
    if fmt == "csv":
        if len(report.tables) == 1:
            return render_csv(report.tables[0])
        return "\n".join(f"# {table.layout.name}\n" + render_csv(table) for table in report.tables)
    raise ValueError(f"unknown format {fmt!r} (markdown or csv)")


def metric_rows(runs: Sequence[Run]) -> list[tuple[str, str, str, str, Any]]:
    """(model, task, metric, filter, value) for every metric key of every task of the runs: the
    headline numbers and the breakdowns, in the order the results hold them (without the harness's
    "N/A" standard-error placeholders)."""
    return [(run.label, task, *key.partition(",")[::2], value) for run in runs for task in run.tasks for key, value in run.results[task].items() if "," in key and not ("_stderr" in key and value == "N/A")]


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
    return "\n".join(lines[1:]) + "\n" + samples_note(without_samples(runs))
