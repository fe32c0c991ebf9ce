"""Per-doc records and the aggregations of TempVS's headline metrics, pooled over the data sources as the
official evaluation script pools them (micro average):

* ``gt_acc`` (paper: GT): share of the task's grounding questions answered correctly;
* ``gtstrict_rate`` (GT_strict): share of main questions whose grounding questions all passed;
* ``mt_acc`` (MT): main-question accuracy;
* ``mt_given_gtstrict`` (MT|GT_strict): MT among the GT_strict passes (None without passes);
* ``invalid_rate`` and ``failed_count`` (requests that failed or brought no response, scored as unanswered).

A task holding several main tests reports each test's metrics under its prefix (``mt2_mt_acc``; in the task
``tempvs``, which asks each distinct grounding question once for all six tests, ``mt2_event_mt_acc``), each
computed on that test's main questions and its grounding questions, so each equals the single test's task.

lmms-eval logs every metric value of a doc in its sample line: the first metric key carries the doc's whole
record, every other key only the fields its aggregation reads, or None for a doc it does not count. Each
aggregation joins main questions to their grounding questions by key, so neither doc order nor sharding
matters. A main question some of whose grounding partners were not evaluated (``--limit``) is left out of
GT_strict and MT|GT_strict; one whose grounding rows are absent from the data is judged on the rows found, as
officially (none found: a pass), unless the task's ``fixes`` hold ``missing_grounding``.
"""

from collections import defaultdict
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from loguru import logger as eval_logger

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.failed_requests import (
    is_failed_response,
    warn_failed,
)
from temporal_bench.lmms_eval_tasks.tempvs.extraction import UNK, extract, is_correct
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, TEST_NAMES, doc_key, task_kind

HEADLINE = ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict", "invalid_rate", "failed_count")
GROUNDING_HEADLINE = ("gt_acc", "invalid_rate", "failed_count")


def make_record(doc: Dict, response: Optional[str], family: str = "generic", fixes: FrozenSet[str] = frozenset()) -> Dict:
    """The doc's compact record. ``family``: the model's official extraction branch; ``response`` None: no
    response. ``partners`` (main questions): the grounding partners' question ids, None where the task asks
    no grounding question (blind, images only)."""
    kind = task_kind(doc["task_id"])
    failed = is_failed_response(response)
    parsed = UNK if failed else extract(response, kind, option_text=doc.get("option_text", ""), cot=doc.get("mode") == "cot", family=family, fixes=fixes)
    record = {"key": doc["doc_key"], "kind": doc["kind"], "test": TEST_NAMES[doc["task_id"]], "source": doc["source"], "img_seq_id": doc["img_seq_id"], "question_id": doc["question_id"], "mode": doc["mode"]}
    if doc["kind"] == "main":
        partners = list(doc["partners"]) if kind == "mt1" else len(doc["partners"])
        record.update(partners=None if doc["mode"] in ("blind", "images_only") else partners, unmatched=len(doc["partners"]) < doc["expected_partners"])
        if "missing_grounding" in fixes:
            record["missing_fails"] = True
        if kind == "mt1":
            record.update(statement_type=doc["statement_type"], event_distance=doc["event_distance"])
        if doc.get("filter_kept") is not None:
            record["filter_kept"] = doc["filter_kept"]
    if doc.get("serves"):  # a distinct grounding question of the task tempvs: the questions it answers
        record["serves"] = [list(served) for served in doc["serves"]]
    record.update(gold=doc["gt_option"], pred=parsed, correct=is_correct(parsed, doc["gt_option"]), failed=failed, task=doc.get("task", ""), main_limit=doc.get("main_limit", 0), data=doc.get("data", ""))
    return record


def served_records(record: Dict) -> List[Dict]:
    """The records of the grounding questions a distinct question answers, each as the task asking it would have
    logged it: its own key, test, question id, sequence and gold answer, the shared response judged against that gold."""
    shared = {key: value for key, value in record.items() if key != "serves"}
    return [
        {**shared, "key": doc_key(record["source"], test, question_id), "test": test, "question_id": question_id, "img_seq_id": img_seq_id, "gold": gold, "correct": is_correct(record["pred"], gold)}
        for test, question_id, gold, img_seq_id in record.get("serves") or ()
    ]


