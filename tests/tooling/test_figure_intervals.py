"""The figures' uncertainty and ISO-Bench's one F1 rule, on a real lmms-eval run, recorded (a test model whose
answers include unparseable ones, on the synthetic data of all three benchmarks: tests/recorded/figure_intervals.py;
issue 35 item 5, issue 34 item 4):

* each point of a figure carries the interval the report computes: the cluster bootstrap of its
  records (TempVS Figure 3), the paired permutation interval of two settings' answers to the same
  questions (CaT-Bench Figures 7 and 8, ISO-Bench Figure 2), and the questions it rests on;
* ISO-Bench's F1 is one rule wherever a user sees it: the harness's headline ``paper_f1_weighted``, Table 1,
  compare, Figures 2 and 3 all equal ``scores(records, TABLE1_RULE)`` of lmms_eval_tasks/isobench/metrics.py,
  which differs here from the discard rule."""

import csv
import json

import pytest

from temporal_bench.isobench import rules as isobench_rules
from temporal_bench.isobench.rules import TABLE1_RULE
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID
from temporal_bench.lmms_eval_tasks.plugin.isobench.utils import METRIC_KEYS as ISOBENCH_METRIC_KEYS
from temporal_bench.report.cli import main_report
from temporal_bench.report.cluster_stats import cluster_stats_of, joined, stacked
from temporal_bench.report.compare import compare_runs, single_run
from temporal_bench.report.intervals import record_intervals
from temporal_bench.report.paired_test import paired_tests
from temporal_bench.runs.logged import find_runs
from tests.recorded.figure_intervals import TASKS


@pytest.fixture(scope="module")
def report(recorded, tmp_path_factory):
    folder = recorded("figure_intervals").out
    written = tmp_path_factory.mktemp("figure_intervals_report")
    assert main_report([str(folder), "--output-dir", str(written)]) == 0
    run = find_runs(next(folder.rglob("*_results.json")))[0]
    return written, run, {task: run.records(task) for task in TASKS}


def _rows(folder, figure):
    with open(folder / f"{figure}.csv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_tempvs_figure3_points_carry_their_bootstrap_intervals(report):
    folder, run, records = report
    stats = cluster_stats_of("tempvs_mt1_two")
    for row in _rows(folder, "tempvs-figure3"):
        kept = [r for r in records["tempvs_mt1_two"] if r["kind"] == "main" and r.get("event_distance") == int(row["x"])]
        found = record_intervals(stats, kept)["mt_acc"]
        assert float(row["value"]) == pytest.approx(100 * found.value, abs=1e-4)
        assert (float(row["low"]), float(row["high"])) == pytest.approx((100 * found.low, 100 * found.high), abs=1e-4)
        assert int(row["n"]) == len(kept)


def test_a_difference_figure_gets_the_paired_interval_of_the_two_settings(report):
    folder, run, records = report
    stats = cluster_stats_of("catbench_switched")
    keep = {"close": lambda r: r["distance"] <= r["close_max_distance"], "distant": lambda r: r["distance"] > r["close_max_distance"]}
    for row in _rows(folder, "catbench-figure8"):
        ae, a = joined(stats, *([r for r in records[task] if keep[row["x"]](r)] for task in ("catbench_explain_switched", "catbench_switched")))
        clusters = sorted(set(stats.counts(ae)) | set(stats.counts(a)))
        test = paired_tests({"f1_macro": stats.metrics["f1_macro"]}, *(stacked(stats.counts(rs), clusters, len(stats.stats)) for rs in (a, ae)))["f1_macro"]
        assert float(row["value"]) == pytest.approx(test.value, abs=1e-6)
        assert (float(row["low"]), float(row["high"])) == pytest.approx((test.low, test.high), abs=1e-6)
        assert float(row["low"]) <= float(row["value"]) <= float(row["high"])


def _paper_f1(records):
    return isobench_rules.scores(records, TABLE1_RULE)["f1_weighted"]


def test_isobench_f1_is_one_rule_in_table_1_compare_and_the_figures(report):
    folder, run, records = report
    iso = records["isobench"]
    assert any(r["pred"] == INVALID for r in iso)  # unparsed answers: the rules differ on this run
    assert _paper_f1(iso) != isobench_rules.scores(iso, "")["f1_weighted"]
    # the harness's headline: lmms-eval's table and the results file as written
    written = json.loads(run.results_path.read_text(encoding="utf-8"))["results"]["isobench"]
    assert written[f"{ISOBENCH_METRIC_KEYS[0]},none"] == pytest.approx(_paper_f1(iso), abs=1e-12)
    assert ISOBENCH_METRIC_KEYS[0] == f"{TABLE1_RULE}f1_weighted" and "f1_weighted,none" not in written
    # Table 1 (its Avg F reads the results' paper_ key)
    table = (folder / "isobench-table1.md").read_text(encoding="utf-8")
    assert f"| {_paper_f1(iso):.2f} [" in next(line for line in table.splitlines() if "| A | measured |" in line)
    # compare
    comparisons, _ = compare_runs(single_run(run.results_path), single_run(run.results_path))
    row = next(c for c in comparisons if c.task == "isobench" and c.metric == f"{TABLE1_RULE}f1_weighted")
    assert row.a == pytest.approx(_paper_f1(iso), abs=1e-12) and row.name == "isobench weighted F1 (Table 1's rule)"
    # Figure 3 (by relation) and Figure 2 (E→A minus A by distance)
    for point in _rows(folder, "isobench-figure3"):
        assert float(point["value"]) == pytest.approx(_paper_f1([r for r in iso if r["relation"] == point["x"]]), abs=1e-6)
    for point in _rows(folder, "isobench-figure2"):
        cot, a = joined(cluster_stats_of("isobench"), *([r for r in records[task] if r["distance_class"] == point["x"]] for task in ("isobench_cot", "isobench")))
        assert float(point["value"]) == pytest.approx(_paper_f1(cot) - _paper_f1(a), abs=1e-6)
        assert float(point["low"]) <= float(point["value"]) <= float(point["high"]) and int(point["n"]) == len(cot)
