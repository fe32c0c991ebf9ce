"""Every run says what it was computed on (docs/harness.md "What a run records"), through the real
CLIs: the results JSON names each task's data (folder or hub revision, fingerprint) with or without
``--log_samples`` in lmms-eval and lm-eval; a task YAML outside our folder that includes ours runs
with the metadata it records; ``temporal-bench rescore`` and ``browse`` load the data the run
recorded unless told otherwise, and say so."""

import json
import shutil
from pathlib import Path

import pytest

from temporal_bench.browse.cli import main_browse
from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.catbench.loading import RELEASE_DIR_NAMES, RELEASE_FILES, load_split
from temporal_bench.catbench.questions import with_switched_twins
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.isobench.loading import load_records
from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR
from temporal_bench.rescore.cli import main_rescore
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs
from temporal_bench.tempvs.hooks import docs_of
from temporal_bench.tempvs.settings import TaskConfig, TaskSettings
from temporal_bench.utils.data_fingerprint import fingerprint
from tests.harness import BIN, lm_eval, lmms_eval, read_samples, run_cli

TEMPVS_METADATA = {"version": 2.1, "tests": ["mt1_two"], "mode": "standard", "visual": "combined", "blind_filter": True,
                   "fixes": [], "sources": ["flintstones", "pororo", "vwp", "vist"]}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("data_source")
    return {"TEMPVS_DATA_DIR": str(write_tempvs(root / "tempvs")),
            "CATBENCH_DATA_DIR": str(write_catbench(root / "catbench")),
            "ISOBENCH_DATA_DIR": str(write_isobench(root / "isobench", "hf"))}


def catbench_fingerprint(data) -> str:
    """The fingerprint of the four release files of the test split, computed here from the files."""
    folder = Path(data["CATBENCH_DATA_DIR"]) / RELEASE_DIR_NAMES["test"]
    return fingerprint(folder / name for name in RELEASE_FILES.values())


def tempvs_docs(data, **settings):
    task = TaskConfig("tempvs_mt1_two", TaskSettings.from_metadata("tempvs_mt1_two", {**TEMPVS_METADATA, **settings}))
    return docs_of(task, data_dir=data["TEMPVS_DATA_DIR"])


def local(data, variable, value, files):
    return {"variable": variable, "folder": data[variable], "fingerprint": value, "files": files}


def test_an_lmms_eval_run_without_log_samples_names_its_data(data, tmp_path):
    results = lmms_eval(tmp_path, ["tempvs_mt1_two", "catbench", "isobench"], env=data, log_samples=False)
    assert not list((tmp_path / "lmms_eval_out").rglob("*_samples_*"))
    recorded = {task: config["metadata"] for task, config in results["configs"].items()}
    assert recorded["tempvs_mt1_two"] == {**TEMPVS_METADATA, "data_source": local(
        data, "TEMPVS_DATA_DIR", tempvs_docs(data)[0]["data"], 20)}  # 4 sources x (main, grounding, 3 blind predictions)
    assert recorded["catbench"] == {"version": 1.0, "close_max_distance": 3, "switched": False, "data_source": local(
        data, "CATBENCH_DATA_DIR", catbench_fingerprint(data), 4)}
    assert recorded["isobench"] == {"version": 1.0, "data_split": None, "column_map": {}, "data_source": local(
        data, "ISOBENCH_DATA_DIR", load_records(data["ISOBENCH_DATA_DIR"])[0]["data"], 1)}


def test_an_lm_eval_run_without_log_samples_names_its_data(data, tmp_path):
    results = lm_eval(tmp_path / "out", ["catbench"], "policy=oracle", data, log_samples=False)
    assert not list((tmp_path / "out").rglob("samples_*"))
    assert results["configs"]["catbench"]["metadata"] == {
        "version": 1.0, "data_split": "test", "close_max_distance": 3, "switched": False, "policy": "oracle",
        "config_source": str(LM_EVAL_TASK_DIR / "catbench" / "catbench.yaml"),
        "data_source": local(data, "CATBENCH_DATA_DIR", catbench_fingerprint(data), 4)}


# ---- a task YAML outside our folder that includes ours ----------------------------------------------

