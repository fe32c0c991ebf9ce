"""Runs made with ``--limit`` through the real CLIs: the harnesses record the limit and the docs
evaluated (``config.limit``, ``n-samples``), :func:`temporal_bench.runs.limits.partial_limit`
reads them, and ``temporal-bench report`` never takes such a run for a full one: its row is marked partial and gets
no reproduction verdict, beside a full run of the same model too (the full run's row first, its own beside it), and
the report's closing notes name it. ``temporal-bench browse`` on the
same folder shows both runs' cards under names that tell them apart, the partial one marked."""

import json
import re

import pytest

from temporal_bench.browse.cli import main_browse
from temporal_bench.report.cli import main_report
from temporal_bench.runs.files import find_result_files
from temporal_bench.runs.limits import Limit, partial_limit
from temporal_bench.runs.results import load_runs
from tests.recorded import as_recorded_by
from tests.recorded.partial_runs import DOCS, TASK
from tests.tooling.test_browse import read_page


@pytest.fixture(scope="module")
def runs(recorded, tmp_path_factory):
    """A folder holding a full run and a --limit 6 run of the same model (random answers, seed 1;
    tests/recorded/partial_runs.py), recorded as CaT-Bench's dated GPT-4o (``as_recorded_by``); the tests that judge
    them take the generated data for the release (``read_as_release``: only the limit keeps a verdict away)."""
    root = tmp_path_factory.mktemp("partial_runs")
    as_recorded_by(recorded("partial_runs_full").out, "gpt-4o-2024-05-13", root / "full")
    as_recorded_by(recorded("partial_runs_limit6").out, "gpt-4o-2024-05-13", root / "smoke")
    return root


def _results(folder):
    (path,) = find_result_files(folder)
    return path, json.loads(path.read_text(encoding="utf-8"))


def test_the_harnesses_record_the_limit_and_partial_limit_reads_it(runs, recorded):
    assert partial_limit(_results(runs / "full")[1], TASK) is None
    smoke = partial_limit(_results(runs / "smoke")[1], TASK)
    assert smoke == Limit(6, 0, 6, DOCS) and str(smoke) == "--limit 6: 6 of 120 docs"
    assert partial_limit(_results(recorded("partial_runs_lm_eval_limit4").out)[1], TASK) == Limit(4, 0, 4, DOCS)
    # a limit above the task's size left nothing out; an offset always does
    assert partial_limit({"config": {"limit": 500}, "n-samples": {TASK: {"original": 120, "effective": 120}}}, TASK) is None
    assert partial_limit({"config": {"limit": -1}}, TASK) is None
    assert partial_limit({"config": {"limit": None, "offset": 10}}, TASK) == Limit(None, 10)


def test_a_full_and_a_newer_limit_run_show_the_full_runs_row_and_the_partial_one_beside_it(runs, read_as_release, capsys):
    full_path, full = _results(runs / "full")
    smoke_path, smoke = _results(runs / "smoke")
    macro = {name: data["results"][TASK]["f1_macro,none"] for name, data in (("full", full), ("smoke", smoke))}
    assert f"{macro['full']:.2f}" != f"{macro['smoke']:.2f}"  # the two runs tell apart
    (run,) = load_runs([runs], label="gpt-4o-2024-05-13")
    assert run.sources[TASK] == full_path and not run.partial  # the model's values although the partial run is newer
    assert [s.path for s in run.beside[TASK]] == [smoke_path] and not run.superseded  # a --limit run supersedes no full one
    (beside,) = run.beside_runs()
    assert beside.sources[TASK] == smoke_path and beside.partial[TASK] == Limit(6, 0, 6, DOCS)

    assert main_report([str(runs), "--label", "gpt-4o-2024-05-13", "--table", "catbench-table1"]) == 0
    out = capsys.readouterr().out
    measured = [line for line in out.splitlines() if "| measured |" in line]
    assert len(measured) == 2 and "| **gpt-4o-2024-05-13** | A | measured |" in measured[0] and "| **gpt-4o-2024-05-13** (partial: --limit 6) | A | measured |" in measured[1]
    for line, name in zip(measured, ("full", "smoke")):
        assert re.search(rf"\| {macro[name]:.2f} \[[0-9.]+, [0-9.]+\] \| [0-9, ]+ \|$", line)  # Macro F with its interval, then the row's notes
    note = f"catbench_switched: shown from `{full_path.as_posix()}`; shown beside it, in a row of its own: `{smoke_path.as_posix()}` (partial: --limit 6: 6 of 120 docs)"
    assert out.count(f"] **gpt-4o-2024-05-13**: {note}\n") == 1 and out.count(f"] **gpt-4o-2024-05-13**: catbench_switched --limit 6: 6 of 120 docs (`{smoke_path.as_posix()}`)\n") == 1
    assert "\nVerdict: " in out and "| gpt-4o | A | published |" in out  # the full run is judged
    assert len(re.findall(r"^- \*\*gpt-4o-2024-05-13\*\* \(A\): \d+ reproduced", out, re.M)) == 1  # one row judged, the full run's


