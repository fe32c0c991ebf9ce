"""The README's main job, as a user runs it from the installed wheel (tests/installed_wheel.py) in a
folder outside the checkout: the demo evaluates every benchmark with the random baseline, the seeded
scores sit at chance level within sampling error, and the package it ran is the wheel's."""

import math
from pathlib import Path

import pytest

from temporal_bench.demo import DEMO_BENCHMARKS
from temporal_bench.isobench.metrics import breakdown_metrics as isobench_breakdowns
from temporal_bench.report.records import doc_record
from temporal_bench.tempvs.metrics import breakdown_metrics, per_test_results
from tests.harness import read_results, read_samples
from tests.installed_wheel import build_wheel, fresh_environment, run


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory) -> Path:
    return fresh_environment(tmp_path_factory.mktemp("fresh") / "venv", build_wheel(tmp_path_factory.mktemp("wheel")))


@pytest.fixture(scope="module")
def demo(fresh_env, tmp_path_factory):
    """``temporal-bench demo --output <folder>`` of the installed wheel, run from another folder: (output folder, log)."""
    base = tmp_path_factory.mktemp("demo")
    cwd, output = base / "elsewhere", base / "demo"
    cwd.mkdir()
    return output, run([str(fresh_env / "bin" / "temporal-bench"), "demo", "--output", str(output)], cwd=cwd)


def test_the_installed_wheel_runs_it_from_another_folder(fresh_env, demo, tmp_path):
    where = run([str(fresh_env / "bin" / "python"), "-c", "import temporal_bench.tempvs.fixtures as f, temporal_bench.paths as p; "
                 "print(f.TEMPLATES_DIR); print(p.LMMS_EVAL_TASK_DIR)"], cwd=tmp_path).stdout.split()
    assert all(Path(p).is_relative_to(fresh_env) for p in where), where
    output, log = demo
    assert list((output / "results").rglob("*_results.json")), log.stdout[-3000:]
    assert (output / "report" / "tempvs-table3.md").is_file()


def _near_chance(value, chance, n):
    return abs(value - chance) <= 3 * math.sqrt(chance * (1 - chance) / n)


def test_demo_runs_every_benchmark_at_chance_level(demo):
    output, log = demo
    tasks = [task for benchmark in DEMO_BENCHMARKS.values() for task in benchmark.tasks]
    assert set(DEMO_BENCHMARKS) == {"catbench", "isobench", "tempvs"}
    # the lmms-eval run's folder (beside it: the scores of the release's blind predictions, Table 17)
    results_file = next((output / "results").glob("*_results.json"))
    run_folder = results_file.parent
    results = read_results(results_file, tasks, log)
    # lmms-eval's own output (its 250-row metric table) went to the log; the summary closes the output
    assert "|Tasks|" not in log.stdout.replace(" ", "") and "|Tasks|" in (output / "lmms_eval.log").read_text().replace(" ", "")
    # TempVS's MT2 and MT3 come from the tasks that share their grounding questions: read per test
    flat = {name: entry for task, values in results["results"].items() for name, entry in per_test_results(task, values).items()}
    summary = log.stdout[log.stdout.index("\nSummary: random_choice (seed=1234) on the demo data. The demo data is synthetic"):]
    for task, metric, scale, decimals, chance in (("catbench_switched", "f1_macro", 1, 2, "0.5*"), ("isobench", "f1_weighted", 1, 2, "0.5*"),
                                                  ("tempvs_mt1_two", "mt_acc", 100, 1, "50"), ("tempvs_mt3_caption", "mt_acc", 100, 1, "20")):
        assert f" {flat[task][f'{metric},none'] * scale:.{decimals}f} ({chance})" in summary, task
    report = output / "report"  # the paper-layout report of the run, listed in short
    assert f"paper-layout report (temporal-bench report): {report}/\n  tables (.md and .csv): catbench-table1," in log.stdout
    for name in ("catbench-table1.md", "isobench-table1.csv", "tempvs-table3.md", "tempvs-table5.md", "tempvs-figure3.png"):
        assert (report / name).is_file() and name.replace(".md", "").replace(".csv", "") in log.stdout, name
    assert "| **random_choice (seed=1234)** | measured |" in (report / "tempvs-table3.md").read_text(encoding="utf-8")
    page = output / "browse.html"  # the failure browser of the run, its path printed
    assert page.is_file() and str(page) in log.stdout
    n_catbench = results["n-samples"]["catbench_switched"]["effective"]
    assert _near_chance(results["results"]["catbench_switched"]["accuracy,none"], 0.5, n_catbench)
    n_iso = results["n-samples"]["isobench"]["effective"]
    assert results["results"]["isobench"]["coverage,none"] == 1.0
    iso_records = [doc_record(sample) for sample in read_samples(run_folder, "isobench")]
    assert _near_chance(isobench_breakdowns("isobench", iso_records)["accuracy"], 0.5, n_iso)
    counts = {}
    for task in ("tempvs_mt1_two", "tempvs_mt1_three", "tempvs_ordering_event", "tempvs_ordering_caption"):
        values = breakdown_metrics(task, [doc_record(line) for line in read_samples(run_folder, task)])
        counts.update(per_test_results(task, {f"{k},none": v for k, v in values.items()}))
    for task, chance in {"tempvs_mt1_two": 0.5, "tempvs_mt1_three": 0.5, "tempvs_mt2_event": 0.2, "tempvs_mt2_caption": 0.2,
                         "tempvs_mt3_event": 0.2, "tempvs_mt3_caption": 0.2}.items():
        values = flat[task]
        assert _near_chance(values["mt_acc,none"], chance, counts[task]["main_count,none"]), task
        # grounding has no options: the baseline picks among the sequence's images (mostly 5)
        assert _near_chance(values["gt_acc,none"], 0.2, counts[task]["grounding_count,none"]), task
