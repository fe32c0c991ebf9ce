"""Every command line README.md and docs/ show works as shown (tests/documented_commands.py collects them).

Each ``temporal-bench`` command and each lmms-eval / lm-eval command with one of our baselines is RUN, in document
order, one working folder per document: lmms-eval, lm-eval and the temporal-bench commands that start a harness
(``lm-eval run``, ``rescore``) as their real command lines in their own processes, an identical harness command line
(README.md's and docs/harness.md's CaT-Bench run) once, the later one given a copy of its output folder; the other
temporal-bench commands in this process, through the function the installed command calls (nothing of theirs acts at
interpreter start). The documented demo (``temporal-bench demo --output-dir demo_seed1 --model-args seed=1``), whose
folder no other command reads, is run and its output checked by tests/e2e/test_documented_demo.py, beside these; the
data variables and the documents' data folders (``/data/TempVS``, ``~/data/ISO-Bench``, ``/path/to/TempVS/data``)
point at each benchmark's fixture, and the documents' names for a user's runs (``out/``, ``RUN_DIR``,
``runs/model_a``, ``runs/model_b``, ...) at two recorded random_choice runs (seeds 1234 and 1) of
``--tasks tempvs,catbench,...`` on it (tests/recorded/documented.py, :func:`places`), unless an earlier command of the
document wrote that folder; ``cache/gpt-4o`` at an empty response cache. The commands no test can run (a model's
weights, a server, an API key; :data:`ONLY_PARSED`) are parsed by their program's own parser, as are all the others.
Every documented ``--tasks`` name is one of our task or group names."""

import argparse
import re
import shutil
import sys
from pathlib import Path

import datasets
import pytest

from temporal_bench.__main__ import main as temporal_bench_main
from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR
from tests import harness_starts
from tests.cli import temporal_bench
from tests.documented_commands import PROGRAMS, TASK_DIRS, Documented, documented_commands, documented_demo, model_of, why_only_parsed
from tests.harness import BIN, read_results, run_cli
from tests.recorded.documented import RUNS

COMMANDS = documented_commands()
# names a user writes in place of --tasks values: nothing to check
PLACEHOLDERS = {"...", "M", "$TASKS", "list"}
# documented temporal-bench commands that this module does not run, and why
ONLY_PARSED = {
    "temporal-bench report out/ --output-dir report/ --param-count deepseek-vl2-tiny=3.37": "needs a run of deepseek-vl2-tiny, a model with weights",
    "temporal-bench export --benchmark tempvs --output-dir out/ --check --converted-data hub/ --validation logs/qwen2_vl/": (
        "lints, imports, tests and runs every exported task (about 30 s a benchmark) and needs a run of qwen2_vl, a model with weights: "
        "tests/e2e/test_export.py::test_export_check_runs_upstreams_checks_and_prints_each_pull_request runs it on converted synthetic data"
    ),
}
OUTPUT_OPTIONS = {"--output_path", "--output-dir", "--output", "-o", "--write-results"}
BENCHMARKS = ("catbench", "isobench", "tempvs")


def reason_not_run(command: Documented):
    """Why this module only parses ``command`` (None: it runs; "": a model with no reason given)."""
    try:
        return ONLY_PARSED.get(" ".join(command.words)) or why_only_parsed(command)
    except KeyError:
        return ""


RUNNABLE = [command for command in COMMANDS if reason_not_run(command) is None]


def _id(command: Documented) -> str:
    return f"{command.document}: {command.line}"[:100]


# ---- parsing --------------------------------------------------------------------------------------


class Parsed(Exception):
    """Raised by the patched ``parse_args`` once a command line parsed, so that nothing runs."""


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


def parser_of(words):
    if words[0] == "temporal-bench":
        return lambda: temporal_bench_main(words[1:])
    if words[0] == "lm-eval":
        from lm_eval.__main__ import cli_evaluate

        return cli_evaluate
    from lmms_eval.__main__ import parse_eval_args

    return parse_eval_args


def _names(folder: Path) -> set:
    return {name for path in folder.rglob("*.yaml") for name in re.findall(r"^(?:task|group): (\S+)$", path.read_text(encoding="utf-8"), flags=re.M)}


