"""The papers' published numbers shipped as data (each benchmark's published/ folder, read by temporal_bench/published): shape, spot values
typed from the papers' tables (provenance lines of each file), and each table's own arithmetic."""

import itertools
import math
from fractions import Fraction

import pytest

from temporal_bench.published import list_tables, load_table, parse_flags

ROUND = 0.011  # two printed values rounded to 2 decimals: their mean is off by at most 0.01

EXPECTED = {
    # (benchmark, table): (rows, value columns in order)
    ("catbench", "1"): (
        18,
        "dep_p dep_r dep_f nondep_p nondep_r nondep_f macro_p macro_r macro_f",
    ),
    ("catbench", "3"): (9, "a_tc a_occ ae_tc ae_occ"),
    ("catbench", "4"): (3, "p r f1 tc"),
    ("catbench", "5"): (3, "dep_p dep_r dep_f"),
    ("catbench", "6_7"): (6, "method k temperature in_table6 in_table7 p r f tc occ"),
    ("isobench", "1"): (
        19,
        "ocr_label dep_p dep_r dep_f nondep_p nondep_r nondep_f avg_p avg_r avg_f",
    ),
    ("tempvs", "3"): (
        1,
        "two_event_gts two_event_mt two_event_mt_given_gts three_event_gts three_event_mt three_event_mt_given_gts "
        "mt2_event_gts mt2_event_mt mt2_event_mt_given_gts mt2_caption_gts mt2_caption_mt mt2_caption_mt_given_gts "
        "mt3_event_mt mt3_event_mt_given_gts mt3_caption_mt mt3_caption_mt_given_gts",
    ),
    ("tempvs", "4"): (6, "items accuracy fleiss_kappa"),
    ("tempvs", "5"): (
        9,
        "statement_type_code "
        + " ".join(
            f"{m}_{pn}"
            for m in (
                "internvl2_5_26b_mpo",
                "internvl2_5_78b_mpo",
                "llava_onevision_72b_ov",
                "llava_next_video_34b",
                "gpt_4o",
                "top5",
            )
            for pn in ("pos", "neg")
        )
        + " both",
    ),
    ("tempvs", "6"): (
        4,
        "task_key internvl2_5_78b_wo internvl2_5_78b_cot internvl2_5_78b_delta gpt_4o_wo gpt_4o_cot gpt_4o_delta",
    ),
    ("tempvs", "12"): (
        6,
        "two_event_mt two_event_mt_given_gts three_event_mt three_event_mt_given_gts mt2_event_mt mt2_event_mt_given_gts mt3_event_mt mt3_event_mt_given_gts",
    ),
    ("tempvs", "14"): (
        38,
        "two_event_gt two_event_gts two_event_mt two_event_mt_given_gts three_event_gt three_event_gts three_event_mt three_event_mt_given_gts",
    ),
    ("tempvs", "15"): (
        38,
        "mt2_event_gt mt2_event_gts mt2_event_mt mt2_event_mt_given_gts mt2_caption_gt mt2_caption_gts mt2_caption_mt mt2_caption_mt_given_gts",
    ),
    ("tempvs", "16"): (
        38,
        "mt3_event_mt mt3_event_mt_given_gts mt3_caption_mt mt3_caption_mt_given_gts",
    ),
    ("tempvs", "17"): (
        3,
        " ".join(f"{t}_{w}" for t in ("two_event", "three_event", "mt2_event", "mt2_caption") for w in ("before", "after")),
    ),
    ("tempvs", "18"): (
        5,
        " ".join(f"{t}_{w}" for t in ("two_event", "three_event", "mt2_event", "mt2_caption") for w in ("before", "after")),
    ),
    ("tempvs", "19"): (3, "with_events with_captions images_only"),
}


def f1(p, r):
    return 2 * p * r / (p + r) if p + r else 0.0


HALF = Fraction(1, 200)  # half a unit of the second decimal


def _exact(x):
    return Fraction(str(x))


def f1_fits(p, r, f):
    """Whether a printed (2-decimal) F1 can come from some P and R that print as p and r.

    Exact arithmetic on the rounding intervals [x - 0.005, x + 0.005): F1 is monotone in P and R,
    so its range is spanned by the corners.
    """
    p, r, f = _exact(p), _exact(r), _exact(f)
    values = [f1(a, b) for a, b in itertools.product((p - HALF, p + HALF), (r - HALF, r + HALF))]
    return min(values) < f + HALF and max(values) > f - HALF


