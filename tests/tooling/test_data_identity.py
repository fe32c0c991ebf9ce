"""Which data a run read, as the commands compute it after the run from what the harness logged
(temporal_bench/runs/data_read.py): a fingerprint of the questions, gold answers and images, where the images lie,
whether it is generated data; variants of one's own (docs/harness.md) applied and recorded; rescore finds the
release above the images the run read."""

import json
import shutil
import sys
from pathlib import Path

import pytest
from PIL import Image

from temporal_bench.browse.cli import main_browse
from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.catbench.record_reader import RELEASE_FINGERPRINTS
from temporal_bench.check import main_check
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks.catbench import utils as catbench_utils
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from temporal_bench.paths import LM_EVAL_TASK_DIR, PLUGIN_TASK_DIR
from temporal_bench.report.cli import main_report
from temporal_bench.rescore.cli import main_rescore
from temporal_bench.runs.data_read import data_read
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.records import read_record
from tests.harness import BIN, lm_eval, lmms_eval, read_samples, run_cli
from tests.task_docs import catbench_split as load_split
from tests.task_docs import task_docs
from tests.tempvs_fixture_copies import write_tempvs

TEMPVS_METADATA = {"version": 1.0, "tests": ["mt1_two"], "mode": "standard", "visual": "combined", "blind_filter": True, "fixes": [], "sources": ["flintstones", "pororo", "vwp", "vist"], "suite": False}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("data_identity")
    return {"TEMPVS_DATA_DIR": str(write_tempvs(root / "tempvs", n_sequences=4)), "CATBENCH_DATA_DIR": str(write_catbench(root / "catbench")), "ISOBENCH_DATA_DIR": str(write_isobench(root / "isobench", "json"))}


@pytest.fixture(scope="module")
def logged_run(data, tmp_path_factory):
    """The output folder of an lmms-eval run with --log_samples of one task per benchmark."""
    root = tmp_path_factory.mktemp("logged_run")
    lmms_eval(root, ["tempvs_mt1_two", "catbench", "isobench"], env=data)
    return root / "lmms_eval_out"


def reads(out: Path) -> dict:
    (run,) = find_runs(out)
    return {task: run.data_read(task) for task in run.tasks}


