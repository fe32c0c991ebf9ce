"""TempVS's paper tables as report layouts (temporal_bench/report/layouts.py): Tables 3, 5, 6, 12
and 14-19."""

from __future__ import annotations

from temporal_bench.report.layouts import Column, Layout, Setting
from temporal_bench.tempvs import published_rows

TEMPVS_TESTS = {  # published column prefix -> (setting label, task)
    "two_event": ("MT1 two-event", "tempvs_mt1_two"),
    "three_event": ("MT1 three-event", "tempvs_mt1_three"),
    "mt2_event": ("MT2 event", "tempvs_mt2_event"),
    "mt2_caption": ("MT2 caption", "tempvs_mt2_caption"),
    "mt3_event": ("MT3 event", "tempvs_mt3_event"),
    "mt3_caption": ("MT3 caption", "tempvs_mt3_caption"),
}
TEMPVS_METRICS = {  # published column suffix -> (header, results metric)
    "gt": ("GT", "gt_acc"),
    "gts": ("GTs", "gtstrict_rate"),
    "mt": ("MT", "mt_acc"),
    "mt_given_gts": ("MT|GTs", "mt_given_gtstrict"),
}
TEMPVS_STANDARD_NOTE = (
    "Measured rows use the standard tasks (combined image, both filters); GT = accuracy on the test's grounding questions, GTs = GT_strict, MT|GTs = MT among GT_strict passes; - or – = undefined (no GT_strict pass) or not run."
)


def _tempvs_settings(tests: tuple[str, ...], variant: str = "", label: str = "") -> tuple[Setting, ...]:
    """One setting per test: its task with the ``variant`` suffix, labelled the test's name + ``label``."""
    return tuple(Setting.of(TEMPVS_TESTS[t][0] + label, TEMPVS_TESTS[t][1] + variant) for t in tests)


def _tempvs_columns(tests: tuple[str, ...], metrics: tuple[str, ...], scale: float, decimals: int) -> tuple[Column, ...]:
    return tuple(
        Column(
            f"{TEMPVS_TESTS[t][0]}: {TEMPVS_METRICS[m][0]}",
            f"{t}_{m}",
            TEMPVS_METRICS[m][1],
            scale,
            decimals,
            TEMPVS_TESTS[t][0],
        )
        for t in tests
        for m in metrics
        if not (t.startswith("mt3") and m in ("gt", "gts"))  # the paper omits them
    )


def _tempvs_appendix(table: str, tests: tuple[str, ...], title: str, variant: str = "", metrics: tuple[str, ...] = tuple(TEMPVS_METRICS), notes: tuple[str, ...] = (TEMPVS_STANDARD_NOTE,)) -> Layout:
    """An appendix table of fractions, one row per model: ``tests``' tasks (with the ``variant`` suffix) under ``metrics``."""
    return Layout(
        name=f"tempvs-table{table}",
        title=f"TempVS Table {table}: {title} (fractions)",
        benchmark="tempvs",
        settings=_tempvs_settings(tests, variant),
        columns=_tempvs_columns(tests, metrics, 1.0, 4),
        rows="model",
        published=("tempvs", table),
        rank_by=f"{tests[0]}_mt",
        notes=notes,
    )


TEMPVS_TABLE3 = Layout(
    name="tempvs-table3",
    title="TempVS Table 3: GT_strict, MT and MT|GT_strict of the six main tests, %",
    benchmark="tempvs",
    settings=_tempvs_settings(tuple(TEMPVS_TESTS)),
    columns=_tempvs_columns(tuple(TEMPVS_TESTS), ("gts", "mt", "mt_given_gts"), 100.0, 1),
    rows="model",
    published=("tempvs", "3"),
    published_rows=published_rows.table3_rows,
    published_decimals=2,  # the model rows: Tables 14-16's four-decimal fractions x 100
    rank_by=tuple(f"{t}_mt" for t in TEMPVS_TESTS),
    notes=(
        TEMPVS_STANDARD_NOTE,
        "Published model rows are the paper's Tables 14-16 x 100 (Table 3 prints the same values to one decimal); the Random row is Table 3's own. Ranked by the mean MT of the six tests (rows missing a test last).",
    ),
)

TEMPVS_TABLE5 = Layout(
    name="tempvs-table5",
    title="TempVS Table 5: MT1 accuracy by statement type, Pos (true) / Neg (false) statements, %",
    benchmark="tempvs",
    settings=(
        Setting.of("two", "tempvs_mt1_two"),
        Setting.of("three", "tempvs_mt1_three"),
    ),
    columns=tuple(
        Column(
            f"{label} {polarity.capitalize()}",
            f"{task}_{code}_{polarity}",
            f"{task}_{code}_{polarity}",
            100.0,
            1,
            task,
        )
        for task, types in published_rows.STATEMENT_TYPES.items()
        for code, label in types
        for polarity in ("pos", "neg")
    ),
    rows="model",
    published=("tempvs", "5"),
    published_rows=published_rows.table5_rows,
    notes=("The paper prints this table transposed (statement types as rows); Top-5 is the mean of its five models.",),
)

