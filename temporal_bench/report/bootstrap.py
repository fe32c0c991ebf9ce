"""The cluster bootstrap over count vectors (temporal_bench/report/cluster_stats.py): 95% percentile
intervals of a run's metrics, how precisely the report's measured cells are known (docs/uncertainty.md).
Two runs are compared by a paired permutation test instead (temporal_bench/report/paired_test.py).

A draw resamples the clusters with replacement: multinomial weights (how often each cluster is
drawn) times the clusters' count vectors give the draw's summed counts. The weights come from
``numpy.random.default_rng(SEED)``, so the same run always gets the same interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from threadpoolctl import ThreadpoolController

from temporal_bench.report.cluster_stats import Metric

DRAWS = 2000
SEED = 16
LEVEL = 0.95
# Below this many clusters a percentile bootstrap's intervals come out too narrow (the resampled
# spread underestimates the true one); the report and compare say so.
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


def interval(metric: Metric, counts: np.ndarray, draws: int = DRAWS, seed: int = SEED) -> Interval:
    """``counts``: one count vector per cluster (rows)."""
    value = _value(metric, counts.sum(axis=0))
    if value is None or len(counts) == 0:
        return Interval(value, None, None, len(counts), 0)
    values = metric(resampled(cluster_weights(len(counts), draws, seed), counts))
    bounds = percentile_interval(values)
    undefined = int(np.isnan(values).sum())
    return Interval(value, *(bounds or (None, None)), len(counts), undefined)