def between(a, b, v):
    """Whether a printed v can be a (weighted) average of values that print as a and b."""
    lo, hi = sorted((_exact(a), _exact(b)))
    v = _exact(v)
    return lo - HALF < v + HALF and hi + HALF > v - HALF


def test_every_table_is_listed():
    assert list_tables() == sorted(EXPECTED, key=lambda bt: (bt[0], int(bt[1].split("_")[0])))


@pytest.mark.parametrize("benchmark,table", sorted(EXPECTED))
def test_table_loads_with_provenance_and_shape(benchmark, table):
    t = load_table(benchmark, table)
    n_rows, value_columns = EXPECTED[(benchmark, table)]
    assert len(t) == n_rows
    assert t.columns == t.id_columns + value_columns.split() + ["flags", "note"]
    for key in (
        "benchmark",
        "table",
        "paper",
        "arxiv",
        "caption",
        "units",
        "id_columns",
        "source",
        "flags",
    ):
        assert t.meta.get(key), key
    assert t.meta["benchmark"] == benchmark and t.meta["table"] == table
    assert t.percent_columns <= set(t.columns)
    arxiv = {"catbench": "2406.15823", "isobench": "2507.23135"}.get(benchmark)
    if arxiv:
        assert t.meta["arxiv"] == arxiv
    for row in t:  # id cells are filled (ISO-Bench's human row has no mode)
        assert row[t.id_columns[0]]
    # the DataFrame view carries the same rows and the provenance
    frame = load_table(benchmark, table, as_frame=True)
    assert frame.shape == (n_rows, len(t.columns))
    assert frame.attrs["meta"]["paper"] == t.meta["paper"]


def test_unknown_table_names_the_known_ones():
    with pytest.raises(FileNotFoundError, match="catbench 1"):
        load_table("catbench", 2)
    assert load_table("CaTBench", "Table 6-7").table == "6_7"


def test_parse_flags():
    assert parse_flags("dagger;ocr_uncertain:avg_f;ocr_uncertain:avg_p") == {
        "dagger": {""},
        "ocr_uncertain": {"avg_f", "avg_p"},
    }
    assert parse_flags(None) == {} == parse_flags("")


# ----------------------------------------------------------------------------- CaT-Bench


def test_catbench_table1_spot_values():
    t = load_table("catbench", 1)
    assert [r["setting"] for r in t].count("A") == 9
    assert [r["setting"] for r in t].count("A+E (NL)") == 3
    assert t.value(model="gpt-3.5-turbo", setting="A") == {
        "model": "gpt-3.5-turbo",
        "setting": "A",
        "dep_p": 0.62,
        "dep_r": 0.50,
        "dep_f": 0.55,
        "nondep_p": 0.58,
        "nondep_r": 0.69,
        "nondep_f": 0.63,
        "macro_p": 0.60,
        "macro_r": 0.60,
        "macro_f": 0.59,
        "flags": None,
        "note": None,
    }
    assert t.value(model="gemini-1.5-pro", setting="A+E (NL)")["macro_f"] == 0.73
    assert t.value(model="claude-3.5-sonnet", setting="A+E")["dep_r"] == 0.97
    assert t.value(model="Llama3-8B", setting="A+E")["nondep_f"] == 0.36
    assert t.value(model="gpt-4o", setting="A")["nondep_r"] == 0.19


def test_catbench_table1_typo_is_flagged_and_kept_as_printed():
    t = load_table("catbench", 1)
    flagged = [(r["model"], r["setting"], t.flags(r)) for r in t.flagged()]
    assert flagged == [("gpt-4o-mini", "A", {"typo": {"dep_f"}})]
    row = t.value(model="gpt-4o-mini", setting="A")
    assert row["dep_f"] == 0.76  # as printed
    assert not f1_fits(row["dep_p"], row["dep_r"], row["dep_f"])
    assert f1_fits(row["dep_p"], row["dep_r"], 0.66)  # the value P and R give
    assert abs((0.66 + row["nondep_f"]) / 2 - row["macro_f"]) <= ROUND


