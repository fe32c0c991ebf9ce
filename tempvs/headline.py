"""TempVS's headline table beside the paper's Random row (temporal_bench/report/headline.py): GT,
GT_strict, MT and MT|GT_strict of each main test, its CoT variant and the images-only MT3 task."""

from __future__ import annotations

from temporal_bench.report.headline import Headline, Row, Summary
from temporal_bench.tempvs.tables import TEMPVS_METRICS, TEMPVS_TESTS
from temporal_bench.tempvs.task_tests import SUITE_TASK


def _test_row(prefix: str, label: str, task: str) -> Row:
    two_options = prefix in ("two_event", "three_event")  # MT1: A/B; MT2, MT3: five orders A-E
    mt = 0.5 if two_options else 0.2
    partners = {"two_event": 2, "three_event": 3}.get(prefix, 5)  # MT2, MT3: every image of the sequence
    chance = {"gt_acc": 0.2, "gtstrict_rate": 0.2**partners, "mt_acc": mt, "mt_given_gtstrict": mt, "invalid_rate": 0.0}
    published = {metric: f"{prefix}_{suffix}" for suffix, (_, metric) in TEMPVS_METRICS.items()}
    return Row(label, task, chance, published)


IMAGES_ONLY_ROW = Row("MT3 images only", "tempvs_mt3_images_only", {"gt_acc": 0.2, "gtstrict_rate": 0.2**5, "mt_acc": 0.2, "mt_given_gtstrict": 0.2, "invalid_rate": 0.0})  # Table 19: MT alone (no text, no grounding)


def _cot_row(row: Row) -> Row:
    """The CoT variant of a TempVS test (Table 6): the same chance values; the paper prints Random for standard prompts."""
    return Row(f"{row.label} CoT", f"{row.task}_cot", row.chance)


SUMMARY = Summary(
    "TempVS, % as in the paper",
    (Headline("GT", "gt_acc", 1), Headline("GT_strict", "gtstrict_rate", 1), Headline("MT", "mt_acc", 1), Headline("MT|GT_strict", "mt_given_gtstrict", 1), Headline("invalid", "invalid_rate", 1)),
    tuple(_test_row(prefix, label, task) for prefix, (label, task) in TEMPVS_TESTS.items()) + tuple(_cot_row(_test_row(prefix, label, task)) for prefix, (label, task) in TEMPVS_TESTS.items()) + (IMAGES_ONLY_ROW,),
    published_layout="tempvs-table3",
    row_header="test",
    # the task tempvs asks each distinct grounding question once, for every test
    task_notes={SUITE_TASK: "GT of the tests of --tasks tempvs: the grounding questions it asked, each distinct one once for all six tests"},
    scale=100.0,
)
