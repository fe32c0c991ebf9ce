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
EPILOG = f"example:\n  {PROGRAM} demo\n\n{PROGRAM} COMMAND --help shows a command's options and an example (docs/cli.md of the source repository describes them all)."


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
