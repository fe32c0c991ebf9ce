"""The docs of this package's TempVS tasks that hold other than one main test (upstream's, lmms_eval_tasks/tempvs/docs.py):
a grounding test alone, the MT2/MT3 pairs and ``tempvs``, which asks each distinct grounding question once for all six
main tests (``serves``: the questions it answers). Docs are ordered as upstream orders them: per source, per image
sequence, grounding before main questions."""

from collections.abc import Sequence

from temporal_bench.lmms_eval_tasks.tempvs.docs import BLIND_DROP_THRESHOLD, by_sequence
from temporal_bench.lmms_eval_tasks.tempvs.docs import task_docs as upstream_task_docs
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES


def _distinct(grounding: list[dict]) -> list[dict]:
    """One doc per distinct grounding request (prompt text and image) of a source: the paired, triple and all-events
    files ask many of the same questions. Each lists in ``serves`` the questions it answers, as ``[test, question_id,
    gt_option, img_seq_id]``."""
    asked: dict[tuple, dict] = {}
    for row in grounding:
        asked.setdefault((row["prompt"], row["image"]), {**row, "serves": []})["serves"].append([row["test"], row["question_id"], row["gt_option"], row["img_seq_id"]])
    return list(asked.values())


def task_docs(rows: list[dict], tests: Sequence[str], suite: bool) -> list[dict]:
    """The docs of a task holding ``tests`` (main tests, or one grounding test) from the question rows."""
    if tests[0] in GROUNDING_TESTS:
        return [row for row in rows if row["test"] == tests[0]]
    if len(tests) == 1:
        return upstream_task_docs(rows, tests[0])
    grounding_tests = list(dict.fromkeys(MAIN_TESTS[test].grounding_test for test in tests))
    docs = []
    for source in SOURCES:
        main = [row for test in tests for row in rows if row["source"] == source and row["test"] == test and row["blind_correct"] < BLIND_DROP_THRESHOLD]
        grounding = [row for test in grounding_tests for row in rows if row["source"] == source and row["test"] == test]
        docs += by_sequence(main, _distinct(grounding) if suite else grounding)
    return docs
