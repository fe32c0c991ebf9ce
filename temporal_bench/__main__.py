"""``temporal-bench`` / ``python -m temporal_bench``: small helpers around the harnesses. Each subcommand
(:data:`temporal_bench.commands.SUBCOMMANDS`) parses its own arguments; this module dispatches to it
and holds the three small ones (task-dir, demo, lm-eval)."""

import importlib
import sys
from pathlib import Path

from temporal_bench import __version__
from temporal_bench.cli_style import PROGRAM, CommandParser, command_parser, paragraphs
from temporal_bench.commands import SUBCOMMANDS
from temporal_bench.paths import LM_EVAL_TASK_DIR, PLUGIN_TASK_DIR

DESCRIPTION = (
    "Helpers around lmms-eval (and lm-eval) for the TempVS, ISO-Bench and CaT-Bench tasks of this package. "
    "Evaluations themselves run with lmms-eval / lm-eval; these commands find the tasks, check, report, compare "
    "and browse the runs, and export the tasks for lmms-eval."
)
EPILOG = f"example:\n  {PROGRAM} demo\n\n{PROGRAM} COMMAND --help shows a command's options and an example; docs/cli.md describes them all."


def main_task_dir(argv) -> None:
    parser = command_parser(
        "task-dir",
        [f"{PROGRAM} task-dir --harness lm-eval"],
        f'Installed, the package adds its tasks to lmms-eval on its own; --include_path "$({PROGRAM} task-dir)" names them explicitly ' "(lmms-eval's `tasks list` subcommand and lm-eval need it; docs/harness.md).",
    )
    parser.add_argument("--harness", choices=["lmms-eval", "lm-eval"], default="lmms-eval", help="whose task folder (default: %(default)s)")
    args = parser.parse_args(argv)
    print(PLUGIN_TASK_DIR if args.harness == "lmms-eval" else LM_EVAL_TASK_DIR)


def main_demo(argv) -> None:
    parser = command_parser("demo", [f"{PROGRAM} demo --output-dir demo_seed1 --model-args seed=1"], "Writes the demo data, lmms-eval's results and log, and the report with every table and figure into --output-dir.")
    parser.add_argument("--output-dir", type=Path, default=Path("demo_output"), aliases=["--output"], metavar="DIR", help="folder for the demo data, results, lmms-eval's log and the report (default: %(default)s)")
    parser.add_argument("--model", default="random_choice", help="lmms-eval model name (default: %(default)s)")
    parser.add_argument("--model-args", default="seed=1234", help="lmms-eval --model_args (default: %(default)s)")
    args = parser.parse_args(argv)
    from temporal_bench.demo import run_demo

    run_demo(args.output_dir, args.model, args.model_args)


LM_EVAL_HELP_HEADING = "lm-eval's own help:"  # between our part of `temporal-bench lm-eval --help` and lm-eval's
LM_EVAL_EXAMPLE = f'{PROGRAM} lm-eval run --model random_choice --tasks catbench --include_path "$({PROGRAM} task-dir --harness lm-eval)"'


def lm_eval_parser() -> CommandParser:
    """Only for ``--help``: everything after ``lm-eval`` goes to lm-eval's own command line."""
    parser = command_parser("lm-eval", [LM_EVAL_EXAMPLE], "Everything after `lm-eval` is lm-eval's own command line, whose help follows (docs/harness.md, docs/models.md); `--model random_choice` and `--model scripted` are this package's.")
    parser.usage = f"{parser.prog} [LM_EVAL_ARGUMENTS ...]"
    return parser


def lm_eval_results(output_path) -> set:
    """The results files lm-eval writes under ``--output_path`` (a folder: ``<model name>/results_<date>.json``)."""
    if not output_path:
        return set()
    path = Path(output_path)
    return set(path.parent.glob(f"{path.stem}_*.json") if path.suffix == ".json" else path.glob("*/results_*.json"))


def lm_eval_results_note(written: set, model_args) -> str:
    """Where an lm-eval run wrote its results: lm-eval names the folder after the --model_args value of ``pretrained=``,
    ``model=``, ``path=`` (also ``peft=``, ``delta=``, ``engine=``), else, as for our models, at random."""
    from lm_eval.loggers.evaluation_tracker import GeneralConfigTracker

    if not written:
        return ""
    named = GeneralConfigTracker._get_model_name(model_args) is not None
    why = "" if named else " (a folder lm-eval names at random where --model_args has no pretrained=, model= or path=, as for random_choice and scripted)"
    return "\n".join(f"lm-eval's results: {path}{why}" for path in sorted(written))


def main_lm_eval(argv) -> None:
    """lm-eval's own command line, with our scripted and random_choice models registered; ``--help``
    (or nothing) shows our usage and example first, then lm-eval's help. A run ends saying where lm-eval wrote its
    results."""
    from lm_eval._cli import HarnessCLI
    from lm_eval.utils import setup_logging

    import temporal_bench.models.lm_eval_models  # noqa: F401  (registers the models)

    if not argv or argv[0] in ("-h", "--help"):
        print(f"{lm_eval_parser().format_help()}\n{LM_EVAL_HELP_HEADING}\n", flush=True)
    sys.argv = ["lm-eval", *argv]
    setup_logging()  # lm-eval's cli_evaluate, its results files noted before and after
    harness = HarnessCLI()
    args = harness.parse_args()
    output_path = getattr(args, "output_path", None) if args.command == "run" else None
    before = lm_eval_results(output_path)
    harness.execute(args)
    note = lm_eval_results_note(lm_eval_results(output_path) - before, getattr(args, "model_args", None))
    if note:
        print(note)


def program_parser() -> CommandParser:
    """``temporal-bench --help``: every subcommand with its summary; also ``--version`` and the one-line error
    for an unknown or missing subcommand."""
    parser = CommandParser(prog=PROGRAM, description=paragraphs(DESCRIPTION), epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name, command in SUBCOMMANDS.items():
        commands.add_parser(name, help=command.summary.replace("%", "%%"))
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] and argv[0] in SUBCOMMANDS:
        command = SUBCOMMANDS[argv[0]]
        return getattr(importlib.import_module(command.module), command.function)(argv[1:])
    program_parser().parse_args(argv)  # prints the help or the version, or one line naming the error: exits


if __name__ == "__main__":
    sys.exit(main())