def test_catbench_table1_arithmetic():
    t = load_table("catbench", 1)
    bad = set()
    for r in t:
        typo = t.flags(r).get("typo", set())
        for m in "prf":
            mean = (r[f"dep_{m}"] + r[f"nondep_{m}"]) / 2
            if abs(mean - r[f"macro_{m}"]) > ROUND:
                bad.add((r["model"], r["setting"], f"macro_{m}"))
        for c in ("dep", "nondep"):
            if f"{c}_f" not in typo:
                assert f1_fits(r[f"{c}_p"], r[f"{c}_r"], r[f"{c}_f"]), (
                    r["model"],
                    r["setting"],
                    c,
                )
    # macro = mean of the two classes everywhere except the macro F of the typo row (printed dep F)
    assert bad == {("gpt-4o-mini", "A", "macro_f")}


def test_catbench_table3_values():
    t = load_table("catbench", 3)
    assert [r["model"] for r in t] == [
        "gpt-3.5-turbo",
        "gpt-4-turbo",
        "gpt-4o",
        "gpt-4o-mini",
        "Llama3-8B",
        "gemini-1.0-pro",
        "gemini-1.5-pro",
        "gemini-1.5-flash",
        "claude-3.5-sonnet",
    ]
    assert t.value(model="gpt-3.5-turbo") | {"note": None} == {
        "model": "gpt-3.5-turbo",
        "a_tc": 52.39,
        "a_occ": 70.42,
        "ae_tc": 49.23,
        "ae_occ": 73.31,
        "flags": None,
        "note": None,
    }
    assert t.value(model="claude-3.5-sonnet")["ae_occ"] == 48.10
    assert t.value(model="Llama3-8B")["a_occ"] == 83.87
    assert t.percent_columns == {"a_tc", "a_occ", "ae_tc", "ae_occ"}
    assert all(0 <= r[c] <= 100 for r in t for c in t.percent_columns)
    # the models are those of Table 1
    assert {r["model"] for r in t} == {r["model"] for r in load_table("catbench", 1)}


def test_catbench_tables_4_5_6_7_agree_with_tables_1_and_3():
    t1, t3 = load_table("catbench", 1), load_table("catbench", 3)
    t4, t5, t67 = (
        load_table("catbench", 4),
        load_table("catbench", 5),
        load_table("catbench", "6_7"),
    )
    gpt4o_a, gpt4o_ae = (
        t1.value(model="gpt-4o", setting="A"),
        t1.value(model="gpt-4o", setting="A+E"),
    )
    tc = t3.value(model="gpt-4o")
    assert [r["setting"] for r in t4] == ["A", "E+A (CoT)", "A+E"]
    for setting, row1, tc_value in (
        ("A", gpt4o_a, tc["a_tc"]),
        ("A+E", gpt4o_ae, tc["ae_tc"]),
    ):
        r4 = t4.value(setting=setting)
        assert (r4["p"], r4["r"], r4["f1"], r4["tc"]) == (
            row1["macro_p"],
            row1["macro_r"],
            row1["macro_f"],
            tc_value,
        )
        r5 = t5.value(setting=setting)
        assert (r5["dep_p"], r5["dep_r"], r5["dep_f"]) == (
            row1["dep_p"],
            row1["dep_r"],
            row1["dep_f"],
        )
    cot = t4.value(setting="E+A (CoT)")
    assert (cot["p"], cot["r"], cot["f1"], cot["tc"]) == (0.77, 0.65, 0.60, 83.66)
    assert t5.value(setting="E+A") | {} == {
        "setting": "E+A",
        "dep_p": 0.59,
        "dep_r": 0.98,
        "dep_f": 0.74,
        "flags": None,
        "note": None,
    }
    zero = t67.value(setting="Zero-shot")
    assert (zero["p"], zero["r"], zero["f"], zero["tc"], zero["occ"]) == (
        gpt4o_a["macro_p"],
        gpt4o_a["macro_r"],
        gpt4o_a["macro_f"],
        tc["a_tc"],
        tc["a_occ"],
    )
    assert (zero["tc"], zero["occ"]) == (79.86, 47.96)


