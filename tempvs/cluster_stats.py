"""TempVS's metrics as functions of per-cluster counts (temporal_bench/report/cluster_stats.py):
cluster = the image sequence ``(source, img_seq_id)``, its main and grounding questions together;
the main-to-grounding join is the tasks' own (lmms_eval_tasks/tempvs/metrics.py ``judge``), so missing partners and
the official quirk count as in the task."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from temporal_bench.lmms_eval_tasks.tempvs.metrics import judge, unique_records
from temporal_bench.report.cluster_stats import ClusterStats, Metric, ratio

TEMPVS_STATS = ("gt_correct", "gt_total", "mt_correct", "mt_total", "strict_pass", "strict_complete", "strict_mt_correct", "not_blind")
GT_CORRECT, GT_TOTAL, MT_CORRECT, MT_TOTAL, STRICT_PASS, STRICT_COMPLETE, STRICT_MT_CORRECT, NOT_BLIND = range(8)


def tempvs_counts(records: list[dict]) -> dict[str, np.ndarray]:
    records = unique_records(records)  # one per doc key, the first, as the task's aggregations keep it
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
    "gt_acc": lambda c: ratio(c[..., GT_CORRECT], c[..., GT_TOTAL]),
    "gtstrict_rate": lambda c: _with_grounding(c, ratio(c[..., STRICT_PASS], c[..., STRICT_COMPLETE])),
    "mt_acc": lambda c: ratio(c[..., MT_CORRECT], c[..., MT_TOTAL]),
    "mt_given_gtstrict": lambda c: _with_grounding(c, ratio(c[..., STRICT_MT_CORRECT], c[..., STRICT_PASS])),
}


TEMPVS = ClusterStats(
    name="tempvs",
    stats=TEMPVS_STATS,
    metrics=TEMPVS_METRICS,
    headline=("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"),
    labels={"gt_acc": "GT", "gtstrict_rate": "GT_strict", "mt_acc": "MT", "mt_given_gtstrict": "MT|GT_strict"},
    identity=lambda r: r["key"],
    counts=tempvs_counts,
    support={"gt_acc": lambda c: c[..., GT_TOTAL], "gtstrict_rate": lambda c: c[..., STRICT_COMPLETE], "mt_acc": lambda c: c[..., MT_TOTAL], "mt_given_gtstrict": lambda c: c[..., STRICT_PASS]},
    undefined={
        "gt_acc": "no grounding question",
        "gtstrict_rate": "no main question with its grounding questions answered",
        "mt_acc": "no main question",
        "mt_given_gtstrict": "no GT_strict pass: MT|GT_strict is MT among the main questions whose grounding was all right",
    },
    undefined_cause={"gt_acc": "a blind or images-only variant asks none", "gtstrict_rate": "a blind variant asks none"},
    unit="image sequences",
)
