"""``temporal-bench report``: measured results next to the papers' published rows (markdown or
CSV), and with ``--output-dir`` the tables as files plus the papers' figures as PNG, each with its
plotted values as CSV."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from temporal_bench.cli_style import CommandParser, command_parser, progress
from temporal_bench.report import size_figure
from temporal_bench.report.figures import draw, figures_for, write_csv
from temporal_bench.report.layouts import LAYOUTS
from temporal_bench.report.model import Report, build_report, layouts_for
from temporal_bench.report.model_size import parse_param_counts, sizes_of
from temporal_bench.report.render import render_breakdowns, render_report
from temporal_bench.report.verdicts import DEFAULT_TOLERANCES, parse_tolerances
from temporal_bench.runs.data_read import DataRead, data_differences
from temporal_bench.runs.logged import model_runs
from temporal_bench.runs.results import Run, load_runs


def build_parser() -> CommandParser:
    parser = command_parser(
        "report",
        ["temporal-bench report out/ --table tempvs-table3 --output-dir report/"],
        "Measured values get 95% confidence intervals where the run's --log_samples output lies beside its results, "
        "and published rows of the same model reproduction verdicts: reproduced, close or differs (docs/uncertainty.md). "
        "Rows of runs made with --limit, on synthetic data or on data whose counts differ from the release's are marked "
        "and get no verdict. Runs whose same task read different data exit 1 naming both sources.",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="RESULTS",
        help="results JSON files, or folders searched recursively for *_results.json (lmms-eval) and results_*.json (lm-eval)",
    )
    parser.add_argument(
        "--table",
        action="append",
        choices=sorted(LAYOUTS),
        dest="tables",
        metavar="TABLE",
        help="table layout to render, as --list-tables names them (repeatable; default: every table the runs have a task for)",
    )
    parser.add_argument("--format", choices=["markdown", "csv"], default="markdown", help="output format (default: %(default)s)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here instead of standard output (default: standard output)")
    parser.add_argument(
        "--output-dir",
        type=Path,
        metavar="DIR",
        help="also write every table as <table>.md and <table>.csv and the figures the runs have "
        "values for as <figure>.png with their plotted values as <figure>.csv (e.g. tempvs-figure3.png, "
        "tempvs-figure3.csv) into this folder (default: no files)",
    )
    parser.add_argument(
        "--param-count",
        action="append",
        default=[],
        metavar="MODEL=BILLIONS",
        help="the parameter count of a run's model, for TempVS Figure 2 (by model size; repeatable; MODEL as "
        "the report labels the run). Default: read from the model name (e.g. '-26B-', '-0.5b-'); a run "
        "whose name states none is drawn as a dashed line marked 'no size'. Needs --output-dir.",
    )
    parser.add_argument(
        "--label",
        help="name of the measured rows (default: the model the results files record); the verdicts read the recorded model whatever the label",
    )
    parser.add_argument("--no-published", action="store_true", help="only the measured rows (default: the published rows too)")
    defaults = ", ".join(f"{name} {points:g}" for name, points in DEFAULT_TOLERANCES.items())
    parser.add_argument(
        "--tolerance",
        action="append",
        default=[],
        metavar="[BENCHMARK=]POINTS",
        help="how many points (0.01 of a fraction) a measured value may differ from the published one beyond its "
        f"rounding and still be 'close' (run-to-run nondeterminism): one value for every benchmark, or e.g. "
        f"catbench=2 (repeatable; docs/uncertainty.md; default: {defaults})",
    )
    parser.add_argument(
        "--allow-different-data",
        action="store_true",
        help="report runs whose same task read different data (another copy, version or subset) side by side; the output's first line names the difference (default: exit 1 naming both data sources)",
    )
    parser.add_argument("--list-tables", action="store_true", help="list the table layouts and exit")
    parser.add_argument(
        "--breakdowns",
        action="store_true",
        help="instead of the tables, every metric key of every task: the headline numbers and the breakdowns computed from the --log_samples output (per source, per relation, ...)",
    )
    return parser


def write_output_dir(folder: Path, runs: Sequence[Run], report: Report, param_counts: Mapping[str, float] | None = None) -> list[Path]:
    """Each table of the report as markdown and CSV, and each figure as PNG with its plotted values as CSV;
    returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for table in report.tables:
        for fmt, suffix in (("markdown", "md"), ("csv", "csv")):
            path = folder / f"{table.layout.name}.{suffix}"
            path.write_text(render_report(replace(report, tables=[table]), fmt), encoding="utf-8")
            written.append(path)
    benchmarks = {table.layout.benchmark for table in report.tables}
    for figure in figures_for(runs):
        if figure.benchmark in benchmarks:
            written.append(draw(figure, runs, folder / f"{figure.name}.png"))
            written.append(write_csv(figure, runs, folder / f"{figure.name}.csv"))
    for by_size in size_figure.SIZE_FIGURES.values():
        if by_size.benchmark in benchmarks and size_figure.plotted_runs(by_size, runs):
            sizes = sizes_of((run.label for run in runs), param_counts or {})
            written.append(size_figure.draw(by_size, runs, sizes, folder / f"{by_size.name}.png"))
            written.append(size_figure.write_csv(by_size, runs, sizes, folder / f"{by_size.name}.csv"))
    return written


