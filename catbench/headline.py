"""CaT-Bench's headline table beside random answers (temporal_bench/report/headline.py), every cell a fraction: the
paper prints F1 as fractions and TC and OCC as percentages (Tables 4 and 7 in one row), which the title says."""

from __future__ import annotations

from temporal_bench.report.headline import YES_NO_CHANCE, Headline, Row, Summary

SUMMARY = Summary(
    "CaT-Bench, fractions (the paper prints TC and OCC as percentages: its 79.86 is 0.799 here)",
    (Headline("macro F1", "f1_macro"), Headline("Dep F1", "f1_dep"), Headline("NonDep F1", "f1_nondep"), Headline("TC", "tc", 3), Headline("OCC", "occ", 3), Headline("invalid", "invalid_rate")),
    tuple(Row(task, task, YES_NO_CHANCE) for task in ("catbench_switched", "catbench")),
    task_prefix="catbench",
)
