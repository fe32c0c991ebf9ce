"""ISO-Bench end to end on fixtures through the real lmms-eval CLI: oracle, always-YES (through a derived
task with a column map) and a scripted model with refusals, each compared with scikit-learn on the
same predictions: the headline keys in the results, every key from the logged records."""

import glob
import json
from pathlib import Path

import pytest
from sklearn.metrics import classification_report

from temporal_bench.isobench.breakdowns import AGGREGATIONS, breakdown_metrics
from temporal_bench.isobench.fixtures import examples, write_fixture
from temporal_bench.lmms_eval_tasks.isobench import prompts
from temporal_bench.lmms_eval_tasks.plugin.isobench.utils import METRIC_KEYS as METRIC_NAMES
from temporal_bench.paths import PLUGIN_TASK_DIR
from temporal_bench.runs.logged import find_runs
from tests.harness import lmms_eval, logged_payload, metric, read_samples
from tests.task_docs import isobench_records as load_records
from tests.unit.test_isobench_data import RENAMED, write_renamed

CLASS_ROWS = {"dep": "yes", "nondep": "no", "weighted": "weighted avg", "macro": "macro avg"}
COLUMNS = {"precision": "precision", "recall": "recall", "f1": "f1-score"}


def sklearn_scores(gold, pred):
    """The paper's table from sklearn's classification_report; None without examples."""
    if not gold:
        return None
    report = classification_report(gold, pred, labels=["yes", "no"], output_dict=True, zero_division=0)
    scores = {f"{stat}_{row}": report[label][column] for row, label in CLASS_ROWS.items() for stat, column in COLUMNS.items()}
    scores["accuracy"] = sum(g == p for g, p in zip(gold, pred)) / len(gold)
    return scores


def expected_metrics(golds, preds, subsets):
    """Every metric from sklearn: default scores on parsed answers, strict with refusals as the wrong
    class, paper with refusals as a third label."""
    parsed = [(g, p) for g, p in zip(golds, preds) if p != "invalid"]
    default = sklearn_scores([g for g, _ in parsed], [p for _, p in parsed]) or {}
    strict = sklearn_scores(golds, [p if p != "invalid" else ("no" if g == "yes" else "yes") for g, p in zip(golds, preds)])
    paper = sklearn_scores(golds, preds)
    expected = {name: default.get(name) for name in strict}
    expected.update({f"strict_{name}": value for name, value in strict.items()})
    expected.update({f"paper_{name}": value for name, value in paper.items()})
    p, r = paper["precision_weighted"], paper["recall_weighted"]
    expected["paper_f1_of_avg_pr"] = 2 * p * r / (p + r) if p + r else 0.0
    expected["coverage"] = len(parsed) / len(golds)
    expected["failed_count"] = 0  # every scripted response is text
    wrong = ["no" if g == "yes" else "yes" for g in golds]
    for name, members in subsets.items():
        parsed_members = [i for i in members if preds[i] != "invalid"]
        for rule, picked, answers in (("", parsed_members, preds), ("strict_", members, [p if p != "invalid" else w for p, w in zip(preds, wrong)]), ("paper_", members, preds)):
            scores = sklearn_scores([golds[i] for i in picked], [answers[i] for i in picked])
            expected[f"{rule}f1_weighted_{name}"] = None if scores is None else scores["f1_weighted"]
    return expected


def subsets_of(docs):
    """Doc indices per breakdown, computed from the fixture's own fields (|j - i| < 3 is close)."""

    def distance(d):
        return min(abs(j - d["image_step_idx"]) for j in d["snippet_step_idxs"])

    return {
        "before": [i for i, d in enumerate(docs) if d["relation"] == "before"],
        "after": [i for i, d in enumerate(docs) if d["relation"] == "after"],
        "close": [i for i, d in enumerate(docs) if distance(d) < 3],
        "distant": [i for i, d in enumerate(docs) if distance(d) >= 3],
        "youcook2": [i for i, d in enumerate(docs) if d["source"] == "youcook2"],
        "crosstask": [i for i, d in enumerate(docs) if d["source"] == "crosstask"],
    }


def logged_records(tmp_path, task):
    """The task's records as the report reads them back (in the logged order: by doc)."""
    (run,) = find_runs(tmp_path / "lmms_eval_out")
    return run.records(task)


