"""The cluster bootstrap over count vectors (temporal_bench/report/cluster_stats.py): 95% intervals of a
run's metrics, how precisely the report's measured cells are known (docs/uncertainty.md). Two runs
are compared by a paired permutation test instead (temporal_bench/report/paired_test.py).

A draw resamples the clusters with replacement: multinomial weights (how often each cluster is
drawn) times the clusters' count vectors give the draw's summed counts, whose totals the benchmark's
design fixes (CaT-Bench's Dep and NonDep questions, ``ClusterStats.fixed``) are then scaled back to the
data's. The weights come from ``numpy.random.default_rng(SEED)``, so the same run always gets the same
interval.

The interval is the percentile interval at a level widened for few clusters: the plain 95% percentile
interval of n resampled units is too narrow, as if the spread were known rather than estimated from n
units, so its percentiles are taken at the level whose normal quantile is Student's t_{n-1, 0.975}
(the t part of Hesterberg's expanded percentile interval, 2015, "What teachers should know about the
bootstrap", The American Statistician 69(4)). Here n is the effective number of clusters
(:func:`effective_clusters`): a metric resting on a few large plans is known from fewer units than it
has clusters. On CaT-Bench's real plans (its test split's 57 hold 1 to 152 step pairs) with the class
balance fixed, plain percentile intervals covered 91.8-94.1% instead of 95%, Hesterberg's full
expansion (t times sqrt(n / (n - 1))) 95.4-96.9%, the t quantile alone 94.8-96.2%
(benchmarks/interval_coverage.py, benchmarks/RESULTS.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from threadpoolctl import ThreadpoolController

from temporal_bench.report.cluster_stats import ClusterStats, Metric

# (summed counts of draws, the data's summed counts) -> the draws with the totals the design fixes at the data's
Design = Callable[[np.ndarray, np.ndarray], np.ndarray]

DRAWS = 2000
SEED = 16
LEVEL = 0.95
# Below this many clusters an interval rests on a rough estimate of the spread (and compare's test can
# reach significance only when nearly every cluster agrees); the report and compare say so.
FEW_CLUSTERS = 30


# The products are small (draws x clusters by clusters x a few counts): BLAS threads only contend,
# and on a busy machine they make them ten times slower.
_BLAS = ThreadpoolController()


def resampled(weights: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each draw's summed counts: ``weights @ counts`` on one BLAS thread."""
    with _BLAS.limit(limits=1, user_api="blas"):
        return weights @ counts


@lru_cache(maxsize=16)
def cluster_weights(clusters: int, draws: int = DRAWS, seed: int = SEED) -> np.ndarray:
    """``draws`` x ``clusters``: how often each cluster is drawn in each bootstrap sample."""
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(clusters, np.full(clusters, 1.0 / clusters), size=draws).astype(float)
    weights.setflags(write=False)
    return weights


def _value(metric: Metric, counts: np.ndarray) -> float | None:
    value = float(metric(counts))
    return None if np.isnan(value) else value


def _as_drawn(counts: np.ndarray, data: np.ndarray) -> np.ndarray:
    return counts


def effective_clusters(metric: Metric, counts: np.ndarray, sizes: np.ndarray, design: Design = _as_drawn) -> float:
    """How many clusters the spread of the metric is estimated from: Satterthwaite's (sum v)^2 / sum v^2
    over each cluster's expected share v of the variance, v = a m + b m^2 for a cluster of m questions
    (b = 0, answers independent within a cluster: Kish's (sum m)^2 / sum m^2; a = 0, answers alike
    within it: fewer still), a and b fitted by least squares (a negative one taken as 0) to the squared
    change of the metric when the cluster is left out (its totals fixed by ``design`` as a draw's are).
    0 without a cluster of any size."""
    sizes = np.asarray(sizes, float)
    total = counts.sum(axis=0)
    left_out = metric(design(total - counts, total))
    fitted = (sizes > 0) & ~np.isnan(left_out)
    if not fitted.any():
        return 0.0
    spread = (left_out[fitted] - left_out[fitted].mean()) ** 2
    shape = np.column_stack([sizes[fitted], sizes[fitted] ** 2])
    a, b = np.maximum(np.linalg.lstsq(shape, spread, rcond=None)[0], 0.0)
    share = a * sizes[sizes > 0] + b * sizes[sizes > 0] ** 2
    if not share.sum():  # every cluster alike (no spread): Kish's
        share = sizes[sizes > 0]
    return float(share.sum()) ** 2 / float((share**2).sum())


@lru_cache(maxsize=1024)
def expanded_level(clusters: float, level: float = LEVEL) -> float:
    """The percentile level of the expanded interval on ``clusters`` effective clusters: the central
    share of a normal distribution within t_{n-1} of its ``level`` quantile (n at least 2; at 2 the
    interval spans every draw)."""
    from scipy.special import ndtr, stdtrit  # scipy comes with scikit-learn; imported here, when an interval is computed

    z = float(stdtrit(max(clusters, 2.0) - 1, 0.5 + level / 2))
    return 1.0 - 2.0 * float(ndtr(-z))


def percentile_interval(values: np.ndarray, level: float = LEVEL) -> tuple[float, float] | None:
    """The central ``level`` percentile interval of the defined (non-NaN) draws; None if none is."""
    defined = values[~np.isnan(values)]
    if not defined.size:
        return None
    low, high = np.percentile(defined, [50 * (1 - level), 50 * (1 + level)])
    return float(low), float(high)


@dataclass(frozen=True)
class Interval:
    value: float | None  # the metric on all clusters (the task's own value)
    low: float | None
    high: float | None
    clusters: int
    undefined_draws: int  # draws where the metric is undefined (e.g. no GT_strict pass drawn)
    effective: float | None = None  # the effective number of clusters the interval's level is expanded for


def interval(metric: Metric, counts: np.ndarray, sizes: np.ndarray | None = None, draws: int = DRAWS, seed: int = SEED, design: Design = _as_drawn) -> Interval:
    """``counts``: one count vector per cluster (rows); ``sizes``: the questions each cluster holds of
    the metric (its support), which give the effective number of clusters (None: all alike);
    ``design``: what a draw's summed counts keep of the data's (default: nothing, as drawn)."""
    total = counts.sum(axis=0)
    value = _value(metric, total)
    if value is None or len(counts) == 0:
        return Interval(value, None, None, len(counts), 0)
    values = metric(design(resampled(cluster_weights(len(counts), draws, seed), counts), total))
    effective = effective_clusters(metric, counts, np.ones(len(counts)) if sizes is None else sizes, design)
    bounds = percentile_interval(values, expanded_level(round(effective, 2)))
    undefined = int(np.isnan(values).sum())
    low, high = bounds if bounds is not None else (None, None)
    return Interval(value, low, high, len(counts), undefined, effective)


def metric_interval(stats: ClusterStats, metric: str, counts: np.ndarray) -> Interval:
    """The interval of one of a benchmark's metrics on its cluster count vectors, as the report gives it:
    each cluster weighed by the questions it holds of the metric, the totals the design fixes kept."""
    return interval(stats.metrics[metric], counts, stats.sizes(metric, counts), design=stats.at_design)
