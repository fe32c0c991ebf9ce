"""``temporal-bench rescore``: a run's metrics computed again by its harness from its logged answers (temporal_bench/rescore)."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from temporal_bench.cli_style import CommandParser, command_parser
from temporal_bench.data_locations import data_locations, data_locations_of, parse_locations
from temporal_bench.rescore.errors import DATA_HINT, EvaluationError, RescoreError
from temporal_bench.rescore.output import render_csv, render_markdown, yaml_warnings
from temporal_bench.rescore.scoring import rescore
from temporal_bench.rescore.settings import parse_settings, shown_value
from temporal_bench.runs.logged import RunReadError, find_runs, named_tasks


def build_parser() -> CommandParser:
    parser = command_parser(
        "rescore",
        ["temporal-bench rescore out/ --tasks tempvs_mt1_two --set fixes=extraction --output-dir out_fixed/"],
        "The harness evaluates the run's tasks again, its answers replayed, into a run folder of its own; every metric is shown next to the run's (docs/report.md).",
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
        help="a task setting (a key of the task YAMLs' metadata) to re-score with instead of the run's, for every re-scored task that has it (repeatable), e.g. fixes=extraction; a setting that changes what the model is asked is refused (default: the settings the run recorded)",
    )
    parser.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="NAME=FOLDER",
        help="where to load a benchmark's data from (repeatable), e.g. TEMPVS_DATA_DIR=/data/tempvs (default: the environment's variable, else the release folder above the images the run read)",
    )
    parser.add_argument("--output-dir", type=Path, metavar="DIR", help="the re-scored run's folder, a run folder like any other (default: RUN_DIR_rescored beside the run)")
    parser.add_argument("--format", choices=["markdown", "csv"], default="markdown", help="output format (default: %(default)s)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write the table here instead of standard output (default: standard output)")
    return parser


def default_output_dir(path: Path) -> Path:
    folder = path.parent if path.is_file() else path
    return folder.with_name(f"{folder.resolve().name}_rescored")


def main_rescore(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    wanted = [t for item in args.tasks for t in item.split(",") if t]
    output_dir = args.output_dir or default_output_dir(args.path)
    try:
        values = parse_settings(args.settings)
        runs = find_runs(args.path)
        if not runs:
            raise RescoreError(f"no lmms-eval or lm-eval results file under {args.path}")
        named = named_tasks(runs, wanted)
        locations = data_locations_of({task: run.data_read(task) for run in runs for task in run.tasks if not named or task in named}, parse_locations(args.data), "--data")
        for note in locations.notes:
            print(f"temporal-bench rescore: data: {note}", file=sys.stderr)
        print(f"temporal-bench rescore: evaluating the run's answers again into {output_dir} ...", file=sys.stderr, flush=True)
        with data_locations(locations.assignments):
            try:
                done = rescore(runs, output_dir, wanted, values)
            except EvaluationError as error:
                raise _blamed(error, runs, wanted, values) from error
    except (RescoreError, RunReadError, FileNotFoundError, ValueError) as exc:
        parser.error(str(exc))
    for warning in yaml_warnings(done):
        print(f"temporal-bench rescore: {warning}", file=sys.stderr)
    text = render_markdown(done) if args.format == "markdown" else render_csv(done)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _blamed(error: EvaluationError, runs, wanted, values: dict) -> RescoreError:
    """A re-score that fails with the ``--set`` values but not with the run's own settings: the values are to blame, not
    the data; otherwise ``error`` and what re-scoring needs."""
    if values:
        with tempfile.TemporaryDirectory(prefix="rescore-") as folder:
            try:
                rescore(runs, Path(folder), wanted)
            except RescoreError:
                pass
            else:
                given = ", ".join(f"{key}={shown_value(value)}" for key, value in values.items())
                return RescoreError(f"--set {given}: the tasks cannot be evaluated with it ({error}); with the run's own settings they can")
    return RescoreError(f"{error}; {DATA_HINT}")
