"""CaT-Bench end to end on the real validation split through the real lmms-eval and lm-eval CLIs.

One lmms-eval run and one lm-eval run of the scripted model serve several tests each: the script answers the pattern
below, "Yes" to every `catbench` question (the always-yes model, lmms-eval; also with a distance threshold of 2) and the
gold answer (the oracle) to `catbench_switched` (under another name) and `catbench_fewshot` in lmms-eval, to `catbench`
and `catbench_fewshot` in lm-eval. The validation split is evaluated as a user would: lmms-eval through two-line YAMLs that include our tasks and
set test_split (tasks `<task>_val`), lm-eval with --metadata data_split. Headline keys are read from the results, the
breakdowns from the logged records (catbench/metrics.py breakdown_metrics)."""

import glob
import json
from collections import defaultdict
from pathlib import Path

import pytest
from sklearn.metrics import classification_report

from temporal_bench.catbench.breakdowns import breakdown_metrics
from temporal_bench.catbench.fixtures import synthetic_pairs, write_release_split
from temporal_bench.lmms_eval_tasks.catbench.metrics import METRIC_NAMES
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from temporal_bench.runs.logged import find_runs
from tests.harness import lm_eval, lmms_eval, metric, read_samples
from tests.task_docs import catbench_split as load_split
from tests.task_docs import task_yaml

VALIDATION = ["--metadata", json.dumps({"data_split": "validation"})]  # lm-eval

CLASSIFICATION = ["f1_macro", "precision_macro", "recall_macro", "precision_dep", "recall_dep", "f1_dep", "precision_nondep", "recall_nondep", "f1_nondep", "accuracy"]
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
    return {"CATBENCH_DATA_DIR": str(data_root)}


def write_variants(folder: Path, tasks, suffix="_val", **overrides) -> Path:
    """``<task><suffix>``: our lmms-eval task with test_split validation and ``overrides`` on top."""
    folder.mkdir(parents=True, exist_ok=True)
    for task in tasks:
        lines = [f"include: {task_yaml(task)}", f"task: {task}{suffix}", "test_split: validation", *(f"{key}: {json.dumps(value)}" for key, value in overrides.items())]
        (folder / f"{task}{suffix}.yaml").write_text("\n".join(lines) + "\n")
    return folder


ORACLE = {"catbench_switched_oracle_val": "switched", "catbench_fewshot_val": "real"}  # answered right, in the lmms-eval run: task -> its docs
ALWAYS_YES = {"catbench_val": 3, "catbench_close2_val": 2}  # answered "Yes", in the lmms-eval run: task -> its distance threshold


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    folder = write_variants(tmp_path_factory.mktemp("variants"), ["catbench", "catbench_close2", "catbench_switched", "catbench_explain_switched", "catbench_sc", "catbench_fewshot"])
    write_variants(folder, ["catbench_switched"], suffix="_oracle_val")  # the same task under another name, answered right
    return ["--include_path", str(folder)]


def all_metrics(results, output_dir, task, filter_name="none"):
    """Every key the task reports: its headline keys from the results, checked against the breakdowns
    computed from its logged records, which add the other keys."""
    results_file = sorted(glob.glob(str(output_dir / "**" / "*results*.json"), recursive=True))[-1]
    values = breakdown_metrics(task, find_runs(Path(results_file))[0].records(task))
    for name in METRIC_NAMES:
        assert values[name] == metric(results, task, name, filter_name), (task, name)
    return values


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
        "f1_macro": report["macro avg"]["f1-score"],
        "precision_macro": report["macro avg"]["precision"],
        "recall_macro": report["macro avg"]["recall"],
        "accuracy": sum(g == s for g, s in zip(gold, scored)) / len(gold),
        "precision_dep": report["yes"]["precision"],
        "recall_dep": report["yes"]["recall"],
        "f1_dep": report["yes"]["f1-score"],
        "precision_nondep": report["no"]["precision"],
        "recall_nondep": report["no"]["recall"],
        "f1_nondep": report["no"]["f1-score"],
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
    from temporal_bench.lmms_eval_tasks.catbench.parsing import parse_answer_only

    return parse_answer_only(response)


def test_oracle_scores_one_on_every_metric_in_lmms_eval(lmms_eval_script_run):
    """Every answer right (the gold answers, as the scripted model's oracle gives them): 1.0 everywhere."""
    results, output_dir = lmms_eval_script_run
    for task in ORACLE:
        values = all_metrics(results, output_dir, task)
        for name in CLASSIFICATION + ["tc", "f1_macro_before", "f1_macro_after", "f1_macro_close", "f1_macro_distant"]:
            assert values[name] == 1.0, (task, name)
        assert values["invalid_rate"] == 0 and values["invalid_count"] == 0 and values["failed_count"] == 0
    assert metric(results, "catbench_switched_oracle_val", "occ") == 1.0
    assert metric(results, "catbench_fewshot_val", "occ") is None
    assert results["n-samples"]["catbench_switched_oracle_val"]["effective"] == 1616 + 808
    assert results["n-samples"]["catbench_fewshot_val"]["effective"] == 1616
    written = json.loads(Path(sorted(glob.glob(str(output_dir / "**" / "*_results.json"), recursive=True))[-1]).read_text())
    assert sorted(k.split(",")[0] for k in written["results"]["catbench_switched_oracle_val"] if "," in k and "stderr" not in k) == sorted(METRIC_NAMES)
    prompt = read_samples(output_dir, "catbench_fewshot_val")[0]["input"]
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
    for i in range(len(docs["real"])):
        entries[f"catbench_sc/{i}"] = ["Yes", "No", "No" if i % 2 else "Yes"]
    return entries


