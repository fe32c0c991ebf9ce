"""CaT-Bench end to end on the real validation split through the real lmms-eval and lm-eval CLIs.

Besides the oracle run, one lmms-eval run and one lm-eval run of the scripted model serve two tests
each: the script answers the pattern below, "Yes" to every `catbench` question (the always-yes model,
lmms-eval) and the gold answer to `catbench` and `catbench_fewshot` (the oracle, lm-eval)."""

import json
from collections import defaultdict

import pytest
from sklearn.metrics import classification_report

from temporal_bench.catbench.fixtures import synthetic_pairs, write_release_split
from temporal_bench.catbench.loading import load_split
from temporal_bench.catbench.questions import with_switched_twins
from tests.harness import lm_eval, lmms_eval, metric, read_samples

CLASSIFICATION = ["f1_macro", "precision_macro", "recall_macro", "precision_dep", "recall_dep", "f1_dep",
                  "precision_nondep", "recall_nondep", "f1_nondep", "accuracy"]
TASKS = ["catbench_switched", "catbench_explain_switched", "catbench_sc"]  # the scripted pattern
LM_EVAL_ORACLE_TASKS = ["catbench", "catbench_fewshot"]


@pytest.fixture(scope="module")
def data_root(tmp_path_factory, catbench_val):
    """The real validation split plus a synthetic train split as the few-shot pool."""
    root = tmp_path_factory.mktemp("catbench_data")
    (root / "val_must_why").symlink_to(catbench_val)
    write_release_split(root / "train_must_why", synthetic_pairs("train", n_plans=6, pairs_per_class=6))
    return root


@pytest.fixture(scope="module")
def env(data_root):
    return {"CATBENCH_DATA_DIR": str(data_root), "CATBENCH_SPLIT": "validation"}


@pytest.fixture(scope="module")
def docs(env, monkeypatch_module):
    for key, value in env.items():
        monkeypatch_module.setenv(key, value)
    real = load_split("validation")
    return {"real": real, "switched": with_switched_twins(real)}


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def scripted_response(doc, index):
    """A fixed, label-dependent pattern with refusals, so every metric is exercised."""
    bucket = index % 7
    if bucket == 0:
        return "I cannot tell from the procedure."
    if bucket in (1, 2, 3):
        return "Yes" if doc["answer"] == "yes" else "No"
    return "No" if bucket in (4, 5) else "Yes, it must."


def expected_metrics(docs, responses, parse):
    """Independent straightforward re-computation: sklearn on the real questions, loops for TC/OCC."""
    preds = [parse(r) for r in responses]
    real = [(d, p) for d, p in zip(docs, preds) if d["variant"] == "real"]
    gold = [d["answer"] for d, _ in real]
    scored = [p if p in ("yes", "no") else ("no" if d["answer"] == "yes" else "yes") for d, p in real]
    report = classification_report(gold, scored, labels=["yes", "no"], output_dict=True, zero_division=0)
    expected = {
        "f1_macro": report["macro avg"]["f1-score"], "precision_macro": report["macro avg"]["precision"],
        "recall_macro": report["macro avg"]["recall"], "accuracy": sum(g == s for g, s in zip(gold, scored)) / len(gold),
        "precision_dep": report["yes"]["precision"], "recall_dep": report["yes"]["recall"], "f1_dep": report["yes"]["f1-score"],
        "precision_nondep": report["no"]["precision"], "recall_nondep": report["no"]["recall"], "f1_nondep": report["no"]["f1-score"],
    }
    by_pair = defaultdict(dict)
    twins = defaultdict(dict)
    for d, p in zip(docs, preds):
        if d["variant"] == "real":
            by_pair[d["pair_id"]][d["relation"]] = p
        if d["dependency"] == "nondep":
            twins[d["pair_id"], d["relation"]][d["variant"]] = p
    expected["tc"] = sum(v["before"] == v["after"] != "invalid" for v in by_pair.values()) / len(by_pair)
    complete = [v for v in twins.values() if len(v) == 2]
    expected["occ"] = sum(v["real"] == v["switched"] != "invalid" for v in complete) / len(complete) if complete else None
    expected["invalid_rate"] = sum(p == "invalid" for p in preds) / len(preds)
    return expected


def _plain_parse(response):
    from temporal_bench.catbench.parsing import parse_answer_only

    return parse_answer_only(response)


def test_oracle_scores_one_on_every_metric_in_lmms_eval(tmp_path, env):
    results = lmms_eval(tmp_path, ["catbench_switched", "catbench_fewshot"], env=env)
    for task in ("catbench_switched", "catbench_fewshot"):
        for name in CLASSIFICATION + ["tc", "f1_macro_before", "f1_macro_after", "f1_macro_close", "f1_macro_distant"]:
            assert metric(results, task, name) == 1.0, (task, name)
        assert metric(results, task, "invalid_rate") == 0
    assert metric(results, "catbench_switched", "occ") == 1.0
    assert metric(results, "catbench_fewshot", "occ") is None
    assert results["n-samples"]["catbench_switched"]["effective"] == 1616 + 808
    assert results["n-samples"]["catbench_fewshot"]["effective"] == 1616
    prompt = read_samples(tmp_path / "lmms_eval_out", "catbench_fewshot")[0]["input"]
    assert prompt.count("Select between yes or no") == 6


