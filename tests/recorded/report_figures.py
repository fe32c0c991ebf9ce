"""The run ISO-Bench Figure 2 is drawn from (tests/tooling/test_report_figures.py): ``isobench`` and ``isobench_cot`` on
24 synthetic questions, a scripted model right on every close question and wrong on every distant one when it answers
(A), and the other way round when it explains first (E→A)."""

from pathlib import Path

from temporal_bench.isobench.fixtures import examples, write_fixture
from tests.recorded import recording

N = 24


def isobench_json(root: Path) -> Path:
    return write_fixture(root, "json", n=N)


def close_wrong_when_explained():
    script = {}
    for i, doc in enumerate(examples(N)):
        close = min(abs(j - doc["image_step_idx"]) for j in doc["snippet_step_idxs"]) < 3
        for task, right, template in (("isobench", close, "{}."), ("isobench_cot", not close, "<answer>{}</answer>")):
            label = doc["label"] if right else {"yes": "no", "no": "yes"}[doc["label"]]
            script[f"{task}/{i}"] = template.format(label.upper())
    return script


@recording("isobench_figure2", ISOBENCH_DATA_DIR=isobench_json)
def figure2(recorder):
    """A right on close and wrong on distant questions, E→A the other way round."""
    script = recorder.script(close_wrong_when_explained(), "answers")
    recorder.lmms_eval(["isobench", "isobench_cot"], model_args=f"policy=script,script={script}")
