"""Variants of one's own (docs/harness.md) through the harness itself: a task YAML outside this package that includes
one of its tasks is applied and its settings recorded by lmms-eval and lm-eval, and one whose settings cannot run
stops the run naming the setting (a misspelt value through lmms-eval; a misspelt setting where the docs are built).
(Which data a run read, computed from recorded runs: tests/tooling/test_data_identity.py.)"""

import json
from pathlib import Path

import pytest

from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.data_locations import data_locations
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from temporal_bench.paths import LM_EVAL_TASK_DIR, PLUGIN_TASK_DIR
from temporal_bench.runs.logged import find_runs
from tests.harness import BIN, lm_eval, lmms_eval, read_samples, run_cli
from tests.task_docs import catbench_split as load_split
from tests.task_docs import placeholder
from tests.tempvs_fixture_copies import write_tempvs

TEMPVS_METADATA = {"version": 1.0, "tests": ["mt1_two"], "mode": "standard", "visual": "combined", "blind_filter": True, "fixes": [], "sources": ["flintstones", "pororo", "vwp", "vist"], "suite": False}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("data_identity")
    return {"TEMPVS_DATA_DIR": str(write_tempvs(root / "tempvs", n_sequences=4)), "CATBENCH_DATA_DIR": str(write_catbench(root / "catbench"))}


# ---- a task YAML outside ours that includes ours ----------------------------------------------


def external_folder(root: Path, yamls: dict) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in yamls.items():
        (root / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


MY_UTILS = """from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import variant as catbench_variant
from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import variant as tempvs_variant

process_docs_tempvs_mt1_two_mine = tempvs_variant(["mt1_two"], sources=["pororo"])
process_docs_catbench_mine = catbench_variant(close_max_distance=1, switched=True)
"""


def test_an_external_variant_is_applied_and_recorded_in_lmms_eval(data, tmp_path):
    """A variant of one's own, as docs/harness.md describes: a YAML that includes this package's task, states its
    settings in its metadata and names a process_docs with them (a utils.py beside it)."""
    pororo = {**TEMPVS_METADATA, "sources": ["pororo"]}
    switched = {"version": 1.0, "switched": True, "close_max_distance": 1}
    folder = external_folder(
        tmp_path / "mine",
        {
            "tempvs_mt1_two_mine": f"include: {PLUGIN_TASK_DIR / 'tempvs' / 'tempvs_mt1_two.yaml'}\ntask: tempvs_mt1_two_mine\nprocess_docs: !function utils.process_docs_tempvs_mt1_two_mine\nmetadata: {json.dumps(pororo)}\n",
            "catbench_mine": f"include: [{PLUGIN_TASK_DIR / 'catbench' / 'catbench_switched.yaml'}]\ntask: catbench_mine\nprocess_docs: !function utils.process_docs_catbench_mine\nmetadata: {json.dumps(switched)}\n",
        },
    )
    (folder / "utils.py").write_text(MY_UTILS, encoding="utf-8")
    results = lmms_eval(tmp_path, ["tempvs_mt1_two_mine", "catbench_mine"], env=data, extra=["--include_path", str(folder)])
    samples = read_samples(tmp_path / "lmms_eval_out", "tempvs_mt1_two_mine")
    assert {line["gt_acc"]["source"] for line in samples} == {"pororo"}
    assert results["configs"]["tempvs_mt1_two_mine"]["metadata"] == pororo
    questions = load_split("test", data_dir=data["CATBENCH_DATA_DIR"])
    assert results["n-samples"]["catbench_mine"]["effective"] == len(with_switched_twins(questions)) > len(questions)
    assert results["configs"]["catbench_mine"]["metadata"] == switched
    (run,) = find_runs(tmp_path / "lmms_eval_out")
    assert {record["close_max_distance"] for record in run.records("catbench_mine")} == {1}  # the report reads the recorded threshold
    assert results["results"]["catbench_mine"]["occ,none"] == 1.0  # OCC needs the switched twins


def test_an_external_variant_whose_settings_cannot_run_stops_the_run_naming_the_setting(data, tmp_path):
    """A misspelt value, refused when lmms-eval loads the YAML (its utils.py builds the variant). (A misspelt setting,
    refused when the docs are built: the next test; a data error ending a run there: tests/e2e/test_bad_input.py.)"""
    folder = external_folder(tmp_path / "mine", {"my_fixed": f"include: {PLUGIN_TASK_DIR / 'tempvs' / 'tempvs_mt1_two.yaml'}\ntask: my_fixed\nprocess_docs: !function utils.process_docs_my_fixed\n"})
    (folder / "utils.py").write_text('from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import variant\n\nprocess_docs_my_fixed = variant(["mt1_two"], fixes=["extration"])\n')
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", "policy=oracle", "--tasks", "my_fixed", "--include_path", str(folder), "--output_path", str(out)], out, data)
    assert not list(out.rglob("*_results.json"))
    assert "TempVSDataError: TempVS task settings: unknown fixes 'extration'" in log.stdout + log.stderr


def test_a_misspelt_setting_is_refused_naming_it_when_the_docs_are_built(data):
    from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import variant

    process_docs_my_fixed = variant(["mt1_two"], fixs=["extraction"])
    with data_locations(data), pytest.raises(TypeError, match="got an unexpected keyword argument 'fixs'"):
        process_docs_my_fixed(placeholder())


def test_an_external_yaml_s_metadata_is_applied_and_recorded_in_lm_eval(data, tmp_path):
    switched = {"version": 1.0, "data_split": "test", "close_max_distance": 3, "switched": True}
    folder = external_folder(tmp_path / "mine", {"catbench_mine": f"include: {LM_EVAL_TASK_DIR / 'catbench' / 'catbench_switched.yaml'}\ntask: catbench_mine\nmetadata: {json.dumps(switched)}\n"})
    results = lm_eval(tmp_path / "out", ["catbench_mine"], "policy=oracle", data, include_path=folder)
    assert results["n-samples"]["catbench_mine"]["effective"] == len(with_switched_twins(load_split("test", data_dir=data["CATBENCH_DATA_DIR"])))
    metadata = results["configs"]["catbench_mine"]["metadata"]
    assert {key: metadata[key] for key in switched} == switched