def test_the_documents_show_commands_of_each_program():
    assert {command.words[0] for command in COMMANDS} == set(PROGRAMS)
    assert len(COMMANDS) > 40 and len(RUNNABLE) > 40


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in RUNNABLE], ids=_id)
def test_a_documented_command_not_run_says_why(command):
    """Its reason: our baselines run, every other model of a documented command is in ONLY_PARSED_MODELS."""
    assert reason_not_run(command), f"{command.document}: {command.line}: give the reason it is not run"


def test_only_commands_the_documents_show_are_excused():
    assert set(ONLY_PARSED) <= {" ".join(command.words) for command in COMMANDS}


@pytest.mark.parametrize("command", COMMANDS, ids=_id)
def test_a_documented_command_parses(command, monkeypatch):
    if command.words[:2] == ["lmms-eval", "tasks"]:  # lmms-eval's subcommand CLI: its own parser, not the evaluation's (it runs below)
        pytest.skip("lmms-eval's tasks subcommand")
    assert parses(parser_of(command.words), command.words, monkeypatch), f"{command.document}: {command.line}"


@pytest.mark.parametrize("command", [c for c in COMMANDS if "--tasks" in c.words and c.words[:2] != ["temporal-bench", "rescore"]], ids=_id)
def test_documented_task_names_exist(command):
    words = command.words
    if any(word == "--include_path" and path not in TASK_DIRS.values() for word, path in zip(words, words[1:])):
        pytest.skip("a user's own task folder (docs/catbench.md: another split) holds names of its own")
    names = words[words.index("--tasks") + 1].split(",")
    known = _names(LM_EVAL_TASK_DIR if "lm-eval" in words[:2] else LMMS_EVAL_TASK_DIR)
    unknown = [name for name in names if name not in known and name not in PLACEHOLDERS]
    assert not unknown, f"{command.document}: {command.line}: no task or group {unknown}"


# ---- running --------------------------------------------------------------------------------------


def places(data: dict, runs: Path, cache: Path) -> dict:
    """What stands for each name the documents give a user's data and runs (tests/recorded/documented.py), and a
    response cache."""
    out, seed1 = (runs / folder for folder in RUNS)
    return {
        "/data/CaT-Bench": data["catbench"],
        "/data/ISO-Bench": data["isobench"],
        "/data/TempVS": data["tempvs"],
        "/path/to/TempVS/data": data["tempvs"],
        "/new/place/tempvs": data["tempvs"],
        "out": out,
        "out/": out,
        "results/": out,
        "RUN_DIR": out,
        "RUN_A": out,
        "runs/model_a": out,
        "RUN_B": seed1,
        "runs/model_b": seed1,
        "RUNS_DIR": runs,
        "out/a/2025..._results.json": next(out.rglob("*_results.json")),
        "cache/gpt-4o": cache,
    }


def resolved(words: list, cwd: Path, home: Path, where: dict) -> list:
    """``words`` with each name of a user's folder replaced by what stands for it (:func:`places`; not an
    output option's value, nor a folder an earlier command of the document wrote) and ``~`` by ``home``."""
    done = []
    for i, word in enumerate(words):
        if not (i and words[i - 1] in OUTPUT_OPTIONS):
            prefix, equals, value = word.rpartition("=") if "=" in word and not word.startswith("-") else ("", "", word)
            if value in where and not (cwd / value).exists():
                word = f"{prefix}{equals}{where[value]}"
        done.append(re.sub(r"(^|=)~/", lambda m: f"{m.group(1)}{home}/", word))
    return done


DEMO = documented_demo()  # run, and its folder checked, by tests/e2e/test_documented_demo.py


def in_process(words: list) -> bool:
    """A temporal-bench command that starts no harness: run in this process (nothing of it acts at interpreter start)."""
    return words[0] == "temporal-bench" and not harness_starts.is_harness(words)


def empty_response_cache(folder: Path) -> Path:
    """A response cache as lmms-eval's ``--use_cache`` leaves it (its database made by lmms-eval's own class)."""
    from lmms_eval.caching.response_cache import ResponseCache

    ResponseCache(str(folder / "cache.db"), str(folder / "cache.audit.jsonl")).close()
    return folder


