"""``temporal-bench lm-eval``: lm-eval's own command line with this package's models registered (lm-eval has no plugin
mechanism for models), saying where a run wrote its results."""

import sys
from pathlib import Path

from temporal_bench.cli_style import PROGRAM, CommandParser, command_parser

LM_EVAL_HELP_HEADING = "lm-eval's own help:"  # between our part of `temporal-bench lm-eval --help` and lm-eval's
LM_EVAL_EXAMPLE = f'{PROGRAM} lm-eval run --model random_choice --tasks catbench --include_path "$({PROGRAM} task-dir --harness lm-eval)"'


def lm_eval_parser() -> CommandParser:
    """Only for ``--help``: everything after ``lm-eval`` goes to lm-eval's own command line."""
    parser = command_parser(
        "lm-eval", [LM_EVAL_EXAMPLE], "Everything after `lm-eval` is lm-eval's own command line, whose help follows (docs/harness.md, docs/models.md); `--model random_choice`, `scripted` and `replay` are this package's."
    )
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
    """lm-eval's own command line, with our models registered; ``--help``
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
