"""Report renderer (temporal_bench/report): results JSON -> paper table layouts, checked against
golden files in tests/golden/ byte for byte. Set UPDATE_GOLDEN=1 to rewrite them after a
deliberate change (and review the diff)."""

import json
import os
from pathlib import Path

import pytest

from temporal_bench.benchmarks import Benchmark, register, unregister
from temporal_bench.manifest import Manifest
from temporal_bench.report import (
    LAYOUTS,
    Column,
    Layout,
    Setting,
    build_report,
    render_report,
)
from temporal_bench.report.cli import main_report
from temporal_bench.report.rows import build_rows
from temporal_bench.runs.files import find_result_files
from temporal_bench.runs.results import load_runs, run_label
from tests.harness import run_of
from tests.paths import GOLDEN

CATBENCH_KEYS = [
    "f1_macro",
    "precision_macro",
    "recall_macro",
    "precision_dep",
    "recall_dep",
    "f1_dep",
    "precision_nondep",
    "recall_nondep",
    "f1_nondep",
    "accuracy",
    "invalid_rate",
    "invalid_count",
    "tc",
    "occ",
]
pytestmark = pytest.mark.usefixtures("read_as_release")  # the rendering of judged runs (results files without samples)


def catbench_entry(values: dict, filt: str = "none", alias: str | None = None) -> dict:
    """A task entry as lmms-eval / lm-eval write it: every metric with its stderr beside it."""
    entry = {"alias": alias or "task"}
    for key in CATBENCH_KEYS:
        if key in values:
            entry[f"{key},{filt}"] = values[key]
            entry[f"{key}_stderr,{filt}"] = "N/A"
    return entry


def prf(dep_p, dep_r, dep_f, nd_p, nd_r, nd_f, **extra):
    out = {
        "precision_dep": dep_p,
        "recall_dep": dep_r,
        "f1_dep": dep_f,
        "precision_nondep": nd_p,
        "recall_nondep": nd_r,
        "f1_nondep": nd_f,
        "precision_macro": (dep_p + nd_p) / 2,
        "recall_macro": (dep_r + nd_r) / 2,
        "f1_macro": (dep_f + nd_f) / 2,
    }
    out.update(extra)
    return out


