"""How long lmms-eval takes to load a task's YAML (every ``!function`` tag resolved) from the plugin's
task folder and from the exported one (issue 12: the export must load no slower than the plugin).

lmms-eval resolves each ``!function utils.<name>`` tag by executing the folder's ``utils.py`` again, so
the cost is that of ``utils.py`` times the tags: the plugin's and the exported one only import modules
(executed once, then cached). Each figure is the best of ``--repeat`` fresh processes, with lmms-eval's
``tasks`` package (the CLI imports it before it loads any YAML) and ``datasets`` imported before the
clock starts; our own modules are imported inside the measurement. The exported folder is loaded where ``import temporal_bench`` fails,
from lmms-eval's package (temporal_bench/export/standalone/overlay.py); ``--folder LABEL=PATH`` adds
another task folder to compare (e.g. an older export), loaded the same way.

    .venv/bin/python benchmarks/export_load_time.py --task tempvs_mt1_two
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

from processes import run

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from temporal_bench.export.cli import main_export  # noqa: E402
from temporal_bench.export.standalone.overlay import install_overlay  # noqa: E402
from temporal_bench.paths import LMMS_EVAL_TASK_DIR  # noqa: E402

BLOCK = REPO / "temporal_bench" / "export" / "standalone"  # its sitecustomize.py blocks our package
_MEASURE = """
import sys, time
import datasets
import lmms_eval.tasks
from lmms_eval.utils import load_yaml_config
start = time.perf_counter()
config = load_yaml_config(yaml_path=sys.argv[1], mode="full")
elapsed = time.perf_counter() - start
assert all(callable(config[key]) for key in ("process_docs", "process_results", "doc_to_text")), config
print(elapsed)
"""


def load_time(yaml_path: Path, pythonpath: str, repeat: int) -> float:
    """Best of ``repeat`` fresh processes, seconds."""
    return min(float(run([sys.executable, "-c", _MEASURE, yaml_path], {"PYTHONPATH": pythonpath}).checked().stdout.strip().splitlines()[-1]) for _ in range(repeat))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="tempvs_mt1_two")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--folder", action="append", default=[], metavar="LABEL=PATH", help="another task folder of the benchmark to time, loaded as the export is")
    parser.add_argument("--only", default="", help="comma-separated labels of the folders to time (default: all; the suite's smoke run: export)")
    args = parser.parse_args(argv)
    benchmark = args.task.split("_")[0]
    with tempfile.TemporaryDirectory() as tmp:
        main_export(["--benchmark", benchmark, "--output-dir", tmp])
        exported = Path(tmp) / "lmms_eval" / "tasks" / benchmark
        overlay = install_overlay(Path(tmp) / "overlay", exported.parent)
        blocked = f"{overlay}:{BLOCK}"
        folders = [("plugin", LMMS_EVAL_TASK_DIR / benchmark, os.environ.get("PYTHONPATH", "")), ("export", exported, blocked)]
        folders += [(label, Path(path), blocked) for label, _, path in (f.partition("=") for f in args.folder)]
        print(f"| task folder | `{args.task}` YAML load s (best of {args.repeat}) |\n|---|---|")
        for label, folder, pythonpath in (f for f in folders if not args.only or f[0] in args.only.split(",")):
            print(f"| {label} | {load_time(folder / f'{args.task}.yaml', pythonpath, args.repeat):.3f} |")


if __name__ == "__main__":
    main()
