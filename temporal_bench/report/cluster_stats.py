"""Each benchmark's headline metrics as functions of per-cluster count vectors (docs/uncertainty.md).

A run's per-doc records (what ``process_results`` returned) are mapped to clusters, the unit the
data is clustered by, and each cluster to a vector of counts. Every metric here is a function of
the vectors summed over clusters, so a cluster bootstrap is a matrix product (weights @ counts)
followed by the metric, and the point estimate from the plain sum equals the task's own
aggregation on the same records:

* TempVS: cluster = the image sequence ``(source, img_seq_id)``, its main and grounding questions
  together; the main-to-grounding join is :func:`temporal_bench.tempvs.metrics.judge`, so missing
  partners and the official quirk count as in the task.
* CaT-Bench: cluster = the plan (the title part of ``pair_id``, catbench/questions.py), which holds
  its before/after pairs (TC) and switched twins (OCC); classification scores as
  catbench/metrics.py computes them (real questions, an invalid answer as the wrong class).
* ISO-Bench: cluster = ``plan_id`` where the data has a plan column, else the example; the paper
  scores on the parsed answers, coverage = parsed / all (isobench/metrics.py).

Metric functions take counts of shape ``(..., k)`` and return NaN where the task returns None.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from temporal_bench.tempvs.metrics import judge
from temporal_bench.utils.yes_no import INVALID, opposite

Metric = Callable[[np.ndarray], np.ndarray]


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, NaN where the denominator is 0 (the task's None)."""
    numerator, denominator = np.asarray(numerator, float), np.asarray(denominator, float)
    out = np.full(np.broadcast(numerator, denominator).shape, np.nan)
    return np.divide(numerator, denominator, out=out, where=denominator != 0)


def _divide_or_zero(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """scikit-learn's division with ``zero_division=0``."""
    numerator, denominator = np.asarray(numerator, float), np.asarray(denominator, float)
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    return np.divide(numerator, denominator, out=out, where=denominator != 0)


@dataclass(frozen=True)
class Benchmark:
    name: str
    stats: tuple[str, ...]  # names of the count vector's entries
    metrics: dict[str, Metric]  # every metric with an interval
    headline: tuple[str, ...]  # the metrics ``compare`` tests
    identity: Callable[[dict], str]  # the doc's identity, which joins two runs
    counts: Callable[[list[dict]], dict[str, np.ndarray]]  # cluster id -> count vector
    # headline metric -> how many questions (pairs, for TC and OCC) it is computed on, from the summed counts
    support: dict[str, Callable[[np.ndarray], float]]

    def column(self, name: str) -> int:
        return self.stats.index(name)


# ---- yes/no classification (CaT-Bench, ISO-Bench) ---------------------------------------------------

CONFUSION = ("yes_yes", "yes_no", "no_yes", "no_no")  # <gold>_<scored> for the labels yes, no


def confusion_cell(gold: str, scored: str) -> str | None:
    """The confusion count a (gold, scored) pair adds to; None for a label outside yes/no, which
    ``labels=[yes, no]`` leaves out as scikit-learn does."""
    cell = f"{gold}_{scored}"
    return cell if cell in CONFUSION else None


def _classification_scores(yy, yn, ny, nn, yes_unparsed=0.0, no_unparsed=0.0) -> dict[str, np.ndarray]:
    """``classification_report(labels=[yes, no], zero_division=0)`` and accuracy from the confusion
    counts; ``*_unparsed``: answers outside the two labels per gold class, which count in their gold
    class's support (lowering its recall) and in accuracy's total, and in no class's predictions."""
    total = yy + yn + ny + nn + yes_unparsed + no_unparsed
    out = {}
    support = (yy + yn + yes_unparsed, nn + ny + no_unparsed)
    per_class = {"dep": (yy, support[0], yy + ny), "nondep": (nn, support[1], nn + yn)}  # (tp, true, predicted)
    for name, (tp, true, predicted) in per_class.items():
        out[f"precision_{name}"] = _divide_or_zero(tp, predicted)
        out[f"recall_{name}"] = _divide_or_zero(tp, true)
        out[f"f1_{name}"] = _divide_or_zero(2.0 * tp, true + predicted)
    for stat in ("precision", "recall", "f1"):
        dep, nondep = out[f"{stat}_dep"], out[f"{stat}_nondep"]
        out[f"{stat}_macro"] = (dep + nondep) / 2
        out[f"{stat}_weighted"] = _divide_or_zero(dep * support[0] + nondep * support[1], support[0] + support[1])
    out["accuracy"] = _divide_or_zero(yy + nn, total)
    return {name: np.where(total > 0, value, np.nan) for name, value in out.items()}


CLASSIFICATION_NAMES = [f"{stat}_{row}" for row in ("dep", "nondep", "macro", "weighted")
                        for stat in ("precision", "recall", "f1")] + ["accuracy"]


def classification_metrics(prefix: str = "", view: Callable[[np.ndarray], tuple] | None = None) -> dict[str, Metric]:
    """P/R/F1 per class, macro and weighted, and accuracy, each under ``prefix + name``, from the
    arguments of :func:`_classification_scores` that ``view`` takes from a count vector (default:
    the confusion counts, its first four entries)."""
    view = view or (lambda c: tuple(c[..., i] for i in range(len(CONFUSION))))
    return {prefix + name: (lambda c, name=name: _classification_scores(*view(np.asarray(c, float)))[name])
            for name in CLASSIFICATION_NAMES}


# ---- TempVS ----------------------------------------------------------------------------------------

TEMPVS_STATS = ("gt_correct", "gt_total", "mt_correct", "mt_total", "strict_pass", "strict_complete",
                "strict_mt_correct", "not_blind")
GT_CORRECT, GT_TOTAL, MT_CORRECT, MT_TOTAL, STRICT_PASS, STRICT_COMPLETE, STRICT_MT_CORRECT, NOT_BLIND = range(8)


def _tempvs_unique(records: list[dict]) -> list[dict]:
    """One record per doc key, the first (as the task's aggregations keep it)."""
    first: dict[str, dict] = {}
    for record in records:
        first.setdefault(record["key"], record)
    return list(first.values())


def tempvs_counts(records: list[dict]) -> dict[str, np.ndarray]:
    records = _tempvs_unique(records)
    judged = {r["key"]: r for r in judge(records)}
    counts: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(TEMPVS_STATS)))
    for record in records:
        vector = counts[f"{record['source']}/{record['img_seq_id']}"]
        vector[NOT_BLIND] += record["mode"] != "blind"
        if record["kind"] == "grounding":
            vector[GT_CORRECT] += record["correct"]
            vector[GT_TOTAL] += 1
        elif record["kind"] == "main":
            vector[MT_CORRECT] += record["correct"]
            vector[MT_TOTAL] += 1
            main = judged[record["key"]]
            if main["complete"]:
                vector[STRICT_COMPLETE] += 1
                vector[STRICT_PASS] += main["strict"]
                vector[STRICT_MT_CORRECT] += main["strict"] and record["correct"]
    return dict(counts)


