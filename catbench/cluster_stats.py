"""CaT-Bench's metrics as functions of per-cluster counts (temporal_bench/report/cluster_stats.py):
cluster = the plan (the title part of ``pair_id``, catbench/questions.py), which holds its
before/after pairs (TC) and switched twins (OCC); classification scores as catbench/metrics.py
computes them (real questions, an invalid answer as the wrong class). The benchmark asks as many Dep
as NonDep step pairs (710 each in the test split) however unevenly its plans hold them, so a bootstrap
draw keeps each class's questions and TC pairs at the run's counts (``fixed``): resampling plans
alone varies the balance, and with it Dep and NonDep F1, which the design holds fixed."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, NO, YES
from temporal_bench.report.cluster_stats import CONFUSION, ClusterStats, FixedTotal, classification_metrics, confusion_cell, ratio

# TC's pairs counted per class, so that a draw can keep each class's pairs (a yes-biased model is more consistent on one)
CATBENCH_STATS = CONFUSION + ("tc_consistent_dep", "tc_complete_dep", "tc_consistent_nondep", "tc_complete_nondep", "occ_agree", "occ_complete")
TC_CONSISTENT_DEP, TC_COMPLETE_DEP, TC_CONSISTENT_NONDEP, TC_COMPLETE_NONDEP, OCC_AGREE, OCC_COMPLETE = range(len(CONFUSION), len(CATBENCH_STATS))


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
            scored = (NO if record["gold"] == YES else YES) if record["pred"] == INVALID else record["pred"]
            cell = confusion_cell(record["gold"], scored)
            if cell is not None:
                vector[CONFUSION.index(cell)] += 1
            pairs[record["pair_id"]].append(record)
        if record["dependency"] == "nondep":
            twins[record["pair_id"], record["relation"]].append(record)
    for group in pairs.values():
        _count_pair(counts, group, *((TC_CONSISTENT_DEP, TC_COMPLETE_DEP) if group[0]["dependency"] == "dep" else (TC_CONSISTENT_NONDEP, TC_COMPLETE_NONDEP)))
    for group in twins.values():
        _count_pair(counts, group, OCC_AGREE, OCC_COMPLETE)
    return dict(counts)


def _count_pair(counts: dict[str, np.ndarray], group: list[dict], agreeing: int, complete: int) -> None:
    if len(group) == 2:  # a pair with a partner missing (--limit) is left out, as in the task
        vector = counts[catbench_plan(group[0])]
        vector[agreeing] += _agreeing(group)
        vector[complete] += 1


def _tc_pairs(c: np.ndarray) -> np.ndarray:
    return c[..., TC_COMPLETE_DEP] + c[..., TC_COMPLETE_NONDEP]


def _originals(c: np.ndarray) -> np.ndarray:
    """The original questions (not their switched twins) the classification scores count."""
    return c[..., : len(CONFUSION)].sum(axis=-1)


CATBENCH = ClusterStats(
    name="catbench",
    stats=CATBENCH_STATS,
    metrics={
        **{k: v for k, v in classification_metrics().items() if "weighted" not in k},
        "tc": lambda c: ratio(c[..., TC_CONSISTENT_DEP] + c[..., TC_CONSISTENT_NONDEP], _tc_pairs(c)),
        "occ": lambda c: ratio(c[..., OCC_AGREE], c[..., OCC_COMPLETE]),
    },
    headline=("f1_macro", "f1_dep", "f1_nondep", "tc", "occ"),
    labels={"f1_macro": "macro F1", "f1_dep": "Dep F1", "f1_nondep": "NonDep F1", "tc": "TC", "occ": "OCC"},
    identity=lambda r: r["question_id"],
    counts=catbench_counts,
    support={**dict.fromkeys(("f1_macro", "f1_dep", "f1_nondep"), _originals), "tc": _tc_pairs, "occ": lambda c: c[..., OCC_COMPLETE]},
    size=_originals,
    undefined={
        **dict.fromkeys(("f1_macro", "f1_dep", "f1_nondep"), "no original (not switched) question"),
        "tc": "no step pair asked both before and after",
        "occ": "no NonDep question with its switched twin",
    },
    undefined_cause={"occ": "OCC is defined on the twins, which only a `_switched` task asks"},
    unit="plans",
    fixed=(
        FixedTotal(("yes_yes", "yes_no"), ("yes_yes", "yes_no")),
        FixedTotal(("no_yes", "no_no"), ("no_yes", "no_no")),
        FixedTotal(("tc_consistent_dep", "tc_complete_dep"), ("tc_complete_dep",)),
        FixedTotal(("tc_consistent_nondep", "tc_complete_nondep"), ("tc_complete_nondep",)),
    ),
)
