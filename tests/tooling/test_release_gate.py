"""When ``temporal-bench report`` holds a run against a paper (issues 40 and 52): only a complete run whose every
request succeeded with answers the parser reads, on the release's own data as its paper's tables evaluated it, of the
model its results file records. The data is the release's when its content fingerprint (questions, gold answers,
images: temporal_bench/runs/data_read.py) is the one recorded for the release; where none is recorded, data with every
count known of the release is shown with its values but unverified in its cells, never judged.

On runs through lmms-eval and lm-eval, recorded (tests/recorded/release_gate.py), each recorded as the paper's dated
GPT-4o where a verdict is asked (tests/recorded ``as_recorded_by``): a CaT-Bench test split of the release's counts
(its plans made up) is not the release (the test split's fingerprint is recorded), and where no fingerprint were
recorded it would be unverified; the same split with 400 gold labels swapped gets none; 30% failed requests get none;
the real validation split is the release's validation split but not the paper's; with the paper's split taken for the
validation split, the untouched split gets verdicts and a copy with 200 labels swapped within plan and distance class
(every count the same) none; a moving alias relabelled as the dated model gets none; a run whose every answer is
unparseable gets none, as check fails it; ISO-Bench data of Table 2's counts, its images replaced or not, is unverified;
generated data is generated whatever marker file is deleted.
"""

from pathlib import Path

import pytest

from temporal_bench.catbench import record_reader
from temporal_bench.check import main_check
from temporal_bench.report.cli import main_report
from temporal_bench.runs.logged import find_runs
from temporal_bench.synthetic_data import MARKER
from tests.cli import temporal_bench
from tests.recorded import as_recorded_by
from tests.recorded.data_identity import ISOBENCH_QUESTIONS
from tests.recorded.release_gate import FAILED_SHARE_DOCS, UNMARKED_TEMPVS_TASKS

GPT_4O = "gpt-4o-2024-05-13"  # the CaT-Bench paper's GPT-4o (App. A)
GPT_4O_ISO = "gpt-4o-2024-11-20"  # ISO-Bench's and TempVS's
VERDICT_MARKS = ("=", "≈", "≠")


def report(capsys, folder: Path, *options, table: str = "catbench-table1") -> str:
    assert main_report([str(folder), "--table", table, *options]) == 0
    return capsys.readouterr().out


def published_row(out: str, model: str = "gpt-4o", setting: str = "A") -> str:
    return next(line for line in out.splitlines() if line.startswith("| ") and f"| {model} | {setting} | published |" in line)


def cells(line: str) -> list[str]:
    """A table row's value cells (after rank, model, setting and source; before the notes column)."""
    return [cell.strip() for cell in line.strip("|").split("|")][4:-1]


@pytest.fixture(scope="module")
def as_gpt_4o(recorded, tmp_path_factory):
    """A recorded run's output folder as a run of ``model`` (default: CaT-Bench's dated GPT-4o) records it."""

    def copy(name: str, model: str = GPT_4O, sub: str = "") -> Path:
        return as_recorded_by(recorded(name).out / sub, model, tmp_path_factory.mktemp(f"{name}_{sub}_{model}") / "out")

    return copy


def test_the_fingerprints_of_both_released_splits_are_recorded():
    """The test split's from the official repository (benchmarks/verdict_gate.py runs it), the validation split's from
    its copy in tests/data/catbench/val."""
    assert set(record_reader.RELEASE_FINGERPRINTS) == {"test", "validation"}


def test_a_copy_with_every_count_of_the_release_is_not_the_release(as_gpt_4o, capsys):
    folder = as_gpt_4o("release_gate_shaped")
    read = find_runs(folder)[0].data_read("catbench")
    assert read.counts == record_reader.RELEASE_COUNTS["test"] and not read.synthetic
    out = report(capsys, folder)
    assert "Verdict" not in out and f"| **{GPT_4O}** (not the release's data) | A | measured |" in out
    assert f"catbench has no verdict: not the release's data: fingerprint {read.fingerprint}, the release's is {record_reader.RELEASE_FINGERPRINTS['test']}" in out


def test_where_no_fingerprint_is_recorded_the_releases_counts_leave_the_data_unverified(as_gpt_4o, capsys, monkeypatch):
    """The same copy, were no fingerprint of the test split recorded: its values, intervals and the published values are
    shown, and each published cell of its model says unverified instead of a verdict."""
    monkeypatch.delitem(record_reader.RELEASE_FINGERPRINTS, "test")
    out = report(capsys, as_gpt_4o("release_gate_shaped"))
    measured = next(line for line in out.splitlines() if "| measured |" in line)
    assert f"| **{GPT_4O}** (unverified data) | A | measured |" in measured
    assert all("[" in cell for cell in cells(measured)[1:])  # each value with its interval
    assert all(cell.endswith(" unverified") for cell in cells(published_row(out)))
    assert not any(mark in published_row(out) for mark in VERDICT_MARKS)
    assert "catbench has no verdict: unverified data: every count known of the release matches, but no fingerprint of the release is recorded here" in out
    assert "Verdict: 9 published cells unverified, not judged" in out and " reproduced, " not in out


