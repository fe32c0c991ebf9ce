"""Per-doc records and the paper's metrics (precision, recall and F1 per class and averaged, as scikit-learn's
classification report gives them) under the rule that fits the published Table 1 (``paper_``): every answer is scored,
an unparsed one kept as a third predicted label while P/R/F1 are reported for ``labels=[yes, no]``, so it lowers the
recall of its gold class and nobody's precision.

Every doc returns one compact record (:data:`RECORD_FIELDS`, gold, pred) under the first headline key and gold and
pred under each other one; each aggregation computes its figure from the whole list of records (so it works across
ranks and with ``--limit``) and returns None without an answer to score.
"""

from typing import Callable, Dict, List, Optional

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.classification import yes_no_report

CLASS_NAMES = ("dep", "nondep")  # DEP = yes, NONDEP = no
# plan_id (None when the data has no plan column) and goal: the unit a confidence interval resamples
RECORD_FIELDS = ("id", "goal", "plan_id", "relation", "source", "distance_class")
SCORES = ["f1_weighted", "f1_macro", "precision_dep", "recall_dep", "f1_dep", "precision_nondep", "recall_nondep", "f1_nondep"]
METRIC_NAMES = ["paper_" + score for score in SCORES]


def score_metric(score: str) -> Callable:
    def aggregate(records: List[Dict]) -> Optional[float]:
        report = yes_no_report([r["gold"] for r in records], [r["pred"] for r in records], CLASS_NAMES)
        return None if report is None else report[score]

    return aggregate


paper_f1_weighted = score_metric("f1_weighted")
paper_f1_macro = score_metric("f1_macro")
paper_precision_dep = score_metric("precision_dep")
paper_recall_dep = score_metric("recall_dep")
paper_f1_dep = score_metric("f1_dep")
paper_precision_nondep = score_metric("precision_nondep")
paper_recall_nondep = score_metric("recall_nondep")
paper_f1_nondep = score_metric("f1_nondep")


def values_of(doc: Dict, pred: str) -> Dict:
    """``process_results``' value: the doc's record (its ``RECORD_FIELDS``, gold and the parsed prediction) under the
    first key, gold and pred under each other one."""
    record = {**{field: doc[field] for field in RECORD_FIELDS}, "gold": doc["answer"], "pred": pred}
    return {name: record if i == 0 else {"gold": record["gold"], "pred": pred} for i, name in enumerate(METRIC_NAMES)}