def external_folder(root: Path, yamls: dict) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in yamls.items():
        (root / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


def test_an_external_yaml_s_metadata_is_applied_and_recorded_in_lmms_eval(data, tmp_path):
    pororo = {**TEMPVS_METADATA, "sources": ["pororo"]}
    switched = {"version": 1.0, "close_max_distance": 1, "switched": True}
    folder = external_folder(tmp_path / "mine", {
        "my_mt1_two": f"include: {LMMS_EVAL_TASK_DIR / 'tempvs' / 'tempvs_mt1_two.yaml'}\ntask: my_mt1_two\nmetadata: {json.dumps(pororo)}\n",
        "my_catbench": f"include: {LMMS_EVAL_TASK_DIR / 'catbench' / 'catbench.yaml'}\ntask: my_catbench\nmetadata: {json.dumps(switched)}\n"})
    results = lmms_eval(tmp_path, ["my_mt1_two", "my_catbench"], env=data, extra=["--include_path", str(folder)])
    docs = tempvs_docs(data, sources=["pororo"])
    assert {doc["source"] for doc in docs} == {"pororo"} and len(docs) < len(tempvs_docs(data))
    assert results["n-samples"]["my_mt1_two"]["effective"] == len(docs)
    assert results["configs"]["my_mt1_two"]["metadata"] == {**pororo, "data_source": local(
        data, "TEMPVS_DATA_DIR", docs[0]["data"], 5)}
    questions = load_split("test", data_dir=data["CATBENCH_DATA_DIR"])
    assert results["n-samples"]["my_catbench"]["effective"] == len(with_switched_twins(questions)) > len(questions)
    assert results["configs"]["my_catbench"]["metadata"] == {**switched, "data_source": local(
        data, "CATBENCH_DATA_DIR", catbench_fingerprint(data), 4)}
    assert {line["f1_macro"]["close_max_distance"] for line in read_samples(tmp_path / "lmms_eval_out", "my_catbench")} == {1}
    assert results["results"]["my_catbench"]["occ,none"] == 1.0  # OCC needs the switched twins


@pytest.mark.parametrize("metadata, message", [
    ("{version: 2.0, fixes: [extraction]}", "its YAML metadata names no `tests`"),
    ("{version: 2.0, tests: [mt1_two], fixs: [extraction]}", "unknown setting(s) ['fixs'] in its YAML metadata"),  # misspelt
])
def test_an_external_yaml_whose_metadata_cannot_run_stops_the_run_naming_the_setting(data, tmp_path, metadata, message):
    folder = external_folder(tmp_path / "mine", {
        "my_fixed": f"include: {LMMS_EVAL_TASK_DIR / 'tempvs' / 'tempvs_mt1_two.yaml'}\ntask: my_fixed\nmetadata: {metadata}\n"})
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", "policy=oracle", "--tasks", "my_fixed",
                   "--include_path", str(folder), "--output_path", str(out)], out, data)
    assert log.returncode == 1 and not list(out.rglob("*_results.json"))
    assert f"TempVSSettingsError: my_fixed: {message}" in log.stdout + log.stderr


def test_an_external_yaml_s_metadata_is_applied_and_recorded_in_lm_eval(data, tmp_path):
    switched = {"version": 1.0, "data_split": "test", "close_max_distance": 3, "switched": True}
    folder = external_folder(tmp_path / "mine", {
        "my_catbench": f"include: {LM_EVAL_TASK_DIR / 'catbench' / 'catbench.yaml'}\ntask: my_catbench\nmetadata: {json.dumps(switched)}\n"})
    results = lm_eval(tmp_path / "out", ["my_catbench"], "policy=oracle", data, include_path=folder)
    assert results["n-samples"]["my_catbench"]["effective"] == len(with_switched_twins(load_split("test", data_dir=data["CATBENCH_DATA_DIR"])))
    metadata = results["configs"]["my_catbench"]["metadata"]
    assert {key: metadata[key] for key in switched} == switched
    assert metadata["data_source"] == local(data, "CATBENCH_DATA_DIR", catbench_fingerprint(data), 4)


# ---- rescore and browse take the run's data ---------------------------------------------------------

@pytest.fixture(scope="module")
def logged_run(tmp_path_factory):
    """(data folders, output folder) of an lmms-eval run with --log_samples whose data folders are its own to move."""
    root = tmp_path_factory.mktemp("logged_run")
    data = {"TEMPVS_DATA_DIR": str(write_tempvs(root / "tempvs")), "CATBENCH_DATA_DIR": str(write_catbench(root / "catbench"))}
    lmms_eval(root, ["tempvs_mt1_two", "catbench"], env=data)
    return data, root / "lmms_eval_out"


def used(data, variable):
    return f"data: {variable}={data[variable]} (the folder the run read, from its results JSON)"


