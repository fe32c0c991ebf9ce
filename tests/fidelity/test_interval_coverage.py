"""Proof that the intervals are right (docs/uncertainty.md): simulated runs with a known true score
and clustered answers (200 clusters of 5 or 10 questions sharing a cluster effect) go through the
same bootstrap as a real run (temporal_bench/report/bootstrap.py ``interval``, with the
benchmarks' own metric functions). The 95% intervals must cover the truth in 93-97% of the runs,
while a naive bootstrap that resamples single questions, on the same data, covers it far less often:
the reason the cluster is resampled. On CaT-Bench's real plans (few, of unequal size and class mix)
every resample keeps the run's Dep and NonDep counts, as the benchmark does, and the interval covers
near 95%, where resampling the balance too covers more (the full-size figures:
benchmarks/interval_coverage.py). Deterministic (fixed seeds)."""

import sys

import numpy as np
import pytest

from temporal_bench.catbench.cluster_stats import CATBENCH
from temporal_bench.report.bootstrap import DRAWS, SEED, cluster_weights, expanded_level, interval, metric_interval, percentile_interval, resampled
from temporal_bench.report.cluster_stats import CLUSTER_STATS, CONFUSION, stacked
from temporal_bench.tempvs.cluster_stats import TEMPVS
from tests.paths import CATBENCH_VAL, REPO
from tests.tempvs_fixture_copies import write_tempvs

sys.path.insert(0, str(REPO / "benchmarks"))
from simulated_runs import Answers, catbench, catbench_split, isobench, one_run, tempvs  # noqa: E402

RUNS = 300
NAIVE_RUNS = 150  # enough to show the shortfall; each resamples 1,000 single questions
CLUSTERS = 200
ICC = 0.3  # intra-cluster correlation of the answers' correctness
# the seeded figures of the small runs here (the full-size ones: benchmarks/interval_coverage.py, benchmarks/RESULTS.md)
SEEDED = {
    "accuracy": (284 / 300, 122 / 150),
    "f1_macro": 283 / 300,
    # of 100 runs on the validation split's own plans, per headline metric: those the interval keeping the class balance
    # covers, and the one resampling it too
    "plans": {"f1_macro": (94, 94), "f1_dep": (95, 98), "f1_nondep": (95, 96), "tc": (93, 93), "occ": (99, 99)},
}


def cluster_accuracies(rng, mean, runs=RUNS):
    """Each cluster's chance of a right answer: Beta with mean ``mean`` and intra-cluster correlation ICC."""
    scale = (1 - ICC) / ICC
    return rng.beta(mean * scale, (1 - mean) * scale, size=(runs, CLUSTERS))


def coverage(metric, counts_per_run, truth):
    found = [interval(metric, counts) for counts in counts_per_run]
    return np.mean([i.low <= truth <= i.high for i in found])


def tempvs_mt_counts(right):
    """TempVS count vectors of main questions only, cut after mt_total (all that MT reads)."""
    counts = np.zeros(right.shape[:2] + (TEMPVS.column("mt_total") + 1,))
    counts[..., TEMPVS.column("mt_correct")] = right.sum(axis=-1)
    counts[..., TEMPVS.column("mt_total")] = right.shape[-1]
    return counts


def test_cluster_intervals_cover_a_true_accuracy_in_95_percent_of_runs_and_naive_ones_do_not():
    rng = np.random.default_rng(2024)
    truth, size = 0.6, 5
    right = rng.random((RUNS, CLUSTERS, size)) < cluster_accuracies(rng, truth)[..., None]
    mt_acc = TEMPVS.metrics["mt_acc"]
    clustered = coverage(mt_acc, tempvs_mt_counts(right), truth)
    naive = coverage(mt_acc, tempvs_mt_counts(right[:NAIVE_RUNS].reshape(NAIVE_RUNS, CLUSTERS * size, 1)), truth)
    assert 0.92 <= clustered <= 0.98, clustered  # 300 runs (1,000: 0.948, docs/uncertainty.md)
    # the design effect 1 + (5 - 1) x 0.3 = 2.2 makes per-question intervals ~1.5x too narrow: ~80%
    assert naive < 0.88, naive
    assert (clustered, naive) == SEEDED["accuracy"], (clustered, naive)


def test_cluster_intervals_cover_a_true_macro_f1_in_95_percent_of_runs():
    """CaT-Bench-like plans of 5 Dep and 5 NonDep questions; a wrong answer flips the label, so the
    population's macro F1 is its accuracy, 0.7."""
    rng = np.random.default_rng(7)
    truth, per_class = 0.7, 5
    right = rng.random((RUNS, CLUSTERS, 2, per_class)) < cluster_accuracies(rng, truth)[..., None, None]
    counts = np.zeros((RUNS, CLUSTERS, len(CONFUSION)))  # all that macro F1 reads
    yes_right, no_right = right[..., 0, :].sum(axis=-1), right[..., 1, :].sum(axis=-1)
    for name, value in {"yes_yes": yes_right, "yes_no": per_class - yes_right, "no_no": no_right, "no_yes": per_class - no_right}.items():
        counts[..., CATBENCH.column(name)] = value
    clustered = coverage(CATBENCH.metrics["f1_macro"], counts, truth)
    assert 0.92 <= clustered <= 0.98, clustered
    assert clustered == SEEDED["f1_macro"], clustered