TEMPVS_TABLE6_TESTS = ("two_event", "three_event", "mt2_caption", "mt3_caption")
TEMPVS_TABLE6 = Layout(
    name="tempvs-table6",
    title="TempVS Table 6: MT accuracy without and with chain of thought, and the difference, %",
    benchmark="tempvs",
    settings=_tempvs_settings(TEMPVS_TABLE6_TESTS) + _tempvs_settings(TEMPVS_TABLE6_TESTS, "_cot", " CoT"),
    columns=tuple(
        column
        for t in TEMPVS_TABLE6_TESTS
        for column in (
            Column(f"{TEMPVS_TESTS[t][0]}: w/o", f"{t}_wo", "mt_acc", 100.0, 2, TEMPVS_TESTS[t][0]),
            Column(f"{TEMPVS_TESTS[t][0]}: CoT", f"{t}_cot", "mt_acc", 100.0, 2, f"{TEMPVS_TESTS[t][0]} CoT"),
            Column(
                f"{TEMPVS_TESTS[t][0]}: Δ",
                f"{t}_delta",
                "mt_acc",
                100.0,
                2,
                f"{TEMPVS_TESTS[t][0]} CoT",
                minus=TEMPVS_TESTS[t][0],
            ),
        )
    ),
    rows="model",
    published=("tempvs", "6"),
    published_rows=published_rows.table6_rows,
    notes=("w/o = the standard task, CoT = its `_cot` variant; Δ = CoT − w/o in percentage points (no interval). The paper's MT2/MT3 rows are the caption variants; it prints tests as rows.",),
)

TEMPVS_TABLE17_TESTS = ("two_event", "three_event", "mt2_event", "mt2_caption")


def _before_after_columns(before: tuple[str, str], after: tuple[str, str]) -> tuple[Column, ...]:
    """Tables 17 and 18: per test, a "before" and an "after" column, each (metric, setting label
    suffix) of where its value comes from."""
    return tuple(Column(f"{TEMPVS_TESTS[t][0]}: {when}", f"{t}_{when}", metric, 1.0, 4, TEMPVS_TESTS[t][0] + label) for t in TEMPVS_TABLE17_TESTS for when, (metric, label) in (("before", before), ("after", after)))


TEMPVS_TABLE17 = Layout(
    name="tempvs-table17",
    title="TempVS Table 17: text-only LLMs' MT accuracy before and after the text-only-LLM filter (fractions)",
    benchmark="tempvs",
    settings=_tempvs_settings(TEMPVS_TABLE17_TESTS, "_blind"),
    columns=_before_after_columns(("mt_acc", ""), ("mt_acc_filtered", "")),
    rows="model",
    published=("tempvs", "17"),
    notes=(
        "Measured rows use the `_blind` tasks (text only, unfiltered): before = `mt_acc`, after = "
        "`mt_acc_filtered`, MT on the questions that fewer than 2 of the 3 text-only LLMs answer right "
        "in the release's blind predictions (computed from the samples files). `temporal-bench "
        "score-predictions DATA --input blind` scores those predictions themselves, with no model.",
    ),
)

TEMPVS_TABLE18 = Layout(
    name="tempvs-table18",
    title="TempVS Table 18: MLLMs' MT accuracy before and after the text-only-LLM filter (fractions)",
    benchmark="tempvs",
    settings=_tempvs_settings(TEMPVS_TABLE17_TESTS, "_unfiltered", " unfiltered") + _tempvs_settings(TEMPVS_TABLE17_TESTS),
    columns=_before_after_columns(("mt_acc", " unfiltered"), ("mt_acc", "")),
    rows="model",
    published=("tempvs", "18"),
    notes=("before = the `_unfiltered` task (every main question), after = the standard task (the questions that fewer than 2 of the 3 text-only LLMs answer right); both with images.",),
)

TEMPVS_IMAGES_ONLY = Setting.of("MT3 images only", "tempvs_mt3_images_only")
TEMPVS_TABLE19 = Layout(
    name="tempvs-table19",
    title="TempVS Table 19: MT3 image ordering with events, with captions, or with the images only (fractions)",
    benchmark="tempvs",
    settings=_tempvs_settings(("mt3_event", "mt3_caption")) + (TEMPVS_IMAGES_ONLY,),
    columns=(
        Column("with events", "with_events", "mt_acc", 1.0, 4, TEMPVS_TESTS["mt3_event"][0]),
        Column("with captions", "with_captions", "mt_acc", 1.0, 4, TEMPVS_TESTS["mt3_caption"][0]),
        Column("images only", "images_only", "mt_acc", 1.0, 4, TEMPVS_IMAGES_ONLY.label),
    ),
    rows="model",
    published=("tempvs", "19"),
    notes=(
        "images only = `tempvs_mt3_images_only`: the MT3 questions with no events, captions or character "
        "description; the official code has none, so its prompt is ours, written from the paper's "
        'description (docs/tempvs.md, "Deviations and options").',
    ),
)

LAYOUTS = (
    TEMPVS_TABLE3,
    _tempvs_appendix("14", ("two_event", "three_event"), "MT1 event relation inference"),
    _tempvs_appendix("15", ("mt2_event", "mt2_caption"), "MT2 sentence ordering"),
    _tempvs_appendix("16", ("mt3_event", "mt3_caption"), "MT3 image ordering"),
    _tempvs_appendix(
        "12",
        ("two_event", "three_event", "mt2_event", "mt3_event"),
        "separate-image input, MT and MT|GT_strict",
        variant="_separate",
        metrics=("mt", "mt_given_gts"),
        notes=("Measured rows use the `_separate` tasks (one image per frame).",),
    ),
    TEMPVS_TABLE5,
    TEMPVS_TABLE6,
    TEMPVS_TABLE17,
    TEMPVS_TABLE18,
    TEMPVS_TABLE19,
)
