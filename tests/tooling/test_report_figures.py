"""The papers' figures as PNG from results files, each with its plotted values as CSV beside it:
CaT-Bench Figures 7 and 8 (macro F1 of A+E minus A, by relation and by distance, per model) from one
run holding both settings or from two runs of the same model, ISO-Bench Figures 3 (by relation) and 2
(E→A minus A by step distance, only when the data carried step positions; end to end from a scripted
lmms-eval run) under Table 1's rule, and TempVS Figure 2 (MT by parameter count, from the model names
or --param-count). Where the run logged its samples each point carries the report's 95% interval and
the questions it rests on (tests/tooling/test_figure_intervals.py)."""

import csv

import pytest
from PIL import Image

from temporal_bench.report.cli import main_report
from temporal_bench.report.figures import FIGURES, figures_for, series
from temporal_bench.report.model_size import size_in_name
from temporal_bench.runs.results import load_runs
from tests.unit.test_report import write_json

A = {"f1_macro_before": 0.50, "f1_macro_after": 0.40, "f1_macro_close": 0.55, "f1_macro_distant": 0.45}
AE = {"f1_macro_before": 0.62, "f1_macro_after": 0.38, "f1_macro_close": 0.70, "f1_macro_distant": 0.47}


def _entry(values: dict) -> dict:
    return {f"{key},none": value for key, value in values.items()}


def _results(tasks: dict, model: str) -> dict:
    return {"results": {t: _entry(v) for t, v in tasks.items()}, "model_name": model, "config": {"model": "openai", "model_args": f"model={model}"}}


@pytest.fixture
def runs_dir(tmp_path):
    # one model's A and A+E in two runs (two results files), another model's in one run
    write_json(tmp_path / "a" / "org__one" / "20250101_000000_results.json", _results({"catbench_switched": A}, "org/one"))
    write_json(tmp_path / "ae" / "org__one" / "20250102_000000_results.json", _results({"catbench_explain_switched": AE}, "org/one"))
    write_json(tmp_path / "both" / "org__two" / "20250103_000000_results.json", _results({"catbench": AE, "catbench_explain": A}, "org/two"))
    # the discard rule's breakdowns, and Table 1's rule's by relation (which the figures read)
    iso = {"f1_weighted_before": 0.7, "f1_weighted_after": 0.7, "f1_weighted_close": "N/A", "f1_weighted_distant": "N/A", "paper_f1_weighted_before": 0.61, "paper_f1_weighted_after": 0.47}
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


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def test_output_dir_writes_the_figures_as_png(runs_dir, tmp_path):
    folder = tmp_path / "report"
    assert main_report([str(runs_dir), "--output-dir", str(folder)]) == 0
    pictures = sorted(p.name for p in folder.glob("*.png"))
    assert pictures == ["catbench-figure7.png", "catbench-figure8.png", "isobench-figure3.png"]
    for name in pictures:
        with Image.open(folder / name) as image:
            assert image.format == "PNG" and image.size == (600, 400)
    # beside each PNG its plotted values; a difference figure also gives its two operands
    assert sorted(p.name for p in folder.glob("*figure*.csv")) == [name.replace(".png", ".csv") for name in pictures]
    # without samples: no interval, no count (empty)
    assert read_csv(folder / "catbench-figure7.csv") == [
        ["figure", "model", "x", "metric", "value", "setting", "setting_value", "minus", "minus_value", "low", "high", "n"],
        ["catbench-figure7", "org/one", "before", "f1_macro_before", "0.12", "A+E", "0.62", "A", "0.5", "", "", ""],
        ["catbench-figure7", "org/one", "after", "f1_macro_after", "-0.02", "A+E", "0.38", "A", "0.4", "", "", ""],
        ["catbench-figure7", "org/two", "before", "f1_macro_before", "-0.12", "A+E", "0.5", "A", "0.62", "", "", ""],
        ["catbench-figure7", "org/two", "after", "f1_macro_after", "0.02", "A+E", "0.4", "A", "0.38", "", "", ""],
    ]
    assert read_csv(folder / "isobench-figure3.csv") == [
        ["figure", "model", "x", "metric", "value", "low", "high", "n"],
        ["isobench-figure3", "org/vlm", "before", "paper_f1_weighted_before", "0.61", "", "", ""],
        ["isobench-figure3", "org/vlm", "after", "paper_f1_weighted_after", "0.47", "", "", ""],
    ]


def test_isobench_figure2_plots_e_to_a_minus_a_by_distance(recorded, tmp_path):
    """A scripted model right on every close question and wrong on every distant one when it answers
    (A), and the other way round when it explains first (E→A): Figure 2 plots -1 (close) and +1
    (distant), computed by lmms-eval's run (tests/recorded/report_figures.py) and the report from its samples."""
    out = recorded("isobench_figure2").out
    [run] = load_runs([out])
    report = tmp_path / "report"
    assert main_report([str(out), "--output-dir", str(report)]) == 0
    assert (report / "isobench-figure2.png").is_file()
    # under Table 1's rule (computed from the records: no results key holds it by distance), with the paired
    # interval of the two settings' answers to the same questions (cut to [-1, 1]) and the questions at each distance
    rows = read_csv(report / "isobench-figure2.csv")[1:]
    assert [row[:9] + [row[11]] for row in rows] == [
        ["isobench-figure2", run.label, "close", "paper_f1_weighted_close", "-1.0", "E→A", "0.0", "A", "1.0", "13"],
        ["isobench-figure2", run.label, "distant", "paper_f1_weighted_distant", "1.0", "E→A", "1.0", "A", "0.0", "11"],
    ]
    assert float(rows[0][9]) == -1.0 and float(rows[0][10]) < 0 < float(rows[1][9]) and float(rows[1][10]) == 1.0


