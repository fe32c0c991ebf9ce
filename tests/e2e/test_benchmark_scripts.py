"""Every script of benchmarks/ run small, so that a refactor cannot break one silently: each in-process (its ``main``, or
``runpy`` for those without one) on a hundredth of the full-size synthetic data (benchmarks/full_size_data.py
``--fraction``), written once for the module; the lmms-eval and temporal-bench commands the scripts start run in
preloaded children (tests/harness.py ``run_cli`` in place of benchmarks/processes.py ``launch``), and the one random
baseline run of ``--tasks tempvs`` that tempvs_requests.py makes is the run the scripts reading a run read. Each test
checks that the script printed (or wrote) its table, never a figure: benchmarks measure, tests never time."""

import functools
import math
import re
import runpy
import sys
import time
from pathlib import Path

import pytest

from tests.harness import run_cli
from tests.paths import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import processes  # noqa: E402
from full_size_data import data_env  # noqa: E402

FRACTION = 0.01
SMALL = ["--fraction", str(FRACTION)]


def preloaded(folder: Path, command: list[str], env: dict[str, str], cwd: Path | None) -> processes.Finished:
    """A script's command through the suite's runner (our console scripts forked preloaded), its datasets cache in
    ``folder`` and its working folder there unless the script names one; no CPU time or peak memory."""
    start = time.perf_counter()
    done = run_cli(command, folder, env=env, cwd=cwd)
    wall = time.perf_counter() - start
    return processes.Finished(command, done.returncode, wall, math.nan, math.nan, done.stdout, [(wall, line) for line in done.stderr.splitlines(keepends=True)])


@pytest.fixture(scope="module")
def preloaded_commands(tmp_path_factory):
    """The scripts' commands preloaded for the module, its fixtures' included."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(processes, "launch", functools.partial(preloaded, tmp_path_factory.mktemp("commands")))
        yield


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, preloaded_commands) -> Path:
    """The three benchmarks' data at a hundredth of the full size (TempVS: 21 image sequences, 386 distinct questions)."""
    import full_size_data

    folder = tmp_path_factory.mktemp("benchmark-scripts")
    full_size_data.main(["tempvs", "catbench", "isobench", "--workdir", str(folder), *SMALL])
    return folder


def data_options(workdir: Path) -> list[str]:
    return ["--workdir", str(workdir), *SMALL]


def table_rows(text: str, first_cell: str) -> list[list[str]]:
    """The cells of each markdown table row of ``text`` whose first cell is ``first_cell``."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in text.splitlines() if re.match(rf"\|\s*(?:{first_cell})\s*\|", line.strip())]


@pytest.fixture(scope="module")
def tempvs_run(workdir) -> Path:
    """tempvs_requests.py's run: the random baseline on ``--tasks tempvs`` with its samples (made by the first test that
    needs it, the script's own test, or here)."""
    folder = workdir / "runs" / "requests_tempvs"
    if not list(folder.glob("**/*_results.json")):
        import tempvs_requests

        tempvs_requests.main(data_options(workdir))
    return folder


def test_tempvs_requests_counts_the_protocols_questions(workdir, tempvs_run, capsys):
    import tempvs_requests

    tempvs_requests.main(["--run", str(tempvs_run), *data_options(workdir)])
    out = capsys.readouterr().out
    rows = table_rows(out, "tempvs")
    assert [row[1] for row in rows] == ["(all six tests)", *(f"tempvs_{test}" for test in ("mt1_two", "mt1_three", "mt2_event", "mt2_caption", "mt3_event", "mt3_caption"))], out
    assert all(row[2] == row[4] and row[3] == row[5] for row in rows[1:]), out  # the protocol's questions, each sent
    assert re.search(r"logged payload per doc beyond prompt and response: mean \d+ B", out), out


def test_logged_payload(tempvs_run, capsys):
    import logged_payload

    logged_payload.main([str(tempvs_run)])
    rows = table_rows(capsys.readouterr().out, "tempvs")
    assert len(rows) == 1 and int(rows[0][1]) > 0


def test_browse_page_size(workdir, tempvs_run, capsys):
    import browse_page_size

    browse_page_size.main(["--run", str(tempvs_run), "--repeat", "1", "--photo-strips", "1", *data_options(workdir)])
    out = capsys.readouterr().out
    assert "steps: start" in out and "reading" in out, out
    assert {row[0] for row in table_rows(out, r"[^|]+")} >= {"page MB", "cards", "embedded images", "estimate with photographic strips MB"}, out


