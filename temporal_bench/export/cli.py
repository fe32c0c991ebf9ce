"""``temporal-bench export``: write the lmms-eval task folder of each benchmark for its upstream pull request, and check it."""

import sys
import tempfile
from pathlib import Path

from temporal_bench.cli_style import command_parser
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import exportable
from temporal_bench.export.lm_eval_folder import LM_EVAL_TASKS_DIR, TASK_TABLE, export_lm_eval_folders, lm_eval_benchmarks, table_written, task_table_row
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, export_task_folders
from temporal_bench.export.task_list import TASK_LIST, add_to_task_list, task_list_entry


def build_parser():
    parser = command_parser(
        "export",
        [
            "temporal-bench export --benchmark catbench --output-dir ~/lmms-eval",
            "temporal-bench export --benchmark tempvs --output-dir out/ --check --converted-data hub/ --validation logs/qwen2_vl/",
            "temporal-bench export --harness lm-eval --benchmark catbench --output-dir ~/lm-evaluation-harness",
        ],
        f"Copies each benchmark's task folder to {UPSTREAM_TASKS_DIR}/<benchmark>/ under --output-dir (e.g. an lmms-eval checkout), with the shared "
        f"helpers it imports and its tests (test/eval/); only the import prefix changes. Adds the benchmark's entry to {TASK_LIST.as_posix()} where "
        "the folder has that file. With --check, "
        "runs lmms-eval's checks on each folder (lint, offline imports, the TaskManager, the exported tests, every task with --limit 8 on "
        "converted data) and prints its pull request's description (docs/upstream.md). With --harness lm-eval, writes the "
        f"lm-eval folder of a benchmark that has one (CaT-Bench) as {LM_EVAL_TASKS_DIR}/<benchmark>/ and its row in {TASK_TABLE.as_posix()}.",
    )
    parser.add_argument("--harness", choices=("lmms-eval", "lm-eval"), default="lmms-eval", help="the harness whose pull request to write (default: lmms-eval)")
    parser.add_argument("--benchmark", action="append", choices=sorted(set(exportable()) | set(lm_eval_benchmarks())), help="repeat for several, one pull request each (default: all the harness's)")
    parser.add_argument("--output-dir", type=Path, required=True, aliases=["--output"], metavar="DIR", help=f"folder to write {UPSTREAM_TASKS_DIR}/ and test/eval/ under")
    parser.add_argument("--check", action="store_true", help="then lint, import, load, test and run the exported tasks (--limit 8) and print each pull request's description; exit status 1 when a check fails")
    parser.add_argument("--converted-data", type=Path, metavar="DIR", help="with --check: the converted data to run the tasks on, a folder of <benchmark>/ folders written by build-dataset (default: none, and the run step fails)")
    parser.add_argument("--validation", type=Path, action="append", default=[], metavar="RUN_DIR", help="with --check: a run folder whose numbers the description compares with the papers' rows (repeatable)")
    return parser


def main_export(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if (args.converted_data or args.validation) and not args.check:
        parser.error("--converted-data and --validation go with --check")
    if args.harness == "lm-eval":
        if args.check:
            parser.error("--check runs lmms-eval's checks; an lm-eval folder is checked by its tests (docs/upstream.md)")
        return _export_lm_eval(args.benchmark or lm_eval_benchmarks(), args.output_dir)
    try:
        folders = export_task_folders(args.benchmark or exportable(), args.output_dir)
        lists = {folder.benchmark: add_to_task_list(args.output_dir, folder.benchmark, folder.path) for folder in folders}
    except ExportError as error:
        sys.exit(f"temporal-bench export: {error}")
    for folder in folders:
        print(folder.path)
        listed = lists[folder.benchmark]
        if listed is None:
            entry = "\n".join(task_list_entry(folder.benchmark, folder.path))
            print(f"temporal-bench export: no {TASK_LIST.as_posix()} under {args.output_dir} (no lmms-eval checkout): add the entry by hand:\n{entry}", file=sys.stderr)
        else:
            print(listed)
    if not args.check:
        return 0
    from temporal_bench.export.description import pull_request_text
    from temporal_bench.export.pull_request import run_checks

    with tempfile.TemporaryDirectory(prefix="export-check-") as work:
        steps = run_checks(Path(args.output_dir), folders, args.converted_data, Path(work))
    failed = []
    for folder in folders:
        print(pull_request_text(folder, steps[folder.benchmark], args.validation))
        failed += [f"{folder.benchmark}: {step.name}" for step in steps[folder.benchmark] if not step.passed]
    if failed:
        print(f"temporal-bench export --check: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def _export_lm_eval(names, output: Path) -> int:
    try:
        folders = export_lm_eval_folders(names, output)
    except ExportError as error:
        sys.exit(f"temporal-bench export: {error}")
    for folder in folders:
        print(folder.path)
        if table_written(output) is None:
            print(f"temporal-bench export: no {TASK_TABLE.as_posix()} under {output} (no lm-eval checkout): add the row by hand:\n{task_table_row(folder.benchmark)}", file=sys.stderr)
    if table_written(output) is not None:
        print(table_written(output))
    return 0
