"""One command-line style for every ``temporal-bench`` subcommand (docs/cli.md): ``--help`` starts with
the subcommand's one-line summary (:data:`temporal_bench.commands.SUBCOMMANDS`) and ends with an
example; long options are spelled with hyphens and also accept the underscore spelling lmms-eval
uses (``--model-args`` / ``--model_args``); a renamed option keeps its old spelling as an alias that
``--help`` does not show; a usage error is one line that names the fix, with exit status 2."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Iterable, Sequence
from typing import TypeVar

from temporal_bench.commands import SUBCOMMANDS

PROGRAM = "temporal-bench"


def watched() -> bool:
    """Whether a person watches the command: its standard error is a terminal."""
    return sys.stderr.isatty()


def progress(command: str, step: str) -> None:
    """A step of a command that can take seconds at a benchmark's full size, said on standard error when a person
    watches (:func:`watched`); scripts and logs get only the command's results and problems."""
    if watched():
        print(f"{PROGRAM} {command}: {step} ...", file=sys.stderr, flush=True)


DESCRIPTION_WIDTH = 100
_N = TypeVar("_N")  # the namespace argparse parses into (argparse.Namespace unless the caller passes its own)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the description's paragraphs (see :func:`paragraphs`) and the examples as written (an
    example stays one line to copy); lists the subcommands without argparse's header line for them."""

    def _format_action(self, action: argparse.Action) -> str:
        if isinstance(action, argparse._SubParsersAction):
            return "".join(self._format_action(command) for command in action._get_subactions())
        return super()._format_action(action)


class CommandParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with the style above (sub-parsers of one are of this class too).
    An alias is rewritten to its option's spelling before parsing, so that the help, the usage and
    the error messages name only the option's shown spellings."""

    def __init__(self, *, formatter_class: type[argparse.HelpFormatter] = HelpFormatter, **kwargs):
        self.aliases: dict[str, str] = {}  # alias -> the option's first long spelling
        super().__init__(formatter_class=formatter_class, **kwargs)

    def add_argument(self, *names: str, aliases: Iterable[str] = (), **kwargs) -> argparse.Action:
        """``aliases``: old spellings still accepted but not shown; each ``--hyphenated-option`` also
        accepts ``--hyphenated_option``."""
        for name in names:
            if name in self.aliases:
                raise ValueError(f"{self.prog}: {name} is already an alias of {self.aliases[name]}")
        action = super().add_argument(*names, **kwargs)
        long_names = [name for name in names if name.startswith("--")]
        for alias in ["--" + name[2:].replace("-", "_") for name in long_names] + list(aliases):
            if alias in self._option_string_actions and alias not in names:
                raise ValueError(f"{self.prog}: the alias {alias} is another option's spelling")
            if alias not in names:
                self.aliases[alias] = long_names[0]
        return action

    def parse_known_args(self, args: Iterable[str] | None = None, namespace: _N | None = None):
        words = list(sys.argv[1:] if args is None else args)
        end = words.index("--") if "--" in words else len(words)
        words[:end] = [self.canonical(word) for word in words[:end]]
        return super().parse_known_args(words, namespace)

    def canonical(self, word: str) -> str:
        """``word`` with an alias (``--output``, ``--output=x``) in its option's spelling."""
        name, equals, value = word.partition("=")
        return self.aliases[name] + equals + value if name in self.aliases else word

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
