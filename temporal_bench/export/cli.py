"""``temporal-bench export``: write lmms-eval task folders for an upstream pull request."""

import sys
from pathlib import Path

from temporal_bench.cli_style import command_parser
from temporal_bench.export.benchmarks import BENCHMARKS
from temporal_bench.export.formatting import version_notes
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, ExportError, export_task_folder


def main_export(argv=None) -> None:
    parser = command_parser("export", ["temporal-bench export --benchmark catbench --output-dir ~/lmms-eval"],
                            f"Writes {UPSTREAM_TASKS_DIR}/<benchmark>/ under --output-dir (e.g. an lmms-eval checkout): the task "
                            "YAMLs, utils.py and the modules it imports (as lmms_eval.tasks.<benchmark>.<module>), and a README.")
    parser.add_argument("--benchmark", action="append", choices=list(BENCHMARKS),
                        help="repeat for several (default: all three)")
    parser.add_argument("--output-dir", type=Path, required=True, aliases=["--output"], metavar="DIR",
                        help="folder to write lmms_eval/tasks/<benchmark>/ under")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    for name in args.benchmark or list(BENCHMARKS):
        try:
            exported = export_task_folder(BENCHMARKS[name], args.output_dir)
        except ExportError as error:
            sys.exit(f"temporal-bench export: {name}: {error}")
        print(exported.path)
        for module, distribution in exported.extra_requirements.items():
            print(f"temporal-bench export: note: {name}/ imports {module} ({distribution}), which lmms-eval does not "
                  "install; the pull request must add it to lmms-eval's dependencies", file=sys.stderr)
    for note in version_notes():
        print(f"temporal-bench export: note: {note}", file=sys.stderr)
