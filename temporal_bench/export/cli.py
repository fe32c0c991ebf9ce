"""``temporal-bench export``: write lmms-eval task folders for an upstream pull request, and check them."""

import argparse
import sys
import tempfile
from pathlib import Path

from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import exportable
from temporal_bench.export.formatting import version_notes
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, export_task_folders

EXAMPLE = """example:
  temporal-bench export --output ~/lmms-eval
  temporal-bench export --output out/ --check --data synthetic/ --validation logs/blind/ --validation logs/random_choice/"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="temporal-bench export",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLE,
        description=f"Write the task folders of an lmms-eval pull request ({UPSTREAM_TASKS_DIR}/<benchmark>/ and the shared helpers) under --output; with --check, run lmms-eval's checks on them and print the pull request's text.",
    )
    parser.add_argument("--benchmark", action="append", choices=exportable(), help="repeat for several (default: all)")
    parser.add_argument("--output", type=Path, required=True, help=f"folder to write {UPSTREAM_TASKS_DIR}/ under (e.g. an lmms-eval checkout)")
    parser.add_argument("--check", action="store_true", help="then lint, import, load and run the exported tasks (--limit 8) and print the pull request's description; exit status 1 when a check fails")
    parser.add_argument("--data", type=Path, help="with --check: the converted data to run the tasks on, a folder of <benchmark>/ folders")
    parser.add_argument("--validation", type=Path, action="append", default=[], metavar="RUN_DIR", help="with --check: a run folder whose numbers the description compares with the papers' rows (repeatable)")
    return parser


def main_export(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if (args.data or args.validation) and not args.check:
        parser.error("--data and --validation go with --check")
    names = args.benchmark or exportable()
    try:
        folders = export_task_folders(names, args.output)
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
        steps = run_checks(Path(args.output) / UPSTREAM_TASKS_DIR, folders, args.data, Path(work))
    print(pull_request_text(folders, steps, args.validation))
    failed = [step.name for step in steps if not step.passed]
    if failed:
        print(f"temporal-bench export --check: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0