def test_the_same_split_with_400_labels_swapped_gets_no_verdict(as_gpt_4o, capsys, monkeypatch):
    folder = as_gpt_4o("release_gate_swapped")
    counts = find_runs(folder)[0].data_read("catbench").counts
    assert (counts["questions"], counts["dep"], counts["before"], counts["plans"]) == (2840, 1420, 1420, 57)  # the counts a size check reads
    out = report(capsys, folder)
    assert "Verdict" not in out and f"| **{GPT_4O}** (not the release's data) | A | measured |" in out and "not the release's data: fingerprint " in out
    monkeypatch.delitem(record_reader.RELEASE_FINGERPRINTS, "test")  # and on the counts alone, a count tells it
    out = report(capsys, folder)
    assert "Verdict" not in out and "catbench has no verdict: not the release's data: counts (read / the release's): " in out and "dep_close " in out


def test_failed_requests_get_no_verdict_and_say_how_many(as_gpt_4o, capsys, read_as_release):
    """30% of the requests fail (lmms-eval's failure text): the numbers are shown, with the count, and no verdict."""
    n_docs = FAILED_SHARE_DOCS
    out = report(capsys, as_gpt_4o("release_gate_failed_requests"))
    assert "Verdict" not in out and f"| **{GPT_4O}** (failed requests) | A | measured |" in out
    assert f"catbench had {sum(1 for i in range(n_docs) if i % 10 < 3)} of {n_docs} request(s) fail or bring no response" in out


def test_an_unparseable_run_gets_no_verdict_as_check_fails_it(as_gpt_4o, capsys, read_as_release):
    """Every answer one the parser cannot read: check fails the run (one definition, DataRead.unparseable), and the
    report judges none of it even on data taken for the release."""
    folder = as_gpt_4o("catbench_unparsed")
    assert main_check([str(folder)]) == 1 and "none of its " in capsys.readouterr().err
    out = report(capsys, folder)
    assert "Verdict" not in out and f"| **{GPT_4O}** (unparseable answers) | A | measured |" in out
    assert "catbench has no verdict: none of its " in out and "answers could be parsed (temporal-bench check fails the run)" in out


def test_the_validation_split_is_not_the_split_of_the_papers_tables(as_gpt_4o, capsys):
    """The real validation split (its recorded fingerprint), evaluated as such through lm-eval's --metadata."""
    output = as_gpt_4o("release_gate_validation")
    read = find_runs(output)[0].data_read("catbench")
    assert read.fingerprint == record_reader.RELEASE_FINGERPRINTS["validation"]
    out = report(capsys, output)
    assert "Verdict" not in out and "catbench has no verdict: it evaluated the validation split; the paper's tables are on the test split" in out


def test_a_verdict_needs_the_fingerprint_the_split_swapped_within_plan_and_distance_gets_none(as_gpt_4o, capsys, monkeypatch):
    """The paper's split taken for the validation split (its fingerprint recorded): the untouched split recorded as the
    dated GPT-4o gets its verdicts; a copy with 200 labels swapped within plan and distance class, every count the
    same and check content, gets none."""
    monkeypatch.setattr(record_reader, "PAPER_SPLIT", "validation")
    real, swapped = as_gpt_4o("release_gate_validation"), as_gpt_4o("release_gate_validation_swapped")
    reads = [find_runs(folder)[0].data_read("catbench") for folder in (real, swapped)]
    assert reads[0].counts == reads[1].counts == record_reader.RELEASE_COUNTS["validation"] and reads[0].fingerprint != reads[1].fingerprint
    assert main_check([str(swapped)]) == 0
    capsys.readouterr()
    out = report(capsys, real)
    assert "\nVerdict: " in out and f"| **{GPT_4O}** | A | measured |" in out and all(cell[-1] in VERDICT_MARKS for cell in cells(published_row(out)))
    out = report(capsys, swapped)
    assert "Verdict" not in out and f"catbench has no verdict: not the release's data: fingerprint {reads[1].fingerprint}, the release's is {reads[0].fingerprint}" in out


