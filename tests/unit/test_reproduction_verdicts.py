"""Reproduction verdicts (temporal_bench/report/verdicts.py): a published cell against the measured
value of the same model, reproduced (within the published rounding), close (within the benchmark's
tolerance beyond it) or differs, on constructed cases and through ``temporal-bench report`` with
``--tolerance``. Verdicts on real runs with intervals: tests/tooling/test_intervals.py; partial runs:
tests/tooling/test_report_partial_runs.py."""

import pytest

from temporal_bench.report.cli import main_report
from temporal_bench.report.verdicts import CLOSE, DEFAULT_TOLERANCES, DIFFERS, REPRODUCED, classify, parse_tolerances
from tests.unit.test_report import catbench_entry, write_json

# gpt-4o, A in CaT-Bench Table 1 prints 0.53 0.92 0.67 | 0.71 0.19 0.30 | 0.62 0.55 0.49; a run that
# reproduces the Dep class, is close on NonDep and differs on the macro average (Macro F 6.6 points
# below the paper: the systematic gap, which the sampling interval let pass)
pytestmark = pytest.mark.usefixtures("read_as_release")  # results files without samples, judged
GPT_4O_A = {"precision_dep": 0.532, "recall_dep": 0.9249, "f1_dep": 0.6651, "precision_nondep": 0.7249, "recall_nondep": 0.1801, "f1_nondep": 0.314, "precision_macro": 0.6351, "recall_macro": 0.49, "f1_macro": 0.424}


@pytest.mark.parametrize(
    "published, decimals, measured, tolerance, verdict",
    [
        (0.67, 2, 0.6749, 0.01, REPRODUCED),  # 0.67 stands for [0.665, 0.675)
        (0.67, 2, 0.6651, 0.01, REPRODUCED),
        (0.67, 2, 0.6649, 0.01, CLOSE),
        (0.67, 2, 0.6849, 0.01, CLOSE),  # within 0.01 beyond the rounding
        (0.67, 2, 0.6851, 0.01, DIFFERS),
        (0.67, 2, 0.6049, 0.01, DIFFERS),
        (0.67, 2, 0.6649, 0.0, DIFFERS),  # no tolerance: only the rounding
        (58.8, 1, 58.84, 1.0, REPRODUCED),
        (58.8, 1, 59.84, 1.0, CLOSE),
        (58.8, 1, 57.74, 1.0, DIFFERS),
        (0.5827 * 100, 2, 58.274, 1.0, REPRODUCED),  # TempVS Table 3: Table 14's 0.5827 x 100, four decimals
        (0.5827 * 100, 2, 58.264, 1.0, CLOSE),
    ],
)
def test_classify(published, decimals, measured, tolerance, verdict):
    assert classify(published, decimals, measured, tolerance) == verdict


def test_parse_tolerances():
    assert parse_tolerances([]) == DEFAULT_TOLERANCES == {"tempvs": 1.0, "catbench": 1.0, "isobench": 2.0}
    assert parse_tolerances(["2"]) == {"tempvs": 2.0, "catbench": 2.0, "isobench": 2.0}
    assert parse_tolerances(["catbench=3.5"]) == {"tempvs": 1.0, "catbench": 3.5, "isobench": 2.0}
    assert parse_tolerances(["0", "isobench=1"]) == {"tempvs": 0.0, "catbench": 0.0, "isobench": 1.0}
    for bad, message in (("mmmu=1", "unknown benchmark 'mmmu'"), ("catbench=x", "'x' is not a number"), ("-1", "0 or more"), ("nan", "0 or more")):
        with pytest.raises(ValueError, match=message):
            parse_tolerances([bad])


def _report(tmp_path, capsys, *options):
    write_json(
        tmp_path / "runs" / "gpt-4o" / "20250101_000000_results.json",
        {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "gpt-4o-2024-05-13", "config": {"model": "openai", "model_args": "model=gpt-4o-2024-05-13", "limit": None}},
    )
    assert main_report([str(tmp_path / "runs"), "--table", "catbench-table1", *options]) == 0
    return capsys.readouterr().out


def test_the_report_separates_reproduced_close_and_differs(tmp_path, capsys):
    out = _report(tmp_path, capsys)
    assert "| gpt-4o | A | published | 0.53 = | 0.92 = | 0.67 = | 0.71 ≈ | 0.19 ≈ | 0.30 ≈ | 0.62 ≠ | 0.55 ≠ | 0.49 ≠ |" in out
    assert (
        "- **gpt-4o-2024-05-13** (A): 3 reproduced, 3 close, 3 differs; close: NonDep P 0.725 vs 0.71 (+0.015); "
        "NonDep R 0.180 vs 0.19 (-0.010); NonDep F 0.314 vs 0.30 (+0.014); differs: Macro P 0.635 vs 0.62 (+0.015); "
        "Macro R 0.490 vs 0.55 (-0.060); Macro F 0.424 vs 0.49 (-0.066)\n"
    ) in out
    line = "3 reproduced, 3 close, 3 differs of 9 published cells (tolerance 1 point)."
    assert f"\nVerdict: {line}\n" in out
    assert f"\n## Reproduction verdicts\n\n- CaT-Bench Table 1: Step Order Prediction, per class and macro average: {line}\n" in out
    # the other model of the paper (gpt-4o, A+E) has no measured row: not judged
    assert "| gpt-4o | A+E | published | 0.66 | 0.86 | 0.75 |" in out


def test_tolerance_is_set_per_benchmark_or_for_all(tmp_path, capsys):
    assert "Verdict: 3 reproduced, 6 close, 0 differs of 9 published cells (tolerance 7 points)." in _report(tmp_path, capsys, "--tolerance", "catbench=7")
    assert "Verdict: 3 reproduced, 0 close, 6 differs of 9 published cells (tolerance 0 points)." in _report(tmp_path, capsys, "--tolerance", "0")
    # another benchmark's tolerance leaves CaT-Bench's default
    assert "Verdict: 3 reproduced, 3 close, 3 differs of 9 published cells (tolerance 1 point)." in _report(tmp_path, capsys, "--tolerance", "tempvs=5")
    with pytest.raises(SystemExit):
        _report(tmp_path, capsys, "--tolerance", "catbench=many")
    assert "--tolerance catbench=many: 'many' is not a number of points" in capsys.readouterr().err
