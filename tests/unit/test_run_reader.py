"""The run reader (temporal_bench/runs/) at the bottom of every command: it asks the benchmark registry
for what differs per benchmark and imports nothing above it.

A toy benchmark registered from here, with a results file and a samples file written as lmms-eval
names them, gets its breakdown keys and its tests split out through the registry's hooks alone; the import test reads every module's imports, so a new circle fails it.
"""

import ast
import json
from pathlib import Path

import pytest

import temporal_bench
from temporal_bench import benchmarks
from temporal_bench.manifest import Manifest
from temporal_bench.runs.logged import RecordsError, RunReadError, find_runs, model_runs, select_tasks
from temporal_bench.runs.records import per_test_records
from temporal_bench.runs.results import load_runs

PACKAGE = Path(temporal_bench.__file__).parent
# what each layer may import from temporal_bench (besides itself): the reader only the registry, the shared helpers,
# the task folders below it (lmms-eval's failure texts, the data errors of this package's tasks) and the marker of
# generated data; models: only models/arguments.py, which imports nothing (the --model_args our baselines took, for run labels)
ALLOWED_BELOW = {
    "runs": {"benchmarks", "utils", "models", "lmms_eval_tasks", "synthetic_data"},
    "rescore": {"benchmarks", "utils", "runs", "paths", "cli_style", "commands", "data_locations", "lmms_eval_tasks", "harness_runs", "lm_eval_cli"},
}


def _toy_breakdowns(task, records):
    return {"right_share": sum(r["correct"] for r in records) / len(records), "docs": len(records)}


def _toy_tests(task, entry):
    """``toy_pair`` holds tests ``a`` and ``b``: its ``a_acc`` is ``toy_a``'s ``acc``."""
    if task != "toy_pair":
        return {task: entry}
    return {f"toy_{test}": {key[2:]: value for key, value in entry.items() if key.startswith(f"{test}_")} for test in "ab"}


def _toy_records(task, records):
    if task != "toy_pair":
        return {task: records}
    return {f"toy_{test}": [r for r in records if r["test"] == test] for test in "ab"}


def _toy_release(data):
    """A results file of the toy release's own scored outputs."""
    return data["config"]["model"] == "toy-release"


TOY = benchmarks.Benchmark(
    Manifest(name="toy", title="Toy"),
    breakdown_metrics=_toy_breakdowns,
    per_test_results=_toy_tests,
    per_test_records=_toy_records,
    is_released_outputs=_toy_release,
)


def _record(test, correct):
    return {"gold": "yes", "pred": "yes" if correct else "no", "correct": correct, "test": test}


@pytest.fixture
def run_folder(tmp_path, monkeypatch):
    """One lmms-eval run of ``toy_pair`` (3 docs: a right, a wrong, b right) and ``toy_extra`` (1 doc, right)."""
    monkeypatch.setitem(benchmarks._registered, "toy", TOY)
    folder = tmp_path / "model"
    folder.mkdir()
    results = {"results": {"toy_pair": {"a_acc,none": 0.5, "b_acc,none": 1.0}, "toy_extra": {"acc,none": 1.0}}, "config": {"model": "scripted", "model_args": "policy=oracle"}, "model_name": ""}
    (folder / "20260101_120000_results.json").write_text(json.dumps(results), encoding="utf-8")
    lines = {"toy_pair": [_record("a", True), _record("a", False), _record("b", True)], "toy_extra": [_record("a", True)]}
    for task, records in lines.items():
        text = "".join(json.dumps({"doc_id": i, "target": "yes", "acc": record}) + "\n" for i, record in enumerate(records))
        (folder / f"20260101_120000_samples_{task}.jsonl").write_text(text, encoding="utf-8")
    return tmp_path


def test_the_report_reads_a_registered_benchmark_through_its_hooks(run_folder):
    (run,) = load_runs([run_folder])
    assert run.label == "scripted (policy=oracle)"
    # toy_pair's metrics are read as its tests' own tasks
    assert run.results == {"toy_a": {"acc,none": 0.5}, "toy_b": {"acc,none": 1.0}, "toy_extra": {"acc,none": 1.0, "right_share,none": 1.0, "docs,none": 1}}
    logged = find_runs(run_folder)[0]
    pair = logged.records("toy_pair")
    assert [(r["test"], r["correct"]) for r in pair] == [("a", True), ("a", False), ("b", True)]
    assert {name: len(records) for name, records in per_test_records("toy_pair", pair).items()} == {"toy_a": 2, "toy_b": 1}


def test_a_release_s_scored_outputs_are_no_model_s_run(run_folder):
    release = run_folder / "release"
    release.mkdir()
    (release / "released_results.json").write_text(json.dumps({"results": {"toy_pair": {}}, "config": {"model": "toy-release"}}), encoding="utf-8")
    assert [run.results_path.name for run in find_runs(run_folder)] == ["released_results.json", "20260101_120000_results.json"]
    assert [run.results_path.name for run in model_runs(find_runs(run_folder))] == ["20260101_120000_results.json"]


def test_a_task_of_no_benchmark_is_read_as_it_is(run_folder, monkeypatch):
    monkeypatch.delitem(benchmarks._registered, "toy")
    (run,) = load_runs([run_folder])
    assert run.results == {"toy_pair": {"a_acc,none": 0.5, "b_acc,none": 1.0}, "toy_extra": {"acc,none": 1.0}}
    assert len(find_runs(run_folder)[0].records("toy_pair")) == 3


def test_reading_errors_name_the_file(run_folder):
    samples = run_folder / "model" / "20260101_120000_samples_toy_extra.jsonl"
    samples.unlink()
    run = find_runs(run_folder)[0]
    with pytest.raises(RecordsError, match="no 20260101_120000_samples_toy_extra.jsonl beside it"):
        run.records("toy_extra")
    with pytest.raises(RunReadError, match=r"no samples file for toy_extra \(looked for 20260101_120000_samples_toy_extra.jsonl\)"):
        select_tasks([run], [])
    with pytest.raises(RunReadError, match=r"no run has task\(s\) toy_other \(the runs have: toy_extra, toy_pair\)"):
        select_tasks([run], ["toy_other"])
    (run_folder / "model" / "20260101_120000_results.json").write_text("{", encoding="utf-8")
    with pytest.raises(RunReadError, match="not a readable results JSON file"):
        find_runs(run_folder)


SHARED_HELPERS = "temporal_bench.lmms_eval_tasks._task_utils."  # the task folders' shared helpers: the "utils" layer


def _layer(module: str) -> str:
    return "utils" if module.startswith(SHARED_HELPERS) else module.split(".")[1]


def _imported_layers(path: Path) -> set[str]:
    """The packages and modules right below temporal_bench that a module imports (``runs``, ``benchmarks``, ...)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(_layer(alias.name) for alias in node.names if alias.name.startswith("temporal_bench."))
        elif isinstance(node, ast.ImportFrom) and node.module == "temporal_bench":
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("temporal_bench."):
            found.add(_layer(node.module))
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED_BELOW))
def test_the_reader_and_rescore_import_nothing_above_them(layer):
    imported = {path.relative_to(PACKAGE).as_posix(): _imported_layers(path) - {layer} for path in sorted((PACKAGE / layer).glob("*.py"))}
    above = {module: sorted(names - ALLOWED_BELOW[layer]) for module, names in imported.items() if names - ALLOWED_BELOW[layer]}
    assert len(imported) >= 4 and above == {}
