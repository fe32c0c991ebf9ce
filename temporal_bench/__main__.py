"""``temporal-bench`` / ``python -m temporal_bench``: small helpers around the harnesses."""

import argparse
import importlib
import sys
from pathlib import Path

from temporal_bench import __version__
from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR

DESCRIPTION = (
    "Helpers around lmms-eval (and lm-eval) for the TempVS, ISO-Bench and CaT-Bench tasks of this package: "
    "evaluate the bundled demo data (demo), lay results out as the papers' tables (report), re-score a logged "
    "run (rescore), score TempVS's released model outputs (score-predictions), export the task folders for "
    "lmms-eval (export), tell whether a run is complete and sound (check). Evaluations themselves run with lmms-eval / lm-eval."
)


def lm_eval_with_our_models(argv) -> None:
    """lm-eval's own command line, with our scripted and random_choice models registered."""
    import temporal_bench.models.lm_eval_models  # noqa: F401  (registers the models)
    from lm_eval.__main__ import cli_evaluate

    sys.argv = ["lm-eval", *argv]
    cli_evaluate()


# subcommands with their own argument parsers: name -> (module, function, help)
PASSTHROUGH = {
    "report": ("temporal_bench.report.cli", "main_report",
               "render results next to the papers' published tables and figures"),
    "rescore": ("temporal_bench.report.rescore", "main_rescore",
                "recompute the metrics of a --log_samples run, optionally with another parser option"),
    "score-predictions": ("temporal_bench.tempvs.released_predictions", "main_score_predictions",
                          "score the TempVS release's own model outputs next to the published tables"),
    "browse": ("temporal_bench.browse.cli", "main_browse",
               "write one static HTML page of a --log_samples run: a card per question with its images and answer "
               "(--examples: the papers' qualitative figures)"),
    "export": ("temporal_bench.export.cli", "main_export",
               "write the lmms_eval/tasks/ folders of an upstream pull request; --check runs lmms-eval's checks on them"),
    "forget-failed": ("temporal_bench.response_cache", "main_forget_failed",
                      "remove failed requests from an lmms-eval --use_cache folder, so a re-run asks for them again"),
    "compare": ("temporal_bench.report.compare", "main_compare", "paired comparison of two runs: differences with intervals and p-values"),
    "check": ("temporal_bench.check", "main_check",
              "exit 1 naming what is wrong with a run's output (missing task, failed requests, --limit, stray samples); "
              "the line to put after lmms-eval in scripts"),
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["lm-eval"]:
        return lm_eval_with_our_models(argv[1:])
    if argv[:1] and argv[0] in PASSTHROUGH:
        module, function, _ = PASSTHROUGH[argv[0]]
        return getattr(importlib.import_module(module), function)(argv[1:])
    parser = argparse.ArgumentParser(prog="temporal-bench", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    task_dir = sub.add_parser("task-dir", help="print the folder to pass as --include_path")
    task_dir.add_argument("--harness", choices=["lmms-eval", "lm-eval"], default="lmms-eval",
                          help="whose task folder (default: %(default)s)")
    sub.add_parser("lm-eval", help="run lm-eval's CLI with our scripted/random_choice models registered")
    for name, (_, _, help_text) in PASSTHROUGH.items():
        sub.add_parser(name, help=f"{help_text} (see: {name} --help)")
    demo = sub.add_parser("demo", help="evaluate the synthetic demo data with a baseline and print the headline summary")
    demo.add_argument("--output", type=Path, default=Path("demo_output"),
                      help="folder for the demo data, results, lmms-eval's log and the report (default: %(default)s)")
    demo.add_argument("--model", default="random_choice", help="lmms-eval model name (default: %(default)s)")
    demo.add_argument("--model_args", default="seed=1234", help="lmms-eval --model_args (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.command == "task-dir":
        print(LMMS_EVAL_TASK_DIR if args.harness == "lmms-eval" else LM_EVAL_TASK_DIR)
    elif args.command == "demo":
        from temporal_bench.demo import run_demo

        run_demo(args.output, args.model, args.model_args)


if __name__ == "__main__":
    sys.exit(main())
