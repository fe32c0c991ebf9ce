"""Declarative table layouts: which results metric of which task fills which column of a paper table.

A layout is data. To add a benchmark table, write a :class:`Layout` and put it in ``LAYOUTS``:

- ``settings``: the prompting settings a table compares. Each names the harness tasks that measure
  it as groups of fnmatch patterns (a group = one prompt, e.g. a task and its ``_switched``
  variant); the first group with a task in the run is used, and inside it every column takes
  the first task that has a numeric value for its metric.
- ``columns``: header, the column name in the published CSV (``temporal_bench/published``), the
  metric key in the results JSON, the scale from the harness value (a fraction) to the printed
  unit, decimals, and for tables whose columns span settings, the setting.
- ``rows``: ``"setting"`` gives one row per (model, setting) (CaT-Bench Table 1),
  ``"model"`` one row per model with the settings in the columns (CaT-Bench Table 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Column:
    header: str
    key: str  # column name in the published CSV and in the CSV output
    metric: str  # metric key in the results JSON ("<metric>,<filter>")
    scale: float = 1.0  # harness value (fraction) x scale = printed unit
    decimals: int = 2
    setting: str | None = (
        None  # for rows="model": the setting whose tasks give this column
    )


@dataclass(frozen=True)
class Setting:
    label: str  # as printed in the table (and in the published CSV's setting column)
    tasks: tuple[
        tuple[str, ...], ...
    ]  # groups of fnmatch patterns, in order of preference
    filters: tuple[str, ...] = ("none",)  # preferred filter names of the metric keys

    @classmethod
    def of(
        cls, label: str, *tasks: str, filters: tuple[str, ...] = ("none",)
    ) -> Setting:
        return cls(label, (tuple(tasks),), filters)


@dataclass(frozen=True)
class Layout:
    name: str  # CLI name, e.g. "catbench-table1"
    title: str
    benchmark: str
    settings: tuple[Setting, ...]
    columns: tuple[Column, ...]
    rows: str = "setting"  # "setting" or "model"
    published: tuple[str, str] | None = (
        None  # (benchmark, table) in temporal_bench.published
    )
    published_model_column: str | None = "model"
    published_model: str | None = (
        None  # fixed model name when the table has no model column
    )
    published_setting_column: str | None = "setting"
    rank_by: str | None = None  # column key; ranked high to low
    provisional: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)

    def setting(self, label: str) -> Setting:
        for s in self.settings:
            if s.label == label:
                return s
        raise KeyError(label)

    @property
    def tasks(self) -> list[str]:
        return [p for s in self.settings for group in s.tasks for p in group]


def _prf(prefix_key: str, prefix_header: str, suffix: str) -> tuple[Column, ...]:
    return (
        Column(f"{prefix_header} P", f"{prefix_key}_p", f"precision_{suffix}"),
        Column(f"{prefix_header} R", f"{prefix_key}_r", f"recall_{suffix}"),
        Column(f"{prefix_header} F", f"{prefix_key}_f", f"f1_{suffix}"),
    )


CATBENCH_A = Setting.of("A", "catbench_switched", "catbench")
CATBENCH_AE = Setting.of("A+E", "catbench_explain_switched", "catbench_explain")
CATBENCH_NL = Setting.of("A+E (NL)", "catbench_explain_nl*")

CATBENCH_TABLE1 = Layout(
    name="catbench-table1",
    title="CaT-Bench Table 1: Step Order Prediction, per class and macro average",
    benchmark="catbench",
    settings=(CATBENCH_A, CATBENCH_AE, CATBENCH_NL),
    columns=_prf("dep", "Dep", "dep")
    + _prf("nondep", "NonDep", "nondep")
    + _prf("macro", "Macro", "macro"),
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

CATBENCH_TABLE6_7 = Layout(
    name="catbench-table6_7",
    title="CaT-Bench Tables 6 and 7: improved prompting with the A prompt (macro P/R/F, TC %, OCC %)",
    benchmark="catbench",
    settings=(
        Setting.of("Zero-shot", "catbench_switched", "catbench"),
        Setting.of(
            "Self-consistency [k=3, T=0.6]",
            "catbench_sc_switched",
            "catbench_sc",
            filters=("majority_vote", "none"),
        ),
        Setting.of(
            "Self-consistency [k=5]",
            "catbench_sc_k5*",
            filters=("majority_vote", "none"),
        ),
        Setting.of(
            "Few-shot (BM25, k=5)", "catbench_fewshot_switched", "catbench_fewshot"
        ),
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
    notes=(
        (
            "The paper's rows are gpt-4o only. `catbench_sc_k5` samples at the task's temperature (0.6) "
            "unless run with --gen_kwargs temperature=0.8."
        ),
    ),
)

ISOBENCH_TABLE1 = Layout(
    name="isobench-table1",
    title="ISO-Bench Table 1: per class and weighted average P/R/F",
    benchmark="isobench",
    settings=(Setting.of("E→A", "isobench_cot"), Setting.of("A", "isobench")),
    columns=_prf("dep", "DEP", "dep")
    + _prf("nondep", "NONDEP", "nondep")
    + _prf("avg", "Avg", "weighted"),
    published=("isobench", "1"),
    published_setting_column="mode",
    rank_by="avg_f",
    provisional=True,
    notes=(
        "Provisional layout: the ISO-Bench metric key names are not final.",
        "Published cells were reconstructed from an OCR extraction of the paper; '?' marks cells that contradict their row.",
    ),
)

LAYOUTS: dict[str, Layout] = {
    layout.name: layout
    for layout in (
        CATBENCH_TABLE1,
        CATBENCH_TABLE3,
        CATBENCH_TABLE4,
        CATBENCH_TABLE6_7,
        ISOBENCH_TABLE1,
    )
}


def register_layout(layout: Layout) -> None:
    """Add (or replace) a layout, e.g. the TempVS tables once their metric keys are settled."""
    LAYOUTS[layout.name] = layout
