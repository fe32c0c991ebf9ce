"""One CLI style (docs/cli.md): the top-level help lists every subcommand with its summary; each
subcommand's ``--help`` has that summary and an example, and docs/cli.md the same example and
options; a usage error is one line naming the fix (as the installed console script prints it, in a process of its
own: tests/e2e/test_packaging.py); the old and the underscore spellings of an option parse to the values of its
hyphenated one. All through ``temporal-bench``'s own entry point."""

import argparse
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from temporal_bench.__main__ import main
from temporal_bench.cli_style import CommandParser
from temporal_bench.commands import SUBCOMMANDS
from temporal_bench.lm_eval_cli import LM_EVAL_HELP_HEADING
from tests.harness import OFFLINE
from tests.paths import REPO

DOCS = REPO / "docs" / "cli.md"
OWN_PARSERS = [name for name in SUBCOMMANDS if name != "lm-eval"]  # lm-eval's usage errors are lm-eval's
SECTION = re.compile(r"^## `([^`]+)`\n(.*?)(?=^## |\Z)", re.MULTILINE | re.DOTALL)
BASH_BLOCK = re.compile(r"^```bash\n(.*?)^```", re.MULTILINE | re.DOTALL)
LONG_OPTION = re.compile(r"--[a-z][a-z0-9-]*")


def help_text(argv, capsys, monkeypatch) -> str:
    """A subcommand's own help (for ``lm-eval``: ours, before lm-eval's)."""
    monkeypatch.setenv("COLUMNS", "1000")  # one line per option and per paragraph line
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out.partition(f"\n{LM_EVAL_HELP_HEADING}\n")[0]


def examples(help_: str) -> list:
    return [line.strip() for line in re.split(r"\nexamples?:\n", help_, maxsplit=1)[1].splitlines() if line.startswith("  ")]


def shown_options(help_: str) -> set:
    """The long options the help's option list shows (not those its texts mention)."""
    listed = help_.split("\noptions:\n", 1)[1].split("\n\n", 1)[0]
    invocations = [re.split(r"\s{2,}", line.strip())[0] for line in listed.splitlines() if line.startswith("  -")]
    return {name for text in invocations for name in LONG_OPTION.findall(text)} - {"--help"}


def documented() -> dict:
    return dict(SECTION.findall(DOCS.read_text(encoding="utf-8")))


def options_table(section: str) -> list:
    """The first cell of each row of a section's options table: the lines right after its header that
    start with ``|`` (markdown ends a table at the first other line, a paragraph pushed in too)."""
    lines = section.splitlines()
    header = next((i for i, line in enumerate(lines) if line.startswith("| option |")), len(lines))
    return [row.split("|")[1] for row in itertools.takewhile(lambda line: line.startswith("|"), lines[header + 2 :])]


def test_the_top_level_help_lists_every_subcommand_with_its_summary(capsys, monkeypatch):
    listed = help_text([], capsys, monkeypatch).split("\ncommands:\n", 1)[1].split("\n\n", 1)[0]
    assert dict(re.match(r"  (\S+)\s+(.+)", line).groups() for line in listed.splitlines()) == {name: command.summary for name, command in SUBCOMMANDS.items()}
    assert list(SUBCOMMANDS)[:3] == ["task-dir", "demo", "lm-eval"] and len(SUBCOMMANDS) == 12


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_a_subcommand_help_starts_with_its_summary_and_ends_with_an_example(command, capsys, monkeypatch):
    help_ = help_text([command], capsys, monkeypatch)
    summary = SUBCOMMANDS[command].summary
    assert " ".join(help_.split("\n\n")[1].split()) == f"{summary[0].upper()}{summary[1:]}."
    shown = examples(help_)
    assert shown and all(example.startswith(f"temporal-bench {command} ") for example in shown)
    assert "%%" not in help_ and " a image" not in help_


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_docs_cli_shows_the_help_example_and_options(command, capsys, monkeypatch):
    help_ = help_text([command], capsys, monkeypatch)
    section = documented()[command]
    assert [line for block in BASH_BLOCK.findall(section) for line in block.splitlines()] == examples(help_)
    assert {name for cell in options_table(section) for name in LONG_OPTION.findall(cell)} == shown_options(help_)


