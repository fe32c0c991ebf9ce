"""``temporal-bench`` / ``python -m temporal_bench``: small helpers around the harnesses."""

import argparse

from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="temporal-bench")
    sub = parser.add_subparsers(dest="command", required=True)
    task_dir = sub.add_parser("task-dir", help="print the folder to pass as --include_path")
    task_dir.add_argument("--harness", choices=["lmms-eval", "lm-eval"], default="lmms-eval")
    args = parser.parse_args(argv)
    if args.command == "task-dir":
        print(LMMS_EVAL_TASK_DIR if args.harness == "lmms-eval" else LM_EVAL_TASK_DIR)


if __name__ == "__main__":
    main()
