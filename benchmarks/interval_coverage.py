"""Coverage of the report's 95% intervals (temporal_bench/report/bootstrap.py) on each benchmark's real
dependence structure, for benchmarks/RESULTS.md ("Coverage of the report's intervals").

Simulated runs (benchmarks/simulated_runs.py: a model good or bad on a whole cluster, a step pair's
before/after questions and switched twins sharing their difficulty, TempVS's statement pairs sharing
their grounding, 3% unparsed answers) go through the benchmarks' own count functions and the report's
bootstrap. The table gives, per headline metric, the share of runs whose interval covers the
population value (the metric of the counts pooled over all runs), for the expanded percentile
interval the report gives and for the plain percentile interval of the same draws it gave before.

CaT-Bench's test split (2,840 questions over 57 plans) is not shipped, its validation split is
(tests/data/catbench/val: 808 step pairs over 28 plans of 1 to 97 pairs). Each simulated run draws
its plans from the validation split's, each with its own Dep and NonDep pairs, with replacement: 57
plans with their pairs scaled to the test split's 1,420 on average, and 28 plans as they are. TempVS:
the two-event test of the synthetic fixture (40 image sequences per source, 160); ISO-Bench: the
release's 764 examples over 480 plan videos of 107 goals, clustered by goal.

    .venv/bin/python benchmarks/interval_coverage.py              # 1,200 runs per structure, about a minute
    .venv/bin/python benchmarks/interval_coverage.py --runs 2400  # benchmarks/RESULTS.md's figures
"""

import argparse
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from simulated_runs import Answers, Structure, catbench_plans, catbench_validation_plans, drawn_plans, isobench, one_run, tempvs

from temporal_bench.report.bootstrap import DRAWS, SEED, cluster_weights, interval, percentile_interval, resampled
from temporal_bench.report.cluster_stats import CLUSTER_STATS, ClusterStats, stacked
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs

CATBENCH_VAL = Path(__file__).resolve().parents[1] / "tests" / "data" / "catbench" / "val"
TEST_PLANS, TEST_PAIRS = 57, 1420
METRICS = {
    "catbench": ("f1_macro", "f1_dep", "f1_nondep", "tc", "occ"),
    "tempvs": ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"),
    "isobench": ("paper_f1_weighted", "paper_f1_macro", "coverage"),
}

Runs = Callable[[np.random.Generator], Iterator[list[dict]]]  # rng -> the records of each run


def fixed(structure: Structure, runs: int) -> Runs:
    return lambda rng: (one_run(structure, Answers(), rng) for _ in range(runs))


def drawn(plans: int, scale: float, runs: int) -> Runs:
    """Each run on ``plans`` plans drawn from the validation split's, their pair counts times ``scale``."""
    pool = catbench_validation_plans(CATBENCH_VAL)
    return lambda rng: (one_run(catbench_plans(drawn_plans(pool, plans, scale, rng)), Answers(), rng) for _ in range(runs))


def coverage(stats: ClusterStats, runs: Runs, seed: int) -> dict[str, tuple[float, float, float, float]]:
    """metric -> (clusters, median effective clusters, plain percentile coverage, expanded percentile coverage)."""
    matrices = []
    for records in runs(np.random.default_rng(seed)):
        counts = stats.counts(records)
        matrices.append(stacked(counts, sorted(counts), len(stats.stats)))
    pooled = np.sum([matrix.sum(axis=0) for matrix in matrices], axis=0)
    out = {}
    for name in METRICS[stats.name]:
        metric, truth = stats.metrics[name], float(stats.metrics[name](pooled))
        plain, expanded, effective = [], [], []
        for matrix in matrices:
            found = interval(metric, matrix, stats.sizes(name, matrix))
            if found.low is None:
                continue
            low, high = percentile_interval(metric(resampled(cluster_weights(len(matrix), DRAWS, SEED), matrix)))
            plain.append(low <= truth <= high)
            expanded.append(found.low <= truth <= found.high)
            effective.append(found.effective)
        out[name] = (float(np.median([len(m) for m in matrices])), float(np.median(effective)), float(np.mean(plain)), float(np.mean(expanded)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1200, help="simulated runs per structure (default: %(default)s)")
    args = parser.parse_args()
    val_pairs = sum(dep + nondep for dep, nondep in catbench_validation_plans(CATBENCH_VAL))
    with tempfile.TemporaryDirectory() as folder:
        structures = [
            (f"catbench: {TEST_PLANS} plans drawn from the validation split's, ~{TEST_PAIRS:,} pairs", "catbench", drawn(TEST_PLANS, TEST_PAIRS / TEST_PLANS / (val_pairs / 28), args.runs)),
            (f"catbench: 28 plans drawn from the validation split's, ~{val_pairs:,} pairs", "catbench", drawn(28, 1.0, args.runs)),
            ("tempvs: MT1 two-event, 160 image sequences", "tempvs", fixed(tempvs(write_tempvs(Path(folder) / "tempvs", n_sequences=40), "tempvs_mt1_two")[0], args.runs)),
            ("isobench: 764 examples, 107 goals", "isobench", fixed(isobench(), args.runs)),
        ]
        print("| structure | metric | clusters | effective clusters | plain percentile | expanded percentile (the report's) |\n|---|---|--:|--:|--:|--:|")
        for seed, (label, benchmark, runs) in enumerate(structures):
            for name, (clusters, effective, plain, expanded) in coverage(CLUSTER_STATS[benchmark], runs, seed).items():
                print(f"| {label} | {name} | {clusters:.0f} | {effective:.1f} | {100 * plain:.1f}% | {100 * expanded:.1f}% |")
    print(f"\n{args.runs:,} simulated runs per structure; a coverage of 95% is estimated within +-{196 * (0.95 * 0.05 / args.runs) ** 0.5:.1f} points.")


if __name__ == "__main__":
    main()