def test_command_times(tempvs_run, tmp_path, capsys, monkeypatch):
    import command_times
    import results_section

    results = tmp_path / "RESULTS.md"
    results.write_text("before\n<!-- command_times.py: begin -->\nold\n<!-- command_times.py: end -->\nafter\n", encoding="utf-8")
    monkeypatch.setattr(results_section, "RESULTS", results)
    command_times.main(["--runs", str(tempvs_run), str(tempvs_run), "--sizes", "0.5,1", "--rounds", "1", "--import-rounds", "0", "--write"])
    rows = table_rows(capsys.readouterr().out, r"\d+%")
    assert [(row[0], row[3]) for row in rows] == [(size, f"`{name}`") for size in ("50%", "100%") for name in ("check", "report", "compare", "browse")]
    written = results.read_text(encoding="utf-8")
    assert written.startswith("before\n<!-- command_times.py: begin -->\n| size |") and written.endswith("<!-- command_times.py: end -->\nafter\n") and "old" not in written


def test_plugin_overhead(workdir, tmp_path, capsys, monkeypatch):
    """Stage times in-process (lmms-eval's TaskManager over its kept index, tests/preloaded_task_index.py; the datasets
    cache of the tasks it loads here), the run with decode_only; no start-up rounds (fresh interpreters)."""
    import datasets
    import plugin_overhead

    import tests.preloaded_task_index  # noqa: F401

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", str(tmp_path / "hf_datasets_cache"))
    for name, value in {**processes.OFFLINE, **data_env(workdir, ["tempvs"], FRACTION)}.items():
        monkeypatch.setenv(name, value)  # the script sets them for its in-process tasks: undone after the test
    plugin_overhead.main(["--tasks", "tempvs", "--startup-rounds", "0", *data_options(workdir)])
    out = capsys.readouterr().out
    rows = table_rows(out, "tempvs")
    assert len(rows) == 1 and len(rows[0]) == 12 and int(rows[0][1]) > 0, out
    assert re.search(r"mean ms per doc beyond decoding \(every stage but doc_to_visual\): tempvs \d", out), out


def test_converted_size(workdir, capsys):
    import converted_size

    converted_size.main(data_options(workdir))
    out = capsys.readouterr().out
    assert [row[0] for row in table_rows(out, r"TempVS|ISO-Bench")] == ["TempVS", "ISO-Bench"], out


def test_interval_widths(workdir, capsys):
    import interval_widths

    interval_widths.main(["--runs", "1", *data_options(workdir)])
    rows = table_rows(capsys.readouterr().out, r"(TempVS|CaT-Bench|ISO-Bench)[^|]*")
    assert len(rows) == 12 and {row[0] for row in rows} >= {"TempVS mt1_two", "CaT-Bench test", "ISO-Bench"}, rows


def test_export_size(capsys):
    import export_size

    export_size.main([])
    rows = table_rows(capsys.readouterr().out, r"`\w+/`")
    assert [row[0] for row in rows] == ["`tempvs/`", "`catbench/`", "`isobench/`"]


def test_export_load_time(capsys):
    """The exported folder only: each folder costs a fresh interpreter importing lmms-eval."""
    import export_load_time

    export_load_time.main(["--repeat", "1", "--only", "export"])
    rows = table_rows(capsys.readouterr().out, "export")
    assert len(rows) == 1 and float(rows[0][1]) > 0


@pytest.mark.parametrize(
    "script, arguments, first_cell",
    [
        ("compare_calibration.py", ["--pairs", "2", "--tasks", "catbench_switched,isobench", "--goal-sd", "0"], "catbench_switched.*"),
        ("interval_coverage.py", ["--runs", "2"], "catbench: 57 plans.*"),
    ],
)
def test_simulations(script, arguments, first_cell, capsys, monkeypatch):
    """The scripts without a ``main(argv)``, as their command lines run them."""
    monkeypatch.setattr(sys, "argv", [script, *arguments])
    runpy.run_path(str(REPO / "benchmarks" / script), run_name="__main__")
    assert table_rows(capsys.readouterr().out, first_cell)
