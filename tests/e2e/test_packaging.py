"""The project as a user installs it, running the README's main job as docs/cli.md documents it. The built wheel holds
only ``temporal_bench/...`` with every file the tasks and the demo need. Installed (not editable) into a fresh virtual
environment, which takes its dependencies (torch, lmms-eval, ...) from the test's own through a ``.pth`` line (nothing
is downloaded; the project itself comes only from the wheel, never from the editable install's finder): lmms-eval
indexes every task YAML of it, the installed command prints a usage error as one line, and the installed console
script runs the documented demo command (``temporal-bench demo --output-dir demo_seed1 --model-args seed=1``,
collected by tests/documented_commands.py) from a folder outside the checkout, once, its output checked in full:
every task in the summary, every layout and figure of the report, the browse page, a random baseline at chance level.
No other documented command reads its folder, so it runs here rather than beside them
(tests/e2e/test_documented_commands.py). Nothing in the repository reaches outside it."""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from temporal_bench.browse.cards import make_images, run_cards
from temporal_bench.browse.thumbnails import Thumbnails
from temporal_bench.demo import DEMO_BENCHMARKS
from temporal_bench.isobench.breakdowns import breakdown_metrics as isobench_breakdowns
from temporal_bench.paths import LMMS_EVAL_TASK_DIR
from temporal_bench.report.layouts import LAYOUTS
from temporal_bench.runs.logged import find_runs
from temporal_bench.tempvs.breakdowns import breakdown_metrics
from temporal_bench.tempvs.task_tests import per_test_results
from tests.cli import temporal_bench
from tests.documented_commands import documented_demo
from tests.harness import OFFLINE, read_results
from tests.paths import REPO

PACKAGE_DIRS = {"tempvs": "tempvs", "isobench": "isobench", "catbench": "catbench", "lmms_eval_tasks/_task_utils/temporal_reasoning": "utils", "lmms_eval_tasks": "lmms_eval_tasks", "": "temporal_bench"}
DEMO = documented_demo()


def _run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{command}\nstdout:\n{result.stdout[-3000:]}\nstderr:\n{result.stderr[-6000:]}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built from a copy of the working tree: setuptools builds in the source folder's ``build/``, where a
    stale module (or a concurrent build) would end up in the wheel."""
    out = tmp_path_factory.mktemp("wheel")
    source = out / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__", "demo_output"))
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(out), str(source)], cwd=out)
    [built] = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory, wheel) -> Path:
    env = tmp_path_factory.mktemp("fresh") / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(env)])  # the test's pip installs into it (--python)
    python = env / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)])
    return env


# One process of the fresh environment's Python, from a folder outside the checkout (one start of torch and lmms-eval
# instead of two): first what it finds, the task names a TaskManager built as a Python user builds one indexes (our
# package not imported: registered by its entry point), then where the package's templates and task folder are; then
# the installed console script, run as its shebang line runs it, with the documented demo command's arguments.
INSTALLED = """
import json, pathlib, runpy, sys
import lmms_eval.evaluator
from lmms_eval.tasks import TaskManager
manager = TaskManager("WARNING")
import temporal_bench.tempvs.fixtures as f, temporal_bench.paths as p
found = {"paths": [str(f.TEMPLATES_DIR), str(p.LMMS_EVAL_TASK_DIR)], "tasks": list(manager.all_tasks), "include_path": manager.include_path}
pathlib.Path(sys.argv[1]).write_text(json.dumps(found))
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.fixture(scope="module")
def installed_run(fresh_env, tmp_path_factory):
    """(what the fresh environment's Python found, the documented demo's output folder, the demo's log)."""
    base = tmp_path_factory.mktemp("installed")
    cwd, found = base / "elsewhere", base / "found.json"
    cwd.mkdir()
    script = fresh_env / "bin" / "temporal-bench"
    log = subprocess.run([str(fresh_env / "bin" / "python"), "-c", INSTALLED, str(found), str(script), *DEMO.words[1:]], cwd=cwd, env={**os.environ, **OFFLINE, "HOME": str(cwd / "home")}, capture_output=True, text=True)
    assert log.returncode == 0, f"{DEMO.document}: {DEMO.line}\nstdout:\n{log.stdout[-2000:]}\nstderr:\n{log.stderr[-4000:]}"
    return json.loads(found.read_text()), cwd / DEMO.words[DEMO.words.index("--output-dir") + 1], log


