"""CaT-Bench's paper tables as report layouts (temporal_bench/report/layouts.py): Tables 1, 3, 4, 5 and 6-7."""

from __future__ import annotations

from temporal_bench.report.layouts import Column, Layout, Setting, prf_columns

CATBENCH_A = Setting.of("A", "catbench_switched", "catbench")
CATBENCH_AE = Setting.of("A+E", "catbench_explain_switched", "catbench_explain")
CATBENCH_NL = Setting.of("A+E (NL)", "catbench_explain_nl*")

CATBENCH_TABLE1 = Layout(
    name="catbench-table1",
    title="CaT-Bench Table 1: Step Order Prediction, per class and macro average",
    benchmark="catbench",
    settings=(CATBENCH_A, CATBENCH_AE, CATBENCH_NL),
    columns=prf_columns("dep", "Dep", "dep") + prf_columns("nondep", "NonDep", "nondep") + prf_columns("macro", "Macro", "macro"),
    published=("catbench", "1"),
    rank_by="macro_f",
    notes=("Dep = gold yes, NonDep = gold no; values are fractions.",),
)

CATBENCH_TABLE3 = Layout(
    name="catbench-table3",
    title="CaT-Bench Table 3: Temporal Consistency (TC) and Order Contrastive Consistency (OCC), %",
    benchmark="catbench",
    settings=(
        CATBENCH_A,
        Setting(
            "A+E",
            (
                ("catbench_explain_switched", "catbench_explain"),
                ("catbench_explain_nl_switched", "catbench_explain_nl"),
            ),
        ),
    ),
    columns=(
        Column("A: TC", "a_tc", "tc", 100.0, 2, "A"),
        Column("A: OCC", "a_occ", "occ", 100.0, 2, "A"),
        Column("A+E: TC", "ae_tc", "tc", 100.0, 2, "A+E"),
        Column("A+E: OCC", "ae_occ", "occ", 100.0, 2, "A+E"),
    ),
    rows="model",
    published=("catbench", "3"),
    published_setting_column=None,
    notes=(
        "Percentages. OCC needs the NonDep-S twins, i.e. a `_switched` task.",
        "A+E uses the NL prompt (catbench_explain_nl*) only when the run has no JSON A+E task, as the paper did for Gemini.",
    ),
)

CATBENCH_TABLE4 = Layout(
    name="catbench-table4",
    title="CaT-Bench Table 4: prompting styles (macro P/R/F1, TC %)",
    benchmark="catbench",
    settings=(
        CATBENCH_A,
        Setting.of("E+A (CoT)", "catbench_cot_switched", "catbench_cot"),
        CATBENCH_AE,
    ),
    columns=(
        Column("P", "p", "precision_macro"),
        Column("R", "r", "recall_macro"),
        Column("F1", "f1", "f1_macro"),
        Column("TC (%)", "tc", "tc", 100.0),
    ),
    published=("catbench", "4"),
    published_model_column=None,
    published_model="gpt-4o",
    notes=("The paper's rows are gpt-4o only.",),
)

CATBENCH_TABLE5 = Layout(
    name="catbench-table5",
    title="CaT-Bench Table 5: the Dep class (gold yes) under A, E+A and A+E prompting",
    benchmark="catbench",
    settings=(
        CATBENCH_A,
        Setting.of("E+A", "catbench_cot_switched", "catbench_cot"),
        CATBENCH_AE,
    ),
    columns=prf_columns("dep", "Dep", "dep"),
    published=("catbench", "5"),
    published_model_column=None,
    published_model="gpt-4o",
    notes=("The paper's rows are gpt-4o only; values are fractions.",),
)

# Table 7's self-consistency settings (k samples at temperature T), each filled by the tasks whose
# recorded config has that k and T, whatever their names
CATBENCH_SC_SETTINGS = tuple(
    Setting.of(
        f"Self-consistency [k={k}, T={t}]",
        "catbench_sc*_switched",
        "catbench_sc*",
        filters=("majority_vote", "none"),
        sampling=(k, t),
    )
    for k in (3, 5)
    for t in (0.6, 0.8)
)

CATBENCH_TABLE6_7 = Layout(
    name="catbench-table6_7",
    title="CaT-Bench Tables 6 and 7: improved prompting with the A prompt (macro P/R/F, TC %, OCC %)",
    benchmark="catbench",
    settings=(
        Setting.of("Zero-shot", "catbench_switched", "catbench"),
        *CATBENCH_SC_SETTINGS,
        Setting.of("Few-shot (BM25, k=5)", "catbench_fewshot_switched", "catbench_fewshot"),
    ),
    columns=(
        Column("P", "p", "precision_macro"),
        Column("R", "r", "recall_macro"),
        Column("F", "f", "f1_macro"),
        Column("TC (%)", "tc", "tc", 100.0),
        Column("OCC (%)", "occ", "occ", 100.0),
    ),
    published=("catbench", "6_7"),
    published_model_column=None,
    published_model="gpt-4o",
    notes=("The paper's rows are gpt-4o only. A self-consistency row is labelled by the k (`repeats`) and T (`generation_kwargs.temperature`, --gen_kwargs included) its run recorded, not by the task name.",),
)

LAYOUTS = (CATBENCH_TABLE1, CATBENCH_TABLE3, CATBENCH_TABLE4, CATBENCH_TABLE5, CATBENCH_TABLE6_7)
