"""Per-doc records and the paper's metrics (precision, recall and F1 per class and averaged, as scikit-learn's
classification report gives them) under the rule that fits the published Table 1: every answer is scored, an unparsed
one kept as a third predicted label while P/R/F1 are reported for ``labels=[yes, no]``, so it lowers the recall of its
gold class and nobody's precision.

Every doc returns its record (its id, relation, gold and pred) under the first key and gold and pred under each other
one; each aggregation computes its figure from the whole list of records (so it works across ranks and with
``--limit``) and returns None without an answer to score.
"""

from collections.abc import Callable

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.classification import yes_no_report

CLASS_NAMES = ("dep", "nondep")  # DEP = yes, NONDEP = no
METRIC_NAMES = ["f1_weighted", "f1_macro", "precision_dep", "recall_dep", "f1_dep", "precision_nondep", "recall_nondep", "f1_nondep"]


def score_metric(score: str) -> Callable:
    def aggregate(records: list[dict]) -> float | None:
        report = yes_no_report([r["gold"] for r in records], [r["pred"] for r in records], CLASS_NAMES)
        return None if report is None else report[score]

    return aggregate


f1_weighted = score_metric("f1_weighted")
f1_macro = score_metric("f1_macro")
precision_dep = score_metric("precision_dep")
recall_dep = score_metric("recall_dep")
f1_dep = score_metric("f1_dep")
precision_nondep = score_metric("precision_nondep")
recall_nondep = score_metric("recall_nondep")
f1_nondep = score_metric("f1_nondep")


def values_of(doc: dict, pred: str) -> dict:
    """``process_results``' value: the doc's record (its id, relation, gold and the parsed prediction) under the first
    key, gold and pred under each other one."""
    record = {"id": doc["id"], "relation": doc["relation"], "gold": doc["answer"], "pred": pred}
    return {name: record if i == 0 else {"gold": record["gold"], "pred": pred} for i, name in enumerate(METRIC_NAMES)}
