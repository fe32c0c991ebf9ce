"""``temporal-bench export``: write lmms-eval task folders for an upstream pull request, and check them."""

import sys
import tempfile
from pathlib import Path

from temporal_bench.cli_style import command_parser
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import exportable
from temporal_bench.export.formatting import version_notes
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, export_task_folders


def build_parser():
    parser = command_parser(
        "export",
        ["temporal-bench export --output-dir ~/lmms-eval", "temporal-bench export --output-dir out/ --check --converted-data hub/ --validation logs/random_choice/"],
        f"Writes {UPSTREAM_TASKS_DIR}/<benchmark>/ and the shared helpers' folder under --output-dir (e.g. an lmms-eval checkout); "
        "with --check, runs lmms-eval's checks on them (lint, offline imports, the TaskManager, every task with --limit 8 on "
        "converted data) and prints the pull request's description (docs/report.md).",
    )
    parser.add_argument("--benchmark", action="append", choices=exportable(), help="repeat for several (default: all)")
    parser.add_argument("--output-dir", type=Path, required=True, aliases=["--output"], metavar="DIR", help=f"folder to write {UPSTREAM_TASKS_DIR}/ under")
    parser.add_argument("--check", action="store_true", help="then lint, import, load and run the exported tasks (--limit 8) and print the pull request's description; exit status 1 when a check fails")
    parser.add_argument("--converted-data", type=Path, metavar="DIR", help="with --check: the converted data to run the tasks on, a folder of <benchmark>/ folders written by build-dataset (default: none, and the run step fails)")
    parser.add_argument("--validation", type=Path, action="append", default=[], metavar="RUN_DIR", help="with --check: a run folder whose numbers the description compares with the papers' rows (repeatable)")
    return parser


def main_export(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if (args.converted_data or args.validation) and not args.check:
        parser.error("--converted-data and --validation go with --check")
    names = args.benchmark or exportable()
    try:
        folders = export_task_folders(names, args.output_dir)
    except ExportError as error:
        sys.exit(f"temporal-bench export: {error}")
    for folder in folders:
        print(folder.path)
        for r in folder.requirements:
            print(f"temporal-bench export: note: {folder.benchmark}/ imports {r.module} ({r.distribution}), which lmms-eval does not install; the pull request must add it to lmms-eval's dependencies", file=sys.stderr)
    for note in version_notes():
        print(f"temporal-bench export: note: {note}", file=sys.stderr)
    if not args.check:
        return 0
    from temporal_bench.export.description import pull_request_text
    from temporal_bench.export.pull_request import run_checks

    with tempfile.TemporaryDirectory(prefix="export-check-") as work:
        steps = run_checks(Path(args.output_dir) / UPSTREAM_TASKS_DIR, folders, args.converted_data, Path(work))
    print(pull_request_text(folders, steps, args.validation))
    failed = [step.name for step in steps if not step.passed]
    if failed:
        print(f"temporal-bench export --check: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0
