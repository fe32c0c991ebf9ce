"""Each benchmark's metrics as functions of per-cluster count vectors (docs/uncertainty.md).

A run's per-doc records (what ``process_results`` returned) are mapped to clusters, the unit the
data is clustered by, and each cluster to a vector of counts. Every metric of a :class:`ClusterStats`
is a function of the vectors summed over clusters, so a cluster bootstrap is a matrix product
(weights @ counts) followed by the metric, and the point estimate from the plain sum equals the
task's own aggregation on the same records. Each benchmark defines its own (its registry entry's
``cluster_stats``: tempvs/cluster_stats.py, catbench/cluster_stats.py, isobench/cluster_stats.py);
the yes/no classification scores two of them share are here.

Metric functions take counts of shape ``(..., k)`` and return NaN where the task returns None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from temporal_bench import benchmarks
from temporal_bench.benchmarks import Collected

Metric = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class FixedTotal:
    """Count entries whose total the benchmark's design fixes, however the clusters are drawn (CaT-Bench's
    Dep and NonDep questions: every split asks as many of each). A bootstrap draw scales the entries
    ``scaled`` so that the sum of ``total`` (some of them) is the data's: the rates within the group come
    from the drawn clusters, the group's size from the design."""

    scaled: tuple[str, ...]
    total: tuple[str, ...]


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, NaN where the denominator is 0 (the task's None)."""
    numerator, denominator = np.asarray(numerator, float), np.asarray(denominator, float)
    out = np.full(np.broadcast(numerator, denominator).shape, np.nan)
    return np.divide(numerator, denominator, out=out, where=denominator != 0)


def divide_or_zero(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """scikit-learn's division with ``zero_division=0``."""
    numerator, denominator = np.asarray(numerator, float), np.asarray(denominator, float)
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    return np.divide(numerator, denominator, out=out, where=denominator != 0)


@dataclass(frozen=True)
class ClusterStats:
    name: str
    stats: tuple[str, ...]  # names of the count vector's entries
    metrics: dict[str, Metric]  # every metric with an interval
    headline: tuple[str, ...]  # the metrics ``compare`` tests
    identity: Callable[[dict], str]  # the doc's identity, which joins two runs
    counts: Callable[[list[dict]], dict[str, np.ndarray]]  # cluster id -> count vector
    # headline metric -> how many questions (pairs, for TC and OCC) it is computed on, from counts of shape (..., k) as the
    # metrics take them: the summed ones (compare's n), each cluster's (its weight in the interval, temporal_bench/report/bootstrap.py)
    support: dict[str, Callable[[np.ndarray], np.ndarray]]
    # how many questions a count vector holds, for the metrics without a support of their own (None: clusters alike)
    size: Callable[[np.ndarray], np.ndarray] | None = None
    labels: dict[str, str] = field(default_factory=dict)  # headline metric -> its short name in ``compare`` (default: the key)
    # metric -> what it lacks where it is undefined (nothing it is computed on), in the benchmark's own words
    undefined: dict[str, str] = field(default_factory=dict)
    # metric -> what leaves a full run without it (a task that asks none); not said of a partial run, whose limit may have cut it
    undefined_cause: dict[str, str] = field(default_factory=dict)
    unit: str = "clusters"  # what a cluster is, plural (e.g. "plans"), as notes name it
    # records -> a note on how they were clustered when it is not the benchmark's intended unit (a fallback), else None
    clustering_note: Callable[[list[dict]], str | None] = lambda records: None
    fixed: tuple[FixedTotal, ...] = ()  # the totals a bootstrap draw keeps at the data's (temporal_bench/report/bootstrap.py)

    def label(self, metric: str) -> str:
        return self.labels.get(metric, metric)

    def why_undefined(self, metric: str, partial: bool = False) -> str:
        """What the metric lacks, and unless the run is ``partial`` what leaves a full run without it."""
        what = self.undefined.get(metric, "nothing it is computed on")
        cause = None if partial else self.undefined_cause.get(metric)
        return f"{what}: {cause}" if cause else what

    def column(self, name: str) -> int:
        return self.stats.index(name)

    def at_design(self, counts: np.ndarray, data: np.ndarray) -> np.ndarray:
        """Summed count vectors (shape (..., k)) with each fixed total scaled to the one of ``data`` (the
        data's summed counts); NaN where a group the data has is empty in ``counts`` (the metric is
        undefined there). Without fixed totals ``counts`` itself."""
        if not self.fixed:
            return counts
        out = np.array(counts, float)
        for group in self.fixed:
            scaled, total = [self.column(n) for n in group.scaled], [self.column(n) for n in group.total]
            wanted = data[..., total].sum(axis=-1)
            if wanted:  # a group the data lacks (a partial run's) stays empty in every draw
                out[..., scaled] *= ratio(wanted, out[..., total].sum(axis=-1, keepdims=True))
        return out

    def sizes(self, metric: str, counts: np.ndarray) -> np.ndarray | None:
        """The questions each cluster (a row of ``counts``) holds of the metric: what weighs a cluster in
        the effective number of clusters of its interval (temporal_bench/report/bootstrap.py)."""
        size = self.support.get(metric, self.size)
        return None if size is None else np.asarray(size(counts), float)


# ---- yes/no classification (CaT-Bench, ISO-Bench) ---------------------------------------------------

CONFUSION = ("yes_yes", "yes_no", "no_yes", "no_no")  # <gold>_<scored> for the labels yes, no


def confusion_cell(gold: str, scored: str) -> str | None:
    """The confusion count a (gold, scored) pair adds to; None for a label outside yes/no, which
    ``labels=[yes, no]`` leaves out as scikit-learn does."""
    cell = f"{gold}_{scored}"
    return cell if cell in CONFUSION else None


def classification_scores(yy, yn, ny, nn, yes_unparsed=0.0, no_unparsed=0.0) -> dict[str, np.ndarray]:
    """``classification_report(labels=[yes, no], zero_division=0)`` and accuracy from the confusion
    counts; ``*_unparsed``: answers outside the two labels per gold class, which count in their gold
    class's support (lowering its recall) and in accuracy's total, and in no class's predictions."""
    total = yy + yn + ny + nn + yes_unparsed + no_unparsed
    out = {}
    support = (yy + yn + yes_unparsed, nn + ny + no_unparsed)
    per_class = {"dep": (yy, support[0], yy + ny), "nondep": (nn, support[1], nn + yn)}  # (tp, true, predicted)
    for name, (tp, true, predicted) in per_class.items():
        out[f"precision_{name}"] = divide_or_zero(tp, predicted)
        out[f"recall_{name}"] = divide_or_zero(tp, true)
        out[f"f1_{name}"] = divide_or_zero(2.0 * tp, true + predicted)
    for stat in ("precision", "recall", "f1"):
        dep, nondep = out[f"{stat}_dep"], out[f"{stat}_nondep"]
        out[f"{stat}_macro"] = (dep + nondep) / 2
        out[f"{stat}_weighted"] = divide_or_zero(dep * support[0] + nondep * support[1], support[0] + support[1])
    out["accuracy"] = divide_or_zero(yy + nn, total)
    return {name: np.where(total > 0, value, np.nan) for name, value in out.items()}


CLASSIFICATION_NAMES = [f"{stat}_{row}" for row in ("dep", "nondep", "macro", "weighted") for stat in ("precision", "recall", "f1")] + ["accuracy"]


def classification_metrics(prefix: str = "", view: Callable[[np.ndarray], tuple] | None = None) -> dict[str, Metric]:
    """P/R/F1 per class, macro and weighted, and accuracy, each under ``prefix + name``, from the
    arguments of :func:`classification_scores` that ``view`` takes from a count vector (default:
    the confusion counts, its first four entries)."""
    arguments = view or (lambda c: tuple(c[..., i] for i in range(len(CONFUSION))))

    def score(name: str) -> Metric:
        return lambda c: classification_scores(*arguments(np.asarray(c, float)))[name]

    return {prefix + name: score(name) for name in CLASSIFICATION_NAMES}


# every benchmark's cluster statistics, by benchmark name
CLUSTER_STATS = Collected(lambda benchmark: [(benchmark.name, benchmark.cluster_stats)] if benchmark.cluster_stats else [])


def cluster_stats_of(task: str) -> ClusterStats | None:
    """The cluster statistics of a task's benchmark (``tempvs_mt1_two`` -> TempVS's), None for a task of
    no benchmark or of one without them."""
    benchmark = benchmarks.of_task(task)
    return benchmark.cluster_stats if benchmark is not None else None


def stacked(counts: dict[str, np.ndarray], clusters: list[str], width: int) -> np.ndarray:
    """The count vectors of ``clusters`` as rows (zeros for a cluster without records)."""
    zero = np.zeros(width)
    return np.array([counts.get(c, zero) for c in clusters]).reshape(len(clusters), width)


def joined(stats: ClusterStats, records_a: list[dict], records_b: list[dict], same_data: bool = True) -> tuple[list[dict], list[dict]]:
    """The records of the questions both runs answered, in A's order (the first record of a doc): the
    same doc identity with the same content (what each record's ``content`` digests: its question, gold answer and
    images), or with ``same_data`` False the same identity alone."""
    key = (lambda r: (r.get("content"), stats.identity(r))) if same_data else stats.identity
    by_id_a: dict = {}
    by_id_b: dict = {}
    for records, by_id in ((records_a, by_id_a), (records_b, by_id_b)):
        for record in records:
            by_id.setdefault(key(record), record)
    shared = [k for k in by_id_a if k in by_id_b]
    return [by_id_a[k] for k in shared], [by_id_b[k] for k in shared]