def as_variants(entries):
    """The script's entries under the lmms-eval validation variants' names."""
    return {f"{key.split('/')[0]}_val/{key.split('/')[1]}": value for key, value in entries.items()}


def _script_file(tmp_path_factory, entries):
    path = tmp_path_factory.mktemp("script") / "script.json"
    path.write_text(json.dumps(entries))
    return path


@pytest.fixture(scope="module")
def lmms_eval_script_run(tmp_path_factory, env, docs, script, variants):
    """The script on TASKS, "Yes" to every question of ALWAYS_YES and the gold answers on ORACLE, through lmms-eval:
    (results, output folder)."""
    oracle = {f"{task}/{i}": doc["answer"] for task, which in ORACLE.items() for i, doc in enumerate(docs[which])}
    always_yes = {f"{task}/{i}": "Yes" for task in ALWAYS_YES for i in range(len(docs["real"]))}
    path = _script_file(tmp_path_factory, {**as_variants(script), **always_yes, **oracle})
    results = lmms_eval(path.parent, [f"{t}_val" for t in TASKS] + list(ALWAYS_YES) + list(ORACLE), model_args=f"policy=script,script={path}", env=env, extra=variants)
    return results, path.parent / "lmms_eval_out"


@pytest.fixture(scope="module")
def lm_eval_script_run(tmp_path_factory, env, docs, script):
    """The script on TASKS and the gold answers on LM_EVAL_ORACLE_TASKS, through lm-eval: results."""
    oracle = {f"{task}/{i}": doc["answer"] for task in LM_EVAL_ORACLE_TASKS for i, doc in enumerate(docs["real"])}
    path = _script_file(tmp_path_factory, {**script, **oracle})
    output_dir = path.parent / "lm_eval_out"
    return lm_eval(output_dir, TASKS + LM_EVAL_ORACLE_TASKS, f"policy=script,script={path}", env, VALIDATION), output_dir


def test_always_yes_equals_sklearn_in_lmms_eval(lmms_eval_script_run, docs):
    results, output_dir = lmms_eval_script_run
    expected = expected_metrics(docs["real"], ["Yes"] * len(docs["real"]), _plain_parse)
    values = all_metrics(results, output_dir, "catbench_val")
    for name in CLASSIFICATION + ["tc", "invalid_rate"]:
        assert values[name] == pytest.approx(expected[name], abs=1e-9), name
    assert values["f1_macro"] == pytest.approx(1 / 3, abs=1e-9)
    assert values["tc"] == 1.0


def test_the_distance_threshold_is_recorded_and_changes_only_the_breakdown(lmms_eval_script_run):
    results, output_dir = lmms_eval_script_run
    assert {task: results["configs"][task]["metadata"]["close_max_distance"] for task in ALWAYS_YES} == ALWAYS_YES
    default, close2 = (all_metrics(results, output_dir, task) for task in ALWAYS_YES)
    assert {k for k in default if default[k] != close2[k]} == {"f1_macro_close", "f1_macro_distant"}


def _check_scripted(results, output_dir, docs, suffix):
    switched = docs["switched"]
    responses = [scripted_response(d, i) for i, d in enumerate(switched)]
    expected = expected_metrics(switched, responses, _plain_parse)
    assert expected["invalid_rate"] > 0 and 0 < expected["f1_macro"] < 1 and 0 < expected["occ"] < 1
    for task in ("catbench_switched", "catbench_explain_switched"):
        values = all_metrics(results, output_dir, task + suffix)
        for name in CLASSIFICATION + ["tc", "occ", "invalid_rate"]:
            assert values[name] == pytest.approx(expected[name], abs=1e-9), (task, name)
    votes = ["no" if i % 2 else "yes" for i in range(len(docs["real"]))]
    expected_sc = expected_metrics(docs["real"], votes, _plain_parse)
    values = all_metrics(results, output_dir, "catbench_sc" + suffix, "majority_vote")
    for name in CLASSIFICATION + ["tc"]:
        assert values[name] == pytest.approx(expected_sc[name], abs=1e-9), name


def test_scripted_model_equals_independent_recomputation_in_lmms_eval(lmms_eval_script_run, docs):
    results, output_dir = lmms_eval_script_run
    _check_scripted(results, output_dir, docs, "_val")
    samples = read_samples(output_dir, "catbench_sc_val")
    votes = {s["doc_id"]: s["filtered_resps"] for s in samples}
    assert votes == {i: "no" if i % 2 else "yes" for i in range(1616)}


def test_lm_eval_gives_the_same_metrics(lm_eval_script_run, docs):
    _check_scripted(*lm_eval_script_run, docs, "")


def test_lm_eval_oracle(lm_eval_script_run):
    results, output_dir = lm_eval_script_run
    for task in LM_EVAL_ORACLE_TASKS:
        values = all_metrics(results, output_dir, task)
        assert values["f1_macro"] == 1.0 and values["tc"] == 1.0 and values["f1_macro_close"] == 1.0
        assert results["n-samples"][task]["effective"] == 1616
        assert results["configs"][task]["metadata"]["data_split"] == "validation"
