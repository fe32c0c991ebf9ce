"""Coverage of the report's 95% intervals (temporal_bench/report/bootstrap.py) on each benchmark's real
dependence structure, for benchmarks/RESULTS.md ("Coverage of the report's intervals").

Simulated runs (benchmarks/simulated_runs.py: a model good or bad on a whole cluster, a step pair's
before/after questions and switched twins sharing their difficulty, TempVS's statement pairs sharing
their grounding, 3% unparsed answers) go through the benchmarks' own count functions and the report's
bootstrap. The table gives, per headline metric, the share of runs whose interval covers the
population value: the report's interval, and beside it, on the same bootstrap draws, the plain
percentile interval, Hesterberg's expanded percentile interval (t times sqrt(n / (n - 1))) and the
report's interval with CaT-Bench's class balance left as drawn (before it was kept).

CaT-Bench: the plans of the split in ``--catbench`` (default: the validation split the suite ships,
tests/data/catbench/val, 28 plans; give a copy of the official repository's data/test_must_why for the
test split's 57), with their own Dep and NonDep pairs, in every run (a model of no yes/no bias, and one
biased towards yes), and 57 plans drawn from them with replacement, their pairs scaled to the test
split's 1,420 on average. The benchmark fixes its class balance (as many Dep as NonDep pairs), which
the report's interval keeps; its population value is the metric of the counts pooled over all runs at
the run's own Dep and NonDep counts (``ClusterStats.at_design``), for the balance left as drawn the
pooled counts as they are. TempVS: the two-event test of the synthetic fixture (40 image sequences per
source, 160); ISO-Bench: the release's 764 examples over 480 plan videos of 107 goals, clustered by goal.

    .venv/bin/python benchmarks/interval_coverage.py                                   # validation split, 1,200 runs
    .venv/bin/python benchmarks/interval_coverage.py --runs 2000 --catbench TEST_SPLIT  # benchmarks/RESULTS.md's figures
"""

import argparse
import math
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from scipy.special import ndtr, stdtrit
from simulated_runs import Answers, Structure, catbench_plans, catbench_split, catbench_split_plans, drawn_plans, isobench, one_run, tempvs

from temporal_bench.report.bootstrap import DRAWS, LEVEL, SEED, cluster_weights, effective_clusters, expanded_level, metric_interval, percentile_interval, resampled
from temporal_bench.report.cluster_stats import CLUSTER_STATS, ClusterStats, stacked
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs

CATBENCH_VAL = Path(__file__).resolve().parents[1] / "tests" / "data" / "catbench" / "val"
TEST_PLANS, TEST_PAIRS = 57, 1420
YES_BIAS = 1.0  # log-odds: at a score of 0.6, Dep answered right 80% of the time, NonDep 36%
METRICS = {
    "catbench": ("f1_macro", "f1_dep", "f1_nondep", "tc", "occ"),
    "tempvs": ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"),
    "isobench": ("paper_f1_weighted", "paper_f1_macro", "coverage"),
}
KINDS = ("plain percentile", "Hesterberg's expanded", "the report's", "the report's, balance as drawn")

Runs = Callable[[np.random.Generator], Iterator[list[dict]]]  # rng -> the records of each run


UNBIASED = Answers()  # the simulated model of no yes/no bias


def fixed(structure: Structure, runs: int, answers: Answers = UNBIASED) -> Runs:
    return lambda rng: (one_run(structure, answers, rng) for _ in range(runs))


def drawn(pool: list[tuple[int, int]], plans: int, scale: float, runs: int) -> Runs:
    """Each run on ``plans`` plans drawn from ``pool``, their pair counts times ``scale``."""
    return lambda rng: (one_run(catbench_plans(drawn_plans(pool, plans, scale, rng)), Answers(), rng) for _ in range(runs))


def hesterberg_level(clusters: float) -> float:
    """Hesterberg's expanded percentile level: the normal share within sqrt(n / (n - 1)) t_{n-1}."""
    n = max(clusters, 2.0)
    return 1.0 - 2.0 * float(ndtr(-math.sqrt(n / (n - 1)) * float(stdtrit(n - 1, 0.5 + LEVEL / 2))))