def test_lm_eval_help_is_ours_then_lm_evals(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")
    with pytest.raises(SystemExit) as done:
        main(["lm-eval", "--help"])
    assert done.value.code == 0
    ours, heading, theirs = capsys.readouterr().out.partition(f"\n{LM_EVAL_HELP_HEADING}\n")
    assert ours.startswith("usage: temporal-bench lm-eval [LM_EVAL_ARGUMENTS ...]\n") and heading
    assert theirs.lstrip().startswith("usage: lm-eval ")


@pytest.mark.parametrize("model_args, folder, why", [("seed=1", "umlxhtps", True), ("pretrained=org/model-x", "org__model-x", False)])
def test_an_lm_eval_run_ends_saying_where_lm_eval_wrote_its_results(tmp_path, monkeypatch, capsys, model_args, folder, why):
    """lm-eval names the results folder after --model_args' pretrained= (model=, path=, ...), else at random (our
    models take none): the run's last line names the file, and why its folder has that name."""
    from lm_eval._cli import HarnessCLI

    out = tmp_path / "out_lm"
    (out / "earlier").mkdir(parents=True)
    (out / "earlier" / "results_2026-01-01T00-00-00.json").write_text("{}")  # an earlier run's: not this one's

    def execute(self, args):  # lm-eval's run, reduced to the file it writes
        (Path(args.output_path) / folder).mkdir()
        (Path(args.output_path) / folder / "results_2026-11-28T01-20-52.json").write_text("{}")

    monkeypatch.setattr(HarnessCLI, "execute", execute)
    main(["lm-eval", "run", "--model", "random_choice", "--model_args", model_args, "--tasks", "catbench", "--output_path", str(out)])
    reason = " (a folder lm-eval names at random where --model_args has no pretrained=, model= or path=, as for random_choice and scripted)" if why else ""
    assert capsys.readouterr().out == f"lm-eval's results: {out / folder / 'results_2026-11-28T01-20-52.json'}{reason}\n"


def test_docs_cli_has_a_section_per_subcommand_in_their_order():
    assert list(documented()) == list(SUBCOMMANDS)


@pytest.mark.parametrize("command", OWN_PARSERS)
def test_a_usage_error_is_one_line_naming_the_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--no-such-option"])
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert re.fullmatch(rf"temporal-bench {command}: error: [^\n]+ \(see temporal-bench {command} --help\)\n", captured.err)


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["report", "out", "--table", "tempvs-table99"],
            (
                "temporal-bench report: error: argument --table: invalid choice: 'tempvs-table99' (choose from "
                "'catbench-table1', 'catbench-table3', 'catbench-table4', 'catbench-table5', 'catbench-table6_7', 'isobench-table1', 'tempvs-table12', "
                "'tempvs-table14', 'tempvs-table15', 'tempvs-table16', 'tempvs-table17', 'tempvs-table18', 'tempvs-table19', 'tempvs-table3', "
                "'tempvs-table5', 'tempvs-table6') (see temporal-bench report --help)"
            ),
        ),
        (["compare", "runs/a"], "temporal-bench compare: error: the following arguments are required: RUN_B (see temporal-bench compare --help)"),
        (["export"], "temporal-bench export: error: the following arguments are required: --output-dir (see temporal-bench export --help)"),
        (
            ["bogus"],
            (
                "temporal-bench: error: argument COMMAND: invalid choice: 'bogus' (choose from 'task-dir', 'demo', 'lm-eval', 'check', 'report', "
                "'compare', 'rescore', 'browse', 'score-predictions', 'build-dataset', 'export', 'forget-failed') (see temporal-bench --help)"
            ),
        ),
        ([], "temporal-bench: error: the following arguments are required: COMMAND (see temporal-bench --help)"),
    ],
)
def test_a_usage_error_names_the_problem(argv, message, capsys):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    assert capsys.readouterr().err == message + "\n"


def shell(command, tmp_path) -> subprocess.CompletedProcess:
    """A process of its own, as a shell runs it (not the test suite's preloading server: it needs no harness)."""
    return subprocess.run(command, check=False, env={**os.environ, **OFFLINE}, cwd=tmp_path, capture_output=True, text=True, timeout=120)


class Parsed(Exception):
    """Raised by the patched ``parse_args`` with what it parsed, so that nothing runs."""


def parsed(argv, monkeypatch) -> dict:
    original = argparse.ArgumentParser.parse_args

    def parse_args(self, args=None, namespace=None):
        raise Parsed(vars(original(self, args, namespace)))

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_args)
    with pytest.raises(Parsed) as done:
        main(argv)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", original)
    return done.value.args[0]


