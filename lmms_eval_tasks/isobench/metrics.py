"""Per-doc records and the paper's metrics (precision, recall and F1 per class and averaged, as scikit-learn's
classification report gives them).

Every doc returns one compact record (:data:`RECORD_FIELDS`, gold, pred, failed) under the first headline key
(:data:`METRIC_NAMES`, the tasks' ``metric_list``) and the fields each other one reads (:data:`FIELDS_READ`); each
aggregation computes its figure from the whole list of records (so it works across ranks and with ``--limit``) and
returns None where it does not apply (no answer to score).

Three scoring rules, each named by the prefix of its keys; the tasks' headline scores use the paper's
(``paper_``, :data:`TABLE1_RULE`), so that lmms-eval's table shows what Table 1 reports:

* no prefix: on the answers with an unambiguous YES/NO only, the rest discarded; ``coverage`` is the
  share kept.
* ``strict_``: every answer, an unparsed one counted as the wrong class, so refusing never pays.
* ``paper_``: every answer, an unparsed one kept as a third predicted label while P/R/F1 are reported
  for ``labels=[yes, no]``: it lowers the recall of its gold class and nobody's precision. The rule
  that fits the published Table 1; ``paper_f1_of_avg_pr``
  is the F1 of the weighted P and R, which two of its rows print as their average F.

``failed_count``: requests that failed or brought no response; they are unparsed answers.
"""

from typing import Callable, Dict, List, Optional, Tuple

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.classification import yes_no_report
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.failed_requests import (
    count_failed,
    is_failed_response,
    warn_failed,
)
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, opposite

CLASS_NAMES = ("dep", "nondep")  # DEP = yes, NONDEP = no
REPORT_SCORES = ["f1_weighted", "precision_weighted", "recall_weighted", "f1_macro", "precision_macro", "recall_macro", "precision_dep", "recall_dep", "f1_dep", "precision_nondep", "recall_nondep", "f1_nondep", "accuracy"]
# plan_id (None when the data has no plan column): the unit a confidence interval resamples (plans,
# not questions, are independent); data: the fingerprint of the files read (the loading module)
RECORD_FIELDS = ("id", "task", "goal", "plan_id", "relation", "source", "distance_class", "data")


def _discarded(records: List[Dict]) -> List[Tuple[str, str]]:
    return [(r["gold"], r["pred"]) for r in records if r["pred"] != INVALID]


def _strict(records: List[Dict]) -> List[Tuple[str, str]]:
    return [(r["gold"], opposite(r["gold"]) if r["pred"] == INVALID else r["pred"]) for r in records]


def _third_label(records: List[Dict]) -> List[Tuple[str, str]]:
    return [(r["gold"], r["pred"]) for r in records]


# prefix of the keys -> (gold, scored prediction) pairs the rule scores
RULES: Dict[str, Callable[[List[Dict]], List[Tuple[str, str]]]] = {"": _discarded, "strict_": _strict, "paper_": _third_label}
TABLE1_RULE = "paper_"  # the rule the paper's Table 1 fits: the headline scores, Table 1, compare and the figures use it


def scores(records: List[Dict], rule: str = "") -> Optional[Dict[str, float]]:
    """The :data:`REPORT_SCORES` of ``records`` under the rule with key prefix ``rule``; None without
    answers to score (computed once per set of answers however many keys read it: utils/classification.py)."""
    pairs = RULES[rule](records)
    return yes_no_report([g for g, _ in pairs], [p for _, p in pairs], CLASS_NAMES)


def score_metric(score: str, rule: str = "", keep: Callable[[Dict], bool] = lambda r: True) -> Callable:
    def aggregate(records: List[Dict]) -> Optional[float]:
        report = scores([r for r in records if keep(r)], rule)
        return None if report is None else report[score]

    return aggregate


def coverage(records: List[Dict]) -> float:
    """Share of answers with an unambiguous YES/NO (the default scores use only these)."""
    return sum(r["pred"] != INVALID for r in records) / len(records)


def failed_count(records: List[Dict]) -> int:
    return count_failed(records)


paper_f1_weighted = score_metric("f1_weighted", TABLE1_RULE)
paper_f1_macro = score_metric("f1_macro", TABLE1_RULE)
paper_precision_dep = score_metric("precision_dep", TABLE1_RULE)
paper_recall_dep = score_metric("recall_dep", TABLE1_RULE)
paper_f1_dep = score_metric("f1_dep", TABLE1_RULE)
paper_precision_nondep = score_metric("precision_nondep", TABLE1_RULE)
paper_recall_nondep = score_metric("recall_nondep", TABLE1_RULE)
paper_f1_nondep = score_metric("f1_nondep", TABLE1_RULE)


def paper_f1_weighted_first(records: List[Dict], args=None) -> Optional[float]:
    """``paper_f1_weighted`` of the first metric key, whose values are whole records: also warns about failed requests."""
    if records:
        warn_failed(records[0]["task"], count_failed(records), len(records), args)
    return paper_f1_weighted(records)


# The headline figures, the tasks' metric_list: the paper's per-class and averaged F1 under Table 1's rule, coverage
# and failed requests. Every other key (the other rules' scores among them) is a breakdown of the report.
SCORES = ["f1_weighted", "f1_macro", "precision_dep", "recall_dep", "f1_dep", "precision_nondep", "recall_nondep", "f1_nondep"]
METRIC_NAMES = [TABLE1_RULE + score for score in SCORES] + ["coverage", "failed_count"]
# What each headline key but the first reads of a record (the first holds the whole record)
FIELDS_READ = {**{name: ("gold", "pred") for name in METRIC_NAMES[1:8]}, "coverage": ("pred",), "failed_count": ("failed",)}


def values_of(doc: Dict, response: Optional[str], parse: Callable[[str], str]) -> Dict:
    """``process_results``' value: the doc's record (its ``RECORD_FIELDS``, gold, the parsed prediction and ``failed``:
    a failed request or no response is never parsed) under the first key, each other key's fields under it."""
    failed = is_failed_response(response)
    record = {field: doc[field] for field in RECORD_FIELDS}
    record.update(gold=doc["answer"], pred=INVALID if failed else parse(response), failed=failed)
    return {name: record if i == 0 else {field: record[field] for field in FIELDS_READ[name]} for i, name in enumerate(METRIC_NAMES)}