def covered(bounds: tuple[float, float] | None, truth: float) -> bool:
    return bounds is not None and bounds[0] <= truth <= bounds[1]


def coverage(stats: ClusterStats, runs: Runs, seed: int) -> dict[str, tuple[float, float, list[float]]]:
    """metric -> (clusters, median effective clusters, coverage of each of KINDS)."""
    matrices = []
    for records in runs(np.random.default_rng(seed)):
        counts = stats.counts(records)
        matrices.append(stacked(counts, sorted(counts), len(stats.stats)))
    pooled = np.sum([matrix.sum(axis=0) for matrix in matrices], axis=0)
    out = {}
    for name in METRICS[stats.name]:
        metric, hits, effective = stats.metrics[name], [], []
        for matrix in matrices:
            total, sizes = matrix.sum(axis=0), stats.sizes(name, matrix)
            found = metric_interval(stats, name, matrix)
            if found.low is None or found.high is None or found.effective is None:
                continue
            truth = float(metric(stats.at_design(pooled, total)))
            drawn_sums = resampled(cluster_weights(len(matrix), DRAWS, SEED), matrix)
            kept = metric(stats.at_design(drawn_sums, total))
            as_drawn = percentile_interval(metric(drawn_sums), expanded_level(round(effective_clusters(metric, matrix, sizes), 2)))
            hits.append(
                [
                    covered(percentile_interval(kept), truth),
                    covered(percentile_interval(kept, hesterberg_level(found.effective)), truth),
                    covered((found.low, found.high), truth),
                    covered(as_drawn, float(metric(pooled))),
                ]
            )
            effective.append(found.effective)
        out[name] = (float(np.median([len(m) for m in matrices])), float(np.median(effective)), list(np.mean(hits, axis=0)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1200, help="simulated runs per structure (default: %(default)s)")
    parser.add_argument("--catbench", type=Path, default=CATBENCH_VAL, help="a CaT-Bench split's folder of the original release's four files (default: the validation split, %(default)s)")
    args = parser.parse_args()
    pool = catbench_split_plans(args.catbench)
    pairs = sum(dep + nondep for dep, nondep in pool)
    split = f"{len(pool)} plans, {pairs:,} pairs"
    with tempfile.TemporaryDirectory() as folder:
        structures = [
            (f"catbench: the split's {split}, every run", "catbench", fixed(catbench_split(args.catbench), args.runs)),
            (f"catbench: the split's {split}, a yes-biased model", "catbench", fixed(catbench_split(args.catbench), args.runs, Answers(bias=YES_BIAS))),
            (f"catbench: {TEST_PLANS} plans drawn from the split's, ~{TEST_PAIRS:,} pairs", "catbench", drawn(pool, TEST_PLANS, TEST_PAIRS / TEST_PLANS / (pairs / len(pool)), args.runs)),
            ("tempvs: MT1 two-event, 160 image sequences", "tempvs", fixed(tempvs(write_tempvs(Path(folder) / "tempvs", n_sequences=40), "tempvs_mt1_two")[0], args.runs)),
            ("isobench: 764 examples, 107 goals", "isobench", fixed(isobench(), args.runs)),
        ]
        print(f"CaT-Bench split: {args.catbench} ({split})\n")
        print(f"| structure | metric | clusters | effective clusters | {' | '.join(KINDS)} |\n|---|---|--:|--:|{'--:|' * len(KINDS)}")
        for seed, (label, benchmark, runs) in enumerate(structures):
            for name, (clusters, effective, shares) in coverage(CLUSTER_STATS[benchmark], runs, seed).items():
                print(f"| {label} | {name} | {clusters:.0f} | {effective:.1f} | {' | '.join(f'{100 * share:.1f}%' for share in shares)} |")
    print(f"\n{args.runs:,} simulated runs per structure; a coverage of 95% is estimated within +-{196 * (0.95 * 0.05 / args.runs) ** 0.5:.1f} points.")


if __name__ == "__main__":
    main()