@pytest.mark.parametrize(
    "spellings, expected",
    [
        (
            [["demo", "--output-dir", "d", "--model-args", "seed=1"], ["demo", "--output", "d", "--model_args", "seed=1"], ["demo", "--output_dir=d", "--model_args=seed=1"]],
            {"output_dir": Path("d"), "model": "random_choice", "model_args": "seed=1"},
        ),
        ([["export", "--output-dir", "x"], ["export", "--output", "x"], ["export", "--output_dir", "x"]], {"harness": "lmms-eval", "benchmark": None, "output_dir": Path("x"), "check": False, "converted_data": None, "validation": []}),
        (
            [["score-predictions", "rel", "--output-dir", "s"], ["score-predictions", "rel", "--output", "s"]],
            {"release": Path("rel"), "input": "combined", "models": None, "sources": None, "fixes": "", "output_dir": Path("s"), "tables": None},
        ),
        (
            [["browse", "run", "--examples-count", "2", "--image-width", "99"], ["browse", "run", "--examples_count", "2", "--image_width", "99"], ["browse", "run", "--examples_count=2", "--image-width=99"]],
            {"path": Path("run"), "output": None, "tasks": [], "examples": None, "examples_count": 2, "strip_width": 360, "frame_width": 160, "image_width": 99},
        ),
        (
            [["rescore", "run", "--output-dir", "r", "--set", "fixes=extraction"], ["rescore", "run", "--output_dir", "r", "--set", "fixes=extraction"]],
            {"path": Path("run"), "tasks": [], "settings": ["fixes=extraction"], "data": [], "format": "markdown", "output": None, "output_dir": Path("r")},
        ),
        (
            [["report", "out", "--output-dir", "o", "--no-published", "--param-count", "m=7"], ["report", "out", "--output_dir", "o", "--no_published", "--param_count", "m=7"]],
            {
                "paths": [Path("out")],
                "tables": None,
                "format": "markdown",
                "output": None,
                "output_dir": Path("o"),
                "param_count": ["m=7"],
                "label": None,
                "no_published": True,
                "tolerance": [],
                "allow_different_data": False,
                "list_tables": False,
                "breakdowns": False,
            },
        ),
    ],
    ids=["demo", "export", "score-predictions", "browse", "rescore", "report"],
)
def test_old_and_underscore_spellings_parse_to_the_same_values(spellings, expected, monkeypatch):
    assert [parsed(argv, monkeypatch) for argv in spellings] == [expected] * len(spellings)


@pytest.mark.parametrize(
    "command, options",
    [
        ("demo", {"--output-dir", "--model", "--model-args"}),
        ("browse", {"--output", "--tasks", "--examples", "--examples-count", "--strip-width", "--frame-width", "--image-width"}),
        ("export", {"--harness", "--benchmark", "--output-dir", "--check", "--converted-data", "--validation"}),
    ],
)
def test_aliases_are_accepted_but_not_shown(command, options, capsys, monkeypatch):
    assert shown_options(help_text([command], capsys, monkeypatch)) == options


def test_an_error_names_the_option_as_shown(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--output"])
    assert capsys.readouterr().err == "temporal-bench demo: error: argument --output-dir: expected one argument (see temporal-bench demo --help)\n"


def test_list_tables_names_each_task_once(capsys, monkeypatch):
    assert main(["report", "--list_tables"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 16
    tasks = {line.split("\t")[0]: line.split("\ttasks: ")[1].split(", ") for line in lines}
    assert all(len(names) == len(set(names)) for names in tasks.values())
    assert tasks["catbench-table6_7"] == ["catbench_switched", "catbench", "catbench_sc*_switched", "catbench_sc*", "catbench_fewshot_switched", "catbench_fewshot"]


def test_the_help_runs_as_python_minus_m(tmp_path):
    log = shell([sys.executable, "-m", "temporal_bench", "task-dir", "--help"], tmp_path)
    assert log.returncode == 0 and "example:\n  temporal-bench task-dir --harness lm-eval\n" in log.stdout


def test_an_alias_that_is_another_options_spelling_is_refused():
    """For the next subcommand's author: an alias may not hide an option, nor an option an alias."""
    parser = CommandParser(prog="temporal-bench new")
    parser.add_argument("--output-dir", aliases=["--output"])
    with pytest.raises(ValueError, match="^temporal-bench new: --output is already an alias of --output-dir$"):
        parser.add_argument("--output")
    parser.add_argument("--data")
    with pytest.raises(ValueError, match="^temporal-bench new: the alias --data is another option's spelling$"):
        parser.add_argument("--data-dir", aliases=["--data"])
