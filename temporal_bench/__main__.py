"""``temporal-bench`` / ``python -m temporal_bench``: small helpers around the harnesses."""

import argparse
import sys
from pathlib import Path

from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR


def lm_eval_with_our_models(argv) -> None:
    """lm-eval's own command line, with our scripted and random_choice models registered."""
    import temporal_bench.models.lm_eval_models  # noqa: F401  (registers the models)
    from lm_eval.__main__ import cli_evaluate

    sys.argv = ["lm-eval", *argv]
    cli_evaluate()


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["lm-eval"]:
        return lm_eval_with_our_models(argv[1:])
    if argv[:1] == ["report"]:
        from temporal_bench.report.cli import main_report

        return main_report(argv[1:])
    parser = argparse.ArgumentParser(prog="temporal-bench")
    sub = parser.add_subparsers(dest="command", required=True)
    task_dir = sub.add_parser("task-dir", help="print the folder to pass as --include_path")
    task_dir.add_argument("--harness", choices=["lmms-eval", "lm-eval"], default="lmms-eval")
    sub.add_parser("lm-eval", help="run lm-eval's CLI with our scripted/random_choice models registered")
    sub.add_parser("report", help="render results next to the papers' published tables (see: report --help)")
    demo = sub.add_parser("demo", help="evaluate the demo data with a baseline and print the results table")
    demo.add_argument("--output", type=Path, default=Path("demo_output"))
    demo.add_argument("--model", default="random_choice")
    demo.add_argument("--model_args", default="seed=1234")
    args = parser.parse_args(argv)
    if args.command == "task-dir":
        print(LMMS_EVAL_TASK_DIR if args.harness == "lmms-eval" else LM_EVAL_TASK_DIR)
    elif args.command == "demo":
        from temporal_bench.demo import run_demo

        run_demo(args.output, args.model, args.model_args)


if __name__ == "__main__":
    main()