def _with_grounding(c: np.ndarray, value: np.ndarray) -> np.ndarray:
    """None (NaN) for the blind variants, which ask no grounding question."""
    return np.where(np.asarray(c)[..., NOT_BLIND] > 0, value, np.nan)


TEMPVS_METRICS: dict[str, Metric] = {
    "gt_acc": lambda c: _ratio(c[..., GT_CORRECT], c[..., GT_TOTAL]),
    "gtstrict_rate": lambda c: _with_grounding(c, _ratio(c[..., STRICT_PASS], c[..., STRICT_COMPLETE])),
    "mt_acc": lambda c: _ratio(c[..., MT_CORRECT], c[..., MT_TOTAL]),
    "mt_given_gtstrict": lambda c: _with_grounding(c, _ratio(c[..., STRICT_MT_CORRECT], c[..., STRICT_PASS])),
}


TEMPVS = Benchmark(
    name="tempvs",
    stats=TEMPVS_STATS,
    metrics=TEMPVS_METRICS,
    headline=("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"),
    identity=lambda r: r["key"],
    counts=tempvs_counts,
    support={"gt_acc": lambda c: c[GT_TOTAL], "gtstrict_rate": lambda c: c[STRICT_COMPLETE], "mt_acc": lambda c: c[MT_TOTAL],
             "mt_given_gtstrict": lambda c: c[STRICT_PASS]},
)


# ---- CaT-Bench -------------------------------------------------------------------------------------

CATBENCH_STATS = CONFUSION + ("tc_consistent", "tc_complete", "occ_agree", "occ_complete")
TC_CONSISTENT, TC_COMPLETE, OCC_AGREE, OCC_COMPLETE = range(len(CONFUSION), len(CATBENCH_STATS))


def catbench_plan(record: dict) -> str:
    """The plan's title: ``pair_id`` is ``<title>|<a>|<b>`` (catbench/questions.py)."""
    return record["pair_id"].rsplit("|", 2)[0]


def _agreeing(group: list[dict]) -> bool:
    return group[0]["pred"] != INVALID and group[0]["pred"] == group[1]["pred"]


def catbench_counts(records: list[dict]) -> dict[str, np.ndarray]:
    counts: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(CATBENCH_STATS)))
    pairs: dict[str, list[dict]] = defaultdict(list)
    twins: dict[tuple, list[dict]] = defaultdict(list)
    for record in records:
        vector = counts[catbench_plan(record)]
        if record["variant"] == "real":
            scored = opposite(record["gold"]) if record["pred"] == INVALID else record["pred"]
            cell = confusion_cell(record["gold"], scored)
            if cell is not None:
                vector[CONFUSION.index(cell)] += 1
            pairs[record["pair_id"]].append(record)
        if record["dependency"] == "nondep":
            twins[record["pair_id"], record["relation"]].append(record)
    for agreeing, complete, groups in ((TC_CONSISTENT, TC_COMPLETE, pairs.values()),
                                       (OCC_AGREE, OCC_COMPLETE, twins.values())):
        for group in groups:
            if len(group) == 2:  # a pair with a partner missing (--limit) is left out, as in the task
                vector = counts[catbench_plan(group[0])]
                vector[agreeing] += _agreeing(group)
                vector[complete] += 1
    return dict(counts)


