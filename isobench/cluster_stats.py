"""ISO-Bench's metrics as functions of per-cluster counts (temporal_bench/report/cluster_stats.py):
cluster = ``plan_id`` where the data has a plan column, else the example; the paper scores on the
parsed answers, coverage = parsed / all (isobench/metrics.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import numpy as np

from temporal_bench.report.cluster_stats import CONFUSION, ClusterStats, classification_metrics, classification_scores, confusion_cell, divide_or_zero, ratio
from temporal_bench.utils.yes_no import INVALID

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
    scores = classification_scores(*_isobench_view("paper_")(np.asarray(c, float)))
    precision, recall = scores["precision_weighted"], scores["recall_weighted"]
    return divide_or_zero(2 * precision * recall, precision + recall)  # NaN (no answer) stays NaN


ISOBENCH = ClusterStats(
    name="isobench",
    stats=ISOBENCH_STATS,
    metrics={
        **{name: metric for rule in ("", "strict_", "paper_") for name, metric in classification_metrics(rule, _isobench_view(rule)).items()},
        "paper_f1_of_avg_pr": _f1_of_weighted_pr,
        "coverage": lambda c: ratio(np.asarray(c)[..., : len(CONFUSION)].sum(axis=-1), np.asarray(c)[..., ANSWERS]),
    },
    headline=("f1_weighted", "f1_macro", "coverage"),
    labels={"f1_weighted": "weighted F1", "f1_macro": "macro F1", "coverage": "coverage"},
    identity=lambda r: r["id"],
    counts=isobench_counts,
    support={**dict.fromkeys(("f1_weighted", "f1_macro"), lambda c: c[: len(CONFUSION)].sum()), "coverage": lambda c: c[ANSWERS]},  # the parsed answers they score
)
