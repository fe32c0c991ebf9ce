"""When ``temporal-bench report`` holds a run against a paper (issue 40): only a complete run whose every request
succeeded, on the release's own data as its paper's tables evaluated it. The data is the release's when its content
fingerprint (questions, gold answers, images: temporal_bench/runs/data_read.py) is the one recorded for the release,
or, where none is known here, when every count known of the release matches (the row says so: the weaker basis).

On runs through lmms-eval and lm-eval, recorded (tests/recorded/release_gate.py): a CaT-Bench test split of the
release's counts (its plans made up, but not marked as generated) gets verdicts on the weaker basis; the same split
with 400 gold labels swapped between the classes (every file keeps its size) gets none; 30% failed requests get none and say why; the real validation split is not the
paper's split; a known fingerprint gives verdicts and any other fingerprint none; ISO-Bench runs on the same
annotations with other images are told apart (the same data in another folder is not).
"""

from pathlib import Path

import pytest

from temporal_bench.catbench import record_reader
from temporal_bench.report.cli import main_report
from temporal_bench.runs.logged import find_runs
from tests.cli import temporal_bench
from tests.recorded.data_identity import ISOBENCH_QUESTIONS
from tests.recorded.release_gate import FAILED_SHARE_DOCS, UNMARKED_TEMPVS_TASKS

GPT_4O = "gpt-4o-2024-05-13"  # the CaT-Bench paper's GPT-4o (App. A)


def report(capsys, folder: Path, *options) -> str:
    assert main_report([str(folder), "--label", GPT_4O, "--table", "catbench-table1", *options]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def release_copy(recorded):
    return recorded("release_gate_shaped").out


def test_a_copy_with_every_count_of_the_release_gets_verdicts_on_the_weaker_basis(release_copy, capsys):
    read = find_runs(release_copy)[0].data_read("catbench")
    assert read.counts == record_reader.RELEASE_COUNTS["test"] and not read.synthetic
    out = report(capsys, release_copy)
    assert "Verdict: " in out and "| gpt-4o | A | published | 0.53 " in out
    assert "catbench: every count known of the release matches (no fingerprint of the release is known here: a weaker check)" in out


def test_the_same_split_with_400_labels_swapped_gets_no_verdict(recorded, capsys):
    folder = recorded("release_gate_swapped").out
    counts = find_runs(folder)[0].data_read("catbench").counts
    assert (counts["questions"], counts["dep"], counts["before"], counts["plans"]) == (2840, 1420, 1420, 57)  # the counts a size check reads
    out = report(capsys, folder)
    assert "Verdict" not in out and f"| **{GPT_4O}** (not the release's data) | A | measured |" in out
    assert "catbench has no verdict: not the release's data: counts (read / the release's): " in out and "dep_close " in out


def test_failed_requests_get_no_verdict_and_say_how_many(recorded, capsys, read_as_release):
    """30% of the requests fail (lmms-eval's failure text): the numbers are shown, with the count, and no verdict."""
    n_docs = FAILED_SHARE_DOCS
    out = report(capsys, recorded("release_gate_failed_requests").out)
    assert "Verdict" not in out and f"| **{GPT_4O}** (failed requests) | A | measured |" in out
    assert f"catbench had {sum(1 for i in range(n_docs) if i % 10 < 3)} of {n_docs} request(s) fail or bring no response" in out


def test_the_validation_split_is_not_the_split_of_the_papers_tables(recorded, capsys):
    """The real validation split (its recorded fingerprint), evaluated as such through lm-eval's --metadata."""
    output = recorded("release_gate_validation").out
    read = find_runs(output)[0].data_read("catbench")
    assert read.fingerprint == record_reader.RELEASE_FINGERPRINTS["validation"]
    out = report(capsys, output)
    assert "Verdict" not in out and "catbench has no verdict: it evaluated the validation split; the paper's tables are on the test split" in out


def test_a_known_fingerprint_gives_verdicts_and_any_other_none(release_copy, capsys, monkeypatch):
    read = find_runs(release_copy)[0].data_read("catbench")
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", read.fingerprint)
    out = report(capsys, release_copy)
    assert "Verdict: " in out and "weaker check" not in out
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", "0" * 16)
    out = report(capsys, release_copy)
    assert "Verdict" not in out and f"catbench has no verdict: not the release's data: fingerprint {read.fingerprint}, the release's is {'0' * 16}" in out


# ---- ISO-Bench: the images are part of the data's identity -----------------------------------------


@pytest.fixture(scope="module")
def isobench_runs(recorded):
    """The random baseline on ISO-Bench data, on a copy in another folder, and on a copy whose every image is one picture."""
    out = recorded("isobench_copies").out
    return {name: out / name for name in ("a", "moved", "repainted")}


def test_other_images_are_other_data(isobench_runs, tmp_path):
    """The same annotations with every image one picture: another fingerprint (check names it), refused by compare."""
    a, repainted = isobench_runs["a"], isobench_runs["repainted"]
    reads = [find_runs(run)[0].data_read("isobench") for run in (a, repainted)]
    assert reads[0].counts == reads[1].counts and reads[0].fingerprint != reads[1].fingerprint
    for run, read in zip((a, repainted), reads):
        assert f"isobench: {ISOBENCH_QUESTIONS} question(s), fingerprint {read.fingerprint} (" in temporal_bench("check", run, cwd=tmp_path).stdout
    log = temporal_bench("compare", a, repainted, cwd=tmp_path)
    assert log.returncode == 1 and "the runs read different data" in log.stderr and "--allow-different-data" in log.stderr


def test_the_same_data_in_another_folder_is_the_same_data(isobench_runs, tmp_path):
    log = temporal_bench("compare", isobench_runs["a"], isobench_runs["moved"], cwd=tmp_path)
    assert log.returncode == 0, log.stderr
    assert "different data" not in log.stdout


# ---- TempVS: generated data with its marker deleted is still not the release ------------------------


@pytest.mark.parametrize("task", UNMARKED_TEMPVS_TASKS)
def test_tempvs_generated_data_without_its_marker_gets_no_verdict(recorded, capsys, task):
    """MT1: Table 2 counts no evaluated questions, so no basis at all; MT3: the per-source counts differ."""
    assert main_report([str(recorded("release_gate_tempvs_unmarked").out / task), "--label", "InternVL2_5-8B"]) == 0
    out = capsys.readouterr().out
    assert "Verdict" not in out and "(not the release's data)" in out
    why = "the paper publishes no count of the questions its MT1 tasks evaluate" if task == "tempvs_mt1_two" else "not the release's data: counts (read / the release's): mt3_caption/flintstones 4/565"
    assert f"{task} has no verdict: {why}" in out


def test_one_models_runs_on_two_copies_of_the_data_are_refused_not_merged(recorded, capsys):
    """The same model run on the test split and then on other questions into one folder: the report does not quietly
    show the newer run, it names both files and their data (a re-run on the same data is no difference: test_check)."""
    out = recorded("release_gate_two_copies").out
    assert main_report([str(out), "--table", "catbench-table1"]) == 1
    err = capsys.readouterr().err
    older, newer = sorted(out.rglob("*_results.json"))
    assert f"catbench: **random_choice (seed=1)** is shown from {newer.as_posix()}, which read " in err and f"its other results file {older.as_posix()} read other questions" in err
    assert main_report([str(out), "--table", "catbench-table1", "--allow-different-data"]) == 0