def test_catbench_table6_7_rows():
    t = load_table("catbench", "6_7")
    assert [r["setting"] for r in t if r["in_table6"] == 1] == [
        "Zero-shot",
        "Self-consistency [k=3, T=0.6]",
        "Few-shot (BM25, k=5)",
    ]
    sc = [(r["k"], r["temperature"], r["f"], r["tc"], r["occ"]) for r in t if r["method"] == "self-consistency"]
    assert sc == [
        (3, 0.6, 0.49, 78.66, 48.17),
        (3, 0.8, 0.48, 79.58, 47.25),
        (5, 0.6, 0.48, 79.72, 46.76),
        (5, 0.8, 0.48, 79.86, 45.99),
    ]
    assert [r["in_table7"] for r in t] == [1, 1, 1, 1, 1, 1]  # Table 7 (Appendix B.3) prints all six rows
    few = t.value(setting="Few-shot (BM25, k=5)")
    assert (few["p"], few["r"], few["f"], few["tc"], few["occ"]) == (
        0.79,
        0.70,
        0.68,
        81.48,
        45.56,
    )
    assert t.percent_columns == {"tc", "occ"}


# ----------------------------------------------------------------------------- ISO-Bench


def test_isobench_table1_spot_values_and_labels():
    t = load_table("isobench", 1)
    assert t.value(model="gpt-4o", mode="A") | {} == {
        "model": "gpt-4o",
        "mode": "A",
        "ocr_label": "40",
        "dep_p": 0.56,
        "dep_r": 0.72,
        "dep_f": 0.63,
        "nondep_p": 0.61,
        "nondep_r": 0.43,
        "nondep_f": 0.50,
        "avg_p": 0.58,
        "avg_r": 0.58,
        "avg_f": 0.57,
        "flags": None,
        "note": None,
    }
    assert t.value(model="o3", mode="E→A")["avg_f"] == 0.62
    assert t.value(model="o4-mini", mode="E→A")["avg_f"] == 0.59
    assert t.value(model="Qwen2.5-VL (32B)", mode="E→A")["avg_r"] == 0.31
    assert t.value(model="Human (200 items)", mode=None)["avg_f"] == 0.98
    assert {r["model"]: r["ocr_label"] for r in t if r["ocr_label"]} == {
        "gpt-4o-mini": "do-mini",
        "gpt-4o": "40",
        "o3": "03",
        "o4-mini": "04-mini",
    }
    # o3 and o4-mini only have E→A rows; every other model both modes, E→A first
    modes = {}
    for r in t:
        modes.setdefault(r["model"], []).append(r["mode"])
    assert modes["o3"] == modes["o4-mini"] == ["E→A"]
    assert sum(m == ["E→A", "A"] for m in modes.values()) == 8
    assert "OCR" in t.meta["flags"]


def test_isobench_aggregate_f_is_mean_of_class_f_except_dagger_rows():
    t = load_table("isobench", 1)
    off = {(r["model"], r["mode"]) for r in t if abs((r["dep_f"] + r["nondep_f"]) / 2 - r["avg_f"]) > ROUND}
    dagger = {(r["model"], r["mode"]) for r in t.flagged("dagger")}
    assert off == dagger == {("Llava-1.5 (7B)", "A"), ("PaliGemma2 (10B mix 448)", "A")}
    for r in t.flagged("dagger"):
        assert "avg_f" in t.flags(r)["ocr_uncertain"]


def test_isobench_other_cells_fit_unless_flagged_uncertain():
    t = load_table("isobench", 1)
    misfits = set()
    for r in t:
        for c in ("dep", "nondep"):
            if not f1_fits(r[f"{c}_p"], r[f"{c}_r"], r[f"{c}_f"]):
                misfits.add((r["model"], r["mode"], f"{c}_f"))
        for m in "pr":  # a weighted average lies between the two class values
            if not between(r[f"dep_{m}"], r[f"nondep_{m}"], r[f"avg_{m}"]):
                misfits.add((r["model"], r["mode"], f"avg_{m}"))
    flagged = {(r["model"], r["mode"], c) for r in t for c in t.flags(r).get("ocr_uncertain", ()) if c != "avg_f"}
    assert (
        misfits
        == flagged
        == {
            ("PaliGemma2 (10B mix 448)", "A", "nondep_f"),
            ("PaliGemma2 (10B mix 448)", "A", "avg_p"),
            ("o3", "E→A", "dep_f"),
            ("o3", "E→A", "avg_r"),
        }
    )
    assert t.flags(t.value(model="o3", mode="E→A")) == {"ocr_uncertain": {"dep_f", "avg_r"}, "other_rule": {""}}


# ----------------------------------------------------------------------------- TempVS

TEMPVS_MODELS_FIRST_LAST = ("deepseek-vl2-tiny", "GPT-4o")


