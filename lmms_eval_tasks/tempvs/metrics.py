"""Per-doc records and the aggregations of TempVS's headline metrics, pooled over the data sources as the official
evaluation script pools them (micro average):

* ``gt_acc`` (paper: GT): share of the task's grounding questions answered correctly;
* ``gtstrict_rate`` (GT_strict): share of main questions whose grounding questions all passed;
* ``mt_acc`` (MT): main-question accuracy;
* ``mt_given_gtstrict`` (MT|GT_strict): MT among the GT_strict passes (None without passes).

The answer is parsed by the branch of the official evaluation that the model's name picks (extraction.py
:func:`family_of`); lmms-eval hands the command line (``--model``, ``--model_args``) to the aggregations only, so a
record holds the generic branch's answer and, where another branch parses otherwise, that one's too
(``by_family``), and each aggregation judges the records under the run's branch.

The task ``tempvs`` asks each distinct grounding question once for all six main tests and reports each test's
metrics under its name (``mt2_event_mt_acc``), each computed on that test's main questions and its grounding
questions, so each equals the single test's task; ``asked_count`` counts the questions it asked.

lmms-eval logs every metric value of a doc in its sample line: the first metric key carries the doc's whole
record, every other key only the fields its aggregation reads, or None for a doc it does not count. Each
aggregation joins main questions to their grounding questions by key, so neither doc order nor sharding matters.
A main question some of whose grounding partners were not evaluated (``--limit``) is left out of GT_strict and
MT|GT_strict; one whose grounding rows are absent from the data is judged on the rows found, as officially (none
found: a pass).
"""

from collections import defaultdict
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from temporal_bench.lmms_eval_tasks.tempvs.extraction import (
    FAMILIES,
    family_of,
    is_correct,
    official_extract,
)
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, TEST_NAMES, doc_key, task_kind

HEADLINE = ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict")
GROUNDING_HEADLINE = ("gt_acc",)
Parse = Callable[[Dict, str, str], str]  # (doc, response, family) -> the parsed answer


def official_parse(doc: Dict, response: str, family: str) -> str:
    return official_extract(response, task_kind(doc["task_id"]), family)


def make_record(doc: Dict, response: Optional[str], parse: Parse = official_parse, families: Sequence[str] = FAMILIES) -> Dict:
    """The doc's compact record: its keys, ``gold``, the generic branch's ``pred`` and ``correct``, and in ``by_family``
    the answer of each other branch that parses otherwise. ``partners`` (main questions): the grounding partners'
    question ids (MT1) or their count (ordering: every grounding question of the sequence)."""
    response = "" if response is None else response
    pred = parse(doc, response, "generic")
    record = {"key": doc["doc_key"], "kind": doc["kind"], "test": TEST_NAMES[doc["task_id"]], "source": doc["source"], "img_seq_id": doc["img_seq_id"], "question_id": doc["question_id"]}
    if doc["kind"] == "main":
        record.update(partners=list(doc["partners"]) if task_kind(doc["task_id"]) == "mt1" else len(doc["partners"]), unmatched=len(doc["partners"]) < doc["expected_partners"])
        if task_kind(doc["task_id"]) == "mt1":
            record.update(statement_type=doc["statement_type"], event_distance=doc["event_distance"])
    if doc.get("serves"):  # a distinct grounding question of the task tempvs: the questions it answers
        record["serves"] = [list(served) for served in doc["serves"]]
    by_family = {family: parsed for family in families[1:] if (parsed := parse(doc, response, family)) != pred}
    return {**record, "gold": doc["gt_option"], "pred": pred, "correct": is_correct(pred, doc["gt_option"]), **({"by_family": by_family} if by_family else {})}


def judged_under(record: Dict, gold: Optional[str] = None) -> Dict:
    """``correct`` (and ``correct_by_family`` where a branch judges otherwise) of a record against ``gold`` (its own)."""
    gold = record["gold"] if gold is None else gold
    correct = is_correct(record["pred"], gold)
    differs = {family: right for family, pred in record.get("by_family", {}).items() if (right := is_correct(pred, gold)) != correct}
    return {"correct": correct, **({"correct_by_family": differs} if differs else {})}


def served_records(record: Dict) -> List[Dict]:
    """The records of the grounding questions a distinct question answers, each as the task asking it would have
    logged it: its own key, test, question id, sequence and gold answer, the shared response judged against that gold."""
    shared = {key: value for key, value in record.items() if key not in ("serves", "correct_by_family")}
    return [
        {**shared, "key": doc_key(record["source"], test, question_id), "test": test, "question_id": question_id, "img_seq_id": img_seq_id, "gold": gold, **judged_under(record, gold)}
        for test, question_id, gold, img_seq_id in record.get("serves") or ()
    ]


# ---- the join -----------------------------------------------------------------------------------


