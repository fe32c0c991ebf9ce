"""Every command line README.md and docs/ show still parses with the current CLIs, without running it:
``temporal-bench ...`` through our argument parsers (``temporal-bench lm-eval ...`` through lm-eval's),
``lmms-eval ...`` through lmms-eval's, ``lm-eval run ...`` through lm-eval's; and each name a
documented ``--tasks`` gives is one of our task or group names."""

import argparse
import re
import shlex
import sys
from pathlib import Path

import pytest

from temporal_bench.__main__ import main as temporal_bench_main
from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
PROGRAMS = ("temporal-bench", "lmms-eval", "lm-eval")
ENV_ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")
COMMAND = re.compile(r"^\s*(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:temporal-bench|lmms-eval|lm-eval)\s")
SUBSTITUTION = re.compile(r"\$\([^)]*\)")  # "$(temporal-bench task-dir)": the folder it prints
SYNOPSIS_OPTION = re.compile(r"\s\[[^\]]*\]")  # "[--output FILE.html]" in a usage line
# names a user writes in place of arguments: nothing to check
PLACEHOLDERS = {"...", "M", "$TASKS", "list"}


class Parsed(Exception):
    """Raised by the patched ``parse_args`` once a command line parsed, so that nothing runs."""


def documented_commands():
    """(document, command words) for each command of the three programs in a fenced block (``&&`` and
    ``|`` split a line into commands; continuation lines are joined; leading ``VAR=value`` dropped)."""
    for document in DOCUMENTS:
        for block in FENCE.findall(document.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                line = SYNOPSIS_OPTION.sub("", SUBSTITUTION.sub("TASK_DIR", line.split(" #", 1)[0]))
                for part in re.split(r"&&|\|", line):
                    if not COMMAND.match(part):
                        continue
                    words = shlex.split(part)
                    while words and ENV_ASSIGNMENT.match(words[0]):
                        words.pop(0)
                    # a trailing "..." stands for more arguments, "--tasks ..." for a value
                    words = [w for i, w in enumerate(words) if w != "..." or words[i - 1].startswith("--")]
                    if words and words[0] in PROGRAMS:
                        yield document.relative_to(REPO).as_posix(), words


COMMANDS = list(documented_commands())


def _names(folder: Path) -> set:
    return {name for path in folder.rglob("*.yaml")
            for name in re.findall(r"^(?:task|group): (\S+)$", path.read_text(encoding="utf-8"), flags=re.M)}


def parses(run, argv, monkeypatch) -> bool:
    original = argparse.ArgumentParser.parse_args

    def parse_args(self, args=None, namespace=None):
        original(self, args, namespace)
        raise Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_args)
    monkeypatch.setattr(sys, "argv", argv)
    try:
        run()
    except Parsed:
        return True
    except SystemExit:  # argparse's error exit: the command line does not parse
        return False
    return True  # handled before any parser (temporal-bench report --list-tables prints the layouts)


def run_command(words):
    if words[0] == "temporal-bench":
        return lambda: temporal_bench_main(words[1:])
    if words[0] == "lm-eval":
        from lm_eval.__main__ import cli_evaluate

        return cli_evaluate
    from lmms_eval.__main__ import parse_eval_args

    return parse_eval_args


def test_the_documents_show_commands_of_each_program():
    assert {words[0] for _, words in COMMANDS} == set(PROGRAMS)
    assert len(COMMANDS) > 40


@pytest.mark.parametrize("document, words", COMMANDS, ids=[" ".join(words)[:80] for _, words in COMMANDS])
def test_a_documented_command_parses(document, words, monkeypatch):
    if words[:2] == ["lmms-eval", "tasks"]:  # lmms-eval's subcommand CLI: its own parser, not the evaluation's
        pytest.skip("lmms-eval's tasks subcommand")
    assert parses(run_command(words), words, monkeypatch), f"{document}: {' '.join(words)}"


@pytest.mark.parametrize("document, words", [c for c in COMMANDS if "--tasks" in c[1] and c[1][:2] != ["temporal-bench", "rescore"]],
                         ids=lambda value: " ".join(value)[:80] if isinstance(value, list) else value)
def test_documented_task_names_exist(document, words):
    if any(word == "--include_path" and path != "TASK_DIR" for word, path in zip(words, words[1:])):
        pytest.skip("a user's own task folder (docs/catbench.md: another split) holds names of its own")
    names = words[words.index("--tasks") + 1].split(",")
    known = _names(LM_EVAL_TASK_DIR if "lm-eval" in words[:2] else LMMS_EVAL_TASK_DIR)
    unknown = [name for name in names if name not in known and name not in PLACEHOLDERS]
    assert not unknown, f"{document}: {' '.join(words)}: no task or group {unknown}"
