"""Which data a run read, as the commands compute it after the run from what the harness logged
(temporal_bench/runs/data_read.py), on recorded runs (tests/recorded/data_identity.py): a fingerprint of the
questions, gold answers and images, where the images lie, whether it is generated data; rescore finds the release
above the images the run read. Variants of one's own (docs/harness.md) applied and recorded by the harness:
tests/e2e/test_data_identity_runs.py."""

import shutil
import sys
from pathlib import Path

import pytest

from temporal_bench.browse.cli import main_browse
from temporal_bench.catbench.record_reader import RELEASE_FINGERPRINTS
from temporal_bench.check import main_check
from temporal_bench.lmms_eval_tasks.catbench import utils as catbench_utils
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from temporal_bench.report.cli import main_report
from temporal_bench.runs.data_read import data_read
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.records import read_record
from tests.harness import read_samples
from tests.task_docs import catbench_split as load_split
from tests.task_docs import task_docs


@pytest.fixture(scope="module")
def data(recorded):
    return recorded("data_identity_logged").env


@pytest.fixture(scope="module")
def logged_run(recorded):
    """The output folder of an lmms-eval run with --log_samples of one task per benchmark."""
    return recorded("data_identity_logged").out


def reads(out: Path) -> dict:
    (run,) = find_runs(out)
    return {task: run.data_read(task) for task in run.tasks}


def test_check_names_the_data_each_task_read(data, logged_run, capsys):
    assert main_check([str(logged_run)]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = reads(logged_run)
    assert f"check: tempvs_mt1_two: {found['tempvs_mt1_two'].questions:,} question(s), fingerprint {found['tempvs_mt1_two'].fingerprint} (images under {data['TEMPVS_DATA_DIR']}; synthetic data)" in lines
    assert f"check: isobench: 16 question(s), fingerprint {found['isobench'].fingerprint} (images under {data['ISOBENCH_DATA_DIR']}/images; synthetic data)" in lines
    assert any(line.startswith("check: catbench: 48 question(s), fingerprint ") and line.endswith("(its data variable's folder or the hub's copy (a task without images: the run does not say which); synthetic data)") for line in lines)
    questions = load_split("test", data["CATBENCH_DATA_DIR"])
    close = [q for q in questions if q["step_b"] - q["step_a"] <= 3]
    expected = {"questions": 48, "plans": 3, "dep": 24, "before": 24, "close": len(close), "dep_close": sum(q["dependency"] == "dep" for q in close), "dep_plans": 3, "nondep_plans": 3}
    assert found["catbench"].counts == expected
    assert found["tempvs_mt1_two"].images == len({line["input_media"][0] for line in read_samples(logged_run, "tempvs_mt1_two")})


def test_the_fingerprint_is_the_content_and_the_images_not_the_folder(recorded):
    """The same data in another folder: the same fingerprint; every picture replaced by one, the annotations as they
    were: another."""
    runs = recorded("isobench_copies").out
    first = reads(runs / "a")["isobench"]
    assert first.fingerprint == reads(runs / "moved")["isobench"].fingerprint
    other = reads(runs / "repainted")["isobench"]
    assert other.fingerprint != first.fingerprint and other.counts == first.counts


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


def test_a_run_without_log_samples_fails_check_naming_the_fix(recorded, capsys):
    assert main_check([str(recorded("data_identity_no_samples").out)]) == 1
    err = capsys.readouterr().err
    assert "catbench: no samples file" in err and "run with --log_samples" in err


# ---- rescore takes the release above the run's images -----------------------------------------------


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