# ---- the join -----------------------------------------------------------------------------------


def unique_records(values: Sequence) -> List[Dict]:
    """One record per doc key (multi-process padding can repeat a doc), from values that are a record, a list of
    records (a grounding question answering several) or None (a doc the metric does not count)."""
    seen = {}
    for value in values:
        for record in value if isinstance(value, list) else [value]:
            if record is not None:
                seen.setdefault(record["key"], record)
    return list(seen.values())


def judge(records: Sequence) -> List[Dict]:
    """Each main record with ``partners`` as grounding keys ("" for one not evaluated), ``complete`` (grounding was
    asked and every partner evaluated), ``strict`` (GT_strict pass) and ``gt_passes`` (partners answered right)."""
    records = unique_records(records)
    grounding = {r["key"]: r for r in records if r["kind"] == "grounding"}
    by_sequence = defaultdict(list)
    for record in grounding.values():
        if "img_seq_id" in record:
            by_sequence[record["source"], record["img_seq_id"]].append(record["key"])
    judged = []
    for record in (r for r in records if r["kind"] == "main"):
        if record["partners"] is None:  # blind or images only: no grounding asked
            judged.append({**record, "partners": [], "complete": False, "strict": False, "gt_passes": 0})
            continue
        if isinstance(record["partners"], int):  # MT2/MT3: every grounding row of the sequence
            found = by_sequence[record["source"], record["img_seq_id"]]
            partners = found + [""] * (record["partners"] - len(found))
        else:
            partners = [doc_key(record["source"], MAIN_TESTS[record["test"]].grounding_test, question_id) for question_id in record["partners"]]
        present = [grounding[key] for key in partners if key in grounding]
        complete = len(present) == len(partners)
        strict = complete and all(r["correct"] for r in present) and not (record.get("missing_fails") and record["unmatched"])
        judged.append({**record, "partners": partners, "complete": complete, "strict": strict, "gt_passes": sum(r["correct"] for r in present)})
    return judged


def ratio(numerator: int, denominator: int) -> Optional[float]:
    return numerator / denominator if denominator else None


def accuracy(records: List[Dict]) -> Optional[float]:
    return ratio(sum(r["correct"] for r in records), len(records))


def complete_mains(records, source: Optional[str] = None) -> List[Dict]:
    return [r for r in judge(records) if r["complete"] and (source is None or r["source"] == source)]


# ---- the headline aggregations (metric_list) ----------------------------------------------------


def gt_acc(records):
    return accuracy([r for r in unique_records(records) if r["kind"] == "grounding"])


def gtstrict_rate(records):
    complete = complete_mains(records)
    return ratio(sum(r["strict"] for r in complete), len(complete))


def mt_acc(records):
    return accuracy([r for r in unique_records(records) if r["kind"] == "main"])


def mt_given_gtstrict(records):
    return accuracy([r for r in complete_mains(records) if r["strict"]])


def invalid_rate(records):
    """Share of evaluated questions (main and grounding) whose answer could not be parsed (UNK)."""
    records = unique_records(records)
    return ratio(sum(r["pred"] == UNK for r in records), len(records))


def failed_count(records):
    return sum(r["failed"] for r in unique_records(records))


def asked_count(records, args=None):
    """Distinct grounding questions asked (the task ``tempvs``, its first key: whole records, see :func:`gt_acc_first`)."""
    warn_incomplete(records, args)
    return sum(r["kind"] == "grounding" for r in unique_records(records))


def served_count(records):
    """Grounding questions of the grounding tests answered by the distinct questions asked (the task ``tempvs``)."""
    return sum(len(r.get("serves") or ()) for r in unique_records(records))


