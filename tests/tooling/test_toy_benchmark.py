"""A fourth benchmark from the test folder only (tests/toy_benchmark/): registered with
temporal_bench.benchmarks.register, it gets report (its table beside its published rows, an interval,
its figure), compare and browse from the real lmms-eval runs, and export writes its upstream folder, with no
edit of the generic code (issue 26)."""

import csv
import shutil

import pytest

from temporal_bench.benchmarks import register, unregister
from temporal_bench.browse.cli import main_browse
from temporal_bench.export.cli import main_export
from temporal_bench.report.cli import main_report
from temporal_bench.report.compare import main_compare
from tests.tooling.test_browse import read_page
from tests.toy_benchmark.paper import BENCHMARK, TASK_FOLDER

QUESTIONS = (
    "Is the kettle filled before it is boiled?",
    "Is the tea poured before the kettle boils?",
    "Is the bread sliced before it is toasted?",
    "Is the toast buttered before the bread is sliced?",
    "Is the door unlocked before it is opened?",
    "Is the coat hung up before the door is opened?",
)


@pytest.fixture(scope="module")
def runs(recorded, tmp_path_factory):
    """Two lmms-eval runs of the toy task with the scripted model (tests/recorded/toy_benchmark.py): A answers every
    question right, B every one wrong."""
    base = tmp_path_factory.mktemp("toy")
    for name, recording in (("a", "toy_oracle"), ("b", "toy_wrong")):
        shutil.copytree(recorded(recording).out, base / name)
    register(BENCHMARK)
    yield base
    unregister(BENCHMARK.name)


def test_report_lays_out_its_table_beside_its_published_rows_and_draws_its_figure(runs, capsys, tmp_path):
    assert main_report([str(runs / "a"), "--output-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## Toy Table 1: accuracy, %\n")
    assert ("| 1 | **scripted (policy=oracle)** (unverified data) | A | measured | 100.0 [100.0, 100.0] | 1, 2 |\n| 2 | Toy-7B | A | published | 83.3 |  |\n| 3 | Random | A | published | 50.0 |  |\n") in out  # notes 1, 2: its data (unverified), its few clusters
    assert "Published rows: A toy paper for the registry test, Table 1, as printed.\n" in out
    assert sorted(path.name for path in tmp_path.iterdir()) == ["toy-figure1.csv", "toy-figure1.png", "toy-table1.csv", "toy-table1.md"]
    with open(tmp_path / "toy-figure1.csv", encoding="utf-8", newline="") as handle:
        # no interval: the toy figure names no records for its point
        assert list(csv.reader(handle)) == [["figure", "model", "x", "metric", "value", "low", "high", "n"], ["toy-figure1", "scripted (policy=oracle)", "all", "accuracy", "100.0", "", "", ""]]


def test_compare_tests_its_headline_metric_cluster_by_cluster(runs, capsys):
    assert main_compare([str(runs / "a"), str(runs / "b")]) == 0
    out = capsys.readouterr().out
    assert "| toy_order | accuracy | 6 | 6 | 100.0 | 0.0 | -100.0 [-100.0, -33.3] | 0.031 | 0.031 |\n" in out
    assert "A beats B on toy_order accuracy by 100.0 points [33.3, 100.0]" in out


def test_browse_shows_one_card_per_question_with_its_benchmarks_facts(runs, capsys):
    assert main_browse([str(runs / "a")]) == 0
    page = runs / "a" / "browse.html"
    assert capsys.readouterr().out == f"{page}\n"
    cards, table, missing, data = read_page(page)
    assert table == {"toy_order": {"cards": 6, "right": 6, "wrong": 0, "invalid": 0}}
    assert [card["question"] for card in cards] == ["q1", "q2", "q3", "q4", "q5", "q6"]
    assert [card["gold"] for card in cards] == ["yes", "no"] * 3 and [card["status"] for card in cards] == ["right"] * 6
    prompts = {line for card in cards for line in (data["strings"][index] for index in card["prompt"])}
    assert {f"{question} Answer yes or no." for question in QUESTIONS} <= prompts
    text = page.read_text(encoding="utf-8")
    assert "Toy-Bench" in text and "Acc <b>100.0%</b>" in text
    assert "TempVS" not in text and "CaT-Bench" not in text and "ISO-Bench" not in text  # the page names the benchmarks it shows only


def test_export_writes_its_upstream_folder(runs, tmp_path, capsys):
    assert main_export(["--benchmark", "toy", "--output-dir", str(tmp_path)]) == 0
    folder = tmp_path / "lmms_eval" / "tasks" / "toy"
    assert capsys.readouterr().out.splitlines()[0] == str(folder)
    assert sorted(path.name for path in folder.iterdir()) == ["docs.jsonl", "toy_order.yaml", "utils.py"]
    for name in ("toy_order.yaml", "utils.py", "docs.jsonl"):
        assert (folder / name).read_text(encoding="utf-8") == (TASK_FOLDER / name).read_text(encoding="utf-8")
