"""Render measured runs next to the published rows of a paper table (markdown or CSV)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from temporal_bench.benchmarks import of_task
from temporal_bench.protocol_gaps import run_gaps
from temporal_bench.published import load_table
from temporal_bench.report.bootstrap import FEW_CLUSTERS
from temporal_bench.report.cluster_stats import cluster_stats_of
from temporal_bench.report.layouts import Layout
from temporal_bench.report.rows import MEASURED, PUBLISHED, TableRow, bounds_text, build_rows, cell_text, data_notes_text, measured_rows, setting_patterns, unplaced_tasks, unrun_settings
from temporal_bench.report.verdicts import VERDICT_LEGEND, other_rule_rows, tolerance_of, verdict_details, verdict_line, verdict_marks, verdict_summary, verdicts
from temporal_bench.runs.results import Run


def _decimals(layout: Layout) -> dict[str, int]:
    return {c.key: c.decimals for c in layout.columns}


def _provenance(layout: Layout) -> str:
    if layout.published is None:
        return ""
    meta = load_table(*layout.published).meta
    paper = meta.get("paper", "")
    arxiv = meta.get("arxiv", "")
    arxiv = f" (arXiv {arxiv})" if arxiv and arxiv[0].isdigit() else ""
    table = meta.get("table", layout.published[1])
    tables = f"Tables {table.replace('_', ' and ')}" if "_" in table else f"Table {table}"
    return f"{paper}{arxiv}, {tables}"


def _partial_flags(row: TableRow) -> str:
    return ", ".join(dict.fromkeys(limit.flags for limit in row.partial.values()))


def render_markdown(layout: Layout, runs: Sequence[Run], include_published: bool = True, tolerances: dict[str, float] | None = None) -> str:
    rows = build_rows(layout, runs, include_published)
    decimals = _decimals(layout)
    found = verdicts(layout, rows, tolerances)
    marks = verdict_marks(found)
    title = layout.title + (" (provisional)" if layout.provisional else "")
    out = [f"## {title}", ""]
    head = (["#"] if layout.rank_by else []) + ["model"] + (["setting"] if layout.rows == "setting" else [])
    head += ["source"] + [c.header for c in layout.columns]
    align = (["--:"] if layout.rank_by else []) + ["---"] * (len(head) - len(layout.columns) - bool(layout.rank_by))
    align += ["--:"] * len(layout.columns)
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(align) + "|")
    for i, row in enumerate(rows, 1):
        model = f"**{row.model}**" if row.source == MEASURED else row.model + row.row_mark
        if row.partial:
            model += f" (partial: {_partial_flags(row)})"
        if row.data_notes:
            model += f" ({'; '.join(dict.fromkeys(mark for mark, _, _ in row.data_notes))})"
        cells = ([str(i)] if layout.rank_by else []) + [model]
        if layout.rows == "setting":
            cells.append(row.setting or "")
        cells.append(row.source)
        for c in layout.columns:
            text = cell_text(row.values.get(c.key), decimals[c.key], row.source)
            if c.key in row.intervals:
                text += " " + bounds_text(row.intervals[c.key], decimals[c.key])
            mark = marks.get((id(row), c.key))
            cells.append(text + row.marks.get(c.key, "") + (f" {mark}" if mark else ""))
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    if isinstance(layout.rank_by, str):
        header = {c.key: c.header for c in layout.columns}[layout.rank_by]
        out.append(f"Ranked by {header}, highest first.")
    if include_published and layout.published:
        out.append(f"Published rows: {_provenance(layout)}, as printed.")
    measured = [r for r in rows if r.source == MEASURED]
    out.append(f"Measured rows (bold): {len(measured)} from the results files listed below.")
    if any(r.intervals for r in measured):
        out.append("Measured cells with brackets: value [low, high], the 95% cluster-bootstrap interval from the run's logged samples (docs/uncertainty.md).")
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
            tasks = "; ".join(f"{label} = {task}" for r in measured_rows(layout, run) for label, task in r.tasks.items())
            out.append(f"- **{run.label}**: {files}; tasks: {tasks or 'none'}")
    missing = []
    for run in runs_in_table:
        for label in unrun_settings(layout, run):
            setting = layout.setting(label)
            missing.append(f"- **{run.label}** ({label}): not run (no task matching {setting_patterns(setting)})")
        for r in measured_rows(layout, run):
            where = f"**{r.model}** ({r.setting})" if r.setting else f"**{r.model}**"
            missing.extend(f"- {where}: {m}" for m in r.missing)
    for run in runs:
        missing.extend(f"- **{run.label}**: {m}" for m in unplaced_tasks(layout, run))
    if missing:
        out += ["", "Missing from the runs:"] + missing
    no_interval = [f"- **{r.model}**: {why}" for r in measured for why in r.no_interval]
    if no_interval:
        out += ["", "Measured cells without an interval:"] + list(dict.fromkeys(no_interval))
    partial = [f"- {r.label}: " + "; ".join(f"{task} {limit}" for task, limit in r.partial.items()) for r in measured if r.partial]
    if partial:
        out += ["", "Partial runs (made with --limit or --offset; marked partial, no reproduction verdict):"] + partial
    other_data = [f"- {r.label}: {data_notes_text(r)}" for r in measured if r.data_notes]
    if other_data:
        out += [
            "",
            "Measured rows with no reproduction verdict: failed requests, or data that is not the benchmark's release (a random baseline's interval check stays on the release's or other data, random answers score their expectation on any questions):",
        ] + other_data
    gaps = [f"- {r.label} ({', '.join(r.model_classes)}): {text}" for r in measured for text in run_gaps(layout.benchmark, r.model, r.model_classes)]
    if gaps:
        out += ["", "Measured rows whose model class differs from the official inference where the task cannot make up for it (known protocol gaps, whatever the verdict):"] + list(dict.fromkeys(gaps))
    basis = [f"- {r.label}: {note}" for r in measured for note in r.basis_notes]
    if basis:
        out += ["", "Measured rows whose data is taken for the release on the paper's counts alone (no fingerprint of the release is known here):"] + list(dict.fromkeys(basis))
    set_aside = [f"- {r.label}: {note}" for r in measured for note in r.set_aside]
    if set_aside:
        out += ["", "Results files of the same model holding the same task (one is shown: a full run before a partial one, then the newer):"] + list(dict.fromkeys(set_aside))
    few = [f"- **{r.model}**: " + ", ".join(f"{task} ({clusters} {cluster_stats_of(task).unit})" for task, clusters in r.few_clusters.items()) for r in measured if r.few_clusters]
    if few:
        heading = f"Intervals from fewer than {FEW_CLUSTERS} clusters rest on a rough estimate of the spread; read them as rough:"
        out += ["", heading] + list(dict.fromkeys(few))
    clustering = [f"- **{r.model}**: {note}" for r in measured for note in r.clustering]
    if clustering:
        out += ["", "Intervals on a fallback cluster:"] + list(dict.fromkeys(clustering))
    skipped = [run.label for run in runs if run not in runs_in_table and not _of_other_benchmarks(layout, run)]
    if skipped:
        out += [
            "",
            "Runs with no task of this table: " + ", ".join(f"**{s}**" for s in skipped),
        ]
    other_rule = other_rule_rows(layout, rows)
    if other_rule:
        out += ["", "Measured rows whose published row fits another scoring rule (‡, no reproduction verdict):"] + other_rule
    if found:
        out += ["", VERDICT_LEGEND] + verdict_details(found)
        out += ["", f"Verdict: {verdict_line(found, tolerance_of(layout, tolerances))}."]
    return "\n".join(out) + "\n"


def render_csv(layout: Layout, runs: Sequence[Run], include_published: bool = True) -> str:
    """Machine-readable: published values as printed, measured ones unrounded (same units)."""
    rows = build_rows(layout, runs, include_published)
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
        if with_data_notes:
            cells.append(data_notes_text(row))
        if with_intervals:
            for c in layout.columns:
                bounds = row.intervals.get(c.key)
                cells += [repr(round(b, 6)) for b in bounds] if bounds else ["", ""]
        writer.writerow(cells)
    return buf.getvalue()


def runs_summary(runs: Sequence[Run]) -> str:
    """The report's closing notes on the runs themselves: each task shown from a partial run, and each
    task that more than one results file of a model holds (which one is shown, which are not)."""
    partial = [f"- **{run.label}**: {task} {limit} (`{run.sources[task].as_posix()}`)" for run in runs for task, limit in sorted(run.partial.items())]
    set_aside = [f"- **{run.label}**: {run.sources_note(task)}" for run in runs for task in sorted(run.set_aside)]
    text = ""
    if partial:
        text += "\n## Partial runs\n\nThese tasks were run with --limit or --offset: their rows are marked partial and get no reproduction verdict.\n\n" + "\n".join(partial) + "\n"
    if set_aside:
        text += (
            "\n## Results files not shown\n\nThese tasks are in more than one results file of the same model; "
            "a full run is shown before a partial one, then the newer file (report a file alone to see "
            "another).\n\n" + "\n".join(set_aside) + "\n"
        )
    return text


def _of_other_benchmarks(layout: Layout, run: Run) -> bool:
    """Whether every task of ``run`` belongs to another of the three benchmarks than ``layout``'s (its
    rows are in those tables; naming it under each of this one's would be noise)."""
    benchmarks = {getattr(of_task(task), "name", None) for task in run.tasks}
    return bool(benchmarks) and None not in benchmarks and layout.benchmark not in benchmarks


