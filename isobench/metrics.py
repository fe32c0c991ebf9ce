"""Per-doc records and the aggregations of the paper's metrics (docs/protocol/isobench.md §5).

Every doc returns the same record under every metric key; each aggregation computes its figure
from the whole list of records (so it works across ranks and with ``--limit``) and returns None
where it does not apply (no scored answer, no step positions, no such source).

* paper scores (no prefix): on the answers with an unambiguous YES/NO only, as the paper discards
  the rest; ``coverage`` is the share of answers kept.
* ``strict_`` scores: every answer, an unparsed one counted as the wrong class, so refusing never pays.
* breakdowns: ``f1_weighted`` of the paper scores on a subset (relation, distance, source).
* ``failed_count``: requests that failed or brought no response (utils/failed_requests.py); they are
  invalid answers (outside ``coverage``, the wrong class in the ``strict_`` scores).
"""

from typing import Callable, Dict, List, Optional

from temporal_bench.utils.classification import yes_no_report
from temporal_bench.utils.failed_requests import count_failed
from temporal_bench.utils.yes_no import INVALID, opposite

CLASS_NAMES = ("dep", "nondep")  # DEP = yes, NONDEP = no
REPORT_SCORES = [
    "f1_weighted", "precision_weighted", "recall_weighted",
    "f1_macro", "precision_macro", "recall_macro",
    "precision_dep", "recall_dep", "f1_dep",
    "precision_nondep", "recall_nondep", "f1_nondep",
    "accuracy",
]
SOURCES = ("youcook2", "crosstask")
BREAKDOWNS: Dict[str, Callable[[Dict], bool]] = {
    "before": lambda r: r["relation"] == "before",
    "after": lambda r: r["relation"] == "after",
    "close": lambda r: r["distance_class"] == "close",
    "distant": lambda r: r["distance_class"] == "distant",
    **{source: (lambda r, source=source: r["source"] == source) for source in SOURCES},
}


# plan_id (None when the data has no plan column): the unit the confidence intervals resample
# (temporal_bench/report/cluster_stats.py)
RECORD_FIELDS = ("id", "plan_id", "relation", "source", "distance_class")


def _report(records: List[Dict], strict: bool) -> Optional[Dict[str, float]]:
    if strict:
        pairs = [(r["gold"], opposite(r["gold"]) if r["pred"] == INVALID else r["pred"]) for r in records]
    else:
        pairs = [(r["gold"], r["pred"]) for r in records if r["pred"] != INVALID]
    return yes_no_report([g for g, _ in pairs], [p for _, p in pairs], CLASS_NAMES)


def _score(score: str, strict: bool = False, keep: Callable[[Dict], bool] = lambda r: True) -> Callable:
    def aggregate(records: List[Dict]) -> Optional[float]:
        report = _report([r for r in records if keep(r)], strict)
        return None if report is None else report[score]

    return aggregate


def coverage(records: List[Dict]) -> float:
    """Share of answers with an unambiguous YES/NO (the paper's scores use only these)."""
    return sum(r["pred"] != INVALID for r in records) / len(records)


AGGREGATIONS: Dict[str, Callable] = {
    **{score: _score(score) for score in REPORT_SCORES},
    "coverage": coverage,
    "failed_count": lambda records: count_failed(records),
    **{f"strict_{score}": _score(score, strict=True) for score in REPORT_SCORES},
    **{f"f1_weighted_{name}": _score("f1_weighted", keep=keep) for name, keep in BREAKDOWNS.items()},
}
for _name, _aggregate in AGGREGATIONS.items():
    _aggregate.__name__ = _name
METRIC_NAMES = list(AGGREGATIONS)
HIGHER_IS_BETTER = {name: name != "failed_count" for name in METRIC_NAMES}

# The aggregation functions carry the names of their metric keys; the task folder's utils.py
# star-imports exactly these.
globals().update(AGGREGATIONS)
__all__ = list(METRIC_NAMES)
