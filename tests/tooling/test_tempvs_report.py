"""TempVS in ``temporal-bench report``: Tables 3, 5 and 14-16 and the Figure 3 plot from results
written by a fixture run of the real lmms-eval CLI (random baseline, recorded: tests/recorded/tempvs_report.py) and by the released-outputs
scorer, checked against a golden file byte for byte (UPDATE_GOLDEN=1 rewrites it)."""

import shutil
from pathlib import Path

import pytest
from PIL import Image

from temporal_bench.report import LAYOUTS
from temporal_bench.report.cli import main_report
from temporal_bench.report.figures import series
from temporal_bench.report.headline import FEW_QUESTIONS, noise_note, render_summary
from temporal_bench.report.intervals import task_intervals
from temporal_bench.report.rows import build_rows
from temporal_bench.runs.results import load_runs
from temporal_bench.tempvs.figures import TEMPVS_FIGURE3
from temporal_bench.tempvs.fixture_predictions import write_model_predictions
from temporal_bench.tempvs.released_predictions import scored_tests, write_results
from tests.unit.test_report import check_golden

TABLES = ["tempvs-table3", "tempvs-table5", "tempvs-table14", "tempvs-table15", "tempvs-table16"]


@pytest.fixture(scope="module")
def runs_dir(recorded):
    """``runs/random_choice/fixture_results.json`` (lmms-eval's run of the six single tasks,
    tests/recorded/tempvs_report.py, renamed from its dated name, with its samples files) and
    ``runs/InternVL2_5-78B-MPO/released_combined_results.json`` (the release scorer, with its records), so both have
    confidence intervals."""
    run = recorded("tempvs_report_random")
    data = Path(run.env["TEMPVS_DATA_DIR"])
    runs = run.work / "runs"
    (runs / "random_choice").mkdir(parents=True)
    results = next(run.out.rglob("*_results.json"))
    shutil.copy(results, runs / "random_choice" / "fixture_results.json")
    date = results.name.removesuffix("_results.json")
    for samples in results.parent.glob(f"{date}_samples_*.jsonl"):
        shutil.copy(samples, runs / "random_choice" / samples.name.replace(date, "fixture", 1))
    write_model_predictions(data, "InternVL2_5-78B-MPO")
    write_results(runs, "InternVL2_5-78B-MPO", "combined", scored_tests(data, "InternVL2_5-78B-MPO"), data)
    return runs


def test_markdown_matches_golden(runs_dir, monkeypatch, capsys):
    monkeypatch.chdir(runs_dir)
    argv = ["."] + [arg for table in TABLES for arg in ("--table", table)]
    assert main_report(argv) == 0
    check_golden("tempvs_report.md", capsys.readouterr().out)


def test_published_rows_equal_the_paper(runs_dir):
    runs = load_runs([runs_dir])
    table3 = {(r.source, r.model): r.values for r in build_rows(LAYOUTS["tempvs-table3"], runs)}
    assert table3[("published", "GPT-4o")]["two_event_mt"] == pytest.approx(58.27)  # Table 14 x 100
    assert table3[("published", "Random")]["mt2_event_gts"] == 0.032  # Table 3's own row
    assert table3[("published", "deepseek-vl2-small")]["mt3_event_mt_given_gts"] == 0.0
    table5 = {(r.source, r.model): r.values for r in build_rows(LAYOUTS["tempvs-table5"], runs)}
    assert table5[("published", "GPT-4o")]["two_after_pos"] == 56.2
    assert table5[("published", "Top-5 average")]["three_laterfinally_neg"] == 43.1
    measured = table5[("measured", "random_choice (seed=1234)")]
    result = next(r for r in runs if r.label.startswith("random_choice"))
    assert measured["two_after_pos"] == pytest.approx(100 * result.metric("tempvs_mt1_two", "two_after_pos"))


def test_output_dir_writes_tables_and_the_distance_plot(runs_dir, tmp_path):
    folder = tmp_path / "report"
    assert main_report([str(runs_dir), "--table", "tempvs-table3", "--output-dir", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["tempvs-figure2.csv", "tempvs-figure2.png", "tempvs-figure3.csv", "tempvs-figure3.png", "tempvs-table3.csv", "tempvs-table3.md"]
    with Image.open(folder / "tempvs-figure3.png") as image:
        assert image.format == "PNG" and image.size == (600, 400)
    runs = load_runs([runs_dir])
    values = {run.label: series(TEMPVS_FIGURE3, run) for run in runs}
    assert all(v is not None and 0 <= v <= 100 for line in values.values() for v in line)
    csv_rows = (folder / "tempvs-table3.csv").read_text(encoding="utf-8").splitlines()
    assert csv_rows[0].startswith("layout,rank,model,source,two_event_gts,two_event_mt,two_event_mt_given_gts")
    assert sum(",measured," in row for row in csv_rows) == 2


def test_the_summary_marks_cells_on_few_questions_and_its_noise_sentence_comes_from_the_intervals(runs_dir):
    """The demo's summary of the random baseline (issue 35): ``MT|GT_strict 0.0 (50*)`` on a couple of
    GT_strict passes says how many; the sentence on sampling error is the range of the cells' own 95%
    intervals (their half-widths in points), not "a few points"."""
    run = next(run for run in load_runs([runs_dir]) if run.label.startswith("random_choice"))
    support = task_intervals(run, "tempvs_mt1_two").support
    passes = support["mt_given_gtstrict"]
    assert passes == round(run.metric("tempvs_mt1_two", "gtstrict_rate") * support["gtstrict_rate"])
    assert 0 < passes < FEW_QUESTIONS
    line = next(line for line in render_summary(run).splitlines() if line.strip().startswith("MT1 two-event"))
    assert f"(50*) n={passes}" in line and line.count("n=") == 1  # GT, GT_strict and MT rest on enough questions
    halves = [
        50 * (found.high - found.low)
        for task in ("tempvs_mt1_two", "tempvs_mt2_event")
        for metric in ("gt_acc", "mt_acc")
        if (found := task_intervals(run, task).cell(metric, run.metric(task, metric))[0]) is not None and found.high > found.low
    ]  # a one-point interval says nothing
    note = noise_note(run)
    low, high = (float(x) for x in note.removeprefix("Sampling error alone moves these cells by ±").split(" points")[0].split(" to ±"))
    assert len(halves) >= 3 and low <= min(halves) + 0.5 and high >= max(halves) - 0.5 and high > 5
