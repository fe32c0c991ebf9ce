"""The runs ``temporal-bench browse --examples`` picks its figures' questions from (tests/tooling/test_browse_examples.py):
TempVS ``tempvs_mt1_two`` answered by the oracle and by a script whose answers cycle right, wrong, invalid over the docs
(Figure 4), and CaT-Bench ``catbench_explain`` with scripted JSON answers and explanations (Figures 5-6)."""

import json

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from tests.recorded import recording
from tests.recorded.browse import OUTCOMES, tempvs_answer
from tests.tempvs_fixture_copies import write_tempvs

TEMPVS_TASK = "tempvs_mt1_two"
TEMPVS_RUNS = ("oracle", "cycling")  # the runs of browse_examples_tempvs, in order
CATBENCH_TASK = "catbench_explain"


def tempvs_docs(env):
    from tests.task_docs import task_docs

    return task_docs(TEMPVS_TASK, env["TEMPVS_DATA_DIR"])


def catbench_docs(env):
    from tests.task_docs import catbench_split

    return catbench_split("test", data_dir=env["CATBENCH_DATA_DIR"])


def explained_answer(doc, i):
    """Doc i: OUTCOMES[i % 3]; a wrong explanation names the step after the pair when i % 2 == 0 and
    that step exists (an irrelevant step), else one of the asked steps."""
    a, b = doc["step_a"] + 1, doc["step_b"] + 1
    outcome = OUTCOMES[i % 3]
    if outcome == "invalid":
        return "I cannot tell."
    gold = doc["answer"]
    if outcome == "right":
        return json.dumps({"binary_answer": gold, "why_answer": f"Step {b} needs what Step {a} makes."})
    other = b + 1 if i % 2 == 0 and b < len(doc["steps"]) else a
    return json.dumps({"binary_answer": "no" if gold == "yes" else "yes", "why_answer": f"It is about Step {other} only."})


@recording("browse_examples_tempvs", TEMPVS_DATA_DIR=write_tempvs)
def tempvs_two_models(recorder):
    """TempVS MT1 two-event on the same data, run by two models in turn (TEMPVS_RUNS): the oracle, every answer right,
    then a script whose answers cycle right, wrong, invalid."""
    recorder.lmms_eval([TEMPVS_TASK])
    script = recorder.script({f"{TEMPVS_TASK}/{i}": tempvs_answer(doc, OUTCOMES[i % 3]) for i, doc in enumerate(tempvs_docs(recorder.env))}, "answers")
    recorder.lmms_eval([TEMPVS_TASK], model_args=f"policy=script,script={script}")


@recording("browse_examples_catbench_explain", CATBENCH_DATA_DIR=write_catbench)
def catbench_explained(recorder):
    """CaT-Bench answer-and-explain, answers cycling right, wrong, invalid, some wrong explanations naming another step."""
    script = recorder.script({f"{CATBENCH_TASK}/{i}": explained_answer(doc, i) for i, doc in enumerate(catbench_docs(recorder.env))}, "answers")
    recorder.lmms_eval([CATBENCH_TASK], model_args=f"policy=script,script={script}")
