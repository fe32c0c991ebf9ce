"""The no-download baselines answer from the options each doc offers."""

from collections import Counter

from temporal_bench.catbench.fixtures import write_fixture
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.models.policies import majority_answer, random_choice, wrong_answer
from tests.harness import lmms_eval, metric, read_samples


def test_policies_read_the_options_from_the_doc():
    doc = {"answer": "C", "choices": ["A", "B", "C", "D", "E"]}
    picks = Counter(random_choice(doc, "t", i, seed=0) for i in range(500))
    assert set(picks) == set("ABCDE") and min(picks.values()) > 60
    assert random_choice(doc, "t", 7, seed=0) == random_choice(doc, "t", 7, seed=0)
    assert wrong_answer(doc) == "A"
    docs = [{"answer": a, "choices": ["yes", "no"]} for a in ("no", "yes", "no")]
    assert majority_answer(docs) == "no"
    assert majority_answer(docs[:2]) == "yes"  # a tie goes to the option listed first


def test_majority_class_through_lmms_eval(tmp_path):
    env = {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path / "data"))}
    results = lmms_eval(tmp_path, ["catbench"], model="majority_class", model_args="", env=env)
    # balanced classes: the tie goes to "yes", the first option
    assert metric(results, "catbench", "recall_dep") == 1.0 and metric(results, "catbench", "recall_nondep") == 0.0
    assert {s["filtered_resps"] for s in read_samples(tmp_path / "lmms_eval_out", "catbench")} == {"yes"}


def test_random_choice_answers_in_the_tag_the_prompt_asks_for(tmp_path):
    """ISO-Bench E→A scores only an <answer> tag: the random baseline gives its pick there (so its E→A
    scores, and ISO-Bench Figure 2, exist), and bare where the prompt asks for no tag."""
    env = {"ISOBENCH_DATA_DIR": str(write_isobench(tmp_path / "data", n=16))}
    results = lmms_eval(tmp_path, ["isobench", "isobench_cot"], model="random_choice", model_args="seed=1", env=env)
    assert metric(results, "isobench", "coverage") == metric(results, "isobench_cot", "coverage") == 1.0
    out = tmp_path / "lmms_eval_out"
    assert {s["filtered_resps"] for s in read_samples(out, "isobench")} == {"yes", "no"}
    assert {s["filtered_resps"] for s in read_samples(out, "isobench_cot")} == {"<answer>yes</answer>", "<answer>no</answer>"}