def unsized_note(runs: Sequence[Run], param_counts: Mapping[str, float], written: Sequence[Path]) -> str:
    """Names the runs each written figure by model size draws without a parameter count."""
    notes = []
    for figure in size_figure.SIZE_FIGURES.values():
        labels = size_figure.unsized(figure, runs, sizes_of((run.label for run in runs), param_counts)) if any(p.stem == figure.name for p in written) else []
        if labels:
            notes.append(
                f"\n{figure.title.split(':')[0]} (by model size) has no parameter count for {', '.join(f'**{label}**' for label in labels)}: drawn as a dashed line marked 'no size'; give one with `--param-count 'MODEL=BILLIONS'`.\n"
            )
    return "".join(notes)


def main_report(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if {"--list-tables", "--list_tables"} & set(argv):  # needs no paths
        for name, layout in sorted(LAYOUTS.items()):
            flag = " (provisional)" if layout.provisional else ""
            print(f"{name}\t{layout.title}{flag}\ttasks: {', '.join(dict.fromkeys(layout.tasks))}")
        return 0
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        tolerances = parse_tolerances(args.tolerance)
    except ValueError as exc:
        parser.error(str(exc))
    progress("report", "reading the runs under " + ", ".join(map(str, args.paths)))
    try:
        runs = load_runs(args.paths, label=args.label)
    except (FileNotFoundError, ValueError) as exc:
        parser.error(str(exc))
    if not runs:
        parser.error("no results files found under " + ", ".join(str(p) for p in args.paths))
    if args.param_count and not args.output_dir:
        parser.error("--param-count sizes the models of a figure: it needs --output-dir")
    try:
        param_counts = parse_param_counts(args.param_count)
        sizes_of((run.label for run in runs), param_counts)
    except ValueError as exc:
        parser.error(str(exc))
    if args.breakdowns:
        return emit(render_breakdowns(runs, args.format), args.output)
    if args.tables:
        layouts = [LAYOUTS[name] for name in dict.fromkeys(args.tables)]
    else:
        layouts = layouts_for(runs, LAYOUTS.values())
        if not layouts:
            tasks = sorted({t for run in runs for t in run.tasks})
            parser.error(
                f"the runs have no task of any known table (their tasks: {', '.join(tasks) or 'none'}): a variant of one's own (catbench_val, tempvs_mt1_two_pororo, ...) is in no paper table; `--breakdowns` lists every metric of every task"
            )
    progress("report", f"reading the data and records of {len(runs)} model(s)' runs")
    different, unknown = runs_data(runs)
    if different and not args.allow_different_data:
        print("temporal-bench report: the runs read different data, so their rows are not comparable: " + " | ".join(different) + " (report runs on the same data together, or pass --allow-different-data)", file=sys.stderr)
        return 1
    progress("report", f"computing {len(layouts)} table(s) with their intervals")
    report = build_report(runs, layouts, not args.no_published, tolerances)
    text = render_report(report, args.format)
    if different:
        first = f"The runs read different data (shown side by side anyway, --allow-different-data): {' | '.join(different)}"
        text = (f"# {first}\n" if args.format == "csv" else f"{first}\n\n") + text
    if unknown and args.format == "markdown":
        text += "\n## Data not checked\n\n" + "".join(f"- {line}\n" for line in unknown)
    if args.output_dir:
        progress("report", f"writing the tables and figures into {args.output_dir}")
        written = write_output_dir(args.output_dir, runs, report, param_counts)
        text += "\nFiles written:\n" + "".join(f"- `{p.as_posix()}`\n" for p in written)
        text += unsized_note(runs, param_counts, written)
    return emit(text, args.output)


def _described(read: DataRead | None) -> str:
    """What a task read, of one whose samples were read (a set-aside source that read other questions, and the run shown)."""
    if read is None:
        raise ValueError("no samples were logged, so what the task read is unknown")
    return read.describe()


def runs_data(runs: Sequence[Run]) -> tuple[list[str], list[str]]:
    """For each task of several runs: a line naming each run's data where they read different data, and notes on the
    runs that cannot tell theirs: no samples logged, or a release's scored outputs, whose samples log no prompt or
    image (temporal_bench/runs/data_read.py)."""
    tasks = sorted({task for run in runs for task in run.tasks})
    reads: dict[str, dict[str, Any]] = {}
    unchecked: dict[tuple[str, str], list[str]] = {}  # (the released outputs, the runs) -> their tasks
    for task in tasks:
        found = {f"**{run.label}**": run for run in runs if task in run.results}
        released = [label for label, run in found.items() if not model_runs([run.shown[task].logged])]  # a release's scored outputs
        reads[task] = {label: run.data_read(task) for label, run in found.items() if label not in released}
        if released and reads[task]:
            unchecked.setdefault((", ".join(released), ", ".join(reads[task])), []).append(task)
    different, unknown = data_differences({task: found for task, found in reads.items() if len(found) > 1})
    different |= {
        f"{task} ({run.label})": f"{task}: **{run.label}** is shown from {run.shown[task].path.as_posix()}, which read {_described(run.data_read(task))}; its other results file {other.path.as_posix()} read other questions ({_described(other.logged.data_read(other.logged_as))})"
        for run in runs
        for task in sorted(run.set_aside)
        for other in run.other_data(task)
    }
    unknown += [f"{', '.join(tasks)}: {released} recorded no fingerprint of the data read, so it cannot be checked against {others}'s" for (released, others), tasks in unchecked.items()]
    return list(different.values()), unknown


def emit(text: str, output: Path | None) -> int:
    """Write ``text`` to ``output`` (its folder made), or to standard output; the command's status."""
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_report())
