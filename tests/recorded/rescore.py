"""The runs ``temporal-bench rescore`` scores again (tests/e2e/test_rescore_runs.py, tests/tooling/test_rescore.py): one
lmms-eval run of TempVS, CaT-Bench (with self-consistency) and ISO-Bench and one lm-eval run of CaT-Bench, with a
scripted model mixing right, wrong, unparseable and think-tagged answers; the fresh runs of the same answers under the
settings a re-score changes (tests/rescore_support/settings/, sources/); the probe task folder's run."""

import json
import random
import shutil
from pathlib import Path

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from tests.paths import TESTS
from tests.recorded import recording
from tests.task_docs import catbench_split, isobench_records, task_docs
from tests.tempvs_fixture_copies import write_tempvs

LMMS_TASKS = ["tempvs_mt1_two", "catbench_switched", "catbench_sc", "isobench", "isobench_cot"]
LM_EVAL_TASKS = ["catbench_switched", "catbench_sc"]
RIGHT, WRONG, UNPARSED = "right", "wrong", "unparsed"
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five"]
SC_SAMPLES = [["Yes", "No", "Yes"], ["No", "I cannot tell.", "No"], ["Yes", "No", "Unsure."], ["Unsure.", "Unclear.", "Hmm."], ["No", "Yes", "Yes"]]
COT_ANSWERS = ["<think>NO</think><answer>YES</answer>", "<answer>NO</answer>", "<answer>YES", "<think>It is YES.</think>", "<answer>{gold}</answer>"]
SUPPORT = TESTS / "rescore_support"
PROBE_TASKS = ["rescore_probe", "rescore_probe_lenient"]
# gold: yes yes no no no no; exact matching counts doc 0 only, lenient (lower-cased) docs 0, 1, 2 and 4
PROBE_RESPONSES = ["yes", "Yes", "No", "maybe", "NO", "yes"]

DATA = {"TEMPVS_DATA_DIR": write_tempvs, "CATBENCH_DATA_DIR": write_catbench, "ISOBENCH_DATA_DIR": write_isobench}


def tempvs_case(doc):
    """(response, outcome under the official parser, outcome under the setting fixes=extraction)."""
    gold = doc["answer"]
    wrong = next(c for c in doc["choices"] if c != gold)
    pick = random.Random(doc["doc_key"]).choice
    if doc["kind"] == "main":
        return pick(
            [
                (gold, RIGHT, RIGHT),
                (f"option {gold.lower()}", UNPARSED, RIGHT),  # the official pattern is case-sensitive
                (f"A man waves first. Option {gold}", RIGHT if gold == "A" else WRONG, RIGHT),  # the article "A"
                (wrong, WRONG, WRONG),
                ("I cannot tell.", UNPARSED, UNPARSED),
            ]
        )
    return pick(
        [
            (f"Image {gold}", RIGHT, RIGHT),
            (f"Image {gold}", RIGHT, RIGHT),
            (f"Image {gold}", RIGHT, RIGHT),
            (f"image {NUMBER_WORDS[int(gold)]}", UNPARSED, RIGHT),  # number words
            (f"The 9 friends are in image {gold}.", WRONG, RIGHT),  # officially the first number anywhere
            (f"Image {wrong}", WRONG, WRONG),
            ("I cannot tell.", UNPARSED, UNPARSED),
        ]
    )


def yes_no_case(index, gold, think="<think>No, wait.</think> ", yes="Yes", no="No"):
    """CaT-Bench / ISO-Bench answer-only mix; a reasoning block the harness strips before scoring."""
    return [yes, no, "I cannot tell.", f"{think}{yes}", yes if gold == "yes" else no][index % 5]


def mixed_answers(env) -> dict:
    """The script's answer to every doc of :data:`LMMS_TASKS` on the data of ``env``."""
    real = catbench_split("test", data_dir=env["CATBENCH_DATA_DIR"])
    iso = isobench_records(env["ISOBENCH_DATA_DIR"])
    entries = {f"tempvs_mt1_two/{i}": tempvs_case(d)[0] for i, d in enumerate(task_docs("tempvs_mt1_two", env["TEMPVS_DATA_DIR"]))}
    entries.update({f"catbench_switched/{i}": yes_no_case(i, d["answer"]) for i, d in enumerate(with_switched_twins(real))})
    entries.update({f"catbench_sc/{i}": SC_SAMPLES[i % 5] for i in range(len(real))})
    entries.update({f"isobench/{i}": yes_no_case(i, d["answer"], "<think>NO</think>", "YES", "no") for i, d in enumerate(iso)})
    entries.update({f"isobench_cot/{i}": COT_ANSWERS[i % 5].format(gold=d["answer"].upper()) for i, d in enumerate(iso)})
    return entries


def scripted(recorder) -> str:
    return f"policy=script,script={recorder.script(mixed_answers(recorder.env), 'answers')}"


@recording("rescore_lmms", **DATA)
def lmms(recorder):
    """The scripted mix on TempVS, CaT-Bench and ISO-Bench through lmms-eval."""
    recorder.lmms_eval(LMMS_TASKS, model_args=scripted(recorder))


@recording("rescore_lm_eval", **DATA)
def lm_eval(recorder):
    """The scripted mix on CaT-Bench through lm-eval."""
    recorder.lm_eval(LM_EVAL_TASKS, scripted(recorder))


@recording("rescore_fresh_settings", **DATA)
def fresh_settings(recorder):
    """The same answers with TempVS's parser fix and CaT-Bench's close = distance <= 1 (tests/rescore_support/settings/)."""
    recorder.lmms_eval(["tempvs_mt1_two", "catbench_switched"], model_args=scripted(recorder), extra=["--include_path", str(SUPPORT / "settings")])


@recording("rescore_fresh_sources", **DATA)
def fresh_sources(recorder):
    """The same answers on one TempVS source (tests/rescore_support/sources/), the docs numbered otherwise."""
    answers = mixed_answers(recorder.env)
    own = {d["doc_key"]: answers[f"tempvs_mt1_two/{i}"] for i, d in enumerate(task_docs("tempvs_mt1_two", recorder.env["TEMPVS_DATA_DIR"]))}
    pororo = [d for d in task_docs("tempvs_mt1_two", recorder.env["TEMPVS_DATA_DIR"]) if d["source"] == "pororo"]
    script = recorder.script({f"tempvs_mt1_two/{i}": own[d["doc_key"]] for i, d in enumerate(pororo)}, "pororo")
    recorder.lmms_eval(["tempvs_mt1_two"], model_args=f"policy=script,script={script}", extra=["--include_path", str(SUPPORT / "sources")])


@recording("rescore_fresh_lm_eval_close1", **DATA)
def fresh_lm_eval_close1(recorder):
    """The same answers through lm-eval with close = distance <= 1 (--metadata)."""
    recorder.lm_eval(["catbench_switched"], scripted(recorder), extra=["--metadata", json.dumps({"close_max_distance": 1})])


def probe_folder(root: Path) -> Path:
    """A copy of the probe task folder, which a test may edit."""
    return shutil.copytree(SUPPORT / "probe", root)


@recording("rescore_probe", PROBE_TASKS_DATA_DIR=probe_folder)
def probe(recorder):
    """Both probe tasks (one setting, per-model prompts) with the same answers."""
    script = recorder.script({f"{task}/{i}": r for task in PROBE_TASKS for i, r in enumerate(PROBE_RESPONSES)}, "probe")
    recorder.lmms_eval(PROBE_TASKS, model_args=f"policy=script,script={script}", extra=["--include_path", recorder.env["PROBE_TASKS_DATA_DIR"]])
