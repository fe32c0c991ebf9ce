"""The ``temporal-bench`` subcommands: where each one's ``main(argv)`` lives and its one-line summary,
which the top-level ``--help`` lists and the subcommand's own ``--help`` starts with (docs/cli.md).
Adding a subcommand is one entry here plus its ``main``, whose parser comes from
:func:`temporal_bench.cli_style.command_parser`."""

from temporal_bench.manifest import Subcommand, manifests

SUBCOMMANDS = {
    "task-dir": Subcommand("temporal_bench.__main__", "main_task_dir", "print the task folder to pass to lmms-eval (or lm-eval) as --include_path"),
    "demo": Subcommand("temporal_bench.__main__", "main_demo", "evaluate the bundled synthetic data with a baseline model and print the headline summary"),
    "lm-eval": Subcommand("temporal_bench.lm_eval_cli", "main_lm_eval", "run lm-eval's own command line with this package's models (random_choice, scripted, replay) registered"),
    "check": Subcommand("temporal_bench.check", "main_check", "exit 1 naming what is wrong with a run's output folder (missing task, failed requests, --limit, stray samples)"),
    "report": Subcommand("temporal_bench.report.cli", "main_report", "lay runs' results out as the papers' tables and figures, next to the published rows"),
    "compare": Subcommand("temporal_bench.report.compare", "main_compare", "compare two runs question by question: differences with 95% intervals and p-values"),
    "rescore": Subcommand("temporal_bench.rescore.cli", "main_rescore", "recompute a --log_samples run's metrics without the model, optionally with other task settings"),
    "browse": Subcommand("temporal_bench.browse.cli", "main_browse", "write one static HTML page with a card per logged question: its images, prompt, response and verdict"),
    **{name: command for manifest in manifests().values() for name, command in manifest.commands.items()},  # one benchmark's own (score-predictions)
    "build-dataset": Subcommand("temporal_bench.build_dataset", "main_build_dataset", "convert a benchmark's official release into a hub-ready dataset folder (parquet, images embedded, a dataset card)"),
    "export": Subcommand("temporal_bench.export.cli", "main_export", "write the lmms_eval/tasks/ folders of an upstream pull request; --check runs lmms-eval's checks on them"),
    "forget-failed": Subcommand("temporal_bench.response_cache", "main_forget_failed", "remove failed requests from an lmms-eval --use_cache folder, so that a re-run asks for them again"),
}