CATBENCH = Benchmark(
    name="catbench",
    stats=CATBENCH_STATS,
    metrics={
        **{k: v for k, v in classification_metrics().items() if "weighted" not in k},
        "tc": lambda c: _ratio(c[..., TC_CONSISTENT], c[..., TC_COMPLETE]),
        "occ": lambda c: _ratio(c[..., OCC_AGREE], c[..., OCC_COMPLETE]),
    },
    headline=("f1_macro", "f1_dep", "f1_nondep", "tc", "occ"),
    identity=lambda r: r["question_id"],
    counts=catbench_counts,
    support={**dict.fromkeys(("f1_macro", "f1_dep", "f1_nondep"), lambda c: c[:len(CONFUSION)].sum()),  # the originals, not their twins
             "tc": lambda c: c[TC_COMPLETE], "occ": lambda c: c[OCC_COMPLETE]},
)


# ---- ISO-Bench -------------------------------------------------------------------------------------

UNPARSED = ("yes_unparsed", "no_unparsed")  # answers with no YES/NO, per gold class
ISOBENCH_STATS = CONFUSION + UNPARSED + ("answers",)
ANSWERS = ISOBENCH_STATS.index("answers")


def isobench_cluster(record: dict) -> str:
    plan = record.get("plan_id")
    return f"plan {plan}" if plan is not None else f"example {record['id']}"


def isobench_counts(records: list[dict]) -> dict[str, np.ndarray]:
    counts: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(ISOBENCH_STATS)))
    for record in records:
        vector = counts[isobench_cluster(record)]
        vector[ANSWERS] += 1
        if record["pred"] == INVALID:
            vector[ISOBENCH_STATS.index(f"{record['gold']}_unparsed")] += 1
            continue
        cell = confusion_cell(record["gold"], record["pred"])
        if cell is not None:
            vector[CONFUSION.index(cell)] += 1
    return dict(counts)


def _isobench_view(rule: str) -> Callable[[np.ndarray], tuple]:
    """The confusion counts each ISO-Bench scoring rule (isobench/metrics.py) scores: unparsed
    answers discarded (""), counted as the wrong class ("strict_"), or kept as a third label ("paper_")."""

    def view(c: np.ndarray) -> tuple:
        yy, yn, ny, nn, yu, nu = (c[..., ISOBENCH_STATS.index(name)] for name in CONFUSION + UNPARSED)
        return {"": (yy, yn, ny, nn), "strict_": (yy, yn + yu, ny + nu, nn), "paper_": (yy, yn, ny, nn, yu, nu)}[rule]

    return view


def _f1_of_weighted_pr(c: np.ndarray) -> np.ndarray:
    scores = _classification_scores(*_isobench_view("paper_")(np.asarray(c, float)))
    precision, recall = scores["precision_weighted"], scores["recall_weighted"]
    return _divide_or_zero(2 * precision * recall, precision + recall)  # NaN (no answer) stays NaN


ISOBENCH = Benchmark(
    name="isobench",
    stats=ISOBENCH_STATS,
    metrics={
        **{name: metric for rule in ("", "strict_", "paper_")
           for name, metric in classification_metrics(rule, _isobench_view(rule)).items()},
        "paper_f1_of_avg_pr": _f1_of_weighted_pr,
        "coverage": lambda c: _ratio(np.asarray(c)[..., :len(CONFUSION)].sum(axis=-1), np.asarray(c)[..., ANSWERS]),
    },
    headline=("f1_weighted", "f1_macro", "coverage"),
    identity=lambda r: r["id"],
    counts=isobench_counts,
    support={**dict.fromkeys(("f1_weighted", "f1_macro"), lambda c: c[:len(CONFUSION)].sum()),  # the parsed answers they score
             "coverage": lambda c: c[ANSWERS]},
)

BENCHMARKS = {b.name: b for b in (TEMPVS, CATBENCH, ISOBENCH)}


def benchmark_of(task: str) -> Benchmark | None:
    """The benchmark a task name belongs to (``tempvs_mt1_two`` -> TempVS), None for other tasks."""
    return BENCHMARKS.get(task.split("_", 1)[0])


def stacked(counts: dict[str, np.ndarray], clusters: list[str], width: int) -> np.ndarray:
    """The count vectors of ``clusters`` as rows (zeros for a cluster without records)."""
    zero = np.zeros(width)
    return np.array([counts.get(c, zero) for c in clusters]).reshape(len(clusters), width)
