"""ISO-Bench's metrics as functions of per-cluster counts (temporal_bench/report/cluster_stats.py).

Cluster = the goal of the record's plan (a CrossTask task, a YouCook2 recipe): the unit its questions
really share, since one goal's videos and plans hold the same steps and a model tends to know a goal
or not (docs/uncertainty.md; a video holds several questions, a goal several videos). Records
without a ``goal`` fall back to the plan video (``plan_id``), else to one cluster per example, and
:func:`clustering_note` says so. Each scoring rule's metrics follow the rule's own function
(isobench/rules.py ``RULES``: which answers it scores and as what), so the values equal the task's
keys under every rule; coverage = parsed / all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import numpy as np

from temporal_bench.isobench.rules import RULES, TABLE1_RULE
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, NO, YES
from temporal_bench.report.cluster_stats import CONFUSION, ClusterStats, classification_metrics, classification_scores, confusion_cell, divide_or_zero, ratio

UNPARSED = ("yes_unparsed", "no_unparsed")  # answers with no YES/NO, per gold class
ISOBENCH_STATS = CONFUSION + UNPARSED + ("answers",)
ANSWERS = ISOBENCH_STATS.index("answers")
CELLS = CONFUSION + UNPARSED  # every (gold, answer) a record can have; also the arguments of classification_scores


def _cell(gold: str, answer: str) -> str | None:
    return f"{gold}_unparsed" if answer == INVALID else confusion_cell(gold, answer)


def isobench_cluster(record: dict) -> str:
    if record.get("goal"):
        return f"goal {record['goal']}"
    plan = record.get("plan_id")
    return f"plan {plan}" if plan is not None else f"example {record['id']}"


def clustering_note(records: list[dict]) -> str | None:
    """Names the fallback when the records carry no goal: the plan video (finer than the questions'
    dependence: intervals too narrow, compare too eager), or the example (no dependence at all)."""
    if not records or all(r.get("goal") for r in records):
        return None
    without = sum(not r.get("goal") for r in records)
    unit = "their plan video (plan_id)" if all(r.get("plan_id") is not None for r in records if not r.get("goal")) else "the plan video where the data has one, else the example"
    return f"{without:,} of {len(records):,} records carry no goal: clustered by {unit}, finer than the goals their questions share, so intervals come out too narrow and p-values too small (docs/uncertainty.md)"


def isobench_counts(records: list[dict]) -> dict[str, np.ndarray]:
    counts: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(ISOBENCH_STATS)))
    for record in records:
        vector = counts[isobench_cluster(record)]
        vector[ANSWERS] += 1
        cell = _cell(record["gold"], record["pred"])
        if cell is not None:
            vector[ISOBENCH_STATS.index(cell)] += 1
    return dict(counts)


def rule_view(rule: Callable[[list[dict]], list[tuple[str, str]]]) -> np.ndarray:
    """Where a scoring rule puts each (gold, answer) cell: a matrix from the count vector's cells to the
    arguments of ``classification_scores``, read off the rule's own function on one record of each cell."""
    view = np.zeros((len(ISOBENCH_STATS), len(CELLS)))
    for gold in (YES, NO):
        for answer in (YES, NO, INVALID):
            for scored_gold, scored in rule([{"gold": gold, "pred": answer}]):
                view[ISOBENCH_STATS.index(_cell(gold, answer)), CELLS.index(_cell(scored_gold, scored))] += 1
    return view


def _arguments(view: np.ndarray) -> Callable[[np.ndarray], tuple]:
    return lambda c: tuple(np.moveaxis(np.asarray(c, float) @ view, -1, 0))


VIEWS = {prefix: _arguments(rule_view(rule)) for prefix, rule in RULES.items()}


def _f1_of_weighted_pr(c: np.ndarray) -> np.ndarray:
    scores = classification_scores(*VIEWS[TABLE1_RULE](c))
    precision, recall = scores["precision_weighted"], scores["recall_weighted"]
    return divide_or_zero(2 * precision * recall, precision + recall)  # NaN (no answer) stays NaN


def _scored(prefix: str) -> Callable[[np.ndarray], np.ndarray]:
    """How many answers the rule scores (its F1's n)."""
    return lambda c: sum(VIEWS[prefix](c))


ISOBENCH = ClusterStats(
    name="isobench",
    stats=ISOBENCH_STATS,
    metrics={
        **{name: metric for prefix, view in VIEWS.items() for name, metric in classification_metrics(prefix, view).items()},
        "paper_f1_of_avg_pr": _f1_of_weighted_pr,
        "coverage": lambda c: ratio(np.asarray(c)[..., : len(CONFUSION)].sum(axis=-1), np.asarray(c)[..., ANSWERS]),
    },
    headline=(f"{TABLE1_RULE}f1_weighted", f"{TABLE1_RULE}f1_macro", "coverage"),
    labels={f"{TABLE1_RULE}f1_weighted": "weighted F1 (Table 1's rule)", f"{TABLE1_RULE}f1_macro": "macro F1 (Table 1's rule)", "coverage": "coverage"},
    identity=lambda r: r["id"],
    counts=isobench_counts,
    # the answers each rule scores (Table 1's: every answer, an unparsed one as a third label), and every answer for coverage
    support={**{f"{prefix}{name}": _scored(prefix) for prefix in VIEWS for name in ("f1_weighted", "f1_macro")}, "coverage": lambda c: c[..., ANSWERS]},
    size=lambda c: c[..., ANSWERS],
    undefined={f"{prefix}{name}": "no answer it scores" for prefix in VIEWS for name in ("f1_weighted", "f1_macro")},
    unit="goals",
    clustering_note=clustering_note,
)
