"""The runs the confidence intervals are checked on: one lmms-eval run of TempVS, CaT-Bench and ISO-Bench and one
lm-eval run of CaT-Bench on the same data, with a scripted model mixing right, wrong and unparseable answers
(tests/tooling/test_intervals.py)."""

import functools
import random

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from tests.recorded import recording
from tests.tempvs_fixture_copies import write_tempvs

LMMS_TASKS = ["tempvs_mt1_two", "catbench_switched", "isobench"]
LM_EVAL_TASKS = ["catbench_switched"]
CATBENCH_PLANS = 5


def tempvs_response(doc):
    pick = random.Random(doc["doc_key"]).choice
    gold = doc["answer"]
    wrong = next(c for c in doc["choices"] if c != gold)
    if doc["kind"] == "main":
        return pick([gold, gold, wrong, "I cannot tell."])
    return pick([f"Image {gold}"] * 4 + [f"Image {wrong}", "I cannot tell."])


def yes_no_response(index, gold):
    return ["Yes", "No", "I cannot tell.", "Yes" if gold == "yes" else "No", "No"][index % 5]


def answers(env) -> dict:
    """The scripted answers to every doc of the tasks (right, wrong and unparseable ones), built from the data."""
    from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
    from tests.task_docs import catbench_split, isobench_records, task_docs

    tempvs_docs = task_docs("tempvs_mt1_two", env["TEMPVS_DATA_DIR"])
    catbench_docs = with_switched_twins(catbench_split("test", data_dir=env["CATBENCH_DATA_DIR"]))
    entries = {f"tempvs_mt1_two/{i}": tempvs_response(d) for i, d in enumerate(tempvs_docs)}
    entries.update({f"catbench_switched/{i}": yes_no_response(i, d["answer"]) for i, d in enumerate(catbench_docs)})
    entries.update({f"isobench/{i}": yes_no_response(i + 1, d["answer"]) for i, d in enumerate(isobench_records(env["ISOBENCH_DATA_DIR"]))})
    return entries


@recording(
    "intervals",
    TEMPVS_DATA_DIR=functools.partial(write_tempvs, n_sequences=8),
    CATBENCH_DATA_DIR=functools.partial(write_catbench, n_plans=CATBENCH_PLANS),
    ISOBENCH_DATA_DIR=functools.partial(write_isobench, layout="json", n=40),
)
def intervals(recorder):
    """The scripted answers (scripts/answers.json) through lmms-eval (out/lmms_eval) and lm-eval (out/lm_eval)."""
    script = recorder.script(answers(recorder.env), "answers")
    recorder.lmms_eval(LMMS_TASKS, model_args=f"policy=script,script={script}", into="lmms_eval")
    recorder.lm_eval(LM_EVAL_TASKS, f"policy=script,script={script}", into="lm_eval")
