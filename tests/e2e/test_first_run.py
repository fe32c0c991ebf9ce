"""A new user's first run: the demo's closing summary, data errors that name their fix and stop at
once (an unreachable hub too, in a process that imports our plugin module before lmms-eval's models: every model
it declares is registered), the CaT-Bench split hint, the TempVS --limit warning, and the command line's help and
version."""

import importlib.metadata
import os
import re
import subprocess
import sysconfig
from pathlib import Path

import datasets
import pytest

import temporal_bench
from temporal_bench.__main__ import main
from temporal_bench.data_locations import data_locations
from temporal_bench.demo import DEMO_BENCHMARKS, commands_note
from temporal_bench.lmms_eval_tasks.plugin.catbench import utils as catbench_hooks
from temporal_bench.lmms_eval_tasks.plugin.catbench.release import LOCAL_LAYOUT as CATBENCH_LAYOUT
from temporal_bench.lmms_eval_tasks.plugin.catbench.release import how_to_select
from temporal_bench.lmms_eval_tasks.plugin.data_routes import DataErrorExit
from temporal_bench.lmms_eval_tasks.plugin.isobench import utils as isobench_hooks
from temporal_bench.lmms_eval_tasks.plugin.isobench.release import LOCAL_LAYOUT as ISOBENCH_LAYOUT
from temporal_bench.lmms_eval_tasks.plugin.tempvs import utils as tempvs_hooks
from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import LOCAL_LAYOUT as TEMPVS_LAYOUT
from temporal_bench.report.headline import render_summary
from tests import harness_starts
from tests.harness import BIN, OFFLINE, metric, read_results, run_cli, run_of
from tests.paths import CATBENCH_VAL, REPO
from tests.task_docs import task_docs
from tests.tempvs_fixture_copies import write_tempvs

DATA_DIR_ENVS = ("CATBENCH_DATA_DIR", "ISOBENCH_DATA_DIR", "TEMPVS_DATA_DIR")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


# ---- 1. the demo's summary ------------------------------------------------------------------------


def test_summary_puts_the_headline_metrics_beside_the_random_row(tmp_path):
    """Each table in one unit, named in its title with the paper's convention (CaT-Bench's paper prints TC and OCC as
    percentages beside F1 fractions)."""
    values = {
        "catbench_switched": {"f1_macro": 0.5, "f1_dep": 0.52, "f1_nondep": 0.48, "tc": 0.55, "occ": 0.47, "invalid_rate": 0.0},
        "isobench": {"paper_f1_weighted": 0.51, "paper_f1_macro": 0.5, "coverage": 1.0, "f1_weighted": 0.9},  # Table 1's rule is shown
        "tempvs_mt1_three": {"gt_acc": 0.2, "gtstrict_rate": 0.008, "mt_acc": 0.5, "mt_given_gtstrict": 0.5, "invalid_rate": 0.0},
        "tempvs_mt3_caption": {"gt_acc": 0.19, "gtstrict_rate": 0.0, "mt_acc": 0.21, "mt_given_gtstrict": None, "invalid_rate": 0.01},
        # every other task of the benchmarks gets a row; a group (no metric) and another harness task are named
        "catbench_sc_switched": {"f1_macro": 0.45, "f1_dep": 0.4, "f1_nondep": 0.5, "tc": 0.6, "occ": 0.5, "invalid_rate": 0.0},
        "isobench_cot": {"paper_f1_weighted": 0.49, "paper_f1_macro": 0.48, "coverage": 1.0},
        "tempvs_mt1_two_cot": {"gt_acc": 0.2, "gtstrict_rate": 0.04, "mt_acc": 0.5, "mt_given_gtstrict": 0.5, "invalid_rate": 0.0},
        "tempvs_protocol": {},
        "mmmu_val": {"accuracy": 0.3},
    }
    run = run_of(tmp_path, "random_choice (seed=1234)", {task: {f"{k},none": v for k, v in metrics.items()} for task, metrics in values.items()})
    assert (
        render_summary(run)
        == """
CaT-Bench, fractions (the paper prints TC and OCC as percentages: its 79.86 is 0.799 here)
  task                  macro F1     Dep F1       NonDep F1    TC            OCC           invalid
  catbench_switched     0.50 (0.5*)  0.52 (0.5*)  0.48 (0.5*)  0.550 (0.5*)  0.470 (0.5*)  0.00 (0*)
  catbench_sc_switched  0.45 (0.5*)  0.40 (0.5*)  0.50 (0.5*)  0.600 (0.5*)  0.500 (0.5*)  0.00 (0*)

ISO-Bench, fractions as in the paper (F1 under Table 1's rule: an unparsed answer counts as a third label)
  task          weighted F1  macro F1     coverage
  isobench      0.51 (0.5*)  0.50 (0.5*)  1.00 (1*)
  isobench_cot  0.49 (0.5*)  0.48 (0.5*)  1.00 (1*)

TempVS, % as in the paper (in brackets: the paper's Random row where it prints one)
  test               GT          GT_strict     MT          MT|GT_strict  invalid
  MT1 three-event    20.0 (20*)  0.8 (0.6?)    50.0 (50)   50.0 (50*)    0.0 (0*)
  MT3 caption        19.0 (20*)  0.0 (0.032*)  21.0 (20)   – (20*)       1.0 (0*)
  MT1 two-event CoT  20.0 (20*)  4.0 (4*)      50.0 (50*)  50.0 (50*)    0.0 (0*)
  ? three_event_gts printed 0.6 although (1/5)^3 = 0.8% for five-image sequences (unexplained in the paper)

* the value a uniform random answer is expected to score; – undefined (e.g. no GT_strict pass); n=…: a cell resting on fewer than 20 questions (pairs for TC and OCC), which says next to nothing
Not in the summary (no headline row of this kind; see the report's tables): mmmu_val"""
    )


