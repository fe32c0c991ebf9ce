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
from collections.abc import Callable

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.classification import yes_no_report
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, NO, YES

CLASS_NAMES = ("dep", "nondep")
RECORD_FIELDS = ("question_id", "pair_id", "variant", "dependency", "relation")


def make_record(doc: dict, response: str | None, parse: Callable[[str], str]) -> dict:
    """The doc's ``RECORD_FIELDS``, ``gold`` and the parsed ``pred`` (no response: invalid)."""
    return {**{field: doc[field] for field in RECORD_FIELDS}, "gold": doc["answer"], "pred": parse(response) if response is not None else INVALID}


def _real(records: list[dict]) -> list[dict]:
    return [r for r in records if r["variant"] == "real"]


def _scored(record: dict) -> str:
    """The prediction scored: an invalid answer as the class opposite the gold one."""
    return (NO if record["gold"] == YES else YES) if record["pred"] == INVALID else record["pred"]


def report_metric(score: str) -> Callable:
    """Aggregation giving ``score`` of the classification report over the real questions."""

    def aggregate(records: list[dict]) -> float | None:
        real = _real(records)
        report = yes_no_report([r["gold"] for r in real], [_scored(r) for r in real], CLASS_NAMES)
        return None if report is None else report[score]

    return aggregate


def _agreement(groups: dict[tuple, list[dict]]) -> float | None:
    complete = [group for group in groups.values() if len(group) == 2]
    if not complete:
        return None
    return sum(first["pred"] != INVALID and first["pred"] == second["pred"] for first, second in complete) / len(complete)


def tc(records: list[dict]) -> float | None:
    """Temporal Consistency: share of step pairs whose before and after answers are equal."""
    pairs = defaultdict(list)
    for record in _real(records):
        pairs[record["pair_id"]].append(record)
    return _agreement(pairs)


def occ(records: list[dict]) -> float | None:
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
    **dict.fromkeys(METRIC_NAMES[1:9], _CLASSIFICATION_FIELDS),
    "tc": ("pair_id", "variant", "relation", "pred"),
    "occ": ("pair_id", "variant", "relation", "dependency", "pred"),
}


def per_metric(record: dict, switched: bool) -> dict[str, dict]:
    """``process_results``' value: the whole record under ``f1_macro``, each other key's fields under it (``occ``
    only in a task with switched twins).
    """
    values = {METRIC_NAMES[0]: record, **{name: {f: record[f] for f in fields} for name, fields in FIELDS_READ.items()}}
    if not switched:
        del values["occ"]
    return values


def process_results_with(parse: Callable[[str], str]) -> Callable:
    """``process_results`` of a prompt mode whose answers ``parse`` reads."""

    def process_results(doc: dict, results: list[str]) -> dict:
        return per_metric(make_record(doc, results[0] if results else None, parse), doc["switched"])

    return process_results
