"""One command-line style for every ``temporal-bench`` subcommand (docs/cli.md): ``--help`` starts with
the subcommand's one-line summary (:data:`temporal_bench.commands.SUBCOMMANDS`) and ends with an
example; long options are spelled with hyphens and also accept the underscore spelling lmms-eval
uses (``--model-args`` / ``--model_args``); a renamed option keeps its old spelling as an alias that
``--help`` does not show; a usage error is one line that names the fix, with exit status 2."""

from __future__ import annotations

import argparse
import copy
import textwrap
from collections.abc import Iterable, Sequence

from temporal_bench.commands import SUBCOMMANDS

PROGRAM = "temporal-bench"
DESCRIPTION_WIDTH = 100


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the description's paragraphs (see :func:`paragraphs`) and the examples as written (an
    example stays one line to copy); lists each option under its shown spellings only, and the
    subcommands without argparse's header line for them."""

    def _format_action(self, action: argparse.Action) -> str:
        if isinstance(action, argparse._SubParsersAction):
            return "".join(self._format_action(command) for command in action._get_subactions())
        return super()._format_action(action)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        aliases = getattr(action, "aliases", ())
        if aliases:
            action = copy.copy(action)
            action.option_strings = [name for name in action.option_strings if name not in aliases]
        return super()._format_action_invocation(action)


class CommandParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with the style above (sub-parsers of one are of this class too)."""

    def __init__(self, *args, formatter_class: type = HelpFormatter, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)

    def add_argument(self, *names: str, aliases: Iterable[str] = (), **kwargs) -> argparse.Action:
        """``aliases``: old spellings still accepted but not shown; each ``--hyphenated-option`` also
        accepts ``--hyphenated_option``. The value goes where the first long name says."""
        underscored = ["--" + name[2:].replace("-", "_") for name in names if name.startswith("--")]
        hidden = tuple(name for name in dict.fromkeys([*underscored, *aliases]) if name not in names)
        action = super().add_argument(*names, *hidden, **kwargs)
        action.aliases = hidden
        return action

    def error(self, message: str):
        """One line instead of argparse's usage block (which would list every choice of every option)."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def paragraphs(*texts: str) -> str:
    """A description for :class:`HelpFormatter`: each text wrapped on its own, a blank line between."""
    return "\n\n".join(textwrap.fill(text, DESCRIPTION_WIDTH, break_on_hyphens=False) for text in texts if text)


def command_parser(command: str, examples: Sequence[str], details: str = "") -> CommandParser:
    """The parser of ``temporal-bench COMMAND``: ``--help`` shows its summary, then ``details``
    (wrapped), the options, and ``examples`` (complete command lines, docs/cli.md shows the same)."""
    summary = SUBCOMMANDS[command].summary
    description = paragraphs(f"{summary[:1].upper()}{summary[1:]}.", details)
    heading = "example:" if len(examples) == 1 else "examples:"
    return CommandParser(prog=f"{PROGRAM} {command}", description=description, epilog="\n".join([heading, *(f"  {line}" for line in examples)]))
