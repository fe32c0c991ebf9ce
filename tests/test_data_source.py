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
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import fingerprint
from temporal_bench.lmms_eval_tasks.catbench.data import RELEASE_DIR_NAMES, RELEASE_FILES
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from temporal_bench.lmms_eval_tasks.tempvs.docs import variant
from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR
from temporal_bench.rescore.cli import main_rescore
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs
from tests.harness import BIN, lm_eval, lmms_eval, read_samples, run_cli
from tests.task_docs import catbench_split as load_split
from tests.task_docs import isobench_records as load_records

TEMPVS_METADATA = {"version": 1.0, "tests": ["mt1_two"], "mode": "standard", "visual": "combined", "blind_filter": True, "fixes": [], "sources": ["flintstones", "pororo", "vwp", "vist"], "suite": False}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("data_source")
    return {"TEMPVS_DATA_DIR": str(write_tempvs(root / "tempvs")), "CATBENCH_DATA_DIR": str(write_catbench(root / "catbench")), "ISOBENCH_DATA_DIR": str(write_isobench(root / "isobench", "hf"))}


def catbench_fingerprint(data) -> str:
    """The fingerprint of the four release files of the test split, computed here from the files."""
    folder = Path(data["CATBENCH_DATA_DIR"]) / RELEASE_DIR_NAMES["test"]
    return fingerprint(folder / name for name in RELEASE_FILES.values())


def tempvs_docs(data, **settings):
    from temporal_bench.data_locations import data_locations

    with data_locations({"TEMPVS_DATA_DIR": data["TEMPVS_DATA_DIR"]}):
        return list(variant("tempvs_mt1_two", "mt1_two", **settings)(None))


def local(data, variable, value, files, **facts):
    return {"variable": variable, "folder": data[variable], "fingerprint": value, "files": files, "synthetic": True, **facts}


CATBENCH_FACTS = {"split": "test", "rows": 48, "expected_rows": 2840}


def test_an_lmms_eval_run_without_log_samples_names_its_data(data, tmp_path):
    results = lmms_eval(tmp_path, ["tempvs_mt1_two", "catbench", "isobench"], env=data, log_samples=False)
    assert not list((tmp_path / "lmms_eval_out").rglob("*_samples_*"))
    recorded = {task: entry["data_source,none"] for task, entry in results["results"].items()}
    assert recorded["tempvs_mt1_two"] == local(data, "TEMPVS_DATA_DIR", tempvs_docs(data)[0]["data"], 20)  # 4 sources x (main, grounding, 3 blind predictions)
    assert recorded["catbench"] == local(data, "CATBENCH_DATA_DIR", catbench_fingerprint(data), 4, **CATBENCH_FACTS)
    assert recorded["isobench"] == local(data, "ISOBENCH_DATA_DIR", load_records(data["ISOBENCH_DATA_DIR"])[0]["data"], 1, rows=16, expected_rows=764)
    metadata = {task: config["metadata"] for task, config in results["configs"].items()}
    assert metadata == {"tempvs_mt1_two": TEMPVS_METADATA, "catbench": {"version": 1.0, "close_max_distance": 3, "switched": False}, "isobench": {"version": 1.0, "data_split": None, "column_map": None}}


def test_an_lm_eval_run_without_log_samples_names_its_data(data, tmp_path):
    results = lm_eval(tmp_path / "out", ["catbench"], "policy=oracle", data, log_samples=False)
    assert not list((tmp_path / "out").rglob("samples_*"))
    assert results["configs"]["catbench"]["metadata"] == {"version": 1.0, "data_split": "test", "close_max_distance": 3, "switched": False, "policy": "oracle", "config_source": str(LM_EVAL_TASK_DIR / "catbench" / "catbench.yaml")}
    assert results["results"]["catbench"]["data_source,none"] == local(data, "CATBENCH_DATA_DIR", catbench_fingerprint(data), 4, **CATBENCH_FACTS)


# ---- a task YAML outside our folder that includes ours ----------------------------------------------


