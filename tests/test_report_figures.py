"""The papers' figures as PNG from results files: CaT-Bench Figures 7 and 8 (macro F1 of A+E minus
A, by relation and by distance, per model) from one run holding both settings or from two runs of the
same model, and ISO-Bench Figures 3 (by relation) and 2 (by distance, only when the data carried step
positions)."""

import pytest
from PIL import Image

from temporal_bench.report import load_runs
from temporal_bench.report.cli import main_report
from temporal_bench.report.figures import FIGURES, figures_for, series
from tests.test_report import write_json

A = {"f1_macro_before": 0.50, "f1_macro_after": 0.40, "f1_macro_close": 0.55, "f1_macro_distant": 0.45}
AE = {"f1_macro_before": 0.62, "f1_macro_after": 0.38, "f1_macro_close": 0.70, "f1_macro_distant": 0.47}


def _entry(values: dict) -> dict:
    return {f"{key},none": value for key, value in values.items()}


def _results(tasks: dict, model: str) -> dict:
    return {"results": {t: _entry(v) for t, v in tasks.items()}, "model_name": model,
            "config": {"model": "openai", "model_args": f"model={model}"}}


@pytest.fixture
def runs_dir(tmp_path):
    # one model's A and A+E in two runs (two results files), another model's in one run
    write_json(tmp_path / "a" / "org__one" / "20250101_000000_results.json", _results({"catbench_switched": A}, "org/one"))
    write_json(tmp_path / "ae" / "org__one" / "20250102_000000_results.json", _results({"catbench_explain_switched": AE}, "org/one"))
    write_json(tmp_path / "both" / "org__two" / "20250103_000000_results.json",
               _results({"catbench": AE, "catbench_explain": A}, "org/two"))
    iso = {"f1_weighted_before": 0.61, "f1_weighted_after": 0.47, "f1_weighted_close": "N/A", "f1_weighted_distant": "N/A"}
    write_json(tmp_path / "iso" / "org__vlm" / "20250104_000000_results.json", _results({"isobench": iso}, "org/vlm"))
    return tmp_path


def test_catbench_gains_from_one_run_or_two(runs_dir):
    runs = {run.label: run for run in load_runs([runs_dir])}
    gain = [AE[k] - A[k] for k in ("f1_macro_before", "f1_macro_after")]
    assert series(FIGURES["catbench-figure7"], runs["org/one"]) == pytest.approx(gain)
    assert series(FIGURES["catbench-figure7"], runs["org/two"]) == pytest.approx([-g for g in gain])
    assert series(FIGURES["catbench-figure8"], runs["org/one"]) == [pytest.approx(0.15), pytest.approx(0.02)]
    assert series(FIGURES["catbench-figure8"], runs["org/vlm"]) == [None, None]


def test_isobench_distance_figure_only_with_step_positions(runs_dir):
    runs = load_runs([runs_dir])
    vlm = next(run for run in runs if run.label == "org/vlm")
    assert series(FIGURES["isobench-figure3"], vlm) == [0.61, 0.47]
    assert series(FIGURES["isobench-figure2"], vlm) == [None, None]
    assert [f.name for f in figures_for(runs)] == ["catbench-figure7", "catbench-figure8", "isobench-figure3"]


def test_output_dir_writes_the_figures_as_png(runs_dir, tmp_path):
    folder = tmp_path / "report"
    assert main_report([str(runs_dir), "--output-dir", str(folder)]) == 0
    pictures = sorted(p.name for p in folder.glob("*.png"))
    assert pictures == ["catbench-figure7.png", "catbench-figure8.png", "isobench-figure3.png"]
    for name in pictures:
        with Image.open(folder / name) as image:
            assert image.format == "PNG" and image.size == (600, 400)
