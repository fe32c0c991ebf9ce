"""The README's main job: the demo evaluates every benchmark with the random baseline, and the
seeded scores sit at chance level within sampling error."""

import math

from temporal_bench.demo import DEMO_BENCHMARKS
from temporal_bench.isobench.metrics import breakdown_metrics as isobench_breakdowns
from temporal_bench.report.records import doc_record
from temporal_bench.tempvs.metrics import breakdown_metrics, per_test_results
from tests.harness import BIN, read_results, read_samples, run_cli


def _near_chance(value, chance, n):
    return abs(value - chance) <= 3 * math.sqrt(chance * (1 - chance) / n)


def test_demo_runs_every_benchmark_at_chance_level(tmp_path):
    log = run_cli([str(BIN / "temporal-bench"), "demo", "--output", str(tmp_path / "demo")], tmp_path)
    tasks = [task for benchmark in DEMO_BENCHMARKS.values() for task in benchmark.tasks]
    assert set(DEMO_BENCHMARKS) == {"catbench", "isobench", "tempvs"}
    # the lmms-eval run's folder (beside it: the scores of the release's blind predictions, Table 17)
    results_file = next((tmp_path / "demo" / "results").glob("*_results.json"))
    run_folder = results_file.parent
    results = read_results(results_file, tasks, log)
    # lmms-eval's own output (its 250-row metric table) went to the log; the summary closes the output
    assert "|Tasks|" not in log.stdout.replace(" ", "") and "|Tasks|" in (tmp_path / "demo" / "lmms_eval.log").read_text().replace(" ", "")
    # TempVS's MT2 and MT3 come from the tasks that share their grounding questions: read per test
    flat = {name: entry for task, values in results["results"].items() for name, entry in per_test_results(task, values).items()}
    summary = log.stdout[log.stdout.index("\nSummary: random_choice (seed=1234) on the demo data. The demo data is synthetic"):]
    for task, metric, scale, decimals, chance in (("catbench_switched", "f1_macro", 1, 2, "0.5*"), ("isobench", "f1_weighted", 1, 2, "0.5*"),
                                                  ("tempvs_mt1_two", "mt_acc", 100, 1, "50"), ("tempvs_mt3_caption", "mt_acc", 100, 1, "20")):
        assert f" {flat[task][f'{metric},none'] * scale:.{decimals}f} ({chance})" in summary, task
    report = tmp_path / "demo" / "report"  # the paper-layout report of the run, listed in short
    assert f"paper-layout report (temporal-bench report): {report}/\n  tables (.md and .csv): catbench-table1," in log.stdout
    for name in ("catbench-table1.md", "isobench-table1.csv", "tempvs-table3.md", "tempvs-table5.md", "tempvs-figure3.png"):
        assert (report / name).is_file() and name.replace(".md", "").replace(".csv", "") in log.stdout, name
    assert "| **random_choice (seed=1234)** | measured |" in (report / "tempvs-table3.md").read_text(encoding="utf-8")
    page = tmp_path / "demo" / "browse.html"  # the failure browser of the run, its path printed
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