@pytest.fixture(scope="module")
def installed(installed_run) -> dict:
    return installed_run[0]


@pytest.fixture(scope="module")
def demo(installed_run):
    """The documented ``temporal-bench demo`` command of the installed wheel: (its log, its output folder)."""
    return installed_run[2], installed_run[1]


def _repository_files(folder: str):
    return {p.relative_to(REPO / folder).as_posix() for p in (REPO / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_wheel_holds_only_the_one_import_name_and_every_shipped_file(wheel):
    names = [n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n]
    assert names and all(n.startswith("temporal_bench/") for n in names), sorted({n.split("/")[0] for n in names})
    shipped = set(names)
    for package, folder in PACKAGE_DIRS.items():
        prefix = "temporal_bench/" + (package + "/" if package else "")
        missing = {f for f in _repository_files(folder) if not f.startswith(tuple(PACKAGE_DIRS.values()))}
        missing = {f for f in missing if prefix + f not in shipped}
        assert not missing, f"{folder}/ files absent from the wheel: {sorted(missing)}"


def test_the_installed_package_is_the_wheels_and_lmms_eval_indexes_every_task_yaml(fresh_env, installed):
    assert all(Path(p).is_relative_to(fresh_env) for p in installed["paths"]), installed["paths"]
    names = {match for path in LMMS_EVAL_TASK_DIR.rglob("*.yaml") for match in re.findall(r"^(?:task|group): (\S+)$", path.read_text(encoding="utf-8"), flags=re.M)}
    assert names and names <= set(installed["tasks"]), sorted(names - set(installed["tasks"]))
    assert "mmmu_val" in installed["tasks"] and installed["include_path"] is None  # lmms-eval's own tasks too; the user's include_path untouched


def test_the_installed_command_prints_one_error_line_and_exits_2(fresh_env, tmp_path):
    """A process of its own, as a shell runs the installed console script: argparse's usage error, nothing else."""
    log = subprocess.run([str(fresh_env / "bin" / "temporal-bench"), "report", str(tmp_path), "--format", "md"], env={**os.environ, **OFFLINE}, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert (log.returncode, log.stdout) == (2, "")
    assert log.stderr == ("temporal-bench report: error: argument --format: invalid choice: 'md' (choose from 'markdown', 'csv') (see temporal-bench report --help)\n")


def test_the_installed_demo_writes_its_results_and_report_from_another_folder(demo, fresh_env):
    log, output = demo
    assert list((output / "results").rglob("*_results.json")), log.stdout[-3000:]
    # every layout the demo writes (test_the_documented_demo_runs_every_benchmark_at_chance_level checks them), and its page
    assert {path.stem for path in (output / "report").glob("*.md")} == set(LAYOUTS) - {"tempvs-table12"}
    assert (output / "browse.html").is_file()
    # the environment's commands are not on PATH (as after `bash run_demo.sh`): the last line says how to call them
    assert log.stdout.endswith(f"`source {fresh_env / 'bin' / 'activate'}` to call them by name, e.g. `temporal-bench check {output}`, or call them by path: `{fresh_env / 'bin' / 'temporal-bench'} check {output}`.\n")


def test_nothing_in_the_repository_reads_a_path_outside_it():
    tracked = [name for name in _run(["git", "ls-files"], cwd=REPO).stdout.split() if (REPO / name).is_file()]  # a deletion not yet committed: gone
    offenders = [
        name
        for name in tracked
        if name.endswith((".py", ".sh", ".cfg", ".toml", ".yaml", "_yaml"))
        and any(marker in (REPO / name).read_text(encoding="utf-8") for marker in ("../shared", '/ "shared"', "parents[2].parent"))
        and name != "tests/e2e/test_packaging.py"
    ]
    assert not offenders


def test_the_demo_folder_is_one_run_for_compare_and_check(demo):
    """(The commands of the checkout, in this process: what matters is the folder the installed demo wrote.)"""
    _, output = demo
    compared = temporal_bench("compare", output, output, cwd=output.parent)
    [results_file] = (output / "results").glob("*_results.json")
    assert f"- A: **random_choice (seed=1)**, `{results_file.as_posix()}`" in compared.stdout, compared.stderr[-3000:]
    assert temporal_bench("check", output, cwd=output.parent).stdout.splitlines()[-1].startswith("check: OK: 1 run(s), 17 task(s), ")


def test_browse_of_the_demo_folder_names_the_models_whose_cards_it_shows(demo, tmp_path):
    """The demo folder also holds the release's scored blind predictions of three LLMs: a page of the run's
    tasks names the run's model only."""
    log = temporal_bench("browse", demo[1], "--tasks", "isobench", "--output", tmp_path / "page.html", cwd=tmp_path)
    assert log.returncode == 0, log.stderr[-3000:]
    title = re.search(r"<title>(.*?)</title>", (tmp_path / "page.html").read_text(encoding="utf-8")).group(1)
    assert title == "What the model answered: random_choice (seed=1)"


def test_browse_shows_no_image_for_a_release_s_scored_blind_outputs(demo):
    """The text-only models of the release's blind predictions saw no image: their cards show none and name none as
    missing (a release's outputs log no image files; browse rebuilds no docs to find them)."""
    thumbnails = Thumbnails()
    tasks = run_cards(find_runs(demo[1] / "tempvs_released_blind"))
    make_images(tasks, thumbnails)
    assert tasks and all(card.images == [] for task in tasks for card in task.cards) and thumbnails.missing == {}


def _near_chance(value, chance, n):
    """Within 4 standard errors: the test judges 15 cells of one seeded run, so a fair random baseline fails one of
    them with a chance under 0.1% (3 standard errors: 4%; seed=1, the documented one, lands 3.2 from chance once)."""
    return abs(value - chance) <= 4 * math.sqrt(chance * (1 - chance) / n)


def test_the_documented_demo_runs_every_benchmark_at_chance_level(demo):
    """What the demo writes and prints, on its own data sizes: every task in the summary, every layout and figure of the
    report, the browse page, a random baseline at chance level."""
    log, output = demo
    tasks = [task for benchmark in DEMO_BENCHMARKS.values() for task in benchmark.tasks]
    assert set(DEMO_BENCHMARKS) == {"catbench", "isobench", "tempvs"}
    # the lmms-eval run's folder (beside results/: the scores of the release's blind predictions, Table 17)
    [results_file] = (output / "results").glob("*_results.json")
    assert {path.parent.name for path in (output / "tempvs_released_blind").rglob("*_results.json")} == {"Llama-3.1-8B", "Phi-3.5-mini-instruct", "Qwen2.5-72B-Instruct"}
    results = read_results(results_file, tasks, log)
    # lmms-eval's own output (its 250-row metric table) went to the log; the summary closes the output
    assert "|Tasks|" not in log.stdout.replace(" ", "") and "|Tasks|" in (output / "lmms_eval.log").read_text().replace(" ", "")
    # TempVS's tests come from the tasks of --tasks tempvs (MT2 and MT3 two by two): read per test
    flat = {name: entry for task, values in results["results"].items() for name, entry in per_test_results(task, values).items()}
    summary = log.stdout[log.stdout.index("\nSummary: random_choice (seed=1) on the demo data. The demo data is synthetic") :]
    # checked as `temporal-bench check` checks a run; no warning about the demo's own (synthetic) data
    assert f"results: {results_file}\ncheck: OK: 1 run(s), 17 task(s), " in log.stdout
    lmms_eval_log = (output / "lmms_eval.log").read_text(encoding="utf-8")
    assert "differs from the paper's Table 2" not in log.stdout + log.stderr + lmms_eval_log
    assert "the released test split has" not in lmms_eval_log
    # every task it ran has a summary row (the CoT tasks answered in their answer tags: none invalid)
    assert "Not in the summary" not in summary
    for row in ("catbench_sc_k5_t08_switched ", "catbench_explain_nl_switched ", "isobench_cot ", "MT3 caption CoT "):
        assert f"\n  {row}" in summary, row
    assert flat["isobench_cot"]["coverage,none"] == 1.0
    for task, metric, scale, decimals, chance in (
        ("catbench_switched", "f1_macro", 1, 2, "0.5*"),
        ("isobench", "f1_weighted", 1, 2, "0.5*"),
        ("isobench_cot", "f1_weighted", 1, 2, "0.5*"),
        ("tempvs_mt1_two", "mt_acc", 100, 1, "50"),
        ("tempvs_mt3_caption", "mt_acc", 100, 1, "20"),
    ):
        assert f" {flat[task][f'{metric},none'] * scale:.{decimals}f} ({chance})" in summary, task
    report = output / "report"  # the paper-layout report of the run, listed in short
    assert f"paper-layout report (temporal-bench report): {report}/\n  tables (.md and .csv): catbench-table1," in log.stdout
    for name in ("catbench-table1.md", "isobench-table1.csv", "tempvs-table3.md", "tempvs-table5.md", "tempvs-figure3.png"):
        assert (report / name).is_file() and name.replace(".md", "").replace(".csv", "") in log.stdout, name
    # every figure, its plotted values beside it: ISO-Bench Figure 2 from the baseline's E→A and A
    # (it answers E→A in the asked tag), TempVS Figure 2 with the baseline drawn without a size
    figures = ["catbench-figure7", "catbench-figure8", "isobench-figure2", "isobench-figure3", "tempvs-figure2", "tempvs-figure3"]
    assert sorted(p.stem for p in report.glob("*.png")) == sorted(p.stem for p in report.glob("*figure*.csv")) == figures
    assert all(f"{name}.png" in log.stdout for name in figures)
    assert results["results"]["isobench_cot"]["coverage,none"] == 1.0
    iso_gain = [row.split(",") for row in (report / "isobench-figure2.csv").read_text(encoding="utf-8").splitlines()[1:]]
    # each value written to 6 decimals: the difference of two rounded values is within 1e-6 of the rounded difference
    assert [(row[2], float(row[4])) for row in iso_gain] == [(row[2], pytest.approx(float(row[6]) - float(row[8]), abs=1.5e-6)) for row in iso_gain]
    assert [row[2] for row in iso_gain] == ["close", "distant"]
    by_size = (report / "tempvs-figure2.csv").read_text(encoding="utf-8").splitlines()
    assert by_size[1].startswith("tempvs-figure2,random_choice (seed=1),random_choice (seed=1),,none,MT1 two-event,mt_acc,")
    assert len(by_size) == 1 + 6
    # Table 19's three columns, images only from tempvs_mt3_images_only
    [row19] = [line for line in (report / "tempvs-table19.md").read_text(encoding="utf-8").splitlines() if line.startswith("| **random_choice")]
    assert row19.count("[") == 3 and f"{flat['tempvs_mt3_images_only']['mt_acc,none']:.4f}" in row19
    assert "| **random_choice (seed=1)** (synthetic data) | measured |" in (report / "tempvs-table3.md").read_text(encoding="utf-8")
    for table in ("catbench-table1", "catbench-table3", "catbench-table4", "catbench-table5", "catbench-table6_7", "isobench-table1"):
        assert "Runs with no task of this table" not in (report / f"{table}.md").read_text(encoding="utf-8"), table  # the TempVS-only rows
    # every layout but Table 12 (separate images), each setting filled but Table 18's "before" (the
    # tasks the demo leaves out)
    assert {path.stem for path in report.glob("*.md")} == set(LAYOUTS) - {"tempvs-table12"}
    not_run = [line for path in sorted(report.glob("*.md")) for line in path.read_text(encoding="utf-8").splitlines() if "not run (" in line]
    assert [line.split("no task matching ")[1] for line in not_run] == [f"tempvs_{test}_unfiltered)" for test in ("mt1_two", "mt1_three", "mt2_event", "mt2_caption")]
    page = output / "browse.html"  # the failure browser of the run, its path printed
    assert page.is_file() and str(page) in log.stdout
    n_catbench = results["n-samples"]["catbench_switched"]["effective"]
    assert _near_chance(results["results"]["catbench_switched"]["accuracy,none"], 0.5, n_catbench)
    for task in ("isobench", "isobench_cot"):
        assert results["results"][task]["coverage,none"] == 1.0
        iso_records = find_runs(results_file)[0].records(task)
        assert _near_chance(isobench_breakdowns(task, iso_records)["accuracy"], 0.5, results["n-samples"][task]["effective"]), task
    counts = {}
    for task in ["tempvs"]:  # the six tests of --tasks tempvs
        values = breakdown_metrics(task, find_runs(results_file)[0].records(task))
        counts.update(per_test_results(task, {f"{k},none": v for k, v in values.items()}))
    for task, chance in {"tempvs_mt1_two": 0.5, "tempvs_mt1_three": 0.5, "tempvs_mt2_event": 0.2, "tempvs_mt2_caption": 0.2, "tempvs_mt3_event": 0.2, "tempvs_mt3_caption": 0.2}.items():
        values = flat[task]
        assert _near_chance(values["mt_acc,none"], chance, counts[task]["main_count,none"]), task
        # grounding has no options: the baseline picks among the sequence's images (mostly 5)
        assert _near_chance(values["gt_acc,none"], 0.2, counts[task]["grounding_count,none"]), task