def test_a_limit_run_alone_is_marked_partial_and_gets_no_verdict(runs, read_as_release, capsys):
    smoke_path, smoke = _results(runs / "smoke")
    assert main_report([str(runs / "smoke"), "--label", "gpt-4o-2024-05-13", "--table", "catbench-table1"]) == 0
    out = capsys.readouterr().out
    macro = smoke["results"][TASK]["f1_macro,none"]
    (measured,) = [line for line in out.splitlines() if "| measured |" in line]
    assert "| **gpt-4o-2024-05-13** (partial: --limit 6) | A | measured |" in measured
    assert re.search(rf"\| {macro:.2f} \[[0-9.]+, [0-9.]+\] \| [0-9, ]+ \|$", measured)
    heading = "\nPartial runs (made with --limit or --offset; marked partial, no reproduction verdict):\n"
    (number,) = re.findall(re.escape(heading) + r"- \[(\d+)\] " + re.escape(f"**gpt-4o-2024-05-13**: catbench_switched --limit 6: 6 of 120 docs (`{smoke_path.as_posix()}`)\n"), out)
    assert number in measured.rsplit("|", 2)[1].replace(",", " ").split()  # the row names the note
    assert "Verdict" not in out and "Reproduction verdicts" not in out
    published = next(line for line in out.splitlines() if line.startswith("| ") and "| gpt-4o | A | published |" in line)
    assert not any(mark in published for mark in "=≈≠∈∉")
    # the CSV says it too
    assert main_report([str(runs / "smoke"), "--label", "gpt-4o-2024-05-13", "--table", "catbench-table1", "--format", "csv"]) == 0
    csv = capsys.readouterr().out.splitlines()
    assert csv[0].split(",")[-1] != "partial" and "partial" in csv[0].split(",")
    measured_csv = next(line for line in csv if ",measured," in line)
    assert "catbench_switched --limit 6: 6 of 120 docs" in measured_csv


def test_browse_marks_the_partial_run_and_tells_the_two_runs_apart(runs, tmp_path, capsys):
    full_path, _ = _results(runs / "full")
    smoke_path, _ = _results(runs / "smoke")
    page = tmp_path / "page.html"
    assert main_browse([str(runs), "--output", str(page)]) == 0
    full, smoke = f"{TASK} [{full_path.name}]", f"{TASK} (partial: --limit 6) [{smoke_path.name}]"
    notes = [f"note: {smoke}: a partial run (--limit 6: 6 of 120 docs) in {smoke_path}: its cards and metrics cover only those docs", f"note: {TASK} is in 2 results files, shown apart as: {smoke}; {full}"]  # newest first
    assert capsys.readouterr().out.splitlines() == [*notes, str(page)]
    cards, table, _, _ = read_page(page)
    assert {name: row["cards"] for name, row in table.items()} == {full: DOCS, smoke: 6}
    assert [sum(c["task"] == name for c in cards) for name in (full, smoke)] == [DOCS, 6]
    html = page.read_text(encoding="utf-8")
    assert "<div class='warn' id='run-notes'><b>Partial runs, a task in several results files, or a task shown in part</b>" in html
    assert all(note[len("note: ") :].replace("'", "&#x27;") in html for note in notes)