# ---- every benchmark's metrics on its own dependence structure (benchmarks/simulated_runs.py) ------

STRUCTURED_RUNS = 120


@pytest.fixture(scope="module")
def structures(tmp_path_factory):
    root = write_tempvs(tmp_path_factory.mktemp("coverage") / "tempvs", n_sequences=40)
    return {"tempvs": tempvs(root, "tempvs_mt1_two")[0], "catbench": catbench(), "isobench": isobench()}


COVERED = {  # metric -> the seeded share of 120 runs whose 95% interval covers the population value
    "tempvs": {"gt_acc": 111 / 120, "gtstrict_rate": 112 / 120, "mt_acc": 116 / 120, "mt_given_gtstrict": 113 / 120},
    "catbench": {"f1_macro": 116 / 120, "tc": 115 / 120, "occ": 111 / 120},
    # coverage, a share near 1 (3% unparsed), runs a little short, as percentile intervals of such shares do
    "isobench": {"f1_weighted": 110 / 120, "strict_f1_weighted": 112 / 120, "paper_f1_weighted": 112 / 120, "paper_f1_of_avg_pr": 112 / 120, "coverage": 112 / 120},
}


@pytest.mark.parametrize("name", sorted(COVERED))
def test_cluster_intervals_cover_every_metric_on_the_benchmarks_structure(structures, name):
    """Runs with TempVS's shared grounding and statement pairs, CaT-Bench's TC pairs and OCC twins over
    57 plans of unequal size, ISO-Bench's unparsed answers under its three scoring rules over 107 goals. The
    population value: the metric of the counts pooled over all runs (a run of 400 times the clusters)."""
    benchmark, structure = CLUSTER_STATS[name], structures[name]
    rng = np.random.default_rng(5)
    runs = []
    for _ in range(STRUCTURED_RUNS):
        counts = benchmark.counts(one_run(structure, Answers(), rng))
        runs.append(stacked(counts, sorted(counts), len(benchmark.stats)))
    pooled = np.sum([run.sum(axis=0) for run in runs], axis=0)
    found = {}
    for metric in COVERED[name]:
        truth = float(benchmark.metrics[metric](pooled))
        intervals = [metric_interval(benchmark, metric, run) for run in runs]
        found[metric] = float(np.mean([i.low <= truth <= i.high for i in intervals]))
    assert all(0.9 <= share <= 0.99 for share in found.values()), found
    assert found == pytest.approx(COVERED[name], abs=1e-12), str(found)


# ---- CaT-Bench's real plans: the class balance the benchmark fixes (issue 52) ------------------------

PLAN_RUNS = 100


@pytest.fixture(scope="module")
def validation_runs():
    """PLAN_RUNS runs on the validation split's own 28 plans (1 to 97 step pairs, Dep and NonDep mixed unevenly)."""
    stats, structure, rng = CLUSTER_STATS["catbench"], catbench_split(CATBENCH_VAL), np.random.default_rng(52)
    runs = []
    for _ in range(PLAN_RUNS):
        counts = stats.counts(one_run(structure, Answers(), rng))
        runs.append(stacked(counts, sorted(counts), len(stats.stats)))
    return runs


def test_every_catbench_resample_keeps_the_runs_dep_and_nondep_counts(validation_runs):
    stats, run = CLUSTER_STATS["catbench"], validation_runs[0]
    total = run.sum(axis=0)
    drawn = resampled(cluster_weights(len(run), DRAWS, SEED), run)
    kept = stats.at_design(drawn, total)
    for columns in (("yes_yes", "yes_no"), ("no_yes", "no_no"), ("tc_complete_dep",), ("tc_complete_nondep",)):
        indices = [stats.column(c) for c in columns]
        assert np.ptp(drawn[:, indices].sum(axis=1)) > 50, columns  # plans alone move the balance by dozens of questions
        assert kept[:, indices].sum(axis=1) == pytest.approx(np.full(DRAWS, total[indices].sum()), rel=1e-12), columns
    assert stats.metrics["recall_dep"](kept) == pytest.approx(stats.metrics["recall_dep"](drawn), rel=1e-12)  # rates within a class as drawn
    for name in stats.headline:  # the report's interval is the one of these draws
        found = metric_interval(stats, name, run)
        assert (found.low, found.high) == percentile_interval(stats.metrics[name](kept), expanded_level(round(found.effective, 2))), name


def test_on_catbench_plans_the_interval_keeping_the_balance_covers_where_the_one_as_drawn_covers_too_often(validation_runs):
    """The population value: the metric of the counts pooled over the runs (each run has the same Dep and NonDep pairs)."""
    stats = CLUSTER_STATS["catbench"]
    pooled = np.sum([run.sum(axis=0) for run in validation_runs], axis=0)
    found = {}
    for name in stats.headline:
        metric, truth = stats.metrics[name], float(stats.metrics[name](pooled))
        kept = [metric_interval(stats, name, run) for run in validation_runs]
        as_drawn = [interval(metric, run, stats.sizes(name, run)) for run in validation_runs]
        found[name] = tuple(sum(i.low <= truth <= i.high for i in intervals) for intervals in (kept, as_drawn))
    assert 93 <= np.mean([kept for kept, _ in found.values()]) * 100 / PLAN_RUNS <= 97, found
    assert all(as_drawn > kept for name, (kept, as_drawn) in found.items() if name in ("f1_dep", "f1_nondep")), found
    assert found == SEEDED["plans"], found