def _tempvs_run(folder, model, mt_acc):
    """A results file of ``model`` with MT accuracy per TempVS task."""
    results = {task: {"mt_acc,none": value} for task, value in mt_acc.items()}
    write_json(folder / model.replace("/", "__") / "20250101_000000_results.json", {"results": results, "model_name": model, "config": {"model": "hf", "model_args": f"pretrained={model}"}})


@pytest.mark.parametrize(
    "name, billions",
    [
        ("OpenGVLab/InternVL2_5-26B-MPO", 26.0),
        ("llava-onevision-qwen2-0.5b-ov", 0.5),
        ("HuggingFaceTB/SmolVLM-256M-Instruct", 0.256),
        ("Qwen/Qwen2.5-VL-7B-Instruct", 7.0),
        ("deepseek-vl2-tiny", None),
        ("random_choice (seed=1234)", None),
        ("gpt-4o", None),
        ("mixtral-8x7b", None),
        ("a-7B-distilled-from-72B", None),
    ],
)
def test_parameter_count_from_the_model_name(name, billions):
    assert size_in_name(name) == billions


def test_tempvs_figure2_by_parameter_count(tmp_path, capsys):
    """Sizes from the names (one line per family), from --param-count, or none: the random baseline,
    named in the report and drawn as a dashed line."""
    runs = tmp_path / "runs"
    _tempvs_run(runs, "OpenGVLab/InternVL2_5-8B-MPO", {"tempvs_mt1_two": 0.5619, "tempvs_mt3_event": 0.25})
    _tempvs_run(runs, "OpenGVLab/InternVL2_5-26B-MPO", {"tempvs_mt1_two": 0.6032, "tempvs_mt3_event": 0.344})
    _tempvs_run(runs, "deepseek-vl2-tiny", {"tempvs_mt1_two": 0.4971})
    write_json(
        runs / "random" / "20250101_000000_results.json",  # lmms-eval's layout of a run of a model class alone
        {"results": {"tempvs_mt1_two": {"mt_acc,none": 0.5}, "tempvs_ordering_event": {"mt3_mt_acc,none": 0.2}}, "model_name": "", "config": {"model": "random_choice", "model_args": "seed=1234"}},
    )
    out = tmp_path / "report"
    assert main_report([str(runs), "--output-dir", str(out), "--param-count", "deepseek-vl2-tiny=3.37"]) == 0
    text = capsys.readouterr().out
    assert ("TempVS Figure 2 (by model size) has no parameter count for **random_choice (seed=1234)**: drawn as a dashed line marked 'no size'; give one with `--param-count 'MODEL=BILLIONS'`.") in text
    with Image.open(out / "tempvs-figure2.png") as image:
        assert image.format == "PNG" and image.size == (1200, 700)
    head, *rows = read_csv(out / "tempvs-figure2.csv")
    assert head == ["figure", "model", "family", "params_b", "size_from", "panel", "metric", "value", "low", "high", "n"]
    assert len(rows) == 4 * 6 and {row[0] for row in rows} == {"tempvs-figure2"}
    plotted = {(row[1], row[5]): row[2:5] + [row[7]] for row in rows if row[7]}
    assert plotted == {
        ("OpenGVLab/InternVL2_5-8B-MPO", "MT1 two-event"): ["OpenGVLab/InternVL2_5-*-MPO", "8.0", "model name", "56.19"],
        ("OpenGVLab/InternVL2_5-8B-MPO", "MT3 event"): ["OpenGVLab/InternVL2_5-*-MPO", "8.0", "model name", "25.0"],
        ("OpenGVLab/InternVL2_5-26B-MPO", "MT1 two-event"): ["OpenGVLab/InternVL2_5-*-MPO", "26.0", "model name", "60.32"],
        ("OpenGVLab/InternVL2_5-26B-MPO", "MT3 event"): ["OpenGVLab/InternVL2_5-*-MPO", "26.0", "model name", "34.4"],
        ("deepseek-vl2-tiny", "MT1 two-event"): ["deepseek-vl2-tiny", "3.37", "--param-count", "49.71"],
        ("random_choice (seed=1234)", "MT1 two-event"): ["random_choice (seed=1234)", "", "none", "50.0"],
        ("random_choice (seed=1234)", "MT3 event"): ["random_choice (seed=1234)", "", "none", "20.0"],
    }


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--param-count", "nobody=7"], "--param-count names no run: nobody"),
        (["--param-count", "deepseek-vl2-tiny"], "expected MODEL=BILLIONS with a positive number"),
        (["--param-count", "deepseek-vl2-tiny=-1"], "expected MODEL=BILLIONS with a positive number"),
    ],
)
def test_param_count_naming_no_run_or_malformed_stops_the_report(tmp_path, capsys, extra, message):
    _tempvs_run(tmp_path / "runs", "deepseek-vl2-tiny", {"tempvs_mt1_two": 0.4971})
    with pytest.raises(SystemExit) as stopped:
        main_report([str(tmp_path / "runs"), "--output-dir", str(tmp_path / "report"), *extra])
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def test_param_count_needs_output_dir(tmp_path, capsys):
    _tempvs_run(tmp_path / "runs", "deepseek-vl2-tiny", {"tempvs_mt1_two": 0.4971})
    with pytest.raises(SystemExit):
        main_report([str(tmp_path / "runs"), "--param-count", "deepseek-vl2-tiny=3"])
    assert "--param-count sizes the models of a figure: it needs --output-dir" in capsys.readouterr().err