def test_a_known_fingerprint_gives_verdicts_and_any_other_none(as_gpt_4o, capsys, monkeypatch):
    folder = as_gpt_4o("release_gate_shaped")
    read = find_runs(folder)[0].data_read("catbench")
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", read.fingerprint)
    out = report(capsys, folder)
    assert "Verdict: " in out and "(unverified data)" not in out
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", "0" * 16)
    out = report(capsys, folder)
    assert "Verdict" not in out and f"catbench has no verdict: not the release's data: fingerprint {read.fingerprint}, the release's is {'0' * 16}" in out


# ---- the recorded model decides: --label names a row --------------------------------------------------


def test_a_moving_alias_relabelled_as_the_dated_model_gets_no_verdict(as_gpt_4o, capsys, monkeypatch):
    """A run of ``gpt-4o`` (its results file says so) reported with --label gpt-4o-2024-05-13, on data whose fingerprint
    is the release's: the row shows both names, and the alias rules read the recorded one."""
    folder = as_gpt_4o("release_gate_shaped", "gpt-4o")
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", find_runs(folder)[0].data_read("catbench").fingerprint)
    out = report(capsys, folder, "--label", GPT_4O)
    assert f"| **{GPT_4O}** (recorded: gpt-4o) | A | measured |" in out
    assert not any(mark in published_row(out) for mark in VERDICT_MARKS) and "\nVerdict" not in out
    assert f"- **{GPT_4O}** (its results file records **gpt-4o**) is a moving alias (the provider serves a newer version under it from time to time), so it gets no CaT-Bench verdict" in out
    out = report(capsys, as_gpt_4o("release_gate_shaped"), "--label", "my run")  # the dated model under another name keeps its verdicts
    assert f"| **my run** (recorded: {GPT_4O}) | A | measured |" in out and "\nVerdict: " in out


def test_a_baseline_labelled_as_a_papers_model_is_still_the_baseline(recorded, capsys, monkeypatch):
    folder = recorded("release_gate_shaped").out
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", find_runs(folder)[0].data_read("catbench").fingerprint)
    out = report(capsys, folder, "--label", GPT_4O)
    assert f"| **{GPT_4O}** (recorded: random_choice (seed=1)) | A | measured |" in out
    assert not any(mark in published_row(out) for mark in VERDICT_MARKS)


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
def test_tempvs_generated_data_without_its_marker_is_still_generated(as_gpt_4o, capsys, task):
    """Told by its content (the generator's events in its questions, tempvs/fixtures.py GENERATED_EVENT)."""
    folder = as_gpt_4o("release_gate_tempvs_unmarked", "InternVL2_5-8B", task)
    assert find_runs(folder)[0].data_read(task).synthetic
    out = report(capsys, folder, table="tempvs-table3")
    assert "Verdict" not in out and "(synthetic data)" in out and f"{task} has no verdict: it read synthetic data" in out


def test_isobench_generated_data_without_its_marker_is_still_generated(recorded):
    """The generator's data (which can have Table 2's counts) with its marker file deleted: told by its plan steps."""
    run = recorded("isobench_copies")
    (Path(run.env["ISOBENCH_DATA_DIR"]) / MARKER).unlink(missing_ok=True)
    assert find_runs(run.out / "a")[0].data_read("isobench").synthetic


@pytest.mark.parametrize("copy", ["counts", "images_swapped"])
def test_isobench_data_of_table_2s_counts_is_unverified(as_gpt_4o, capsys, copy):
    """ISO-Bench data of Table 2's counts that is not the generator's (the second with every image another example's of
    the same size): no fingerprint of the release is recorded, so its published cells say unverified, no verdict."""
    folder = as_gpt_4o("release_gate_isobench", GPT_4O_ISO, copy)
    read = find_runs(folder)[0].data_read("isobench")
    assert read.questions == 764 and not read.synthetic
    out = report(capsys, folder, table="isobench-table1")
    assert f"| **{GPT_4O_ISO}** (unverified data) |" in out
    row = published_row(out)
    assert not any(mark in row for mark in VERDICT_MARKS) and all(cell.endswith(" unverified") for cell in cells(row) if cell != "-")


def test_one_models_runs_on_two_copies_of_the_data_are_refused_not_merged(recorded, capsys):
    """The same model run on the test split and then on other questions into one folder: the report does not quietly
    show the newer run, it names both files and their data (a re-run on the same data is no difference: test_check)."""
    out = recorded("release_gate_two_copies").out
    assert main_report([str(out), "--table", "catbench-table1"]) == 1
    err = capsys.readouterr().err
    older, newer = sorted(out.rglob("*_results.json"))
    assert f"catbench: **random_choice (seed=1)** is shown from {newer.as_posix()}, which read " in err and f"its other results file {older.as_posix()} read other questions" in err
    assert main_report([str(out), "--table", "catbench-table1", "--allow-different-data"]) == 0