def assert_metrics(results, tmp_path, task, expected):
    """The headline keys in the results JSON, every key from the logged records, equal to ``expected``."""
    assert set(expected) == set(AGGREGATIONS)
    # the results file as written holds the headline keys only; tests.harness.read_results adds the
    # breakdown keys computed from the logged records, as the report does
    written = json.loads(Path(sorted(glob.glob(str(tmp_path / "lmms_eval_out" / "**" / "*_results.json"), recursive=True))[-1]).read_text())
    assert {key.split(",")[0] for key in written["results"][task] if "_stderr" not in key} - {"alias", "samples"} == set(METRIC_NAMES)
    found = breakdown_metrics(task, logged_records(tmp_path, task))
    reported = {key.split(",")[0] for key in results["results"][task] if "_stderr" not in key} - {"alias", "samples"}
    assert reported == set(METRIC_NAMES) | set(found)
    assert all(metric(results, task, name) == value for name, value in found.items() if name not in METRIC_NAMES)
    found.update({name: metric(results, task, name) for name in METRIC_NAMES})
    for name, value in expected.items():
        if value is None:
            assert found[name] is None, f"{task} {name}: {found[name]!r}, expected not applicable (None)"
        else:
            assert found[name] == pytest.approx(value, abs=1e-9), f"{task} {name}: {found[name]!r} != {value!r}"


def test_oracle_scores_one_on_both_modes(tmp_path):
    data = write_fixture(tmp_path / "data", "hf")
    results = lmms_eval(tmp_path, ["isobench_all"], model_args="policy=oracle,template=<answer>{answer}</answer>", env={"ISOBENCH_DATA_DIR": str(data)})
    records = load_records(data)
    for task, prompt in (("isobench", prompts.answer_only), ("isobench_cot", prompts.explain_then_answer)):
        for name, value in breakdown_metrics(task, logged_records(tmp_path, task)).items():
            assert value == (0 if name == "failed_count" else 1.0), f"{task} {name}"
            if name in METRIC_NAMES:
                assert metric(results, task, name) == value
        samples = sorted(read_samples(tmp_path / "lmms_eval_out", task), key=lambda s: s["doc_id"])
        assert len(samples) == 16
        captions = {e["id"]: e["image_caption"] for e in examples(16)}
        for sample in samples:
            doc = records[sample["doc_id"]]
            assert sample["input"] == prompt(doc)
            assert captions[doc["id"]] not in sample["input"]
            assert sample["target"] == doc["answer"]
        # the record under f1_weighted, under each other key only what its aggregation reads
        assert max(logged_payload(sample) for sample in samples) <= 2048
    assert results["configs"]["isobench"]["generation_kwargs"]["max_new_tokens"] == 120
    assert results["configs"]["isobench_cot"]["generation_kwargs"]["temperature"] == 0
    for task in ("isobench", "isobench_cot"):
        assert results["configs"][task]["metadata"] == {"version": 1.0, "data_split": None, "column_map": None}
        read = find_runs(tmp_path / "lmms_eval_out")[0].data_read(task)
        assert (read.questions, read.counts["rows"], read.synthetic, read.failed, read.invalid) == (16, 16, True, 0, 0)
        assert read.images == 16  # the images read (embedded in the data: written once to a cache folder), each of its own file


def derived_tasks(folder, column_map):
    """A task folder of one's own (``--include_path``) with variants of both tasks under a column map, as
    docs/isobench.md "Settings" describes: a YAML that includes ours and names its own process_docs, a partial of
    ours with the setting."""
    folder.mkdir()
    functions = ["from functools import partial", "", "from temporal_bench.lmms_eval_tasks.plugin.isobench.utils import process_docs", ""]
    for task in ("isobench", "isobench_cot"):
        metadata = json.dumps({"version": 1.0, "data_split": None, "column_map": column_map})
        functions.append(f"process_docs_{task}_renamed = partial(process_docs, column_map={column_map!r})")
        (folder / f"{task}_renamed.yaml").write_text(f"include: {PLUGIN_TASK_DIR / 'isobench' / f'{task}.yaml'}\ntask: {task}_renamed\nprocess_docs: !function utils.process_docs_{task}_renamed\nmetadata: {metadata}\n")
    (folder / "utils.py").write_text("\n".join(functions) + "\n")
    return folder