@pytest.fixture(scope="module")
def script(docs):
    """Responses per task and doc id (doc ids follow the loader's order)."""
    switched = docs["switched"]
    entries = {}
    for i, doc in enumerate(switched):
        entries[f"catbench_switched/{i}"] = scripted_response(doc, i)
        answer = scripted_response(doc, i).split(",")[0].lower()
        entries[f"catbench_explain_switched/{i}"] = json.dumps({"binary_answer": answer, "why_answer": "Because of the order of steps."})
    for i, doc in enumerate(docs["real"]):
        entries[f"catbench_sc/{i}"] = ["Yes", "No", "No" if i % 2 else "Yes"]
    return entries


def _script_file(tmp_path_factory, entries):
    path = tmp_path_factory.mktemp("script") / "script.json"
    path.write_text(json.dumps(entries))
    return path


@pytest.fixture(scope="module")
def lmms_eval_script_run(tmp_path_factory, env, docs, script):
    """The script on TASKS and "Yes" to every catbench question, through lmms-eval: (results, output folder)."""
    path = _script_file(tmp_path_factory, {**script, **{f"catbench/{i}": "Yes" for i in range(len(docs["real"]))}})
    results = lmms_eval(path.parent, TASKS + ["catbench"], model_args=f"policy=script,script={path}", env=env)
    return results, path.parent / "lmms_eval_out"


@pytest.fixture(scope="module")
def lm_eval_script_run(tmp_path_factory, env, docs, script):
    """The script on TASKS and the gold answers on LM_EVAL_ORACLE_TASKS, through lm-eval: results."""
    oracle = {f"{task}/{i}": doc["answer"] for task in LM_EVAL_ORACLE_TASKS for i, doc in enumerate(docs["real"])}
    path = _script_file(tmp_path_factory, {**script, **oracle})
    output_dir = path.parent / "lm_eval_out"
    return lm_eval(output_dir, TASKS + LM_EVAL_ORACLE_TASKS, f"policy=script,script={path}", env)


def test_always_yes_equals_sklearn_in_lmms_eval(lmms_eval_script_run, docs):
    results, _ = lmms_eval_script_run
    expected = expected_metrics(docs["real"], ["Yes"] * len(docs["real"]), _plain_parse)
    for name in CLASSIFICATION + ["tc", "invalid_rate"]:
        assert metric(results, "catbench", name) == pytest.approx(expected[name], abs=1e-9), name
    assert metric(results, "catbench", "f1_macro") == pytest.approx(1 / 3, abs=1e-9)
    assert metric(results, "catbench", "tc") == 1.0


def _check_scripted(results, docs, filter_sc):
    switched = docs["switched"]
    responses = [scripted_response(d, i) for i, d in enumerate(switched)]
    expected = expected_metrics(switched, responses, _plain_parse)
    assert expected["invalid_rate"] > 0 and 0 < expected["f1_macro"] < 1 and 0 < expected["occ"] < 1
    for task in ("catbench_switched", "catbench_explain_switched"):
        for name in CLASSIFICATION + ["tc", "occ", "invalid_rate"]:
            assert metric(results, task, name) == pytest.approx(expected[name], abs=1e-9), (task, name)
    votes = ["no" if i % 2 else "yes" for i in range(len(docs["real"]))]
    expected_sc = expected_metrics(docs["real"], votes, _plain_parse)
    for name in CLASSIFICATION + ["tc"]:
        assert metric(results, "catbench_sc", name, filter_sc) == pytest.approx(expected_sc[name], abs=1e-9), name


def test_scripted_model_equals_independent_recomputation_in_lmms_eval(lmms_eval_script_run, docs):
    results, output_dir = lmms_eval_script_run
    _check_scripted(results, docs, "majority_vote")
    samples = read_samples(output_dir, "catbench_sc")
    votes = {s["doc_id"]: s["filtered_resps"] for s in samples}
    assert votes == {i: "no" if i % 2 else "yes" for i in range(1616)}


def test_lm_eval_gives_the_same_metrics(lm_eval_script_run, docs):
    _check_scripted(lm_eval_script_run, docs, "majority_vote")


def test_lm_eval_oracle(lm_eval_script_run):
    results = lm_eval_script_run
    for task in LM_EVAL_ORACLE_TASKS:
        assert metric(results, task, "f1_macro") == 1.0 and metric(results, task, "tc") == 1.0
        assert results["n-samples"][task]["effective"] == 1616