def layouts_for(runs: Sequence[Run], layouts: Iterable[Layout]) -> list[Layout]:
    """The layouts that at least one run has a task for."""
    return [lay for lay in layouts if any(measured_rows(lay, run) for run in runs)]


def samples_note(runs: Sequence[Run]) -> str:
    """Names the tasks whose breakdown cells stay empty because their run logged no samples."""
    lines = [f"- {run.label}: {', '.join(sorted(set(run.without_samples)))}" for run in runs if run.without_samples]
    if not lines:
        return ""
    return "\nBreakdowns (per source, per relation, ...) are computed from the samples files; these runs have none beside their results (run with `--log_samples`):\n" + "\n".join(lines) + "\n"


def render_report(
    runs: Sequence[Run],
    layouts: Sequence[Layout],
    fmt: str = "markdown",
    include_published: bool = True,
    tolerances: dict[str, float] | None = None,
) -> str:
    if fmt == "markdown":
        text = "\n".join(render_markdown(lay, runs, include_published, tolerances) for lay in layouts)
        return text + verdict_summary(runs, layouts, include_published, tolerances) + runs_summary(runs) + samples_note(runs)
    if fmt == "csv":
        if len(layouts) == 1:
            return render_csv(layouts[0], runs, include_published)
        return "\n".join(f"# {lay.name}\n" + render_csv(lay, runs, include_published) for lay in layouts)
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
    return "\n".join(lines[1:]) + "\n" + samples_note(runs)