def test_always_yes_equals_sklearn_with_the_column_map(tmp_path):
    """Renamed columns mapped through the task setting column_map of derived tasks, recorded in the
    results' config; no positions and no source: those breakdowns are N/A."""
    data = write_renamed(tmp_path / "data")
    rows = json.loads((data / "isobench.json").read_text())
    for row in rows:
        for key in ("image_step_idx", "snippet_step_idxs", "source"):
            row.pop(key)
    (data / "isobench.json").write_text(json.dumps(rows))
    tasks = derived_tasks(tmp_path / "tasks", RENAMED)
    results = lmms_eval(tmp_path, ["isobench_renamed", "isobench_cot_renamed"], model_args="policy=constant,response=YES", env={"ISOBENCH_DATA_DIR": str(data)}, extra=["--include_path", str(tasks)])
    assert results["configs"]["isobench_renamed"]["metadata"]["column_map"] == RENAMED
    golds = [e["label"] for e in examples(16)]
    relation = {name: [i for i, e in enumerate(examples(16)) if e["relation"] == name] for name in ("before", "after")}
    no_subset = {"close": [], "distant": [], "youcook2": [], "crosstask": []}
    expected = expected_metrics(golds, ["yes"] * 16, {**relation, **no_subset})
    assert expected["f1_weighted"] == pytest.approx(1 / 3) and expected["precision_dep"] == 0.5
    assert_metrics(results, tmp_path, "isobench_renamed", expected)
    # E->A without an answer tag: nothing parses, the default scores are N/A, the strict ones all wrong
    expected_cot = expected_metrics(golds, ["invalid"] * 16, {**relation, **no_subset})
    assert expected_cot["coverage"] == 0 and expected_cot["strict_accuracy"] == 0 and expected_cot["f1_weighted"] is None
    assert expected_cot["paper_recall_weighted"] == expected_cot["paper_f1_weighted"] == 0
    assert_metrics(results, tmp_path, "isobench_cot_renamed", expected_cot)


# (response for gold yes, for gold no, parsed label for gold yes, for gold no); the fixture alternates
# DEP and NONDEP, so doc i uses bucket (i // 2) % 6 and each class sees every bucket
ANSWER_ONLY_SCRIPT = [
    ("I cannot tell from this frame.", "I cannot tell from this frame.", "invalid", "invalid"),
    ("Yes.", "No.", "yes", "no"),
    ("**NO**", "**NO**", "no", "no"),
    ("yes, it has to come first", "yes, it has to come first", "yes", "yes"),
    ("Not necessarily.", "Not necessarily, so no.", "invalid", "no"),
    ("The answer is YES.", "No, the frame shows a later step.", "yes", "no"),
]
COT_SCRIPT = [
    ("<think>The frame shows the dough being", "<think>The frame shows the dough being", "invalid", "invalid"),
    ("<think>yes, maybe</think><answer>NO</answer>", "<think>yes, maybe</think><answer>NO</answer>", "no", "no"),
    ("<think>needed first</think><answer>YES</answer>", "<think>unrelated</think><answer>NO</answer>", "yes", "no"),
    ("<answer>YES</answer>", "<answer>YES</answer>", "yes", "yes"),
    ("<think>no idea</think> NO", "<think>unrelated</think><answer>no</answer>", "invalid", "no"),
    ("<answer>NO</answer> wait, <answer>YES</answer>", "<answer>YES</answer> wait, <answer>NO</answer>", "yes", "no"),
]


def test_scripted_refusals_give_coverage_and_both_score_variants(tmp_path):
    n = 24
    data = write_fixture(tmp_path / "data", "json", n=n)
    docs = examples(n)
    golds = [d["label"] for d in docs]
    script, preds = {}, {}
    for task, table in (("isobench", ANSWER_ONLY_SCRIPT), ("isobench_cot", COT_SCRIPT)):
        preds[task] = []
        for i, gold in enumerate(golds):
            yes_response, no_response, yes_label, no_label = table[(i // 2) % len(table)]  # golds alternate
            script[f"{task}/{i}"] = yes_response if gold == "yes" else no_response
            preds[task].append(yes_label if gold == "yes" else no_label)
    script_path = tmp_path / "script.json"
    script_path.write_text(json.dumps(script))
    results = lmms_eval(tmp_path, ["isobench", "isobench_cot"], model_args=f"policy=script,script={script_path}", env={"ISOBENCH_DATA_DIR": str(data)})
    for task in ("isobench", "isobench_cot"):
        expected = expected_metrics(golds, preds[task], subsets_of(docs))
        # refusals: buckets 0 and 4 for DEP docs, bucket 0 for NONDEP docs (2 + 2 + 2 of 24)
        assert expected["coverage"] == 18 / 24
        assert expected["strict_f1_weighted"] < expected["f1_weighted"]
        assert expected["f1_weighted"] != pytest.approx(expected["f1_macro"])  # unequal class support after discarding
        assert_metrics(results, tmp_path, task, expected)
