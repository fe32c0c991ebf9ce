"""What ``temporal-bench report`` shows a person reading it the first time, on recorded runs (tests/recorded/): a run
whose every request failed shows no number, only that its requests failed, and gets no verdict."""

from temporal_bench.report.cli import main_report
from tests.recorded.check import N_DOCS

GPT_4O = "gpt-4o-2024-05-13"  # the CaT-Bench paper's GPT-4o, so that a run judged would get verdicts


def report(capsys, *arguments) -> str:
    assert main_report([str(argument) for argument in arguments]) == 0
    return capsys.readouterr().out


def test_a_run_whose_every_request_failed_shows_no_number_and_gets_no_verdict(recorded, read_as_release, capsys):
    out = report(capsys, recorded("catbench_failed").out, "--label", GPT_4O, "--table", "catbench-table1", "--table", "catbench-table3")
    rows = [line for line in out.splitlines() if "| measured |" in line]
    assert len(rows) == 2 and all(f"| **{GPT_4O}** (failed requests) |" in row for row in rows)
    cells = [cell.strip() for row in rows for cell in row.split("| measured |")[1].strip(" |").split("|")]
    assert set(cells) == {"requests failed", "–"} and cells.count("requests failed") == 9 + 2  # Table 1's nine, Table 3's A: TC and OCC (A+E: not run)
    assert "0.00" not in "".join(rows) and "[" not in "".join(rows)
    assert f"catbench had {N_DOCS} of {N_DOCS} request(s) fail or bring no response: every one, so its cells show no value" in out
    assert "Verdict" not in out and "=" not in "".join(line for line in out.splitlines() if "| published |" in line)
    csv = report(capsys, recorded("catbench_failed").out, "--label", GPT_4O, "--table", "catbench-table1", "--format", "csv").splitlines()
    measured = next(line for line in csv if ",measured," in line)
    assert ",,,,,,,,," in measured and "every one, so its cells show no value" in measured