def run_family(args) -> str:
    """The official branch of the run's model (the generic one without a command line: the Python API)."""
    return family_of(f"{getattr(args, 'model', '')} {getattr(args, 'model_args', '')}") if args is not None else "generic"


def unique_records(values: Sequence, family: str = "generic") -> List[Dict]:
    """One record per doc key (multi-process padding can repeat a doc), from values that are a record, a list of
    records (a grounding question answering several) or None (a doc the metric does not count), each judged under
    the branch ``family``."""
    seen = {}
    for value in values:
        for record in value if isinstance(value, list) else [value]:
            if record is not None and record["key"] not in seen:
                seen[record["key"]] = {**record, "correct": record.get("correct_by_family", {}).get(family, record["correct"])}
    return list(seen.values())


def judge(records: Sequence[Dict]) -> List[Dict]:
    """Each main record with ``partners`` as grounding keys ("" for one not evaluated), ``complete`` (every partner
    evaluated), ``strict`` (GT_strict pass) and ``gt_passes`` (partners answered right)."""
    grounding = {r["key"]: r for r in records if r["kind"] == "grounding"}
    by_sequence = defaultdict(list)
    for record in grounding.values():
        by_sequence[record["source"], record["img_seq_id"]].append(record["key"])
    judged = []
    for record in (r for r in records if r["kind"] == "main"):
        if isinstance(record["partners"], int):  # MT2/MT3: every grounding row of the sequence
            found = by_sequence[record["source"], record["img_seq_id"]]
            partners = found + [""] * (record["partners"] - len(found))
        else:
            partners = [doc_key(record["source"], MAIN_TESTS[record["test"]].grounding_test, question_id) for question_id in record["partners"]]
        present = [grounding[key] for key in partners if key in grounding]
        complete = len(present) == len(partners)
        judged.append({**record, "partners": partners, "complete": complete, "strict": complete and all(r["correct"] for r in present), "gt_passes": sum(r["correct"] for r in present)})
    return judged


def ratio(numerator: int, denominator: int) -> Optional[float]:
    return numerator / denominator if denominator else None


def accuracy(records: List[Dict]) -> Optional[float]:
    return ratio(sum(r["correct"] for r in records), len(records))


def complete_mains(records: Sequence[Dict]) -> List[Dict]:
    return [r for r in judge(records) if r["complete"]]


# ---- the headline aggregations (metric_list) ----------------------------------------------------


def gt_acc(values, args=None):
    return accuracy([r for r in unique_records(values, run_family(args)) if r["kind"] == "grounding"])


def gtstrict_rate(values, args=None):
    complete = complete_mains(unique_records(values, run_family(args)))
    return ratio(sum(r["strict"] for r in complete), len(complete))


def mt_acc(values, args=None):
    return accuracy([r for r in unique_records(values, run_family(args)) if r["kind"] == "main"])


def mt_given_gtstrict(values, args=None):
    return accuracy([r for r in complete_mains(unique_records(values, run_family(args))) if r["strict"]])


def asked_count(values):
    """The distinct grounding questions the task ``tempvs`` asked (each once for all six main tests)."""
    return sum(r["kind"] == "grounding" for r in unique_records(values))


# ---- each doc's value under the metric keys ------------------------------------------------------

_BASE = ("key", "kind", "correct", "correct_by_family")
_JOINED = {"main": _BASE + ("test", "source", "img_seq_id", "partners"), "grounding": _BASE + ("source", "img_seq_id")}
_FIELDS = {"gt_acc": {"grounding": _BASE}, "mt_acc": {"main": _BASE}, "gtstrict_rate": _JOINED, "mt_given_gtstrict": _JOINED}


def _fields(record: Dict, aggregation: str) -> Optional[Dict]:
    fields = _FIELDS[aggregation].get(record["kind"])
    return {field: record[field] for field in fields if field in record} if fields else None


def metric_keys(tests: Tuple[str, ...], suite: bool = False) -> List[Tuple[str, str, Optional[str]]]:
    """``(metric key, aggregation, main test it scores or None)`` of a task holding ``tests``, in metric_list order."""
    if tests[0] not in MAIN_TESTS:
        return [(name, name, None) for name in GROUNDING_HEADLINE]
    if len(tests) == 1:
        return [(name, name, None) for name in HEADLINE]
    keys = [("asked_count", "asked_count", None)] if suite else []  # the whole records (its other keys: served ones)
    return keys + [(f"{test if suite else test.split('_')[0]}_{name}", name, test) for test in tests for name in HEADLINE]


def values_of(record: Dict, tests: Tuple[str, ...], suite: bool = False) -> Dict:
    """The doc's value under each metric key of a task holding ``tests``: under the first key the whole record (with
    ``correct_by_family``), under the others the fields their aggregation reads, None where it does not count the doc
    (another kind, or a main question of another test). In the task ``tempvs`` (``suite``) a grounding question's
    values under a test's keys are the records of the questions it answers for that test's grounding test."""
    record = {**record, **judged_under(record)}
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