@pytest.fixture(scope="module")
def documented_runs(recorded, tmp_path_factory):
    """Every runnable documented command but the demo run once (an identical one in another document shares its run; an
    identical harness command line gets a copy of the first one's output folder): index in RUNNABLE -> (its output, its
    working folder, its words as run)."""
    run = recorded("documented_random_choice")
    root = tmp_path_factory.mktemp("documented")
    home, runs = root / "home", run.out
    (home / "data").mkdir(parents=True)
    cwd_of = {command.document: root / "work" / command.document.replace("/", "_") for command in RUNNABLE}
    for cwd in cwd_of.values():
        cwd.mkdir(parents=True, exist_ok=True)
    data = {name: run.env[f"{name.upper()}_DATA_DIR"] for name in BENCHMARKS}
    env = {"HOME": str(home), **run.env}
    (home / "data" / "TempVS").symlink_to(data["tempvs"])
    (home / "data" / "ISO-Bench").symlink_to(data["isobench"])
    where = places(data, runs, empty_response_cache(root / "cache"))
    done, harness_runs, outputs = {}, {}, {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(datasets.config, "HF_DATASETS_CACHE", str(root / "hf_datasets_cache"))  # what build-dataset writes through datasets
        for index, command in enumerate(RUNNABLE):
            if command == DEMO:
                continue
            cwd = cwd_of[command.document]
            words = resolved(command.words, cwd, home, where)
            command_env = {**env, **{name: str(where.get(value, value)) for name, value in command.env.items()}}
            key = (tuple(words), tuple(sorted(command.env.items())))
            if key not in done:
                done[key] = run_documented(words, cwd, command_env, harness_runs, patch)
            outputs[index] = (done[key], cwd, words)
    return outputs


def run_documented(words: list, cwd: Path, env: dict, harness_runs: dict, patch):
    """``words`` run in ``cwd`` with ``env``: temporal-bench in this process where it starts no harness, else in its own
    process, once per harness command line (tests/harness_starts.py): a repeat gets a copy of the first run's output."""
    if in_process(words):
        for name, value in env.items():
            patch.setenv(name, value)
        return temporal_bench(*words[1:], cwd=cwd)
    command = [str(BIN / words[0]), *words[1:]]
    started = harness_starts.key(command, env) if harness_starts.is_harness(command) else None
    if started in harness_runs:
        log, first = harness_runs[started]
        if first is not None:
            shutil.copytree(first, cwd / output_of(words))
        return log
    log = run_cli(command, cwd, env)
    if started is not None:
        harness_runs[started] = (log, output_of(words) and cwd / output_of(words))
    return log


def output_of(words: list) -> str:
    """The output folder the command names ("": none)."""
    options = [word for word in words if word in OUTPUT_OPTIONS]
    return words[words.index(options[0]) + 1] if options else ""


@pytest.mark.parametrize("index", [i for i, c in enumerate(RUNNABLE) if c != DEMO], ids=[_id(c) for c in RUNNABLE if c != DEMO])
def test_a_documented_command_runs(documented_runs, index):
    command = RUNNABLE[index]
    log, cwd, words = documented_runs[index]
    shown = f"{command.document}: {command.line}\n(run as {' '.join(words)} in {cwd})\nstdout:\n{log.stdout[-2000:]}\nstderr:\n{log.stderr[-4000:]}"
    assert log.returncode == 0, shown
    evaluates = model_of(words) and (words[0] != "temporal-bench" or words[1] == "lm-eval")
    if evaluates and "--output_path" in words:  # lmms-eval exits 0 even when it fails: the results must be there
        read_results(cwd / words[words.index("--output_path") + 1], words[words.index("--tasks") + 1].split(","), log)
    elif evaluates:
        assert re.search(r"\|\s*catbench\s*\|", log.stdout), shown  # lm-eval's results table
    elif "list" in words[1:3]:
        assert "tempvs_mt1_two" in log.stdout + log.stderr, shown
