"""CaT-Bench's headline table beside random answers (temporal_bench/report/headline.py)."""

from __future__ import annotations

from temporal_bench.report.headline import YES_NO_CHANCE, Headline, Row, Summary

SUMMARY = Summary(
    "CaT-Bench",
    (Headline("macro F1", "f1_macro"), Headline("Dep F1", "f1_dep"), Headline("NonDep F1", "f1_nondep"), Headline("TC %", "tc", 100.0, 1), Headline("OCC %", "occ", 100.0, 1), Headline("invalid", "invalid_rate")),
    tuple(Row(task, task, YES_NO_CHANCE) for task in ("catbench_switched", "catbench")),
    task_prefix="catbench",
)