@pytest.mark.parametrize("table", ["14", "15", "16"])
def test_tempvs_appendix_tables_have_the_38_models(table):
    t = load_table("tempvs", table)
    models = [r["model"] for r in t]
    assert len(models) == len(set(models)) == 38
    assert (models[0], models[-1]) == TEMPVS_MODELS_FIRST_LAST
    assert models == [r["model"] for r in load_table("tempvs", "14")]
    for r in t:
        for c in t.columns[1:-2]:
            assert r[c] is None or 0 <= r[c] <= 1


def test_tempvs_appendix_spot_values():
    t14, t15, t16 = (load_table("tempvs", n) for n in ("14", "15", "16"))
    assert t14.value(model="deepseek-vl2-tiny") | {} == {
        "model": "deepseek-vl2-tiny",
        "two_event_gt": 0.4159,
        "two_event_gts": 0.2082,
        "two_event_mt": 0.4971,
        "two_event_mt_given_gts": 0.4965,
        "three_event_gt": 0.4292,
        "three_event_gts": 0.1052,
        "three_event_mt": 0.4976,
        "three_event_mt_given_gts": 0.5064,
        "flags": None,
        "note": None,
    }
    assert t14.value(model="GPT-4o")["three_event_mt"] == 0.6452
    assert t14.value(model="InternVL2_5-1B")["three_event_gts"] == 0.085
    assert t15.value(model="InternVL2_5-78B-MPO")["mt2_event_mt_given_gts"] == 0.9657
    assert t15.value(model="Janus-Pro-1B")["mt2_caption_mt_given_gts"] == 0
    assert t15.value(model="LLaVA-NeXT-Video-34B-hf")["mt2_event_mt_given_gts"] == 1
    assert t16.value(model="Qwen2-VL-2B-Instruct") | {} == {
        "model": "Qwen2-VL-2B-Instruct",
        "mt3_event_mt": 0.1438,
        "mt3_event_mt_given_gts": 0.125,
        "mt3_caption_mt": 0.1483,
        "mt3_caption_mt_given_gts": 1.0,
        "flags": None,
        "note": None,
    }


@pytest.mark.parametrize(
    "table,prefixes",
    [("14", ("two_event", "three_event")), ("15", ("mt2_event", "mt2_caption"))],
)
def test_tempvs_mt_given_gts_is_undefined_exactly_when_no_gts_pass(table, prefixes):
    t = load_table("tempvs", table)
    undefined = 0
    for r in t:
        for p in prefixes:
            assert (r[f"{p}_mt_given_gts"] is None) == (r[f"{p}_gts"] == 0), (
                r["model"],
                p,
            )
            undefined += r[f"{p}_mt_given_gts"] is None
            assert r[f"{p}_gts"] <= r[f"{p}_gt"]  # every event grounded is rarer than one event grounded
    assert undefined == {"14": 0, "15": 17}[table]


def test_tempvs_table16_undefined_cells():
    t = load_table("tempvs", "16")
    undefined = {(r["model"], c) for r in t for c in ("mt3_event_mt_given_gts", "mt3_caption_mt_given_gts") if r[c] is None}
    assert len(undefined) == 20
    assert ("LongVA-7B", "mt3_event_mt_given_gts") in undefined
    assert ("Janus-Pro-1B", "mt3_caption_mt_given_gts") not in undefined


def test_tempvs_table6_without_cot_equals_appendix_tables():
    t6 = load_table("tempvs", "6")
    appendix = {}
    for n in ("14", "15", "16"):
        for r in load_table("tempvs", n):
            appendix.setdefault(r["model"], {}).update(r)
    assert [r["task_key"] for r in t6] == [
        "two_event",
        "three_event",
        "mt2_caption",
        "mt3_caption",
    ]
    for r in t6:
        for col, model in (
            ("internvl2_5_78b", "InternVL2_5-78B"),
            ("gpt_4o", "GPT-4o"),
        ):
            assert r[f"{col}_wo"] == round(100 * appendix[model][f"{r['task_key']}_mt"], 2), (r["task"], model)
            assert r[f"{col}_delta"] == round(r[f"{col}_cot"] - r[f"{col}_wo"], 2)
    assert t6.value(task="Three-event (MT1)")["gpt_4o_delta"] == -1.14
    assert t6.value(task="Sentence ordering (MT2)")["gpt_4o_cot"] == 81.41


