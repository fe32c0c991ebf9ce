"""``temporal-bench rescore``: a run's metrics recomputed from its ``--log_samples`` output (temporal_bench/rescore)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from temporal_bench.cli_style import CommandParser, command_parser
from temporal_bench.data_locations import data_locations, data_locations_of, parse_locations
from temporal_bench.rescore.errors import RescoreError
from temporal_bench.rescore.harnesses import quiet_harness_logs
from temporal_bench.rescore.output import render_csv, render_markdown, write_results, yaml_warnings
from temporal_bench.rescore.scoring import rescore
from temporal_bench.rescore.settings import parse_settings
from temporal_bench.runs.logged import find_runs, named_tasks


def build_parser() -> CommandParser:
    parser = command_parser(
        "rescore",
        ["temporal-bench rescore out/ --tasks tempvs_mt1_two --set fixes=extraction"],
        "Every metric is recomputed from the logged responses, on the docs rebuilt from the data the run recorded, and shown next to the value in the run's results JSON (docs/report.md).",
    )
    parser.add_argument("path", type=Path, metavar="RUN_DIR", help="the run's --output_path folder (searched recursively) or one results JSON")
    parser.add_argument(
        "--tasks",
        action="append",
        default=[],
        help="comma-separated tasks to re-score (repeatable; default: every task of the run): a task's name, or the name of a test a task holds as the report shows it (tempvs_mt2_event: the task tempvs)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        dest="settings",
        metavar="KEY=VALUE",
        help="a task setting (a key of the task YAMLs' metadata) to re-score with instead of the run's, for every re-scored task that has it (repeatable), e.g. fixes=extraction (default: the settings the run recorded)",
    )
    parser.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="NAME=FOLDER",
        help="where to load a benchmark's data from (repeatable), e.g. TEMPVS_DATA_DIR=/data/tempvs (default: the environment's variable, else the release folder above the images the run read)",
    )
    parser.add_argument("--format", choices=["markdown", "csv"], default="markdown", help="output format (default: %(default)s)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write the table here instead of standard output (default: standard output)")
    parser.add_argument("--write-results", type=Path, metavar="FILE", help="also write a results JSON with the re-scored values (one run only; default: none)")
    return parser


def main_rescore(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    wanted = [t for item in args.tasks for t in item.split(",") if t]
    try:
        values = parse_settings(args.settings)
        runs = find_runs(args.path)
        if not runs:
            raise RescoreError(f"no lmms-eval or lm-eval results file under {args.path}")
        if args.write_results and len(runs) > 1:
            raise RescoreError(f"--write-results takes one run; {args.path} holds {len(runs)}: " + ", ".join(str(r.results_path) for r in runs))
        named = named_tasks(runs, wanted)
        locations = data_locations_of({task: run.data_read(task) for run in runs for task in run.tasks if not named or task in named}, parse_locations(args.data), "--data")
        for note in locations.notes:
            print(f"temporal-bench rescore: data: {note}", file=sys.stderr)
        with data_locations(locations.assignments), quiet_harness_logs():
            done = rescore(runs, wanted, values)
    except (RescoreError, FileNotFoundError, ValueError) as exc:
        parser.error(str(exc))
    for warning in yaml_warnings(done):
        print(f"temporal-bench rescore: {warning}", file=sys.stderr)
    text = render_markdown(done) if args.format == "markdown" else render_csv(done)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if args.write_results:
        write_results(done[0], args.write_results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_rescore())
