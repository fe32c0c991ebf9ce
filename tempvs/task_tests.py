"""Which TempVS tests a task holds, and each test's records and metrics out of a task holding several.

``tempvs_ordering_event`` holds MT2 and MT3 of one text kind (sharing their grounding questions) and reports
each test's metrics under its prefix (``mt2_mt_acc``); ``tempvs`` holds all six main tests and asks each
distinct grounding question once for them (``mt1_two_mt_acc``; a grounding record lists in ``serves`` the
questions it answers). The report, compare and the intervals read each test under its own task's name
(``tempvs_mt2_event``) whichever task asked it.
"""

from temporal_bench.lmms_eval_tasks.plugin.tempvs.records import served_records
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS

SUITE_TASK = "tempvs"
SHARED_GROUNDING_TASKS = {"ordering_event": ("mt2_event", "mt3_event"), "ordering_caption": ("mt2_caption", "mt3_caption")}


def held_tests(task: str) -> tuple[str, ...]:
    """The main tests of a task holding several, else ()."""
    if task == SUITE_TASK:
        return tuple(MAIN_TESTS)
    return SHARED_GROUNDING_TASKS.get(task[len("tempvs_") :], ()) if task.startswith("tempvs_") else ()


def metric_prefix(task: str, test: str) -> str:
    """The prefix of a test's metrics in a task holding several: ``mt2`` in ``tempvs_ordering_event``, the test in ``tempvs``."""
    return test if task == SUITE_TASK else test.split("_")[0]


def tests_in(task: str, records: list[dict]) -> tuple[str, ...]:
    """The tests a task holds: from its name (``tempvs_<test or shared task>[_variant]``), else from its records."""
    if held_tests(task):
        return held_tests(task)
    name = task[len("tempvs_") :] if task.startswith("tempvs_") else task
    for known in sorted((*MAIN_TESTS, *GROUNDING_TESTS), key=len, reverse=True):
        if name == known or name.startswith(known + "_"):
            return (known,)
    mains = tuple(dict.fromkeys(r["test"] for r in records if r["kind"] == "main"))
    return mains or tuple(dict.fromkeys(r["test"] for r in records))[:1]


def records_of_test(test: str, records: list[dict]) -> list[dict]:
    """The records of one main test of a task holding several: its main questions and its grounding test's
    questions (a distinct grounding question of ``tempvs`` as the questions it answers)."""
    wanted = (test, MAIN_TESTS[test].grounding_test)
    found = []
    for record in records:
        if record.get("serves"):
            if any(served[0] in wanted for served in record["serves"]):  # expanded only where it answers this test
                found += [r for r in served_records(record) if r["test"] in wanted]
        elif record["test"] in wanted:
            found.append(record)
    return found


def per_test_records(task: str, records: list[dict]) -> dict[str, list[dict]]:
    """``{task: records}``, or for a task holding several main tests each test's records under the test's own task
    name (as :func:`per_test_results` splits its metrics)."""
    if not held_tests(task):
        return {task: records}
    return {f"tempvs_{test}": records_of_test(test, records) for test in held_tests(task)}


def holding_tasks(task: str) -> list[str]:
    """The tasks holding several tests that ask ``task``'s main test: ``tempvs`` and, for MT2 and MT3, the ordering task."""
    test = task[len("tempvs_") :] if task.startswith("tempvs_") else ""
    if test not in MAIN_TESTS:
        return []
    return [SUITE_TASK] + [f"tempvs_{name}" for name, tests in SHARED_GROUNDING_TASKS.items() if test in tests]


def per_test_results(task: str, entry: dict) -> dict[str, dict]:
    """``{task: entry}``, or for a task holding several main tests their metrics as each test's own task reports them
    (``tempvs_ordering_event``'s ``mt2_mt_acc,none`` as ``tempvs_mt2_event``'s ``mt_acc,none``), so that tables read
    each test under one name whichever task asked it."""
    if not held_tests(task):
        return {task: entry}
    split = {}
    for test in held_tests(task):
        prefix = metric_prefix(task, test) + "_"
        split[f"tempvs_{test}"] = {**{key[len(prefix) :]: value for key, value in entry.items() if key.startswith(prefix)}}
    return split