def write_json(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def write_catbench_runs(root: Path) -> None:
    # lmms-eval: <out>/<model>/<date>_results.json
    write_json(
        root / "lmms" / "org__my-model" / "20250101_120000_results.json",
        {
            "results": {
                "catbench_switched": catbench_entry(prf(0.6, 0.8, 0.6857, 0.7, 0.45, 0.5478, tc=0.81234, occ=0.5)),
                "catbench_explain": catbench_entry(prf(0.7, 0.9, 0.7875, 0.85, 0.6, 0.7034, tc=0.7, occ="N/A")),
            },
            "model_name": "org/my-model",
            "config": {
                "model": "qwen2_vl",
                "model_args": "pretrained=org/my-model,max_pixels=1000",
            },
        },
    )
    # lm-eval: <out>/<model>/results_<date>.json; NL prompt only, one metric missing, occ null
    nl = prf(0.55, 0.6, 0.5739, 0.56, 0.5, 0.5283, tc=0.4, occ=None)
    del nl["f1_nondep"]
    write_json(
        root / "lm" / "org__other" / "results_2025-01-02T10-00-00.000000.json",
        {
            "results": {"catbench_explain_nl": catbench_entry(nl)},
            "model_name": "org/other",
            "config": {"model": "hf", "model_args": {"pretrained": "org/other"}},
        },
    )
    # lmms-eval without a model name: <out>/<date>_results.json
    write_json(
        root / "baseline" / "20250103_090000_results.json",
        {
            "results": {"catbench": catbench_entry(prf(0.5, 1.0, 0.6667, 0.0, 0.0, 0.0, tc=1.0, occ="N/A"))},
            "model_name": "",
            "config": {"model": "majority_class", "model_args": ""},
        },
    )


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(text.encode("utf-8"))
    assert path.is_file(), f"missing golden file {path} (run with UPDATE_GOLDEN=1)"
    assert text.encode("utf-8") == path.read_bytes()


def test_catbench_markdown_report_matches_golden(tmp_path, monkeypatch, capsys):
    write_catbench_runs(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main_report(["lmms", "lm", "baseline"]) == 0
    check_golden("catbench_report.md", capsys.readouterr().out)


def test_catbench_csv_report_matches_golden(tmp_path, monkeypatch):
    write_catbench_runs(tmp_path)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "report" / "table1.csv"
    assert (
        main_report(
            [
                "lmms",
                "lm",
                "baseline",
                "--table",
                "catbench-table1",
                "--format",
                "csv",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    check_golden("catbench_table1.csv", out.read_text(encoding="utf-8"))


def test_isobench_markdown_report_matches_golden(tmp_path, monkeypatch, capsys):
    def entry(values):
        return {f"{k},none": v for k, v in values.items()}

    write_json(
        tmp_path / "iso" / "org__vlm" / "20250105_000000_results.json",
        {
            "results": {
                "isobench": entry(
                    {
                        "paper_precision_dep": 0.6,
                        "paper_recall_dep": 0.7,
                        "paper_f1_dep": 0.6462,
                        "paper_precision_nondep": 0.65,
                        "paper_recall_nondep": 0.55,
                        "paper_f1_nondep": 0.5958,
                        "paper_precision_weighted": 0.625,
                        "paper_recall_weighted": 0.625,
                        "paper_f1_weighted": 0.621,
                        "coverage": 0.98,
                    }
                ),
                "isobench_cot": entry({"paper_precision_dep": 0.5, "paper_recall_dep": 0.5, "paper_f1_dep": 0.5}),
            },
            "model_name": "org/vlm",
            "config": {"model": "llava", "model_args": "pretrained=org/vlm"},
        },
    )
    monkeypatch.chdir(tmp_path)
    assert main_report(["iso"]) == 0
    check_golden("isobench_table1.md", capsys.readouterr().out)


def test_report_content(tmp_path):
    write_catbench_runs(tmp_path)
    runs = load_runs([tmp_path])
    assert [r.label for r in runs] == ["org/my-model", "org/other", "majority_class"]
    text = render_report(build_report(runs, [LAYOUTS["catbench-table1"]]))
    lines = text.splitlines()
    # measured A+E (macro F 0.75) ranks first, above gemini-1.5-pro A+E (NL) at 0.73
    assert lines[4].startswith("| 1 | **org/my-model** | A+E | measured | 0.70 | 0.90 | 0.79 |")
    assert lines[5].startswith("| 2 | gemini-1.5-pro | A+E (NL) | published |")
    assert "| 0.53 | 0.88 | 0.76* |" in text  # the paper's typo, marked
    assert "] **org/other** (A+E (NL)): `f1_nondep` (NonDep F) not in catbench_explain_nl\n" in text  # a numbered note after the tables
    assert sum(line.count("| published |") for line in lines) == 18
    assert sum(line.count("| measured |") for line in lines) == 4


def test_table3_uses_switched_task_and_nl_fallback(tmp_path):
    write_catbench_runs(tmp_path)
    text = render_report(build_report(load_runs([tmp_path]), [LAYOUTS["catbench-table3"]]))
    assert "| **org/my-model** | measured | 81.23 | 50.00 | 70.00 | – |" in text
    assert "| **org/other** | measured | – | – | 40.00 | – |" in text
    assert "| **majority_class** | measured | 100.00 | – | – | – |" in text
    assert "Measured rows (bold) and their tasks: **org/my-model** A = catbench_switched, A+E = catbench_explain; **org/other** A+E = catbench_explain_nl; **majority_class** A = catbench." in text
    assert "] **org/my-model**: `occ` (A+E: OCC) not in catbench_explain\n" in text


def test_no_published_rows_and_explicit_table(tmp_path, capsys):
    write_catbench_runs(tmp_path)
    assert main_report([str(tmp_path / "baseline"), "--no-published", "--table", "catbench-table1"]) == 0
    out = capsys.readouterr().out
    assert "| published |" not in out and "Published rows" not in out
    assert "| 1 | **majority_class** | A | measured | 0.50 | 1.00 | 0.67 | 0.00 |" in out


def test_default_tables_are_those_the_runs_have_tasks_for(tmp_path, capsys):
    write_catbench_runs(tmp_path)
    main_report([str(tmp_path)])
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("## ")] == [
        "## CaT-Bench Table 1: Step Order Prediction, per class and macro average",
        "## CaT-Bench Table 3: Temporal Consistency (TC) and Order Contrastive Consistency (OCC), %",
        "## CaT-Bench Table 4: prompting styles (macro P/R/F1, TC %)",
        "## CaT-Bench Table 5: the Dep class (gold yes) under A, E+A and A+E prompting",
        "## CaT-Bench Tables 6 and 7: improved prompting with the A prompt (macro P/R/F, TC %, OCC %)",
        "## Reproduction verdicts",  # org/my-model and org/other are no model of the paper: said, with no verdict
        "## Notes",  # each note on the measured rows once, for all five tables
    ]
    assert "ISO-Bench" not in out


def test_errors(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main_report([str(tmp_path / "nowhere")])
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit):
        main_report([str(tmp_path / "empty")])
    write_json(
        tmp_path / "other" / "20250101_000000_results.json",
        {"results": {"mmmu": {"acc,none": 0.3}}},
    )
    with pytest.raises(SystemExit):
        main_report([str(tmp_path / "other")])
    err = capsys.readouterr().err
    assert "(their tasks: mmmu)" in err and "`--breakdowns` lists every metric of every task" in err  # a variant of one's own: said where to look
    write_json(tmp_path / "bad" / "20250101_000000_results.json", {"nothing": 1})
    with pytest.raises(SystemExit):
        main_report([str(tmp_path / "bad")])


def test_metric_lookup_filters_and_missing_values(tmp_path):
    run = run_of(
        tmp_path,
        "m",
        {
            "catbench_sc": {
                "f1_macro,majority_vote": 0.4,
                "f1_macro_stderr,majority_vote": "N/A",
            },
            "catbench": {
                "f1_macro,none": 0.5,
                "f1_macro,other": 0.9,
                "occ,none": "N/A",
                "tc,none": None,
                "x,none": float("nan"),
            },
        },
    )
    assert run.metric("catbench_sc", "f1_macro") == 0.4  # falls back to the only filter
    assert run.metric("catbench", "f1_macro") == 0.5  # "none" preferred
    assert run.metric("catbench", "f1_macro", ("other", "none")) == 0.9
    assert run.metric("catbench", "occ") is None and run.metric("catbench", "tc") is None
    assert run.metric("catbench", "x") is None and run.metric("absent", "f1_macro") is None
    assert run.metric("catbench_sc", "f1_macro_stderr") is None


def test_labels_and_merging(tmp_path, capsys):
    p = tmp_path / "r.json"
    assert run_label({"model_name": "a/b", "config": {"model_args": "pretrained=a/b"}}, p) == "a/b"
    assert run_label(
        {
            "model_name": "x1y2",
            "config": {"model": "scripted", "model_args": {"policy": "oracle"}},
        },
        p,
    ) == ("scripted (policy=oracle)")
    assert run_label({"model_name": "", "model_source": "random_choice", "config": {}}, p) == "random_choice (seed=1234)"
    assert run_label({}, p) == "r"
    # two files of one model: the newer file wins on a task both report
    old = {
        "results": {
            "catbench": {"f1_macro,none": 0.1},
            "catbench_explain": {"f1_macro,none": 0.2},
        },
        "config": {"model": "x"},
    }
    new = {"results": {"catbench": {"f1_macro,none": 0.3}}, "config": {"model": "x"}}
    write_json(tmp_path / "b" / "20250102_000000_results.json", new)
    write_json(tmp_path / "a" / "20250101_000000_results.json", old)
    assert [f.parent.name for f in find_result_files(tmp_path)] == ["a", "b"]
    (run,) = load_runs([tmp_path])
    assert run.metric("catbench", "f1_macro") == 0.3 and run.metric("catbench_explain", "f1_macro") == 0.2
    # never silently: the older file's catbench is named as not shown, in the table and the closing notes
    older, newer = tmp_path / "a" / "20250101_000000_results.json", tmp_path / "b" / "20250102_000000_results.json"
    assert [s.path for s in run.set_aside["catbench"]] == [older] and "catbench_explain" not in run.set_aside
    assert main_report([str(tmp_path), "--table", "catbench-table1", "--no-published"]) == 0
    out = capsys.readouterr().out
    assert out.count(f"] **x**: catbench: shown from `{newer.as_posix()}`; not shown: `{older.as_posix()}`\n") == 1  # the table's row and the report's runs: one note
    assert main_report([str(tmp_path), "--table", "catbench-table1", "--no-published", "--format", "csv"]) == 0
    head, a, a_e = capsys.readouterr().out.splitlines()
    assert head.endswith(",missing,not_shown") and a_e.endswith(" not in catbench_explain,")  # A+E: one file holds it
    assert a.endswith(f" not in catbench,catbench: shown from {newer.as_posix()}; not shown: {older.as_posix()}")
    (relabelled,) = load_runs([tmp_path], label="mine")
    assert relabelled.label == "mine"


def test_a_layout_is_a_small_declarative_spec(tmp_path):
    """A new benchmark table is only data, joining the report with its benchmark's registry entry."""
    layout = Layout(
        name="demo-table",
        title="Demo",
        benchmark="demo",
        settings=(Setting.of("MT1", "demo_mt1*"),),
        columns=(Column("MT (%)", "mt", "accuracy", 100.0, 1),),
        rank_by="mt",
    )
    register(Benchmark(Manifest(name="demo", title="Demo"), layouts=(layout,)))
    try:
        assert LAYOUTS["demo-table"] is layout
        run = run_of(tmp_path, "m", {"demo_mt1_paired": {"accuracy,none": 0.5432}})
        text = render_report(build_report([run], [layout]))
        assert "| 1 | **m** | MT1 | measured | 54.3 |" in text
    finally:
        unregister("demo")
    assert "demo-table" not in LAYOUTS


def _sc_entry(macro_f: float, repeats: int, temperature: float) -> tuple[dict, dict]:
    """(results entry, task config) of a self-consistency task as lmms-eval records them."""
    results = catbench_entry(prf(0.6, 0.6, 0.6, 0.6, 0.6, macro_f, tc=0.8, occ=0.5), "majority_vote")
    return results, {"repeats": repeats, "generation_kwargs": {"temperature": temperature, "do_sample": True}}


def test_table7_rows_are_labelled_by_the_recorded_k_and_t(tmp_path, capsys):
    """Each self-consistency task lands in the row of the k and T its run recorded, whatever its name
    (catbench_sc_k5 run with --gen_kwargs temperature=0.8 is k=5, T=0.8); a task whose k and T fit no
    row of Table 7 is named, never placed."""
    tasks = {"catbench_sc": (0.61, 3, 0.6), "catbench_sc_t08": (0.62, 3, 0.8), "catbench_sc_k5": (0.63, 5, 0.8), "catbench_sc_k5_t08": (0.64, 5, 0.6), "catbench_sc_x": (0.65, 4, 0.7)}
    entries = {task: _sc_entry(*values) for task, values in tasks.items()}
    write_json(
        tmp_path / "sc" / "org__m" / "20250101_000000_results.json",
        {"results": {t: e[0] for t, e in entries.items()}, "configs": {t: e[1] for t, e in entries.items()}, "model_name": "org/m", "config": {"model": "openai", "model_args": "model=org/m"}},
    )
    assert main_report([str(tmp_path / "sc"), "--table", "catbench-table6_7", "--no-published"]) == 0
    out = capsys.readouterr().out
    rows = {line.split(" | ")[1]: line.split(" | ")[5] for line in out.splitlines() if "| measured |" in line}
    macro = {task: f"{(0.6 + values[0]) / 2:.2f}" for task, values in tasks.items()}
    assert rows == {
        "Self-consistency [k=3, T=0.6]": macro["catbench_sc"],
        "Self-consistency [k=3, T=0.8]": macro["catbench_sc_t08"],
        "Self-consistency [k=5, T=0.8]": macro["catbench_sc_k5"],
        "Self-consistency [k=5, T=0.6]": macro["catbench_sc_k5_t08"],
    }
    assert ("tasks: **org/m** Self-consistency [k=3, T=0.6] = catbench_sc, Self-consistency [k=3, T=0.8] = catbench_sc_t08, Self-consistency [k=5, T=0.6] = catbench_sc_k5_t08, Self-consistency [k=5, T=0.8] = catbench_sc_k5.") in out
    assert "] **org/m**: `catbench_sc_x` recorded k=4, T=0.7: not a setting of this table\n" in out
    assert "] **org/m** (Zero-shot): not run (no task matching catbench_switched, catbench)\n" in out


def test_table7_without_a_recorded_config_is_not_guessed(tmp_path, capsys):
    write_json(tmp_path / "sc" / "org__m" / "20250101_000000_results.json", {"results": {"catbench_sc": _sc_entry(0.6, 3, 0.6)[0]}, "model_name": "org/m", "config": {"model": "openai", "model_args": "model=org/m"}})
    assert main_report([str(tmp_path / "sc"), "--table", "catbench-table6_7", "--no-published"]) == 0
    out = capsys.readouterr().out
    assert "| measured |" not in out
    assert "- [1] **org/m**: `catbench_sc` recorded k=None, T=None: not a setting of this table\n" in out


def test_catbench_table5_is_the_dep_class_of_a_e_a_and_a_e(tmp_path):
    write_catbench_runs(tmp_path)
    write_json(
        tmp_path / "cot" / "org__my-model" / "20250102_000000_results.json",
        {"results": {"catbench_cot": catbench_entry(prf(0.59, 0.97, 0.7337, 0.8, 0.3, 0.4364))}, "model_name": "org/my-model", "config": {"model": "qwen2_vl", "model_args": "pretrained=org/my-model"}},
    )
    rows = build_rows(LAYOUTS["catbench-table5"], load_runs([tmp_path]))
    measured = {(r.model, r.setting): r.values for r in rows if r.source == "measured"}
    assert measured[("org/my-model", "E+A")] == {"dep_p": 0.59, "dep_r": 0.97, "dep_f": 0.7337}
    assert measured[("org/my-model", "A+E")] == {"dep_p": 0.7, "dep_r": 0.9, "dep_f": 0.7875}
    published = {r.setting: r.values for r in rows if r.source == "published"}
    assert published == {"A": {"dep_p": 0.53, "dep_r": 0.92, "dep_f": 0.67}, "E+A": {"dep_p": 0.59, "dep_r": 0.98, "dep_f": 0.74}, "A+E": {"dep_p": 0.66, "dep_r": 0.86, "dep_f": 0.75}}
