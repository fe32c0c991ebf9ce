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

lmms-eval logs every metric value of a doc in its sample line: the first metric key carries the doc's whole
record, every other key only the fields its aggregation reads, or None for a doc it does not count. Each
aggregation joins main questions to their grounding questions by key, so neither doc order nor sharding matters.
A main question some of whose grounding partners were not evaluated (``--limit``) is left out of GT_strict and
MT|GT_strict; one whose grounding rows are absent from the data is judged on the rows found, as officially (none
found: a pass).
"""

from collections import defaultdict
from collections.abc import Sequence

from temporal_bench.lmms_eval_tasks.tempvs.extraction import (
    FAMILIES,
    family_of,
    is_correct,
    official_extract,
)
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, TEST_NAMES, doc_key, task_kind

HEADLINE = ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict")


def record_keys(doc: dict) -> dict:
    """What identifies the doc's question in its record and joins it: its keys and, for a main question, ``partners``:
    its grounding partners' question ids (MT1) or their count (ordering: every grounding question of the sequence)."""
    record = {"key": doc["doc_key"], "kind": doc["kind"], "test": TEST_NAMES[doc["task_id"]], "source": doc["source"], "img_seq_id": doc["img_seq_id"], "question_id": doc["question_id"]}
    if doc["kind"] == "main":
        record["partners"] = list(doc["partners"]) if task_kind(doc["task_id"]) == "mt1" else len(doc["partners"])
    return record


def make_record(doc: dict, response: str | None) -> dict:
    """The doc's compact record: :func:`record_keys`, ``gold``, the generic branch's ``pred`` and ``correct``, and in
    ``by_family`` the answer of each other branch that parses otherwise."""
    response, kind = "" if response is None else response, task_kind(doc["task_id"])
    pred = official_extract(response, kind)
    by_family = {family: parsed for family in FAMILIES[1:] if (parsed := official_extract(response, kind, family)) != pred}
    return {**record_keys(doc), "gold": doc["gt_option"], "pred": pred, "correct": is_correct(pred, doc["gt_option"]), **({"by_family": by_family} if by_family else {})}


def judged_under(record: dict) -> dict:
    """``correct`` (and ``correct_by_family`` where a branch judges otherwise) of a record against its gold answer."""
    correct = is_correct(record["pred"], record["gold"])
    differs = {family: right for family, pred in record.get("by_family", {}).items() if (right := is_correct(pred, record["gold"])) != correct}
    return {"correct": correct, **({"correct_by_family": differs} if differs else {})}


# ---- the join -----------------------------------------------------------------------------------


def run_family(args) -> str:
    """The official branch of the run's model (the generic one without a command line: the Python API)."""
    return family_of(f"{getattr(args, 'model', '')} {getattr(args, 'model_args', '')}") if args is not None else "generic"


def unique_records(values: Sequence, family: str = "generic") -> list[dict]:
    """One record per doc key (multi-process padding can repeat a doc), from values that are a record or None (a doc
    the metric does not count), each judged under the branch ``family``."""
    seen = {}
    for record in values:
        if record is not None and record["key"] not in seen:
            seen[record["key"]] = {**record, "correct": record.get("correct_by_family", {}).get(family, record["correct"])}
    return list(seen.values())


def judge(records: Sequence[dict]) -> list[dict]:
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


def ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def accuracy(records: list[dict]) -> float | None:
    return ratio(sum(r["correct"] for r in records), len(records))


def complete_mains(records: Sequence[dict]) -> list[dict]:
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


# ---- each doc's value under the metric keys ------------------------------------------------------

_BASE = ("key", "kind", "correct", "correct_by_family")
_JOINED = {"main": _BASE + ("test", "source", "img_seq_id", "partners"), "grounding": _BASE + ("source", "img_seq_id")}
_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {"gt_acc": {"grounding": _BASE}, "mt_acc": {"main": _BASE}, "gtstrict_rate": _JOINED, "mt_given_gtstrict": _JOINED}


def fields_read(record: dict, aggregation: str) -> dict | None:
    """The fields of ``record`` that ``aggregation`` reads; None where it does not count the record."""
    fields = _FIELDS[aggregation].get(record["kind"])
    return {field: record[field] for field in fields if field in record} if fields else None


def values_of(record: dict) -> dict:
    """The doc's value under each headline key: under the first the whole record (with ``correct_by_family``), under
    the others the fields their aggregation reads, None where it does not count the doc."""
    record = {**record, **judged_under(record)}
    return {name: record if position == 0 else fields_read(record, name) for position, name in enumerate(HEADLINE)}