def test_check_names_the_data_each_task_read(data, logged_run, capsys):
    assert main_check([str(logged_run)]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = reads(logged_run)
    assert f"check: tempvs_mt1_two: {found['tempvs_mt1_two'].questions:,} question(s), fingerprint {found['tempvs_mt1_two'].fingerprint} (images under {data['TEMPVS_DATA_DIR']}; synthetic data)" in lines
    assert f"check: isobench: 16 question(s), fingerprint {found['isobench'].fingerprint} (images under {data['ISOBENCH_DATA_DIR']}/images; synthetic data)" in lines
    assert any(line.startswith("check: catbench: 48 question(s), fingerprint ") and line.endswith("(its data variable's folder or the hub release; the run does not record which); synthetic data)") for line in lines)
    questions = load_split("test", data["CATBENCH_DATA_DIR"])
    close = [q for q in questions if q["step_b"] - q["step_a"] <= 3]
    expected = {"questions": 48, "plans": 3, "dep": 24, "before": 24, "close": len(close), "dep_close": sum(q["dependency"] == "dep" for q in close), "dep_plans": 3, "nondep_plans": 3}
    assert found["catbench"].counts == expected
    assert found["tempvs_mt1_two"].images == len({line["input_media"][0] for line in read_samples(logged_run, "tempvs_mt1_two")})


def test_the_fingerprint_is_the_content_and_the_images_not_the_folder(data, tmp_path):
    """The same data in another folder: the same fingerprint; one image replaced by another: another."""
    copy = Path(shutil.copytree(data["ISOBENCH_DATA_DIR"], tmp_path / "copy"))
    first = reads(_run(tmp_path / "a", Path(data["ISOBENCH_DATA_DIR"])))["isobench"]
    assert first.fingerprint == reads(_run(tmp_path / "b", copy))["isobench"].fingerprint
    for image in sorted((copy / "images").glob("*.jpg")):
        Image.new("RGB", (96, 72), "grey").save(image)  # every picture replaced by one, the annotations as they were
    other = reads(_run(tmp_path / "c", copy))["isobench"]
    assert other.fingerprint != first.fingerprint and other.counts == first.counts


def _run(root: Path, folder: Path) -> Path:
    lmms_eval(root, ["isobench"], env={"ISOBENCH_DATA_DIR": str(folder)})
    return root / "lmms_eval_out"


def _lines(docs, process_results, doc_to_text, response: str):
    """Sample lines as lmms-eval logs them for these docs and one response."""
    return [{"doc_id": i, "input": doc_to_text(doc), "target": doc["answer"], "filtered_resps": response, **process_results(doc, [response])} for i, doc in enumerate(docs)]


def test_the_catbench_validation_split_has_the_release_fingerprint(catbench_val, tmp_path):
    """The fingerprint the report holds runs against (catbench/record_reader.py): of the real questions, whatever the
    prompt mode and with or without the switched twins; a copy with labels swapped between two pairs has another."""
    config = {"test_split": "validation", "metadata": {}}

    def fingerprint(folder, process_docs, doc_to_text):
        docs = task_docs("catbench", folder, split="validation") if process_docs is None else list(process_docs)
        lines = _lines(docs, catbench_utils.process_results_answer_only, doc_to_text, "yes")
        return data_read("catbench", lines, [read_record("catbench", line, config, {}) for line in lines], config, {}).fingerprint

    assert fingerprint(catbench_val, None, catbench_utils.doc_to_text_answer_only) == RELEASE_FINGERPRINTS["validation"]
    switched = with_switched_twins(task_docs("catbench", catbench_val, split="validation"))
    assert fingerprint(catbench_val, switched, catbench_utils.doc_to_text_cot) == RELEASE_FINGERPRINTS["validation"]
    swapped = Path(shutil.copytree(catbench_val, tmp_path / "val"))
    for relation in ("before", "after"):  # one Dep pair and one NonDep pair trade labels, the file sizes unchanged in sum
        a, b = (swapped / f"{kind}_real_{relation}.jsonl" for kind in ("dependent", "nondependent"))
        rows_a, rows_b = a.read_text().splitlines(True), b.read_text().splitlines(True)
        a.write_text("".join([rows_b[0], *rows_a[1:]]))
        b.write_text("".join([rows_a[0], *rows_b[1:]]))
    assert fingerprint(swapped, None, catbench_utils.doc_to_text_answer_only) != RELEASE_FINGERPRINTS["validation"]


def test_a_run_without_log_samples_fails_check_naming_the_fix(data, tmp_path, capsys):
    lmms_eval(tmp_path, ["catbench"], env=data, log_samples=False)
    assert main_check([str(tmp_path / "lmms_eval_out")]) == 1
    err = capsys.readouterr().err
    assert "catbench: no samples file" in err and "run with --log_samples" in err


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


@pytest.mark.parametrize(
    "settings, message",
    [
        ('["mt1_two"], fixes=["extration"]', "TempVSDataError: TempVS task settings: unknown fixes 'extration'"),  # a misspelt value
        ('["mt1_two"], fixs=["extraction"]', "got an unexpected keyword argument 'fixs'"),  # a misspelt setting
    ],
)
def test_an_external_variant_whose_settings_cannot_run_stops_the_run_naming_the_setting(data, tmp_path, settings, message):
    folder = external_folder(tmp_path / "mine", {"my_fixed": f"include: {PLUGIN_TASK_DIR / 'tempvs' / 'tempvs_mt1_two.yaml'}\ntask: my_fixed\nprocess_docs: !function utils.process_docs_my_fixed\n"})
    (folder / "utils.py").write_text(f"from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import variant\n\nprocess_docs_my_fixed = variant({settings})\n")
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", "policy=oracle", "--tasks", "my_fixed", "--include_path", str(folder), "--output_path", str(out)], out, data)
    assert not list(out.rglob("*_results.json"))
    assert message in log.stdout + log.stderr


def test_an_external_yaml_s_metadata_is_applied_and_recorded_in_lm_eval(data, tmp_path):
    switched = {"version": 1.0, "data_split": "test", "close_max_distance": 3, "switched": True}
    folder = external_folder(tmp_path / "mine", {"catbench_mine": f"include: {LM_EVAL_TASK_DIR / 'catbench' / 'catbench_switched.yaml'}\ntask: catbench_mine\nmetadata: {json.dumps(switched)}\n"})
    results = lm_eval(tmp_path / "out", ["catbench_mine"], "policy=oracle", data, include_path=folder)
    assert results["n-samples"]["catbench_mine"]["effective"] == len(with_switched_twins(load_split("test", data_dir=data["CATBENCH_DATA_DIR"])))
    metadata = results["configs"]["catbench_mine"]["metadata"]
    assert {key: metadata[key] for key in switched} == switched


# ---- rescore takes the release above the run's images -----------------------------------------------


def test_rescore_loads_the_release_above_the_images_and_names_the_option_when_it_moved(data, logged_run, tmp_path, capsys):
    assert main_rescore([str(logged_run), "--tasks", "tempvs_mt1_two"]) == 0
    captured = capsys.readouterr()
    assert "All 4 metrics equal the original run's." in captured.out
    assert f"temporal-bench rescore: data: TEMPVS_DATA_DIR={data['TEMPVS_DATA_DIR']} (the folder of the images the run read)" in captured.err.splitlines()
    moved = shutil.move(data["TEMPVS_DATA_DIR"], tmp_path / "moved")
    try:
        with pytest.raises(SystemExit):
            main_rescore([str(logged_run), "--tasks", "tempvs_mt1_two"])
        assert "give the run's folder with --data TEMPVS_DATA_DIR=FOLDER" in capsys.readouterr().err
        assert main_rescore([str(logged_run), "--tasks", "tempvs_mt1_two", f"--data=TEMPVS_DATA_DIR={moved}"]) == 0
        assert f"temporal-bench rescore: data: TEMPVS_DATA_DIR={moved} (given with --data)" in capsys.readouterr().err.splitlines()
    finally:
        shutil.move(moved, data["TEMPVS_DATA_DIR"])


# ---- one read of each file ----------------------------------------------------------------------

OPENED: list = []  # while a command runs under the audit hook: the files it opens


def _count_opens(event, args):
    if OPENED and event == "open" and isinstance(args[0], (str, Path)):
        OPENED[0].append(str(args[0]))


sys.addaudithook(_count_opens)  # audit hooks stay for the process: this one counts only while OPENED holds a list


@pytest.mark.parametrize("command", ["report", "check", "browse"])
def test_each_command_opens_each_results_and_samples_file_once(logged_run, tmp_path, command):
    """The one run model: every results and samples file is read once, whatever the command computes from it."""
    argv = {"report": [str(logged_run), "--output-dir", str(tmp_path / "report")], "check": [str(logged_run)], "browse": [str(logged_run), "--output", str(tmp_path / "page.html")]}[command]
    main = {"report": main_report, "check": main_check, "browse": main_browse}[command]
    OPENED.append([])
    try:
        main(argv)
    finally:
        opened = OPENED.pop()
    files = [path for path in opened if path.endswith("_results.json") or "_samples_" in path]
    assert files and {path: files.count(path) for path in files if files.count(path) > 1} == {}
    assert {Path(path).name for path in files} >= {p.name for pattern in ("*_results.json", "*_samples_*.jsonl") for p in logged_run.rglob(pattern)}