def test_rescore_and_browse_load_the_data_the_run_recorded(logged_run, tmp_path, capsys):
    data, out = logged_run
    assert main_rescore([str(out)]) == 0
    captured = capsys.readouterr()
    assert "All 19 metrics equal the original run's." in captured.out
    assert [line for line in captured.err.splitlines() if "data:" in line] == [
        f"temporal-bench rescore: {used(data, 'CATBENCH_DATA_DIR')}", f"temporal-bench rescore: {used(data, 'TEMPVS_DATA_DIR')}"]
    page = tmp_path / "page.html"
    assert main_browse([str(out), "-o", str(page)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(page)
    assert f"temporal-bench browse: {used(data, 'TEMPVS_DATA_DIR')}" in captured.err.splitlines()
    assert 'data-missing="0"' in page.read_text(encoding="utf-8")  # every image found


def test_a_moved_data_folder_is_named_with_the_option_to_pass(logged_run, tmp_path, capsys):
    data, out = logged_run
    moved = {variable: str(shutil.move(folder, tmp_path / Path(folder).name)) for variable, folder in data.items()}
    try:
        with pytest.raises(SystemExit):
            main_rescore([str(out)])
        err = capsys.readouterr().err
        for variable in data:
            assert (f"the run's data folder {data[variable]} ({variable}) no longer exists; "
                    f"pass --data {variable}=FOLDER with the run's data") in err
        given = [f"--data={variable}={folder}" for variable, folder in moved.items()]
        assert main_rescore([str(out), *given]) == 0
        captured = capsys.readouterr()
        assert "All 19 metrics equal the original run's." in captured.out
        assert (f"temporal-bench rescore: data: TEMPVS_DATA_DIR={moved['TEMPVS_DATA_DIR']} (given with --data) "
                f"(the run read folder {data['TEMPVS_DATA_DIR']})") in captured.err.splitlines()
        # a task not re-scored needs no data
        assert main_rescore([str(out), "--tasks", "catbench", f"--data=CATBENCH_DATA_DIR={moved['CATBENCH_DATA_DIR']}"]) == 0
        assert "TEMPVS_DATA_DIR" not in capsys.readouterr().err
        # browse still writes every card; the images say where the data was looked for
        page = tmp_path / "page.html"
        assert main_browse([str(out), "-o", str(page)]) == 0
        err = capsys.readouterr().err
        assert (f"temporal-bench browse: data: the run's data folder {data['TEMPVS_DATA_DIR']} (TEMPVS_DATA_DIR) no longer "
                "exists; pass --data TEMPVS_DATA_DIR=FOLDER with the run's data") in err.splitlines()
        assert f"TEMPVS_DATA_DIR={data['TEMPVS_DATA_DIR']!r} is not a directory" in page.read_text(encoding="utf-8")
    finally:
        for variable, folder in moved.items():
            shutil.move(folder, data[variable])


def test_rescore_warns_when_the_data_found_now_has_another_fingerprint(logged_run, tmp_path, capsys):
    data, out = logged_run
    copy = shutil.copytree(data["CATBENCH_DATA_DIR"], tmp_path / "catbench")
    release_file = copy / RELEASE_DIR_NAMES["test"] / next(iter(RELEASE_FILES.values()))
    release_file.write_text(release_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # the same rows
    written = tmp_path / "rescored.json"
    assert main_rescore([str(out), "--tasks", "catbench", f"--data=CATBENCH_DATA_DIR={copy}", "--write-results", str(written)]) == 0
    captured = capsys.readouterr()
    before, now = catbench_fingerprint(data), catbench_fingerprint({"CATBENCH_DATA_DIR": str(copy)})
    assert before != now and "All 13 metrics equal the original run's." in captured.out
    assert (f"temporal-bench rescore: catbench: its data now (folder {copy}, fingerprint {now}) is not the run's "
            f"(folder {data['CATBENCH_DATA_DIR']}, fingerprint {before}); re-scored on the data found now") in captured.err
    assert json.loads(written.read_text())["configs"]["catbench"]["metadata"]["data_source"] == {
        "variable": "CATBENCH_DATA_DIR", "folder": str(copy), "fingerprint": now, "files": 4}


def test_a_run_that_recorded_no_data_source_is_named(logged_run, tmp_path, capsys, monkeypatch):
    data, out = logged_run
    older = shutil.copytree(out, tmp_path / "older")
    [results_file] = older.rglob("*_results.json")
    results = json.loads(results_file.read_text(encoding="utf-8"))
    for config in results["configs"].values():
        del config["metadata"]["data_source"]
    results_file.write_text(json.dumps(results), encoding="utf-8")
    monkeypatch.setenv("TEMPVS_DATA_DIR", data["TEMPVS_DATA_DIR"])
    assert main_rescore([str(older), "--tasks", "tempvs_mt1_two"]) == 0
    assert [line for line in capsys.readouterr().err.splitlines() if "data:" in line] == [
        "temporal-bench rescore: data: tempvs_mt1_two: the run recorded no data source; loaded where the environment says"]