def test_tempvs_tables_18_and_19_agree_with_appendix_tables():
    t14, t15, t16 = (load_table("tempvs", n) for n in ("14", "15", "16"))
    for r in load_table("tempvs", "18"):
        a, b = t14.value(model=r["model"]), t15.value(model=r["model"])
        assert (r["two_event_after"], r["three_event_after"]) == (
            a["two_event_mt"],
            a["three_event_mt"],
        )
        assert (r["mt2_event_after"], r["mt2_caption_after"]) == (
            b["mt2_event_mt"],
            b["mt2_caption_mt"],
        )
    names = {"llava-onevision-qwen2-72b": "llava-onevision-qwen2-72b-ov-sft"}
    for r in load_table("tempvs", "19"):
        c = t16.value(model=names.get(r["model"], r["model"]))
        assert (r["with_events"], r["with_captions"]) == (
            c["mt3_event_mt"],
            c["mt3_caption_mt"],
        )
    assert load_table("tempvs", "19").value(model="InternVL2_5-78B-MPO")["images_only"] == 0.2709
    assert load_table("tempvs", "17").value(model="Qwen2.5-72B-Instruct")["mt2_caption_after"] == 0.3203


def test_tempvs_table3_random_row():
    t = load_table("tempvs", "3")
    (r,) = t.rows
    assert r["model"] == "Random"
    assert (
        r["two_event_gts"],
        r["two_event_mt"],
        r["three_event_gts"],
        r["three_event_mt"],
    ) == (4, 50, 0.6, 50)
    assert (
        r["mt2_event_gts"],
        r["mt2_event_mt"],
        r["mt2_caption_gts"],
        r["mt2_caption_mt"],
    ) == (0.032, 20, 0.032, 20)
    assert (r["mt3_event_mt"], r["mt3_caption_mt"]) == (20, 20)
    assert all(r[c] is None for c in t.columns if c.endswith("_mt_given_gts"))
    # chance values: (1/5)^events for five-image sequences, except the flagged three-event cell
    assert math.isclose(r["two_event_gts"], 100 * 0.2**2)
    assert math.isclose(r["mt2_event_gts"], 100 * 0.2**5) and math.isclose(r["mt2_caption_gts"], 100 * 0.2**5)
    assert not math.isclose(r["three_event_gts"], 100 * 0.2**3)
    assert t.flags(r) == {"suspect": {"three_event_gts"}}
    # Table 3 reports the Tables 14-16 measures x 100: its columns are theirs
    appendix_columns = {c for n in ("14", "15", "16") for c in load_table("tempvs", n).columns}
    value_columns = t.columns[1:-2]
    assert set(value_columns) <= appendix_columns and set(value_columns) == t.percent_columns


def test_tempvs_table5_averages():
    t = load_table("tempvs", "5")
    five = (
        "internvl2_5_26b_mpo",
        "internvl2_5_78b_mpo",
        "llava_onevision_72b_ov",
        "llava_next_video_34b",
        "gpt_4o",
    )
    off = set()
    for r in t:
        assert abs((r["top5_pos"] + r["top5_neg"]) / 2 - r["both"]) <= 0.051, r["statement_type"]
        for pn in ("pos", "neg"):
            if abs(sum(r[f"{m}_{pn}"] for m in five) / 5 - r[f"top5_{pn}"]) > 0.051:
                off.add((r["task"], r["statement_type_code"], f"top5_{pn}"))
    flagged = {(r["task"], r["statement_type_code"], c) for r in t for c in t.flags(r).get("suspect", ())}
    assert off == flagged and len(flagged) == 8 and {task for task, _, _ in flagged} == {"three"}
    r = t.value(task="three", statement_type="later/finally")
    assert (
        r["llava_next_video_34b_pos"],
        r["llava_next_video_34b_neg"],
        r["both"],
    ) == (100.0, 0.1, 61.5)
    assert t.value(task="two", statement_type="implict")["statement_type_code"] == "implictpair"


def test_tempvs_tables_4_and_12_spot_values():
    t4 = load_table("tempvs", "4")
    assert [(r["task"], r["items"], r["accuracy"], r["fleiss_kappa"]) for r in t4][3] == ("mt2_caption", 40, 89.3, 0.764)
    t12 = load_table("tempvs", "12")
    assert t12.value(model="Mantis-8B-Idefics2")["mt2_event_mt_given_gts"] == 0
    assert t12.value(model="InternVL2_5-78B-MPO")["mt2_event_mt_given_gts"] == 0.9543
