"""The README's main job as docs/cli.md documents it (``temporal-bench demo --output-dir demo_seed1 --model-args seed=1``,
collected by tests/documented_commands.py), run once and its output checked in full: every task in the summary,
every layout and figure of the report, the browse page, a random baseline at chance level. No other documented
command reads its folder, so it runs beside them (tests/e2e/test_documented_commands.py); the installed wheel's demo
runs on smaller data (tests/e2e/test_packaging.py)."""

import math
import re

import pytest

from temporal_bench.browse.cards import make_images, run_cards
from temporal_bench.browse.thumbnails import Thumbnails
from temporal_bench.demo import DEMO_BENCHMARKS
from temporal_bench.isobench.breakdowns import breakdown_metrics as isobench_breakdowns
from temporal_bench.report.layouts import LAYOUTS
from temporal_bench.runs.logged import find_runs
from temporal_bench.tempvs.breakdowns import breakdown_metrics
from temporal_bench.tempvs.task_tests import per_test_results
from tests.documented_commands import documented_demo
from tests.harness import BIN, read_results, run_cli

DEMO = documented_demo()


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The documented demo command, run as documented in a folder of its own: (its output, its output folder)."""
    cwd = tmp_path_factory.mktemp("documented_demo")
    log = run_cli([str(BIN / "temporal-bench"), *DEMO.words[1:]], cwd, {"HOME": str(cwd / "home")})
    return log, cwd / DEMO.words[DEMO.words.index("--output-dir") + 1]


def test_the_documented_demo_command_runs(demo):
    log, output = demo
    assert log.returncode == 0, f"{DEMO.document}: {DEMO.line}\nstdout:\n{log.stdout[-2000:]}\nstderr:\n{log.stderr[-4000:]}"
    assert list((output / "results").rglob("*_results.json")), log.stdout[-2000:]


def test_browse_of_the_demo_folder_names_the_models_whose_cards_it_shows(demo, tmp_path):
    """The demo folder also holds the release's scored blind predictions of three LLMs: a page of the run's
    tasks names the run's model only."""
    log = run_cli([str(BIN / "temporal-bench"), "browse", str(demo[1]), "--tasks", "isobench", "--output", str(tmp_path / "page.html")], tmp_path)
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
    """What the demo writes and prints, on its own data sizes (tests/e2e/test_packaging.py runs the installed wheel's demo
    on smaller data): every task in the summary, every layout and figure of the report, the browse page, a random
    baseline at chance level."""
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
