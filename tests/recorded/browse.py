"""The runs ``temporal-bench browse`` shows (tests/tooling/test_browse.py): TempVS, CaT-Bench and ISO-Bench on their
synthetic data with a scripted model whose answers cycle right, wrong, invalid over the docs (lmms-eval, and lm-eval
for CaT-Bench), and a CaT-Bench and a TempVS run in which every fourth request failed."""

from pathlib import Path

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench_fixture
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from tests.recorded import RecordedRun, recording
from tests.tempvs_fixture_copies import write_tempvs

TEMPVS = ["tempvs_mt1_two", "tempvs_mt3_event_separate"]
LMMS_TASKS = [*TEMPVS, "catbench_switched", "isobench"]
OUTCOMES = ("right", "wrong", "invalid")  # doc i gets OUTCOMES[i % 3]
FAILED_TEMPVS = "tempvs_mt1_two"  # the task of browse_failed_tempvs
FAILURE = "[LMMS_EVAL_REQUEST_FAILED after 5 retries] Error code: 400 - {'error': {'message': 'No such model'}}"


def write_isobench(root: Path) -> Path:
    return write_isobench_fixture(root, "hf")


def tempvs_answer(doc, outcome):
    wrong = next(c for c in doc["choices"] if c != doc["answer"])
    answer = {"right": doc["answer"], "wrong": wrong}.get(outcome)
    if answer is None:
        return "I cannot tell."
    return answer if doc["kind"] == "main" else f"Image {answer}"


def yes_no_answer(doc, outcome):
    gold = doc["answer"].lower()
    return {"right": gold, "wrong": "no" if gold == "yes" else "yes"}.get(outcome, "I cannot tell.").capitalize()


def catbench_switched_docs(env: dict[str, str]) -> list[dict]:
    from tests.task_docs import catbench_split

    return with_switched_twins(catbench_split("test", data_dir=env["CATBENCH_DATA_DIR"]))


def task_docs(env: dict[str, str]) -> dict[str, list[dict]]:
    """Each task's docs in doc_id order, as the run sees them, from the data folders in ``env``."""
    from tests.task_docs import isobench_records
    from tests.task_docs import task_docs as tempvs_docs

    found = {task: tempvs_docs(task, env["TEMPVS_DATA_DIR"]) for task in TEMPVS}
    found["catbench_switched"] = catbench_switched_docs(env)
    found["isobench"] = isobench_records(env["ISOBENCH_DATA_DIR"])
    return found


def docs_as_run(run: RecordedRun) -> dict[str, list[dict]]:
    """:func:`task_docs` of a recorded run, the embedded ISO-Bench images written again where the run wrote them, in its
    own datasets cache (tests/harness.py), which its samples name and a recording does not keep."""
    import datasets

    kept = datasets.config.HF_DATASETS_CACHE
    datasets.config.HF_DATASETS_CACHE = str(run.out / "hf_datasets_cache")
    try:
        return task_docs(run.env)
    finally:
        datasets.config.HF_DATASETS_CACHE = kept


def cycling_answers(docs: dict[str, list[dict]]) -> dict[str, str]:
    """The script's answers: doc i of each task answered ``OUTCOMES[i % 3]``."""
    entries = {}
    for task, docs_of_task in docs.items():
        answer = tempvs_answer if task in TEMPVS else yes_no_answer
        entries.update({f"{task}/{i}": answer(doc, OUTCOMES[i % 3]) for i, doc in enumerate(docs_of_task)})
    return entries


@recording("browse_cycling", TEMPVS_DATA_DIR=write_tempvs, CATBENCH_DATA_DIR=write_catbench, ISOBENCH_DATA_DIR=write_isobench)
def cycling(recorder):
    """The four tasks in one lmms-eval run, the answers cycling right, wrong, invalid."""
    script = recorder.script(cycling_answers(task_docs(recorder.env)), "answers")
    recorder.lmms_eval(LMMS_TASKS, model_args=f"policy=script,script={script}")


@recording("browse_catbench_lm_eval", CATBENCH_DATA_DIR=write_catbench)
def catbench_lm_eval(recorder):
    """CaT-Bench (switched) through lm-eval, the answers cycling right, wrong, invalid."""
    script = recorder.script(cycling_answers({"catbench_switched": catbench_switched_docs(recorder.env)}), "answers")
    recorder.lm_eval(["catbench_switched"], f"policy=script,script={script}")


@recording("browse_failed_requests", CATBENCH_DATA_DIR=write_catbench)
def failed_requests(recorder):
    """CaT-Bench (switched): every fourth request failed (lmms-eval's failure text), the others answered right."""
    docs = catbench_switched_docs(recorder.env)
    script = recorder.script({f"catbench_switched/{i}": FAILURE if i % 4 == 0 else yes_no_answer(doc, "right") for i, doc in enumerate(docs)}, "answers")
    recorder.lmms_eval(["catbench_switched"], model_args=f"policy=script,script={script}")


@recording("browse_failed_tempvs", TEMPVS_DATA_DIR=write_tempvs)
def failed_tempvs(recorder):
    """TempVS MT1 two-event: every fourth request failed (lmms-eval's failure text, which TempVS's parser reads as no
    answer, UNK), the others answered right."""
    from tests.task_docs import task_docs as tempvs_docs

    docs = tempvs_docs(FAILED_TEMPVS, recorder.env["TEMPVS_DATA_DIR"])
    script = recorder.script({f"{FAILED_TEMPVS}/{i}": FAILURE if i % 4 == 0 else tempvs_answer(doc, "right") for i, doc in enumerate(docs)}, "answers")
    recorder.lmms_eval([FAILED_TEMPVS], model_args=f"policy=script,script={script}")
