"""The per-doc records of this package's TempVS tasks and their values under each metric key: the upstream record
(lmms_eval_tasks/tempvs/metrics.py) parsed with the task's mode and fixes, with what the report reads besides
(``unmatched``, MT1's ``statement_type`` and ``event_distance``), for the tasks holding one test as upstream and
for those holding several: ``tempvs`` (every main test, each distinct grounding question asked once: a grounding
record lists in ``serves`` the questions it answers, and its values under a test's keys are the records of those),
the MT2/MT3 pairs (each test's metrics under its prefix, ``mt2_mt_acc``) and the grounding tests alone."""

from collections.abc import Callable, Sequence

from temporal_bench.lmms_eval_tasks.tempvs.extraction import is_correct
from temporal_bench.lmms_eval_tasks.tempvs.metrics import HEADLINE, fields_read, judged_under, record_keys, values_of
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, doc_key, task_kind

Parse = Callable[[dict, str, str], str]  # (doc, response, family) -> the parsed answer


def make_record(doc: dict, response: str | None, parse: Parse, families: Sequence[str]) -> dict:
    """The upstream record of the doc's answer as ``parse`` reads it under each of ``families`` (the first the record's
    own), with ``unmatched`` (a main question whose grounding rows the data lacks in part), MT1's statement type and
    event distance, and a distinct grounding question's ``serves``."""
    response = "" if response is None else response
    pred = parse(doc, response, families[0])
    record = record_keys(doc)
    if doc["kind"] == "main":
        record["unmatched"] = len(doc["partners"]) < doc["expected_partners"]
        if task_kind(doc["task_id"]) == "mt1":
            record.update(statement_type=doc["statement_type"], event_distance=doc["event_distance"])
    if doc.get("serves"):
        record["serves"] = [list(served) for served in doc["serves"]]
    by_family = {family: parsed for family in families[1:] if (parsed := parse(doc, response, family)) != pred}
    return {**record, "gold": doc["gt_option"], "pred": pred, "correct": is_correct(pred, doc["gt_option"]), **({"by_family": by_family} if by_family else {})}


def served_records(record: dict) -> list[dict]:
    """The records of the grounding questions a distinct question answers, each as the task asking it would have
    logged it: its own key, test, question id, sequence and gold answer, the shared response judged against that gold."""
    shared = {key: value for key, value in record.items() if key not in ("serves", "correct_by_family")}
    return [
        {**shared, "key": doc_key(record["source"], test, question_id), "test": test, "question_id": question_id, "img_seq_id": img_seq_id, "gold": gold, **judged_under({**record, "gold": gold})}
        for test, question_id, gold, img_seq_id in record.get("serves") or ()
    ]


def metric_keys(tests: tuple[str, ...], suite: bool = False) -> list[tuple[str, str, str | None]]:
    """``(metric key, aggregation, main test it scores or None)`` of a task holding ``tests``, in metric_list order."""
    if tests[0] not in MAIN_TESTS:
        return [("gt_acc", "gt_acc", None)]
    if len(tests) == 1:
        return [(name, name, None) for name in HEADLINE]
    keys = [("asked_count", "asked_count", None)] if suite else []  # the whole records (its other keys: served ones)
    return keys + [(f"{test if suite else test.split('_')[0]}_{name}", name, test) for test in tests for name in HEADLINE]


def task_values(record: dict, tests: tuple[str, ...], suite: bool = False) -> dict:
    """The doc's value under each metric key of a task holding ``tests``: upstream's for one main test; else under the
    first key the whole record (with ``correct_by_family``), under the others the fields their aggregation reads, None
    where it does not count the doc (another kind, or a main question of another test). In the task ``tempvs``
    (``suite``) a grounding question's values under a test's keys are the records of the questions it answers for
    that test's grounding test."""
    if len(tests) == 1 and tests[0] in MAIN_TESTS:
        return values_of(record)
    record = {**record, **judged_under(record)}
    values: dict[str, dict | list[dict] | None] = {}
    for position, (name, aggregation, test) in enumerate(metric_keys(tests, suite)):
        if position == 0:
            values[name] = record
        elif suite and test is not None and record["kind"] == "grounding":
            read = [fields_read(r, aggregation) for r in served_records(record) if r["test"] == MAIN_TESTS[test].grounding_test]
            served = [value for value in read if value is not None]
            values[name] = (served[0] if len(served) == 1 else served) or None
        elif test is None or record["kind"] == "grounding" or record["test"] == test:
            values[name] = fields_read(record, aggregation)
        else:
            values[name] = None
    return values
