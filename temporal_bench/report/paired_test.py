"""The paired cluster permutation test of ``temporal-bench compare`` and Holm's correction across the
rows of a comparison (docs/uncertainty.md, "Comparing two runs").

Questions of one cluster (a TempVS image sequence with its grounding questions and true/false
statement pairs, a CaT-Bench plan with its before/after pairs and twins, an ISO-Bench plan) are not
independent, so the test never treats them as such: if the two runs are interchangeable, swapping
A's and B's answers in any set of whole clusters gives a run pair as likely as the observed one.
Each draw swaps every cluster with probability 1/2 (the same draws for every metric, from
``numpy.random.default_rng(SEED)``; with at most 11 clusters every distinct swap instead, exactly once) and recomputes B - A from the count vectors
(temporal_bench/report/cluster_stats.py). The p-value is the share of draws at least as far from 0
as the observed difference, counting the observed one ((1 + hits) / (1 + draws): valid for any
number of clusters); the interval is the observed difference +- the draws' critical distance, the
one that makes "the interval excludes 0" and "p < alpha" the same statement (exact when the runs do
not differ; wider than needed when they differ by much, since the swaps then spread further, never
narrower). A difference whose whole evidence lies in one cluster has p = 1: every draw is +-it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from temporal_bench.report.bootstrap import SEED, resampled
from temporal_bench.report.cluster_stats import Metric

DRAWS = 4000
ALPHA = 0.05
# Swapped sums are recomputed in floating point: a draw whose |B - A| equals the observed one up to
# this counts as reaching it (else one cluster's difference, drawn +-, could look smaller than itself).
TIE = 1e-12


@lru_cache(maxsize=16)
def cluster_swaps(clusters: int, draws: int = DRAWS, seed: int = SEED) -> np.ndarray:
    """Which clusters each draw swaps between the runs (rows of 0/1): ``draws`` random rows, or, where
    there are no more distinct swaps than that (``2 ** clusters - 1 <= draws``), every swap but the
    identity once, so the p-value is the exact permutation p-value (never below ``2 ** (1 - clusters)``)."""
    if 2**clusters - 1 <= draws:
        swaps = ((np.arange(1, 2**clusters)[:, None] >> np.arange(clusters)) & 1).astype(float)
    else:
        swaps = np.random.default_rng(seed).integers(0, 2, size=(draws, clusters)).astype(float)
    swaps.setflags(write=False)
    return swaps


@dataclass(frozen=True)
class PairedTest:
    """B - A on the same questions, its interval and p-value; ``None`` where the metric is undefined."""

    value: float | None
    low: float | None
    high: float | None
    p: float | None
    draws: int  # draws where the metric is defined in both swapped runs
    # the smallest |B - A| that reaches p < alpha on these clusters (the draws' critical distance; inf:
    # none can, too few clusters): a real difference of this size is found about half the time
    detectable: float | None = None

    def significant(self, alpha: float = ALPHA) -> bool:
        return self.p is not None and self.p < alpha


def critical_distance(distances: np.ndarray, alpha: float = ALPHA) -> float:
    """The |B - A| an observed difference must exceed for p < ``alpha``: with p = (1 + hits) /
    (1 + n), p < alpha allows at most ``ceil(alpha (1 + n)) - 2`` draws at or beyond it, so it is
    the next-largest draw (infinite when no difference can reach p < alpha)."""
    allowed = math.ceil(alpha * (1 + len(distances))) - 2
    if allowed < 0:
        return math.inf
    return float(np.sort(distances)[::-1][allowed])


def paired_tests(metrics: dict[str, Metric], counts_a: np.ndarray, counts_b: np.ndarray, alpha: float = ALPHA, draws: int = DRAWS, seed: int = SEED) -> dict[str, PairedTest]:
    """Each metric's test on the same swap draws. ``counts_a``, ``counts_b``: the two runs' count
    vectors of the same clusters, row by row."""
    total_a, total_b = counts_a.sum(axis=0), counts_b.sum(axis=0)
    moved = resampled(cluster_swaps(len(counts_a), draws, seed), counts_a - counts_b)  # A's counts that go to B
    return {name: _test(metric, total_a, total_b, moved, alpha) for name, metric in metrics.items()}


def _test(metric: Metric, total_a: np.ndarray, total_b: np.ndarray, moved: np.ndarray, alpha: float) -> PairedTest:
    a, b = float(metric(total_a)), float(metric(total_b))
    if np.isnan(a) or np.isnan(b):
        return PairedTest(None, None, None, None, 0)
    swapped = metric(total_b + moved) - metric(total_a - moved)
    distances = np.abs(swapped[~np.isnan(swapped)])
    if not distances.size:
        return PairedTest(b - a, None, None, None, 0)
    observed = b - a
    p = float((1 + np.sum(distances >= abs(observed) - TIE)) / (1 + distances.size))
    detectable = critical_distance(distances, alpha)
    critical = detectable if p < alpha else max(detectable, abs(observed))  # the interval reaches 0 whenever p does not reject (ties within TIE)
    # every metric compared is a share in [0, 1]: a difference lies in [-1, 1]
    return PairedTest(observed, max(observed - critical, -1.0), min(observed + critical, 1.0), p, int(distances.size), detectable)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error across the rows), in the given order."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
