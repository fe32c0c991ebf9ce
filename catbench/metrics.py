"""Per-doc records and the aggregations of the paper's metrics (docs/protocol/catbench.md §6).

Every doc returns the same record under every metric key; each aggregation reads what it needs
from the whole list, so the joins (TC over before/after pairs, OCC over a NonDep question and its
switched twin) work across ranks and with ``--limit`` (a missing partner leaves the pair out).
Classification scores use the real questions only; an invalid answer counts as the wrong class.
A failed request (utils/failed_requests.py) is an invalid answer, and also counted by ``failed_count``.
"""

import os
from collections import defaultdict
from typing import Callable, Dict, List, Optional

from temporal_bench.utils.classification import yes_no_report
from temporal_bench.utils.failed_requests import count_failed
from temporal_bench.utils.yes_no import INVALID, opposite

CLOSE_MAX_DISTANCE_ENV = "CATBENCH_CLOSE_MAX_DISTANCE"
DEFAULT_CLOSE_MAX_DISTANCE = 3  # d <= 3 reproduces the paper's 1,256 close / 1,584 distant test questions
CLASS_NAMES = ("dep", "nondep")


RECORD_FIELDS = ("question_id", "pair_id", "variant", "dependency", "relation", "distance")


def close_max_distance() -> int:
    return int(os.environ.get(CLOSE_MAX_DISTANCE_ENV, DEFAULT_CLOSE_MAX_DISTANCE))


def _real(records: List[Dict]) -> List[Dict]:
    return [r for r in records if r["variant"] == "real"]


def _scored(record: Dict) -> str:
    return opposite(record["gold"]) if record["pred"] == INVALID else record["pred"]


def _report(records: List[Dict]) -> Optional[Dict[str, float]]:
    return yes_no_report([r["gold"] for r in records], [_scored(r) for r in records], CLASS_NAMES)


def _report_metric(score: str, keep: Callable[[Dict], bool] = lambda r: True) -> Callable:
    """Aggregation giving ``score`` of the classification report over the real questions kept."""

    def aggregate(records: List[Dict]) -> Optional[float]:
        report = _report([r for r in _real(records) if keep(r)])
        return None if report is None else report[score]

    return aggregate


def _consistent(first: Dict, second: Dict) -> bool:
    return first["pred"] != INVALID and first["pred"] == second["pred"]


def _agreement(groups: Dict[tuple, List[Dict]]) -> Optional[float]:
    complete = [group for group in groups.values() if len(group) == 2]
    if not complete:
        return None
    return sum(_consistent(*group) for group in complete) / len(complete)


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


def invalid_rate(records: List[Dict]) -> float:
    return sum(r["pred"] == INVALID for r in records) / len(records)


def invalid_count(records: List[Dict]) -> int:
    return sum(r["pred"] == INVALID for r in records)


def failed_count(records: List[Dict]) -> int:
    return count_failed(records)


precision_dep = _report_metric("precision_dep")
recall_dep = _report_metric("recall_dep")
f1_dep = _report_metric("f1_dep")
precision_nondep = _report_metric("precision_nondep")
recall_nondep = _report_metric("recall_nondep")
f1_nondep = _report_metric("f1_nondep")
precision_macro = _report_metric("precision_macro")
recall_macro = _report_metric("recall_macro")
f1_macro = _report_metric("f1_macro")
accuracy = _report_metric("accuracy")


def _close(record: Dict) -> bool:
    return record["distance"] <= close_max_distance()


f1_macro_before = _report_metric("f1_macro", lambda r: r["relation"] == "before")
f1_macro_after = _report_metric("f1_macro", lambda r: r["relation"] == "after")
f1_macro_close = _report_metric("f1_macro", _close)
f1_macro_distant = _report_metric("f1_macro", lambda r: not _close(r))

METRIC_NAMES = [
    "f1_macro", "precision_macro", "recall_macro",
    "precision_dep", "recall_dep", "f1_dep",
    "precision_nondep", "recall_nondep", "f1_nondep",
    "accuracy", "invalid_rate", "invalid_count", "failed_count", "tc", "occ",
    "f1_macro_before", "f1_macro_after", "f1_macro_close", "f1_macro_distant",
]

# The aggregation functions carry the names of their metric keys; the task folders' utils.py
# star-import exactly these.
__all__ = list(METRIC_NAMES)
