"""ISO-Bench's headline table beside random answers (temporal_bench/report/headline.py)."""

from __future__ import annotations

from temporal_bench.report.headline import YES_NO_CHANCE, Headline, Row, Summary

SUMMARY = Summary(
    "ISO-Bench",
    (Headline("weighted F1", "f1_weighted"), Headline("macro F1", "f1_macro"), Headline("coverage", "coverage")),
    (Row("isobench", "isobench", YES_NO_CHANCE),),
    task_prefix="isobench",
)
