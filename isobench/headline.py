"""ISO-Bench's headline table beside random answers (temporal_bench/report/headline.py): the F1s under
Table 1's rule (an unparsed answer a third label), the one rule compare, the figures and Table 1 use."""

from __future__ import annotations

from temporal_bench.isobench.rules import TABLE1_RULE
from temporal_bench.report.headline import YES_NO_CHANCE, Headline, Row, Summary

CHANCE = {**YES_NO_CHANCE, f"{TABLE1_RULE}f1_weighted": 0.5, f"{TABLE1_RULE}f1_macro": 0.5}

SUMMARY = Summary(
    "ISO-Bench, fractions as in the paper (F1 under Table 1's rule: an unparsed answer counts as a third label)",
    (Headline("weighted F1", f"{TABLE1_RULE}f1_weighted"), Headline("macro F1", f"{TABLE1_RULE}f1_macro"), Headline("coverage", "coverage")),
    (Row("isobench", "isobench", CHANCE),),
    task_prefix="isobench",
)