def test_a_failed_demo_shows_the_end_of_the_lmms_eval_log(tmp_path):
    output = tmp_path / "demo"
    log = run_cli([str(BIN / "temporal-bench"), "demo", "--model", "no_such_model", "--output-dir", str(output)], tmp_path)
    log_file = output / "lmms_eval.log"
    assert log.returncode == 1
    tasks = ", ".join(task for benchmark in DEMO_BENCHMARKS.values() for task in benchmark.tasks)
    assert log.stdout == f"evaluating {tasks} with no_such_model (seed=1234) through lmms-eval; its log: {log_file}\n"
    tail = log_file.read_text(encoding="utf-8").splitlines()[-40:]
    assert log.stderr.splitlines() == [f"--- the last {len(tail)} lines of {log_file} ---", *tail, f"the demo failed: lmms-eval wrote no results file under {output / 'results'} (full log: {log_file})"]
    assert "Error during evaluation: Model 'no_such_model' not found" in ANSI.sub("", tail[-1])


def test_the_demo_ends_saying_how_to_call_the_commands_when_path_does_not_reach_them(tmp_path, monkeypatch):
    """``bash run_demo.sh`` runs ``.venv/bin/temporal-bench`` without activating .venv: the demo's last line says where
    the commands are and how to call them (tests/e2e/test_packaging.py: the installed wheel's demo ends with it)."""
    scripts = Path(sysconfig.get_path("scripts"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert commands_note(tmp_path / "demo") == (
        f"\ntemporal-bench, lmms-eval and lm-eval are in {scripts}/ (not on your PATH): run `source {scripts / 'activate'}` to call them by name, "
        f"e.g. `temporal-bench check {tmp_path / 'demo'}`, or call them by path: `{scripts / 'temporal-bench'} check {tmp_path / 'demo'}`.\n"
    )
    (tmp_path / "temporal-bench").symlink_to(BIN / "python")  # another install's command found first
    assert f"/ (your PATH finds {tmp_path / 'temporal-bench'} first): run `source " in commands_note(tmp_path / "demo")
    monkeypatch.setenv("PATH", f"{scripts}{os.pathsep}{tmp_path}")  # .venv activated
    assert commands_note(tmp_path / "demo") == ""


# ---- 2. data that cannot be loaded ----------------------------------------------------------------


def _catbench_other_split(folder: Path) -> None:
    folder.mkdir()
    (folder / "val_must_why").symlink_to(CATBENCH_VAL)


def _tempvs_unpacked_archive(folder: Path) -> None:
    folder.mkdir()
    (folder / "benchmark_pkl.zip").write_bytes(b"PK")


def _isobench_csv(folder: Path) -> None:
    folder.mkdir()
    (folder / "isobench.csv").write_text("image,goal\n", encoding="utf-8")


def placeholder(split: str = "test") -> datasets.Dataset:
    """What lmms-eval loads for this package's tasks: the one-row placeholder, of the task's split."""
    return datasets.Dataset.from_list([{"note": "placeholder"}], split=split)


def catbench_process_docs(split: str):
    """What lmms-eval does for task catbench with CATBENCH_DATA_DIR set: its process_docs on the placeholder's ``split``."""
    return catbench_hooks.process_docs_catbench(placeholder(split))


# benchmark -> (variable, lmms-eval task, the hook lmms-eval calls, wrong-layout folder)
BENCHMARKS = {
    "catbench": ("CATBENCH_DATA_DIR", "catbench", lambda: catbench_process_docs("test"), _catbench_other_split),
    "isobench": ("ISOBENCH_DATA_DIR", "isobench", lambda: isobench_hooks.process_docs_isobench(placeholder()), _isobench_csv),
    "tempvs": ("TEMPVS_DATA_DIR", "tempvs_mt1_two", lambda: tempvs_hooks.process_docs_tempvs_mt1_two(placeholder()), _tempvs_unpacked_archive),
}


def _misconfigure(benchmark: str, kind: str, folder: Path) -> str:
    """Make ``folder`` ``missing``, ``empty`` or in the ``wrong`` layout; the error lmms-eval must end with."""
    variable = BENCHMARKS[benchmark][0]
    layout = {"catbench": CATBENCH_LAYOUT, "isobench": ISOBENCH_LAYOUT, "tempvs": TEMPVS_LAYOUT}[benchmark]
    if kind == "missing":
        return f"DataNotFoundError: {variable}={str(folder)!r} is not a directory; set {variable} to {layout}"
    if kind == "empty":
        folder.mkdir()
    else:
        BENCHMARKS[benchmark][3](folder)
    found = {"empty": [], "wrong": sorted(p.name for p in folder.iterdir())}[kind]
    return {
        "catbench": f"CatBenchDataError: CATBENCH_DATA_DIR={folder}: no CaT-Bench 'test' split, which this task evaluates: expected "
        f"{folder / 'test_must_why'}/ holding the four *_real_{{before,after}}.jsonl files, or {folder / 'test.jsonl'}; found {found}"
        + (f"; it holds the validation split: run {how_to_select('validation')} to evaluate it" if found else ""),
        "isobench": f"IsoBenchDataError: ISOBENCH_DATA_DIR={folder}: no ISO-Bench data found; ISOBENCH_DATA_DIR must name {ISOBENCH_LAYOUT}. Found: {found}",
        "tempvs": f"TempVSDataError: {folder}: no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/); found {found}; set TEMPVS_DATA_DIR to {TEMPVS_LAYOUT}",
    }[benchmark]


def test_the_layouts_name_what_a_folder_must_hold():
    assert CATBENCH_LAYOUT == (
        "a folder holding the original release's four {dependent,nondependent}_real_{before,after}.jsonl "
        "files of a split, or a root with {train,val,test}_must_why/ folders of them, or the Hugging "
        "Face files train.jsonl / val.jsonl / test.jsonl"
    )
    assert ISOBENCH_LAYOUT == ("a folder holding a saved Hugging Face dataset (save_to_disk), or *.json / *.jsonl / *.parquet files of rows with embedded images or image paths relative to the data file")
    assert TEMPVS_LAYOUT == (
        "the folder holding the release's benchmark_pkl/ (or benchmark/), the image folders of the four sources and predictions/blind/ for the text-only-LLM filter, or a folder with such a data/ subfolder, or a converted dataset (data/test-*.parquet and images.zip)"
    )


@pytest.mark.parametrize("kind", ["missing", "empty", "wrong"])
@pytest.mark.parametrize("benchmark", list(BENCHMARKS))
def test_a_data_error_in_process_docs_ends_the_run(tmp_path, monkeypatch, benchmark, kind):
    variable, _, process_docs, _ = BENCHMARKS[benchmark]
    expected = _misconfigure(benchmark, kind, tmp_path / "data")
    monkeypatch.setenv(variable, str(tmp_path / "data"))
    with pytest.raises(DataErrorExit) as stop:
        process_docs()
    assert (str(stop.value), stop.value.code, type(stop.value.__cause__).__name__) == (expected, 1, expected.split(":")[0])


def _last_error_line(log) -> str:
    lines = [ANSI.sub("", line) for line in (log.stdout + "\n" + log.stderr).splitlines() if "ERROR" in line]
    assert len(lines) == 1, lines  # the hook ran once: no retry
    return lines[-1]


HUB = {
    "catbench": ("vanyacohen/CaT-Bench", CATBENCH_LAYOUT, "ConnectionError: "),
    "isobench": ("StonyBrookNLP/ISO-Bench", ISOBENCH_LAYOUT, "ConnectionError: "),
    "tempvs": ("yingjins/TempVS", TEMPVS_LAYOUT, "LocalEntryNotFoundError: "),
}


# (benchmark, misconfiguration): each benchmark unset (hub, offline) and with one wrong folder
@pytest.mark.parametrize("benchmark,kind", [("catbench", "unset"), ("isobench", "unset"), ("tempvs", "unset"), ("catbench", "missing"), ("isobench", "empty"), ("tempvs", "wrong")])
def test_the_cli_ends_with_the_cause_and_the_fix_at_once(tmp_path, monkeypatch, benchmark, kind):
    variable, task, _, _ = BENCHMARKS[benchmark]
    for name in DATA_DIR_ENVS:
        monkeypatch.delenv(name, raising=False)
    env = {"HF_HOME": str(tmp_path / "hf_home"), "HF_HUB_CACHE": str(tmp_path / "hf_hub")}  # nothing cached
    if kind != "unset":
        expected = _misconfigure(benchmark, kind, tmp_path / "data")
        env[variable] = str(tmp_path / "data")
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", "random_choice", "--model_args", "seed=1", "--tasks", task, "--output_path", str(out)], out, env)
    message = _last_error_line(log).split(" - ", 1)[1]
    if kind == "unset":
        hub_id, layout, cause = HUB[benchmark]
        head = f"DataNotFoundError: {variable} is not set and the Hugging Face dataset {hub_id} cannot be loaded: offline mode is on (HF_HUB_OFFLINE, HF_DATASETS_OFFLINE) and it is not in the local cache ({cause}"
        tail = f"). Set {variable} to {layout}; or unset HF_HUB_OFFLINE and HF_DATASETS_OFFLINE on a machine with network access to download it"
        assert message.startswith(head) and message.endswith(tail), message
    else:
        assert message == expected
    assert log.returncode == 1
    assert not re.search("tenacity|RetryError|Retrying", log.stdout + log.stderr)
    assert not list(out.rglob("*_results.json"))


# A process of its own (what acts at interpreter start): the hub settings are read when huggingface_hub is imported, so
# online they need a fresh interpreter; it imports our plugin module before lmms-eval's models (as a user's script may)
# and checks that every model the plugin declares is registered, then runs the installed lmms-eval command in it, as
# its console script runs it.
PLUGIN_FIRST_THEN_LMMS_EVAL = """
import runpy, sys
import temporal_bench.lmms_eval_plugin as plugin
from lmms_eval.models import MODEL_REGISTRY_V2
for name in [*plugin.MODEL_CLASSES, *plugin.FAMILY_MODELS]:
    MODEL_REGISTRY_V2.get_manifest(name)
print("registered", flush=True)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.fixture(scope="module")
def unreachable_hub_run(tmp_path_factory):
    """Not offline, no data variable, the hub refusing every connection: ``lmms-eval --tasks catbench`` in a process
    that imported our plugin module first; (its log, its output folder)."""
    base = tmp_path_factory.mktemp("unreachable_hub")
    out = base / "out"
    out.mkdir()
    env = {name: value for name, value in os.environ.items() if not name.startswith(("CATBENCH_", "TEMPVS_", "ISOBENCH_"))}
    env.update({**OFFLINE, "HF_HUB_OFFLINE": "0", "HF_DATASETS_OFFLINE": "0", "HF_ENDPOINT": "http://127.0.0.1:9", "HF_HOME": str(base / "hf_home"), "HF_HUB_CACHE": str(base / "hf_hub")})
    env["HF_DATASETS_CACHE"] = str(out / "hf_datasets_cache")
    command = [str(BIN / "lmms-eval"), "--model", "random_choice", "--model_args", "seed=1", "--tasks", BENCHMARKS["catbench"][1], "--output_path", str(out)]
    # the command line of test_the_cli_ends_with_the_cause_and_the_fix_at_once[catbench-unset], online this time
    harness_starts.log(command, env, again=True)
    log = subprocess.run([str(BIN / "python"), "-c", PLUGIN_FIRST_THEN_LMMS_EVAL, *command], env=env, cwd=out, capture_output=True, text=True, timeout=900)
    return log, out


def test_our_models_are_registered_whichever_module_is_imported_first(unreachable_hub_run):
    """The plugin module imported before lmms_eval.models (as a user's script may): every model it declares is there."""
    log, _ = unreachable_hub_run
    assert log.stdout.startswith("registered\n"), log.stderr[-2000:]


def test_an_unreachable_hub_ends_the_run_at_once_naming_the_variable(unreachable_hub_run):
    """Not offline, no data variable, and the hub refuses every connection: a short request first, so the run
    ends with the cause and the fix instead of retrying the download (each benchmark's hook: the test below)."""
    log, out = unreachable_hub_run
    message = _last_error_line(log).split(" - ", 1)[1]
    hub_id, layout, _ = HUB["catbench"]
    assert message.startswith(f"DataNotFoundError: CATBENCH_DATA_DIR is not set and the Hugging Face dataset {hub_id} cannot be loaded: the hub cannot be reached or refused the download (ConnectionError: "), message
    assert message.endswith(f"). Set CATBENCH_DATA_DIR to {layout}"), message
    assert log.returncode == 1 and not list(out.rglob("*_results.json"))
    assert not re.search("tenacity|RetryError|Retrying", log.stdout + log.stderr)


@pytest.mark.parametrize("benchmark", sorted(BENCHMARKS))
def test_each_benchmark_s_hub_route_asks_the_hub_first_and_names_its_variable(monkeypatch, benchmark):
    """The hook of each benchmark, the hub unreachable (its transport's error): no download is tried."""
    import httpx
    from huggingface_hub import HfApi

    variable, _, process_docs, _ = BENCHMARKS[benchmark]
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "0")
    asked = []

    def refused(self, hub_id, **kwargs):
        asked.append(hub_id)
        raise httpx.ConnectError("[Errno 111] Connection refused")

    monkeypatch.setattr(HfApi, "dataset_info", refused)
    with pytest.raises(DataErrorExit) as stop:
        process_docs()
    hub_id, layout, _ = HUB[benchmark]
    assert asked == [hub_id]
    assert str(stop.value) == (
        f"DataNotFoundError: {variable} is not set and the Hugging Face dataset {hub_id} cannot be loaded: the hub cannot be reached or refused the download "
        f"(ConnectionError: ConnectError: [Errno 111] Connection refused). Set {variable} to {layout}"
    )


def test_few_shot_tasks_on_a_copy_of_the_test_split_alone_name_the_split_they_need(tmp_path, monkeypatch):
    """The README's local layout holds the evaluated split; the few-shot exemplars come from train: the run ends
    naming the folder that must be beside it."""
    from temporal_bench.catbench.fixtures import synthetic_pairs, write_release_split

    root = tmp_path / "catbench"
    write_release_split(root / "test_must_why", synthetic_pairs("test", n_plans=2, pairs_per_class=2))
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", "random_choice", "--model_args", "seed=1", "--tasks", "catbench_fewshot", "--output_path", str(out)], out, {"CATBENCH_DATA_DIR": str(root)})
    message = _last_error_line(log).split(" - ", 1)[1]
    assert message.startswith(f"CatBenchDataError: CATBENCH_DATA_DIR={root}: no CaT-Bench 'train' split, which the few-shot exemplars come from: expected {root / 'train_must_why'}/ holding the four"), message
    assert "it holds the test split: run " in message
    assert log.returncode == 1 and not list(out.rglob("*_results.json"))


# ---- 3. a validation folder evaluated as the test split; 4. a --limit that asks no main question --


@pytest.fixture(scope="module")
def limited_run(tmp_path_factory):
    """One lmms-eval run with --limit 5 over two TempVS tasks."""
    base = tmp_path_factory.mktemp("first_run")
    tempvs = write_tempvs(base / "tempvs", n_sequences=2)
    out = base / "out"
    out.mkdir()
    tasks = ["tempvs_mt1_two", "tempvs_mt1_three"]
    log = run_cli([str(BIN / "lmms-eval"), "--model", "random_choice", "--model_args", "seed=1", "--tasks", ",".join(tasks), "--output_path", str(out), "--limit", "5", "--log_samples"], out, {"TEMPVS_DATA_DIR": str(tempvs)})
    return tempvs, read_results(out, tasks, log), out


VALIDATION_AS_TEST = (
    "counts (read / the release's): questions 1616/2840, plans 28/57, dep 808/1420, before 808/1420, close 746/1256, "
    "dep_close 366/644, dep_plans 28/56, nondep_plans 25/41; these are the "
    "released validation split's counts: run a task with test_split: validation (lmms-eval: a YAML that includes the "
    'task and sets it) or lm-eval\'s --metadata \'{"data_split": "validation"}\' to evaluate it as such'
)


def test_validation_files_read_as_the_test_split_say_how_to_select_it(tmp_path):
    """The released validation files in a folder read as the test split: check names the counts and how to evaluate
    them as the validation split, which then reads them as such."""
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", "random_choice", "--model_args", "seed=1", "--tasks", "catbench", "--output_path", str(out), "--log_samples"], out, {"CATBENCH_DATA_DIR": str(CATBENCH_VAL)})
    read_results(out, ["catbench"], log)
    checked = run_cli([str(BIN / "temporal-bench"), "check", str(out)], out)
    assert checked.returncode == 1 and f": catbench: {VALIDATION_AS_TEST} (a partial or other copy of the data" in checked.stderr
    with data_locations({"CATBENCH_DATA_DIR": str(CATBENCH_VAL)}):
        assert len(catbench_process_docs("validation")) == 1616  # what the hint says to do


def test_a_limit_below_the_first_main_question_is_named_by_check(limited_run):
    tempvs, results, out = limited_run
    for task, first_main in (("tempvs_mt1_two", 5), ("tempvs_mt1_three", 6)):
        docs = task_docs(task, tempvs)
        assert [doc["kind"] for doc in docs[:first_main]] == ["grounding"] * (first_main - 1) + ["main"]
    assert metric(results, "tempvs_mt1_two", "mt_acc") is not None  # --limit 5 asks its first main question
    assert metric(results, "tempvs_mt1_three", "mt_acc") is None
    checked = run_cli([str(BIN / "temporal-bench"), "check", str(out)], out)
    assert checked.returncode == 1
    problems = [line.split(": ", 2)[1:] for line in checked.stderr.splitlines()[1:]]
    assert ["tempvs_mt1_three", NO_MAIN] in problems and not any(task == "tempvs_mt1_two" and "main question" in text for task, text in problems)


NO_MAIN = "no main question was asked: the 5 evaluated docs are all grounding questions (each image sequence's grounding questions come before its main questions): a larger --limit asks one"


# ---- 5. the command line --------------------------------------------------------------------------


def _help(capsys, argv) -> str:
    """The help text on one line (argparse wraps at the terminal width)."""
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_help_says_what_the_tool_is(capsys):
    assert (
        "Helpers around lmms-eval (and lm-eval) for the TempVS, ISO-Bench and CaT-Bench tasks of this package. "
        "Evaluations themselves run with lmms-eval / lm-eval; these commands find the tasks, check, report, compare "
        "and browse the runs, and export the tasks for lmms-eval."
    ) in _help(capsys, ["--help"])


def test_version_is_the_package_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == "temporal-bench 0.1.0\n"
    assert temporal_bench.__version__ == importlib.metadata.version("lmms-eval-temporal-bench") == "0.1.0"
    setup_cfg = (REPO / "setup.cfg").read_text(encoding="utf-8")
    assert "\nversion = attr: temporal_bench.__version__\n" in setup_cfg


SUBCOMMAND_DEFAULTS = {
    "task-dir": ["lmms-eval"],
    "demo": ["demo_output", "random_choice", "seed=1234"],
    "report": ["every table the runs have a task for", "markdown", "standard output", "no files", "the model the results files record", "the published rows too", "catbench 1, isobench 2, tempvs 1", "exit 1 naming both data sources"],
    "rescore": ["every task of the run", "the settings the run recorded", "the environment's variable, else the release folder above the images the run read", "RUN_DIR_rescored beside the run", "markdown", "standard output"],
    "score-predictions": ["combined", "every model of the predictions folder", "all four", "none", "tempvs_released_scores", "every layout with rows"],
    "export": ["lmms-eval", "all the harness's", "none, and the run step fails"],
    "build-dataset": ["none"],
    "check": ["the --tasks each lmms-eval run recorded; lm-eval runs record none", "a problem naming the expected and found counts"],
    "compare": ["standard output", "exit 1 naming both data sources"],
    "browse": ["browse.html in the run folder", "every task of the run", "3", "360", "160", "320"],
}


@pytest.mark.parametrize("command", list(SUBCOMMAND_DEFAULTS))
def test_every_subcommand_help_shows_its_defaults(capsys, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "1000")  # no line breaks inside a default
    assert re.findall(r"default: ([^)]*)\)", _help(capsys, [command, "--help"])) == SUBCOMMAND_DEFAULTS[command]
