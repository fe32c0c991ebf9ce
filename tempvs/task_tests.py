"""Which TempVS tests a task holds, and each test's records and metrics out of a task holding two.

A task holding two main tests that share a grounding test (``tempvs_ordering_event``: MT2 and MT3)
reports each test's metrics under its prefix (``mt2_mt_acc``); a main task of ``--tasks tempvs``
(``tempvs_suite_mt1_two``) asks the questions of the task of the same test alone (``tempvs_mt1_two``).
The report, compare and the intervals read each test under its own task's name whichever task asked it.
"""

from typing import Dict, List, Tuple

from temporal_bench.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SHARED_GROUNDING_TASKS, SUITE_MAIN_TASKS


def metric_prefix(test: str) -> str:
    """``mt2`` for ``mt2_event``: the prefix of a test's metrics in a task holding two main tests."""
    return test.split("_")[0]


def standalone_task_name(task: str) -> str:
    """The name of the task that asks the same main questions alone: ``tempvs_mt1_two`` for
    ``--tasks tempvs``'s ``tempvs_suite_mt1_two`` (which reads its grounding answers from the suite
    grounding task), ``task`` itself for any other."""
    name = task[len("tempvs_") :]
    return f"tempvs_{name[len('suite_'):]}" if name in SUITE_MAIN_TASKS else task


def tests_in(task: str, records: List[Dict]) -> Tuple[str, ...]:
    """The tests a task holds: from its name (``tempvs_<test or shared task>[_variant]``), else
    from its records."""
    task = standalone_task_name(task)
    name = task[len("tempvs_") :] if task.startswith("tempvs_") else task
    for known, tests in sorted({**SHARED_GROUNDING_TASKS, **{t: (t,) for t in (*MAIN_TESTS, *GROUNDING_TESTS)}}.items(), key=lambda item: -len(item[0])):
        if name == known or name.startswith(known + "_"):
            return tests
    mains = tuple(dict.fromkeys(r["test"] for r in records if r["kind"] == "main"))
    return mains or tuple(dict.fromkeys(r["test"] for r in records))[:1]


def records_of_test(test: str, records: List[Dict]) -> List[Dict]:
    """The records of one test of a task holding two: its main questions and the shared grounding ones."""
    return [r for r in records if r["kind"] == "grounding" or r["test"] == test]


def per_test_records(task: str, records: List[Dict]) -> Dict[str, List[Dict]]:
    """``{task: records}``, or for a task holding two main tests each test's records under the
    test's own task name (as :func:`per_test_results` splits its metrics)."""
    task = standalone_task_name(task)
    name = task[len("tempvs_") :]
    if name not in SHARED_GROUNDING_TASKS:
        return {task: records}
    return {f"tempvs_{test}": records_of_test(test, records) for test in SHARED_GROUNDING_TASKS[name]}


def holding_tasks(task: str) -> List[str]:
    """The tasks of the suites that ask ``task``'s main test: in ``--tasks tempvs``
    (``tempvs_suite_mt1_two``, ``tempvs_suite_ordering_event`` for ``tempvs_mt2_event``) and in
    ``--tasks tempvs_protocol`` (``tempvs_ordering_event``, which asks MT2 and MT3 together)."""
    prefix, _, test = task.partition("_")
    if prefix != "tempvs" or test not in MAIN_TESTS:
        return []
    return [f"tempvs_{name}" for name, tests in {**SUITE_MAIN_TASKS, **SHARED_GROUNDING_TASKS}.items() if test in tests]


def per_test_results(task: str, entry: Dict) -> Dict[str, Dict]:
    """``{task: entry}``, or for a task holding two main tests their metrics as each test's own task
    reports them (``tempvs_ordering_event``'s ``mt2_mt_acc,none`` as ``tempvs_mt2_event``'s
    ``mt_acc,none``), so tables read each test under one name whichever task asked it (a
    ``--tasks tempvs`` task, ``tempvs_suite_*``, under its test's task name too)."""
    task = standalone_task_name(task)
    name = task[len("tempvs_") :]
    if name not in SHARED_GROUNDING_TASKS:
        return {task: entry}
    return {f"tempvs_{test}": {key[len(metric_prefix(test)) + 1 :]: value for key, value in entry.items() if key.startswith(metric_prefix(test) + "_")} for test in SHARED_GROUNDING_TASKS[name]}
