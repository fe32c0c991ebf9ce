"""``--tasks tempvs``: each distinct question asked once across the suite (issue 28).

The paired, triple and all-events grounding files ask many of the same questions (the same event of
the same image strip in the same words). The suite's grounding task (spec.SUITE_GROUNDING_TASK)
asks each distinct grounding request once; its record of a question lists in ``serves`` every
grounding question it answers (test, question id, gold answer, image sequence). The suite's main
tasks (``tempvs_suite_*``, setting ``shared_grounding``) ask only their main questions and join the
grounding answers of the questions they need as if they had asked them: :func:`served_records`
turns the grounding task's record into the records the task's own grounding docs would have
logged, so every metric is computed by the same functions on the same records as in the task
that asks its grounding questions itself.

In a run, lmms-eval aggregates the tasks one by one, each from its own per-doc values: the grounding
task's first aggregation (:func:`asked_count`) keeps the gathered records, and each main task's
aggregations (``suite_<headline>``) add the served records of its grounding test before computing
(the group lists the grounding task first; lmms-eval aggregates in that order). The report reads
a run's records through :func:`with_served_grounding` (the report's ``records.task_records``).
"""

from collections import defaultdict
from typing import Callable, Dict, List, Optional, Sequence

from temporal_bench.tempvs import metrics
from temporal_bench.tempvs.extraction import is_correct
from temporal_bench.tempvs.docs import doc_key
from temporal_bench.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SUITE_GROUNDING_TASK, SUITE_MAIN_TASKS, TEST_NAMES

try:
    from loguru import logger as _log
except ImportError:  # pragma: no cover
    import logging

    _log = logging.getLogger(__name__)

# grounding test -> the served records of the last aggregated suite grounding task
_SERVED: Dict[str, List[Dict]] = {}


def is_suite_main(task: str) -> bool:
    return task.startswith("tempvs_") and task[len("tempvs_"):] in SUITE_MAIN_TASKS


def served_records(record: Dict) -> List[Dict]:
    """The records of the grounding questions a distinct question answers, each as the task asking
    it would have logged it: its own key, test, question id, sequence and gold answer, the shared
    response's parse judged against that gold."""
    shared = {key: value for key, value in record.items() if key != "serves"}
    return [{**shared, "key": doc_key(record["source"], GROUNDING_TESTS[test], question_id), "test": test, "question_id": question_id,
             "img_seq_id": img_seq_id, "gold": gold, "correct": is_correct(record["pred"], gold)}
            for test, question_id, gold, img_seq_id in record.get("serves") or ()]


def served_by_test(grounding_records: Sequence[Optional[Dict]]) -> Dict[str, List[Dict]]:
    """The suite grounding task's records expanded to every served question, per grounding test."""
    served = defaultdict(list)
    for record in metrics.unique_records(grounding_records):
        for question in served_records(record):
            served[question["test"]].append(question)
    return dict(served)


def grounding_test_of(records: Sequence[Optional[Dict]]) -> Optional[str]:
    """The grounding test the main questions among ``records`` join (any value a main doc logged
    carries its key, ``<source>/<test>/<question_id>``: docs.doc_key)."""
    test = next((r["key"].split("/")[1] for r in records if r is not None and r["kind"] == "main"), None)
    return TEST_NAMES[MAIN_TESTS[test].grounding_task_id] if test else None


def with_served_grounding(records: List[Optional[Dict]], served: Dict[str, List[Dict]]) -> List[Optional[Dict]]:
    """A suite main task's records (or one metric's values) with the served grounding records its
    main questions join (``served``: :func:`served_by_test`)."""
    test = grounding_test_of(records)
    return list(records) + (served.get(test, []) if test else [])


def joined_records(task: str, records: List[Optional[Dict]], records_of: Callable[[str], List[Optional[Dict]]]) -> List[Optional[Dict]]:
    """A task's logged records as its metrics saw them: a suite main task's with the served grounding
    records of the suite grounding task (read with ``records_of``), any other task's as they are."""
    if not is_suite_main(task):
        return records
    return with_served_grounding(records, served_by_test(records_of(SUITE_GROUNDING_TASK)))


def with_joined_tasks(names: Sequence[str], logged: Sequence[str]) -> List[str]:
    """Tasks to re-score in the order lmms-eval aggregated them: the suite grounding task first, and
    added when a suite main task is among ``names`` and the run logged it (``logged``)."""
    joins = any(is_suite_main(name) for name in names) and SUITE_GROUNDING_TASK in logged
    return [SUITE_GROUNDING_TASK] * joins + [name for name in names if not joins or name != SUITE_GROUNDING_TASK]


# ---- the aggregations of the suite's tasks (their YAMLs' metric_list) ----------------------------

def asked_count(records):
    """Distinct grounding questions asked; keeps their answers for the suite's main tasks."""
    _SERVED.clear()
    _SERVED.update(served_by_test(records))
    return len(metrics.unique_records(records))


def _joined(headline: Callable) -> Callable:
    def aggregate(values):
        if not _SERVED:
            _log.error(f"TempVS: {SUITE_GROUNDING_TASK} was not aggregated before this task, so its main questions have "
                       "no grounding answers (counted in gt_missing_count): run the suite as --tasks tempvs")
        return headline(with_served_grounding(values, _SERVED))

    aggregate.__name__ = f"suite_{headline.__name__}"
    aggregate.__doc__ = f"{headline.__name__} with the grounding answers of the suite grounding task."
    return aggregate


suite_gt_acc = _joined(metrics.gt_acc)
suite_gtstrict_rate = _joined(metrics.gtstrict_rate)
suite_mt_acc = _joined(metrics.mt_acc)
suite_mt_given_gtstrict = _joined(metrics.mt_given_gtstrict)
suite_invalid_rate = _joined(metrics.invalid_rate)
suite_failed_count = _joined(metrics.failed_count)

__all__ = ["asked_count", "suite_gt_acc", "suite_gtstrict_rate", "suite_mt_acc", "suite_mt_given_gtstrict",
           "suite_invalid_rate", "suite_failed_count"]