def warn_incomplete(records, args=None) -> None:
    """Warn (from whole records) about failed requests, about evaluated docs that ask no main question of a task
    that has some (a --limit before the first: the smallest limit that asks one is named), and about main
    questions without evaluated grounding partners."""
    records = unique_records(records)
    if not records or "main_limit" not in records[0]:
        return
    first = records[0]
    warn_failed(first["task"], sum(r["failed"] for r in records), len(records), args)
    if first["main_limit"] and not any(r["kind"] == "main" for r in records):
        eval_logger.warning(
            f"TempVS {first['task']}: no main question was asked: the {len(records)} evaluated docs are all grounding questions (the docs list "
            f"each image sequence's grounding questions before its main questions); --limit {first['main_limit']} is the smallest that asks one"
        )
    expanded = [r for record in records for r in (served_records(record) if record.get("serves") else [record])]
    missing = sum(r["partners"] is not None and not r["complete"] for r in judge(expanded))
    if missing:
        eval_logger.warning(f"TempVS {first['task']}: {missing} main question(s) lack evaluated grounding partners (e.g. --limit); they are left out of gtstrict_rate and mt_given_gtstrict")


def gt_acc_first(records, args=None):
    """``gt_acc`` of a task's first metric key, whose values are whole records: also warns (:func:`warn_incomplete`)."""
    warn_incomplete(records, args)
    return gt_acc(records)


# ---- each doc's value under the metric keys ------------------------------------------------------

_BASE = ("key", "kind")
# the fields each aggregation reads, per kind of record it counts
_FIELDS = {
    "gt_acc": {"grounding": _BASE + ("correct",)},
    "mt_acc": {"main": _BASE + ("correct",)},
    "gtstrict_rate": {"main": _BASE + ("test", "source", "img_seq_id", "partners", "unmatched", "missing_fails", "correct"), "grounding": _BASE + ("source", "img_seq_id", "correct")},
    "invalid_rate": {"main": _BASE + ("pred",), "grounding": _BASE + ("pred",)},
    "failed_count": {"main": _BASE + ("failed",), "grounding": _BASE + ("failed",)},
    "served_count": {"grounding": _BASE + ("serves",)},
}
_FIELDS["mt_given_gtstrict"] = _FIELDS["gtstrict_rate"]


def _fields(record: Dict, aggregation: str) -> Optional[Dict]:
    fields = _FIELDS.get(aggregation, {}).get(record["kind"])
    return {field: record[field] for field in fields if field in record} if fields else None


def metric_keys(tests: Tuple[str, ...], suite: bool = False) -> List[Tuple[str, str, Optional[str]]]:
    """``(metric key, aggregation, main test it scores or None)`` of a task holding ``tests``, in metric_list order."""
    if tests[0] not in MAIN_TESTS:
        return [(name, name, None) for name in GROUNDING_HEADLINE]
    if len(tests) == 1:
        return [(name, name, None) for name in HEADLINE]
    keys = [("asked_count", "asked_count", None), ("served_count", "served_count", None)] if suite else []
    return keys + [(f"{test if suite else test.split('_')[0]}_{name}", name, test) for test in tests for name in HEADLINE]


def values_of(record: Dict, tests: Tuple[str, ...], suite: bool = False) -> Dict:
    """The doc's value under each metric key of a task holding ``tests``: under the first key the whole record,
    under the others the fields their aggregation reads, None where it does not count the doc (another kind, or
    a main question of another test). In the task ``tempvs`` (``suite``) a grounding question's values under a
    test's keys are the records of the questions it answers for that test's grounding test."""
    values = {}
    for position, (name, aggregation, test) in enumerate(metric_keys(tests, suite)):
        if position == 0:
            values[name] = record
        elif suite and test is not None and record["kind"] == "grounding":
            served = [_fields(r, aggregation) for r in served_records(record) if r["test"] == MAIN_TESTS[test].grounding_test]
            served = [value for value in served if value is not None]
            values[name] = (served[0] if len(served) == 1 else served) or None
        elif test is None or record["kind"] == "grounding" or record["test"] == test:
            values[name] = _fields(record, aggregation)
        else:
            values[name] = None
    return values