def external_folder(root: Path, yamls: dict) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in yamls.items():
        (root / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


MY_UTILS = """from temporal_bench.lmms_eval_tasks.catbench.utils import variant as catbench_variant
from temporal_bench.lmms_eval_tasks.tempvs.docs import variant as tempvs_variant

process_docs_my_mt1_two = tempvs_variant("my_mt1_two", "mt1_two", sources=("pororo",))
process_docs_my_catbench = catbench_variant("my_catbench", close_max_distance=1, switched=True)
"""


def test_an_external_variant_is_applied_and_recorded_in_lmms_eval(data, tmp_path):
    """A variant of one's own, as docs/harness.md describes: a YAML that includes ours, states its settings in its
    metadata and names a process_docs with them (a utils.py beside it)."""
    pororo = {**TEMPVS_METADATA, "sources": ["pororo"]}
    switched = {"version": 1.0, "close_max_distance": 1, "switched": True}
    folder = external_folder(
        tmp_path / "mine",
        {
            "my_mt1_two": f"include: {LMMS_EVAL_TASK_DIR / 'tempvs' / 'tempvs_mt1_two.yaml'}\ntask: my_mt1_two\nprocess_docs: !function utils.process_docs_my_mt1_two\nmetadata: {json.dumps(pororo)}\n",
            "my_catbench": f"include: {LMMS_EVAL_TASK_DIR / 'catbench' / 'catbench.yaml'}\ntask: my_catbench\nprocess_docs: !function utils.process_docs_my_catbench\nmetadata: {json.dumps(switched)}\n",
        },
    )
    (folder / "utils.py").write_text(MY_UTILS, encoding="utf-8")
    results = lmms_eval(tmp_path, ["my_mt1_two", "my_catbench"], env=data, extra=["--include_path", str(folder)])
    docs = tempvs_docs(data, sources=("pororo",))
    assert {doc["source"] for doc in docs} == {"pororo"} and len(docs) < len(tempvs_docs(data))
    assert results["n-samples"]["my_mt1_two"]["effective"] == len(docs)
    assert results["configs"]["my_mt1_two"]["metadata"] == pororo
    assert results["results"]["my_mt1_two"]["data_source,none"] == local(data, "TEMPVS_DATA_DIR", docs[0]["data"], 5)
    questions = load_split("test", data_dir=data["CATBENCH_DATA_DIR"])
    assert results["n-samples"]["my_catbench"]["effective"] == len(with_switched_twins(questions)) > len(questions)
    assert results["configs"]["my_catbench"]["metadata"] == switched
    assert {line["f1_macro"]["close_max_distance"] for line in read_samples(tmp_path / "lmms_eval_out", "my_catbench")} == {1}
    assert results["results"]["my_catbench"]["occ,none"] == 1.0  # OCC needs the switched twins


@pytest.mark.parametrize(
    "settings, message",
    [
        ('"mt1_two", fixes=("extration",)', "TempVSDataError: TempVS task settings: unknown fixes 'extration'"),  # a misspelt value
        ('"mt1_two", fixs=("extraction",)', "got an unexpected keyword argument 'fixs'"),  # a misspelt setting
    ],
)
def test_an_external_variant_whose_settings_cannot_run_stops_the_run_naming_the_setting(data, tmp_path, settings, message):
    folder = external_folder(tmp_path / "mine", {"my_fixed": f"include: {LMMS_EVAL_TASK_DIR / 'tempvs' / 'tempvs_mt1_two.yaml'}\ntask: my_fixed\nprocess_docs: !function utils.process_docs_my_fixed\n"})
    (folder / "utils.py").write_text(f"from temporal_bench.lmms_eval_tasks.tempvs.docs import variant\n\nprocess_docs_my_fixed = variant('my_fixed', {settings})\n")
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", "policy=oracle", "--tasks", "my_fixed", "--include_path", str(folder), "--output_path", str(out)], out, data)
    assert not list(out.rglob("*_results.json"))
    assert message in log.stdout + log.stderr


def test_an_external_yaml_s_metadata_is_applied_and_recorded_in_lm_eval(data, tmp_path):
    switched = {"version": 1.0, "data_split": "test", "close_max_distance": 3, "switched": True}
    folder = external_folder(tmp_path / "mine", {"my_catbench": f"include: {LM_EVAL_TASK_DIR / 'catbench' / 'catbench.yaml'}\ntask: my_catbench\nmetadata: {json.dumps(switched)}\n"})
    results = lm_eval(tmp_path / "out", ["my_catbench"], "policy=oracle", data, include_path=folder)
    assert results["n-samples"]["my_catbench"]["effective"] == len(with_switched_twins(load_split("test", data_dir=data["CATBENCH_DATA_DIR"])))
    metadata = results["configs"]["my_catbench"]["metadata"]
    assert {key: metadata[key] for key in switched} == switched
    assert results["results"]["my_catbench"]["data_source,none"] == local(data, "CATBENCH_DATA_DIR", catbench_fingerprint(data), 4, **CATBENCH_FACTS)


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
    assert [line for line in captured.err.splitlines() if "data:" in line] == [f"temporal-bench rescore: {used(data, 'CATBENCH_DATA_DIR')}", f"temporal-bench rescore: {used(data, 'TEMPVS_DATA_DIR')}"]
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
            assert (f"the run's data folder {data[variable]} ({variable}) no longer exists; pass --data {variable}=FOLDER with the run's data") in err
        given = [f"--data={variable}={folder}" for variable, folder in moved.items()]
        assert main_rescore([str(out), *given]) == 0
        captured = capsys.readouterr()
        assert "All 19 metrics equal the original run's." in captured.out
        assert (f"temporal-bench rescore: data: TEMPVS_DATA_DIR={moved['TEMPVS_DATA_DIR']} (given with --data) (the run read folder {data['TEMPVS_DATA_DIR']})") in captured.err.splitlines()
        # a task not re-scored needs no data
        assert main_rescore([str(out), "--tasks", "catbench", f"--data=CATBENCH_DATA_DIR={moved['CATBENCH_DATA_DIR']}"]) == 0
        assert "TEMPVS_DATA_DIR" not in capsys.readouterr().err
        # browse still writes every card; the images say where the data was looked for
        page = tmp_path / "page.html"
        assert main_browse([str(out), "-o", str(page)]) == 0
        err = capsys.readouterr().err
        assert (f"temporal-bench browse: data: the run's data folder {data['TEMPVS_DATA_DIR']} (TEMPVS_DATA_DIR) no longer exists; pass --data TEMPVS_DATA_DIR=FOLDER with the run's data") in err.splitlines()
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
    assert (f"temporal-bench rescore: catbench: its data now (folder {copy}, fingerprint {now}) is not the run's (folder {data['CATBENCH_DATA_DIR']}, fingerprint {before}); re-scored on the data found now") in captured.err
    assert json.loads(written.read_text())["results"]["catbench"]["data_source,none"] == {"variable": "CATBENCH_DATA_DIR", "folder": str(copy), "fingerprint": now, "files": 4, "synthetic": True, **CATBENCH_FACTS}


def test_a_run_that_recorded_no_data_source_is_named(logged_run, tmp_path, capsys, monkeypatch):
    data, out = logged_run
    older = shutil.copytree(out, tmp_path / "older")
    [results_file] = older.rglob("*_results.json")
    results = json.loads(results_file.read_text(encoding="utf-8"))
    for entry in results["results"].values():
        del entry["data_source,none"]
    results_file.write_text(json.dumps(results), encoding="utf-8")
    monkeypatch.setenv("TEMPVS_DATA_DIR", data["TEMPVS_DATA_DIR"])
    assert main_rescore([str(older), "--tasks", "tempvs_mt1_two"]) == 0
    assert [line for line in capsys.readouterr().err.splitlines() if "data:" in line] == ["temporal-bench rescore: data: tempvs_mt1_two: the run recorded no data source; loaded where the environment says"]
