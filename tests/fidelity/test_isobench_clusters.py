"""ISO-Bench's cluster statistics (isobench/cluster_stats.py): questions cluster by the goal of their plan,
the unit they really share (a CrossTask task, a YouCook2 recipe: several videos each), with a named
fallback to the plan video or the example for records without a goal; every scoring rule follows the
task's own rule function, and compare's headline is Table 1's rule. Calibration with goal-level model
effects (benchmarks/simulated_runs.py): clustered by goal, compare's false positives stay near 5%
where clustering by video runs well above."""

import sys

import numpy as np
import pytest

from temporal_bench.isobench import rules as metrics
from temporal_bench.isobench.cluster_stats import ISOBENCH
from temporal_bench.isobench.rules import TABLE1_RULE
from temporal_bench.isobench.tables import ISOBENCH_TABLE1
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID
from temporal_bench.report.cluster_stats import stacked
from temporal_bench.report.compare import compare_records
from temporal_bench.report.paired_test import ALPHA
from tests.paths import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
from simulated_runs import Answers, isobench, run_pair  # noqa: E402

ANSWERS = ("yes", "no", INVALID)


def _records(n: int = 60, goal: bool = True, plan: bool = True) -> list[dict]:
    records = []
    for i in range(n):
        record = {"id": f"q{i}", "gold": ("yes", "no")[i % 2], "pred": ANSWERS[(i * 7) % 3]}
        if plan:
            record["plan_id"] = f"video {i // 3}"
        if goal:
            record["goal"] = f"goal {i // 12}"
        records.append(record)
    return records


def test_records_cluster_by_their_goal():
    counts = ISOBENCH.counts(_records())
    assert sorted(counts) == [f"goal goal {g}" for g in range(5)]  # 60 questions, 20 videos, 5 goals
    assert ISOBENCH.clustering_note(_records()) is None


@pytest.mark.parametrize("plan, clusters, unit", [(True, 20, "their plan video (plan_id)"), (False, 60, "the plan video where the data has one, else the example")])
def test_records_without_a_goal_fall_back_and_say_so(plan, clusters, unit):
    records = _records(goal=False, plan=plan)
    assert len(ISOBENCH.counts(records)) == clusters
    assert ISOBENCH.clustering_note(records) == (f"60 of 60 records carry no goal: clustered by {unit}, finer than the goals their questions share, so intervals come out too narrow and p-values too small (docs/uncertainty.md)")


def test_every_rule_equals_the_tasks_own_scores():
    records = _records()
    total = stacked(ISOBENCH.counts(records), sorted(ISOBENCH.counts(records)), len(ISOBENCH.stats)).sum(axis=0)
    for rule in metrics.RULES:
        for score, value in metrics.scores(records, rule).items():
            assert float(ISOBENCH.metrics[f"{rule}{score}"](total)) == pytest.approx(value, abs=1e-12), (rule, score)


def test_compare_reads_table_1s_rule():
    """One F1 per run (issue 34 item 4): compare's ISO-Bench F1 rows are Table 1's (the paper_ rule of
    isobench/rules.py scores, an unparsed answer a third label), labelled so."""
    assert all(column.metric.startswith(TABLE1_RULE) for column in ISOBENCH_TABLE1.columns)
    assert ISOBENCH.headline == (f"{TABLE1_RULE}f1_weighted", f"{TABLE1_RULE}f1_macro", "coverage")
    records = _records()
    rows, _ = compare_records("isobench", records, records)
    weighted = next(row for row in rows if row.metric == f"{TABLE1_RULE}f1_weighted")
    assert weighted.a == pytest.approx(metrics.scores(records, TABLE1_RULE)["f1_weighted"], abs=1e-12)
    assert weighted.support == (60, 60)  # every answer, the unparsed ones too
    assert weighted.name == "isobench weighted F1 (Table 1's rule)"


PAIRS = 100  # the full-size figures: benchmarks/RESULTS.md


def _false_positives(structure, goal_sd: float, seed: int) -> float:
    """The share of simulated null pairs (two models of equal skill) whose weighted F1 differs at 5%."""
    rng = np.random.default_rng(seed)
    rows = [row for _ in range(PAIRS) for row in compare_records("isobench", *run_pair(structure, Answers(goal_sd=goal_sd), 0.0, rng))[0] if row.metric == f"{TABLE1_RULE}f1_weighted"]
    return sum(row.test.p < ALPHA for row in rows) / len(rows)


def test_goal_clusters_hold_the_level_where_video_clusters_do_not():
    """Goal effects of sd 1.0 on a release whose YouCook2 videos come from 30 recipes (48 goals):
    clustered by video (the fallback, and every run before goals were recorded) compare calls about
    a quarter of the null pairs different, clustered by goal about one in twenty (1,000 pairs per
    setting and the release's 107 goals: benchmarks/RESULTS.md)."""
    by_goal = _false_positives(isobench(goals_per_source=(18, 30)), 1.0, seed=1)
    by_video = _false_positives(isobench(goals_per_source=(18, 30), with_goals=False), 1.0, seed=1)
    assert by_goal <= 0.08 and by_video > 0.15, (by_goal, by_video)
    assert (by_goal, by_video) == (5 / 100, 34 / 100)  # seeded
