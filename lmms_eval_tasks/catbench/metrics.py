"""Per-doc records and the aggregations of the paper's metrics (paper §3.1 and §4.2: macro and per-class precision,
recall and F1 as scikit-learn's classification report gives them, Temporal Consistency and Order Contrastive
Consistency).

Each doc's record (:func:`make_record`) is logged whole under the first key and, under every other key, only the
fields that metric reads (:func:`per_metric`); an aggregation reads what it needs from the whole list, so the same
functions score whole records. The joins (TC over before/after pairs, OCC over a NonDep question and its switched
twin) work across ranks and with ``--limit`` (a missing partner leaves the pair out). Classification scores use the
real questions only; an invalid answer counts as the wrong class.
"""

from collections import defaultdict
from typing import Callable, Dict, List, Optional

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.classification import yes_no_report
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, opposite

CLASS_NAMES = ("dep", "nondep")
RECORD_FIELDS = ("question_id", "pair_id", "variant", "dependency", "relation")


def make_record(doc: Dict, response: Optional[str], parse: Callable[[str], str]) -> Dict:
    """The doc's ``RECORD_FIELDS``, ``gold`` and the parsed ``pred`` (no response: invalid)."""
    return {**{field: doc[field] for field in RECORD_FIELDS}, "gold": doc["answer"], "pred": parse(response) if response is not None else INVALID}


def _real(records: List[Dict]) -> List[Dict]:
    return [r for r in records if r["variant"] == "real"]


def _scored(record: Dict) -> str:
    return opposite(record["gold"]) if record["pred"] == INVALID else record["pred"]


def report_metric(score: str, keep: Callable[[Dict], bool] = lambda r: True) -> Callable:
    """Aggregation giving ``score`` of the classification report over the real questions kept."""

    def aggregate(records: List[Dict]) -> Optional[float]:
        kept = [r for r in _real(records) if keep(r)]
        report = yes_no_report([r["gold"] for r in kept], [_scored(r) for r in kept], CLASS_NAMES)
        return None if report is None else report[score]

    return aggregate


def _agreement(groups: Dict[tuple, List[Dict]]) -> Optional[float]:
    complete = [group for group in groups.values() if len(group) == 2]
    if not complete:
        return None
    return sum(first["pred"] != INVALID and first["pred"] == second["pred"] for first, second in complete) / len(complete)


def tc(records: List[Dict]) -> Optional[float]:
    """Temporal Consistency: share of step pairs whose before and after answers are equal."""
    pairs = defaultdict(list)
    for record in _real(records):
        pairs[record["pair_id"]].append(record)
    return _agreement(pairs)


def occ(records: List[Dict]) -> Optional[float]:
    """Order Contrastive Consistency: share of NonDep questions answered as their switched twin."""
    twins = defaultdict(list)
    for record in records:
        if record["dependency"] == "nondep":
            twins[record["pair_id"], record["relation"]].append(record)
    return _agreement(twins)


f1_macro = report_metric("f1_macro")
precision_macro = report_metric("precision_macro")
recall_macro = report_metric("recall_macro")
precision_dep = report_metric("precision_dep")
recall_dep = report_metric("recall_dep")
f1_dep = report_metric("f1_dep")
precision_nondep = report_metric("precision_nondep")
recall_nondep = report_metric("recall_nondep")
f1_nondep = report_metric("f1_nondep")

# The paper's headline figures, each a task's metric key and the name of its aggregation (occ: the _switched tasks).
METRIC_NAMES = ["f1_macro", "precision_macro", "recall_macro", "precision_dep", "recall_dep", "f1_dep", "precision_nondep", "recall_nondep", "f1_nondep", "tc", "occ"]
_CLASSIFICATION_FIELDS = ("variant", "gold", "pred")
# What each headline key after the first reads (the first, f1_macro, carries the whole record)
FIELDS_READ = {
    **{name: _CLASSIFICATION_FIELDS for name in METRIC_NAMES[1:9]},
    "tc": ("pair_id", "variant", "relation", "pred"),
    "occ": ("pair_id", "variant", "relation", "dependency", "pred"),
}


def per_metric(record: Dict, switched: bool) -> Dict[str, Dict]:
    """``process_results``' value: the whole record under ``f1_macro``, each other key's fields under it (``occ``
    only in a task with switched twins)."""
    values = {METRIC_NAMES[0]: record, **{name: {f: record[f] for f in fields} for name, fields in FIELDS_READ.items()}}
    if not switched:
        del values["occ"]
    return values
