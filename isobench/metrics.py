"""Per-doc records and the paper's metrics (docs/protocol/isobench.md §5).

Every doc returns one compact record (:data:`RECORD_FIELDS`, gold, pred, failed) under the first headline
key (:data:`METRIC_NAMES`, the tasks' ``metric_list``) and the fields each other one reads
(:data:`FIELDS_READ`) under it; each aggregation computes its figure from the
whole list of records (so it works across ranks and with ``--limit``) and returns None where it does
not apply (no answer to score, no step positions, no such source). :func:`breakdown_metrics` computes
every key from the logged records, the breakdowns included.

Three scoring rules, each named by the prefix of its keys (§5):

* no prefix: on the answers with an unambiguous YES/NO only, the rest discarded; ``coverage`` is the
  share kept.
* ``strict_``: every answer, an unparsed one counted as the wrong class, so refusing never pays.
* ``paper_``: every answer, an unparsed one kept as a third predicted label while P/R/F1 are reported
  for ``labels=[yes, no]``: it lowers the recall of its gold class and nobody's precision. The rule
  that fits the published Table 1 (docs/isobench.md, "Which rule Table 1 used"); ``paper_f1_of_avg_pr``
  is the F1 of the weighted P and R, which two of its rows print as their average F.

Breakdowns: ``f1_weighted`` (no prefix) on a subset (relation, distance, source). ``failed_count``:
requests that failed or brought no response (utils/failed_requests.py); they are unparsed answers.
"""

from typing import Callable, Dict, List, Optional, Tuple

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

# plan_id (None when the data has no plan column): the unit a confidence interval resamples (plans,
# not questions, are independent); data: the fingerprint of the files read (the loading module)
RECORD_FIELDS = ("id", "plan_id", "relation", "source", "distance_class", "data")


def _discarded(records: List[Dict]) -> List[Tuple[str, str]]:
    return [(r["gold"], r["pred"]) for r in records if r["pred"] != INVALID]


def _strict(records: List[Dict]) -> List[Tuple[str, str]]:
    return [(r["gold"], opposite(r["gold"]) if r["pred"] == INVALID else r["pred"]) for r in records]


def _third_label(records: List[Dict]) -> List[Tuple[str, str]]:
    return [(r["gold"], r["pred"]) for r in records]


# prefix of the keys -> (gold, scored prediction) pairs the rule scores
RULES: Dict[str, Callable[[List[Dict]], List[Tuple[str, str]]]] = {"": _discarded, "strict_": _strict, "paper_": _third_label}


def scores(records: List[Dict], rule: str = "") -> Optional[Dict[str, float]]:
    """The :data:`REPORT_SCORES` of ``records`` under the rule with key prefix ``rule``; None without
    answers to score (computed once per set of answers however many keys read it: utils/classification.py)."""
    pairs = RULES[rule](records)
    return yes_no_report([g for g, _ in pairs], [p for _, p in pairs], CLASS_NAMES)


def _score(score: str, rule: str = "", keep: Callable[[Dict], bool] = lambda r: True) -> Callable:
    def aggregate(records: List[Dict]) -> Optional[float]:
        report = scores([r for r in records if keep(r)], rule)
        return None if report is None else report[score]

    return aggregate


def coverage(records: List[Dict]) -> float:
    """Share of answers with an unambiguous YES/NO (the default scores use only these)."""
    return sum(r["pred"] != INVALID for r in records) / len(records)


def paper_f1_of_avg_pr(records: List[Dict]) -> Optional[float]:
    """The F1 of ``paper_precision_weighted`` and ``paper_recall_weighted`` (Table 1's average F in two rows)."""
    report = scores(records, "paper_")
    if report is None:
        return None
    precision, recall = report["precision_weighted"], report["recall_weighted"]
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


AGGREGATIONS: Dict[str, Callable] = {
    **{f"{rule}{score}": _score(score, rule) for rule in RULES for score in REPORT_SCORES},
    "paper_f1_of_avg_pr": paper_f1_of_avg_pr,
    "coverage": coverage,
    "failed_count": lambda records: count_failed(records),
    **{f"f1_weighted_{name}": _score("f1_weighted", keep=keep) for name, keep in BREAKDOWNS.items()},
}
for _name, _aggregate in AGGREGATIONS.items():
    _aggregate.__name__ = _name

# The headline figures, the tasks' metric_list: the paper's per-class and averaged F1, coverage and
# failed requests, under the default rule. Every other key is a breakdown (breakdown_metrics).
METRIC_NAMES = [
    "f1_weighted", "f1_macro",
    "precision_dep", "recall_dep", "f1_dep",
    "precision_nondep", "recall_nondep", "f1_nondep",
    "coverage", "failed_count",
]


# What each headline aggregation but the first reads of a record: the doc logs only that under its key
# (per_doc.make_process_results); the whole record, under f1_weighted, is what the report and the breakdowns read.
FIELDS_READ = {**{name: ("gold", "pred") for name in METRIC_NAMES[1:8]}, "coverage": ("pred",), "failed_count": ("failed",)}


def breakdown_metrics(task: str, records: List[Dict]) -> Dict[str, Optional[float]]:
    """Every metric key of ``task`` (both ISO-Bench tasks report the same), headline and breakdown,
    computed from its logged per-doc records."""
    return {name: aggregate(records) for name, aggregate in AGGREGATIONS.items()}


# The task folder's utils.py star-imports the aggregations of the metric_list.
globals().update({name: AGGREGATIONS[name] for name in METRIC_NAMES})
__all__ = list(METRIC_NAMES)
