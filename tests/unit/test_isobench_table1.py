"""Which scoring rule ISO-Bench's published Table 1 used (docs/isobench.md "Which rule Table 1 used").

For every printed row, search the integer confusion matrices over the paper's 764 examples (Table 2:
DEP 383 gold yes, NONDEP 381 gold no) for one whose scores round to the printed cells, under each
scoring rule of isobench/rules.py:

* ``default``: unparsed answers discarded, so the matrix covers any subset of each class;
* ``strict_``: an unparsed answer counted as the wrong class, so each class is complete;
* ``paper_``: an unparsed answer kept as a third predicted label, P/R/F1 for ``labels=[yes, no]``;

and for the average F, the support-weighted mean of the class F1s (sklearn's ``weighted avg``) or the
F1 of the weighted P and R (``paper_f1_of_avg_pr``). A printed value v stands for [v - 0.005, v + 0.005]
(either way of rounding a tie). Rows are decided on every printed cell and, where the CSV flags cells
as OCR-uncertain, again without them. Each allowed rule's witness matrix is then scored by the task's
own metrics, which must print the row.
"""

from math import ceil, floor

import pytest

from temporal_bench.isobench.breakdowns import paper_f1_of_avg_pr
from temporal_bench.isobench.record_reader import RELEASE_COUNTS
from temporal_bench.isobench.rules import scores
from temporal_bench.published import load_table

DEP, NONDEP = RELEASE_COUNTS["dep"], RELEASE_COUNTS["nondep"]
HALF = 0.005 + 1e-9
CLASS_CELLS = ("dep_p", "dep_r", "dep_f", "nondep_p", "nondep_r", "nondep_f")
CELLS = CLASS_CELLS + ("avg_p", "avg_r", "avg_f")
RULES = ("default", "strict_", "paper_")
AVERAGE_F = {"mean": "mean of the class F1", "f1_of_pr": "F1 of Avg P and Avg R"}
PREFIX = {"default": "", "strict_": "strict_", "paper_": "paper_"}


def fits(value, printed):
    return abs(value - printed) <= HALF


def ratio(numerator, denominator):
    return numerator / denominator if denominator else 0.0  # sklearn's zero_division=0


def f1(p, r):
    return 2 * p * r / (p + r) if p + r else 0.0


def numerators(denominator, printed):
    """n in 0..denominator with n / denominator printing as ``printed``."""
    return [n for n in range(max(0, floor((printed - HALF) * denominator)), min(denominator, ceil((printed + HALF) * denominator)) + 1) if fits(ratio(n, denominator), printed)]


def others(count, printed, limit):
    """x in 0..limit with count / (count + x) printing as ``printed``."""
    if count == 0:
        return list(range(limit + 1)) if fits(0.0, printed) else []
    low = 0 if printed + HALF >= 1 else floor(count / (printed + HALF) - count)
    high = limit if printed - HALF <= 0 else min(limit, ceil(count / (printed - HALF) - count))
    return [x for x in range(max(0, low), high + 1) if fits(ratio(count, count + x), printed)]


def counts_of(other, printed, limit):
    """x in 0..limit with x / (x + other) printing as ``printed``."""
    if other == 0:
        return [x for x in range(limit + 1) if fits(1.0 if x else 0.0, printed)]
    low = floor((printed - HALF) * other / (1 - printed + HALF))
    high = limit if printed + HALF >= 1 else min(limit, ceil((printed + HALF) * other / (1 - printed - HALF)))
    return [x for x in range(max(0, low), high + 1) if fits(ratio(x, x + other), printed)]


def candidates(row, rule):
    """(a, b, c, d) = gold yes -> yes, gold yes -> no, gold no -> yes, gold no -> no, given the row's recalls
    and precisions (the rest of the 764 unparsed)."""
    if rule == "default":
        for a in range(DEP + 1):
            for b in others(a, row["dep_r"], DEP - a):
                for c in others(a, row["dep_p"], NONDEP):
                    for d in counts_of(c, row["nondep_r"], NONDEP - c):
                        yield a, b, c, d
    else:
        for a in numerators(DEP, row["dep_r"]):
            for d in numerators(NONDEP, row["nondep_r"]):
                if rule == "strict_":
                    yield a, DEP - a, NONDEP - d, d
                    continue
                for c in others(a, row["dep_p"], NONDEP - d):
                    for b in others(d, row["nondep_p"], DEP - a):
                        yield a, b, c, d


def row_values(matrix, rule):
    a, b, c, d = matrix
    dep, nondep = (DEP, NONDEP) if rule == "paper_" else (a + b, c + d)
    values = {"dep_p": ratio(a, a + c), "dep_r": ratio(a, dep), "nondep_p": ratio(d, b + d), "nondep_r": ratio(d, nondep)}
    values.update(dep_f=f1(values["dep_p"], values["dep_r"]), nondep_f=f1(values["nondep_p"], values["nondep_r"]))
    weights = (dep / (dep + nondep), nondep / (dep + nondep))
    for cell in ("p", "r", "f"):
        values[f"avg_{cell}"] = weights[0] * values[f"dep_{cell}"] + weights[1] * values[f"nondep_{cell}"]
    return values, f1(values["avg_p"], values["avg_r"])


def allowed(row, cells):
    """{(rule, average F): a witness matrix} for the rules whose matrices print ``cells`` of ``row``."""
    found = {}
    for rule in RULES:
        for matrix in candidates(row, rule):
            values, f1_of_pr = row_values(matrix, rule)
            if not all(fits(values[cell], row[cell]) for cell in cells if cell != "avg_f"):
                continue
            for average, value in (("mean", values["avg_f"]), ("f1_of_pr", f1_of_pr)):
                if "avg_f" not in cells or fits(value, row["avg_f"]):
                    found.setdefault((rule, average), matrix)
    return found


