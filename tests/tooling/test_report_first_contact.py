"""What ``temporal-bench report`` shows a person reading it the first time, on recorded runs (tests/recorded/): a model's
run on the release's data and a newer run on a subset of it both in rows of their own, the release's first; a run
whose every request failed shows no number, only that its requests failed, and gets no verdict; an invalid answer is
one that came back and could not be parsed, wherever the report counts it, failed requests apart."""

import csv
import io
import re

from temporal_bench.catbench import record_reader
from temporal_bench.report.cli import main_report
from temporal_bench.runs.results import load_runs
from tests.cli import temporal_bench
from tests.recorded import as_recorded_by
from tests.recorded.browse import FAILED_TEMPVS
from tests.recorded.check import N_DOCS

GPT_4O = "gpt-4o-2024-05-13"  # the CaT-Bench paper's GPT-4o, so that a run judged would get verdicts


def report(capsys, *arguments) -> str:
    assert main_report([str(argument) for argument in arguments]) == 0
    return capsys.readouterr().out


def test_a_run_whose_every_request_failed_shows_no_number_and_gets_no_verdict(recorded, read_as_release, capsys, tmp_path):
    out_dir = as_recorded_by(recorded("catbench_failed").out, GPT_4O, tmp_path / "failed")
    out = report(capsys, out_dir, "--table", "catbench-table1", "--table", "catbench-table3")
    rows = [line for line in out.splitlines() if "| measured |" in line]
    assert len(rows) == 2 and all(f"| **{GPT_4O}** (failed requests) |" in row for row in rows)
    cells = [cell.strip() for row in rows for cell in row.split("| measured |")[1].strip(" |").split("|")[:-1]]  # the values (the last: the row's notes)
    assert set(cells) == {"requests failed", "–"} and cells.count("requests failed") == 9 + 2  # Table 1's nine, Table 3's A: TC and OCC (A+E: not run)
    assert "0.00" not in "".join(rows) and "[" not in "".join(rows)
    assert f"catbench had {N_DOCS} of {N_DOCS} request(s) fail or bring no response: every one, so its cells show no value" in out
    assert "Verdict" not in out and "=" not in "".join(line for line in out.splitlines() if "| published |" in line)
    csv = report(capsys, out_dir, "--table", "catbench-table1", "--format", "csv").splitlines()
    measured = next(line for line in csv if ",measured," in line)
    assert ",,,,,,,,," in measured and "every one, so its cells show no value" in measured


def test_a_newer_run_on_a_subset_is_shown_beside_the_run_on_the_release_not_instead_of_it(recorded, capsys, tmp_path, monkeypatch):
    """A split with every count of the release (its fingerprint taken for the release's here), then a subset of its
    questions (every fifth plan; tests/recorded/partial_runs.py), answered at random and recorded as the dated GPT-4o:
    the full run's row comes first and is judged, the subset's beside it marked, neither file left out; check reads
    both files too (the subset's counts are its problem)."""
    out_dir = as_recorded_by(recorded("partial_runs_release_and_subset").out, GPT_4O, tmp_path / "runs")
    (full,), (subset,) = (list((out_dir / name).glob("*_results.json")) for name in ("full", "subset"))
    (run,) = load_runs([out_dir])
    monkeypatch.setitem(record_reader.RELEASE_FINGERPRINTS, "test", run.data_read("catbench").fingerprint)
    assert run.sources["catbench"] == full and [s.path for s in run.beside["catbench"]] == [subset] and not run.superseded
    out = report(capsys, out_dir, "--table", "catbench-table1")
    measured = [line for line in out.splitlines() if "| measured |" in line]
    assert len(measured) == 2 and f"| **{GPT_4O}** | A | measured |" in measured[0] and f"| **{GPT_4O}** (subset; not the release's data) | A | measured |" in measured[1]
    assert f"catbench (`{subset.as_posix()}`) read 582 of the 2,840 questions of `{full.as_posix()}`, the model's row without this mark" in out
    assert f"catbench has no verdict: not the release's data: fingerprint {run.beside['catbench'][0].logged.data_read('catbench').fingerprint}, the release's is" in out
    assert len(re.findall(rf"^- \*\*{GPT_4O}\*\* \(A\): \d+ reproduced", out, re.M)) == 1 and "\nVerdict: " in out  # the full run's row judged, alone
    check = temporal_bench("check", out_dir, cwd=out_dir.parent)
    assert check.returncode == 1 and "superseded" not in check.stdout and check.stdout.count("check: catbench: ") == 2
    assert f"{subset.as_posix()}: catbench: counts (read / the release's): questions 582/2840" in check.stderr


def test_invalid_answers_are_counted_apart_from_failed_requests_as_check_counts_them(recorded, capsys):
    """TempVS MT1 with every fourth request failed, the others answered right (tests/recorded/browse.py): its parser
    reads a failure text as no answer (UNK), yet the report's breakdowns count no invalid answer, the failures apart,
    as the run's data read (check's count) does."""
    out_dir = recorded("browse_failed_tempvs").out
    (run,) = load_runs([out_dir])
    read = run.data_read(FAILED_TEMPVS)
    assert read.failed > 0 and read.invalid == 0
    rows = list(csv.DictReader(io.StringIO(report(capsys, out_dir, "--breakdowns", "--format", "csv"))))
    values = {row["metric"]: row["value"] for row in rows if row["task"] == FAILED_TEMPVS}
    assert (values["invalid_rate"], values["failed_count"]) == ("0.0", str(read.failed))


def test_each_note_is_said_once_for_the_whole_report_and_named_by_the_rows_it_concerns(recorded, capsys):
    """A run of catbench fills five CaT-Bench tables: the notes on its rows (synthetic data, rough intervals, the
    settings it did not run) come once, numbered, after the tables, and each row's notes column names them."""
    out = report(capsys, recorded("catbench_complete").out)
    assert sum(line.startswith("## CaT-Bench Table") for line in out.splitlines()) == 5
    said = [line for line in out.splitlines() if line.startswith("- ")]
    assert len(said) == len(set(said))
    numbered = dict(re.findall(r"^- \[(\d+)\] (.*)$", out, re.M))
    assert list(numbered) == [str(n) for n in range(1, len(numbered) + 1)]
    named = {n for line in out.splitlines() if "| measured |" in line for n in line.rsplit("|", 2)[1].replace(",", " ").split()}
    assert named == set(numbered)  # every note named by a row, every number a row names said
    assert sum("has no verdict: it read synthetic data" in text for text in numbered.values()) == 1
    assert out.count("Measured cells with brackets") == 1 and out.count("Dep = gold yes, NonDep = gold no") == 1