def records_of(matrix):
    """Per-doc records of 764 answers with this confusion matrix, the rest unparsed."""
    a, b, c, d = matrix
    answers = [("yes", "yes")] * a + [("yes", "no")] * b + [("yes", "invalid")] * (DEP - a - b) + [("no", "yes")] * c + [("no", "no")] * d + [("no", "invalid")] * (NONDEP - c - d)
    return [{"gold": gold, "pred": pred, "failed": False, "relation": "before", "source": None, "distance_class": None} for gold, pred in answers]


TABLE = load_table("isobench", 1)
ROWS = [row for row in TABLE if row["mode"]]  # the human row (200 items) has no mode

# (model, mode) -> {"all": allowed (rule, average F) on every printed cell, "unflagged": without the
# cells the CSV flags OCR-uncertain (rows with such cells only)}
BOTH = {"mean"}
EXPECTED = {
    ("DeepSeek-VL2 (tiny)", "E→A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("DeepSeek-VL2 (tiny)", "A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("Llava-1.5 (7B)", "E→A"): {"all": {"paper_": {"mean", "f1_of_pr"}}},
    ("Llava-1.5 (7B)", "A"): {"all": {"default": {"f1_of_pr"}}, "unflagged": {rule: {"mean", "f1_of_pr"} for rule in RULES}},
    ("Qwen2.5-VL (32B)", "E→A"): {"all": {"paper_": {"mean"}}},
    ("Qwen2.5-VL (32B)", "A"): {"all": {"default": {"mean", "f1_of_pr"}, "paper_": {"mean", "f1_of_pr"}}},
    ("PaliGemma2 (10B mix 448)", "E→A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("PaliGemma2 (10B mix 448)", "A"): {"all": {}, "unflagged": {"paper_": {"mean", "f1_of_pr"}}},
    ("Llama-3.2 (11B Vision)", "E→A"): {"all": {"paper_": {"mean"}}},
    ("Llama-3.2 (11B Vision)", "A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("gpt-4o-mini", "E→A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("gpt-4o-mini", "A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("gpt-4o", "E→A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("gpt-4o", "A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("claude-3.5-sonnet", "E→A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
    ("claude-3.5-sonnet", "A"): {"all": {"paper_": {"mean"}}},
    ("o3", "E→A"): {"all": {"default": {"mean", "f1_of_pr"}}, "unflagged": {"default": {"mean", "f1_of_pr"}}},
    ("o4-mini", "E→A"): {"all": {"default": BOTH, "strict_": BOTH, "paper_": BOTH}},
}


def decided(found):
    rules = {}
    for rule, average in found:
        rules.setdefault(rule, set()).add(average)
    return rules


def printed_by_the_task(matrix, rule, average):
    """The row's cells as the task's metrics score the witness ``matrix`` under ``rule``."""
    records = records_of(matrix)
    report = scores(records, PREFIX[rule])
    keys = {"p": "precision", "r": "recall", "f": "f1"}
    printed = {f"{cls}_{cell}": report[f"{key}_{cls}"] for cls in ("dep", "nondep", "weighted") for cell, key in keys.items()}
    printed = {key.replace("weighted", "avg"): value for key, value in printed.items()}
    if average == "f1_of_pr":
        printed["avg_f"] = f1(printed["avg_p"], printed["avg_r"])
        if rule == "paper_":
            assert printed["avg_f"] == pytest.approx(paper_f1_of_avg_pr(records), abs=1e-12)
    return printed


@pytest.mark.parametrize("row", ROWS, ids=[f"{row['model']} {row['mode']}" for row in ROWS])
def test_the_rules_a_confusion_matrix_consistent_with_the_row_allows(row):
    flagged = TABLE.flags(row).get("ocr_uncertain", set())
    expected = EXPECTED[row["model"], row["mode"]]
    cell_sets = {"all": CELLS, **({"unflagged": [cell for cell in CELLS if cell not in flagged]} if flagged else {})}
    assert set(cell_sets) == set(expected)
    for name, cells in cell_sets.items():
        found = allowed(row, cells)
        assert decided(found) == expected[name], name
        for (rule, average), matrix in found.items():  # the task's own metrics print the row from the witness
            printed = printed_by_the_task(matrix, rule, average)
            assert all(fits(printed[cell], row[cell]) for cell in cells), (rule, average, matrix, printed)


def test_only_the_paper_rule_fits_the_rows_that_rule_out_the_other_two():
    """The rows no two-class matrix can print (issue 15's examples among them) all fit the paper_ rule."""
    paper_only = {key for key, outcome in EXPECTED.items() if set(outcome.get("unflagged", outcome["all"])) == {"paper_"}}
    assert paper_only == {("Llava-1.5 (7B)", "E→A"), ("Qwen2.5-VL (32B)", "E→A"), ("PaliGemma2 (10B mix 448)", "A"), ("Llama-3.2 (11B Vision)", "E→A"), ("claude-3.5-sonnet", "A")}
    fits_paper = {key for key, outcome in EXPECTED.items() if "paper_" in outcome.get("unflagged", outcome["all"])}
    assert set(EXPECTED) - fits_paper == {("o3", "E→A")}
    # the report judges the measured rows under the paper_ rule: the rows it cannot give are flagged, so they get no verdict
    assert {(row["model"], row["mode"]) for row in TABLE.flagged("other_rule")} == set(EXPECTED) - fits_paper
