"""ISO-Bench aggregations against scikit-learn on hand-made records (docs/protocol/isobench.md §5):
the headline aggregations of the metric_list and every key of ``breakdown_metrics``."""

import json

import pytest
from sklearn.metrics import accuracy_score, precision_recall_fscore_support

from temporal_bench.isobench import rules
from temporal_bench.isobench.breakdowns import AGGREGATIONS, breakdown_metrics
from temporal_bench.lmms_eval_tasks.isobench import metrics
from temporal_bench.lmms_eval_tasks.isobench.metrics import METRIC_NAMES, values_of
from temporal_bench.lmms_eval_tasks.isobench.parsing import parse_answer_only
from temporal_bench.lmms_eval_tasks.plugin.isobench.utils import package_values


def record(gold, pred, relation="before", source=None, distance_class=None):
    return {"id": "x", "gold": gold, "pred": pred, "relation": relation, "source": source, "distance_class": distance_class, "failed": False}


RECORDS = [
    record("yes", "yes", "before", "youcook2", "close"),
    record("yes", "no", "after", "youcook2", "close"),
    record("yes", "invalid", "after", "crosstask", "distant"),
    record("no", "no", "before", "crosstask", "close"),
    record("no", "yes", "after", "youcook2", "distant"),
    record("no", "yes", "before", "youcook2", "close"),
    record("yes", "yes", "after", "crosstask", "distant"),
    record("no", "invalid", "before", "youcook2", "close"),
]


def sk(gold, pred, average):
    return precision_recall_fscore_support(gold, pred, labels=["yes", "no"], average=average, zero_division=0)


ALL = breakdown_metrics("isobench", RECORDS)


def test_default_scores_use_the_parsed_answers_only():
    kept = [r for r in RECORDS if r["pred"] != "invalid"]
    gold, pred = [r["gold"] for r in kept], [r["pred"] for r in kept]
    for average in ("weighted", "macro"):
        p, r, f, _ = sk(gold, pred, average)
        assert ALL[f"precision_{average}"] == pytest.approx(p, abs=1e-12)
        assert ALL[f"recall_{average}"] == pytest.approx(r, abs=1e-12)
        assert ALL[f"f1_{average}"] == pytest.approx(f, abs=1e-12)
    p, r, f, _ = sk(gold, pred, None)
    assert [ALL["precision_dep"], ALL["recall_dep"], ALL["f1_dep"]] == pytest.approx([p[0], r[0], f[0]])
    assert [ALL["precision_nondep"], ALL["recall_nondep"], ALL["f1_nondep"]] == pytest.approx([p[1], r[1], f[1]])
    assert ALL["accuracy"] == pytest.approx(accuracy_score(gold, pred)) == 3 / 6
    assert rules.coverage(RECORDS) == ALL["coverage"] == 6 / 8


def test_strict_scores_count_unparsed_answers_as_wrong():
    gold = [r["gold"] for r in RECORDS]
    pred = [r["pred"] if r["pred"] != "invalid" else ("no" if r["gold"] == "yes" else "yes") for r in RECORDS]
    p, r, f, _ = sk(gold, pred, "weighted")
    assert ALL["strict_f1_weighted"] == pytest.approx(f, abs=1e-12)
    assert ALL["strict_precision_weighted"] == pytest.approx(p, abs=1e-12)
    assert ALL["strict_f1_macro"] == pytest.approx(sk(gold, pred, "macro")[2], abs=1e-12)
    assert ALL["strict_accuracy"] == 3 / 8
    assert ALL["strict_f1_weighted"] < ALL["f1_weighted"]


def test_paper_scores_keep_unparsed_answers_as_a_third_label():
    """An unparsed answer lowers the recall of its gold class and nobody's precision."""
    gold, pred = [r["gold"] for r in RECORDS], [r["pred"] for r in RECORDS]
    for average in ("weighted", "macro"):
        p, r, f, _ = sk(gold, pred, average)
        assert [ALL[f"paper_precision_{average}"], ALL[f"paper_recall_{average}"], ALL[f"paper_f1_{average}"]] == pytest.approx([p, r, f], abs=1e-12)
    p, r, f, support = sk(gold, pred, None)
    assert [ALL["paper_precision_dep"], ALL["paper_recall_dep"], ALL["paper_f1_dep"]] == pytest.approx([p[0], r[0], f[0]], abs=1e-12)
    assert [ALL["paper_precision_nondep"], ALL["paper_recall_nondep"], ALL["paper_f1_nondep"]] == pytest.approx([p[1], r[1], f[1]], abs=1e-12)
    assert list(support) == [4, 4]  # every gold counts, the unparsed ones included
    # by hand: DEP 2 of 3 predicted yes are right, 2 of 4 gold yes found; NONDEP 1 of 2, 1 of 4
    assert (ALL["paper_precision_dep"], ALL["paper_recall_dep"], ALL["paper_precision_nondep"], ALL["paper_recall_nondep"]) == (2 / 4, 2 / 4, 1 / 2, 1 / 4)
    assert ALL["paper_precision_dep"] == ALL["precision_dep"] and ALL["paper_recall_dep"] < ALL["recall_dep"]
    assert ALL["paper_accuracy"] == ALL["strict_accuracy"] == 3 / 8
    weighted_p, weighted_r = ALL["paper_precision_weighted"], ALL["paper_recall_weighted"]
    assert ALL["paper_f1_of_avg_pr"] == pytest.approx(2 * weighted_p * weighted_r / (weighted_p + weighted_r), abs=1e-12)
    assert ALL["paper_f1_of_avg_pr"] != pytest.approx(ALL["paper_f1_weighted"])


def test_breakdowns():
    def expected(keep):
        kept = [r for r in RECORDS if keep(r) and r["pred"] != "invalid"]
        return sk([r["gold"] for r in kept], [r["pred"] for r in kept], "weighted")[2]

    assert ALL["f1_weighted_before"] == pytest.approx(expected(lambda r: r["relation"] == "before"))
    assert ALL["f1_weighted_after"] == pytest.approx(expected(lambda r: r["relation"] == "after"))
    assert ALL["f1_weighted_close"] == pytest.approx(expected(lambda r: r["distance_class"] == "close"))
    assert ALL["f1_weighted_distant"] == pytest.approx(expected(lambda r: r["distance_class"] == "distant"))
    assert ALL["f1_weighted_youcook2"] == pytest.approx(expected(lambda r: r["source"] == "youcook2"))
    assert ALL["f1_weighted_crosstask"] == pytest.approx(expected(lambda r: r["source"] == "crosstask"))


def test_figure_keys_are_table1s_rule_per_subset():
    """Figures 2 and 3 plot paper_f1_weighted_<subset> (isobench/figures.py): Table 1's rule on the subset's answers,
    an unparsed one a third label, which the discarding rule's key leaves out."""
    from temporal_bench.isobench.figures import FIGURES

    def expected(keep):
        kept = [r for r in RECORDS if keep(r)]
        return sk([r["gold"] for r in kept], [r["pred"] for r in kept], "weighted")[2]

    for name, keep in (("before", lambda r: r["relation"] == "before"), ("after", lambda r: r["relation"] == "after"), ("youcook2", lambda r: r["source"] == "youcook2")):
        assert ALL[f"paper_f1_weighted_{name}"] == pytest.approx(expected(keep), abs=1e-12)
    assert ALL["paper_f1_weighted_before"] != pytest.approx(ALL["f1_weighted_before"])  # an unparsed before answer
    figure3 = next(f for f in FIGURES if f.name == "isobench-figure3")
    assert figure3.metrics == (("before", "paper_f1_weighted_before"), ("after", "paper_f1_weighted_after"))
    assert {key for figure in FIGURES for _, key in figure.metrics} <= set(ALL)


def test_not_applicable_scores_are_none():
    bare = breakdown_metrics("isobench", [record(r["gold"], r["pred"], r["relation"]) for r in RECORDS])
    for name in ("f1_weighted_close", "f1_weighted_distant", "f1_weighted_youcook2", "f1_weighted_crosstask"):
        assert bare[name] is None
    refused = breakdown_metrics("isobench_cot", [record("yes", "invalid"), record("no", "invalid")])
    assert refused["f1_weighted"] is None and refused["accuracy"] is None
    assert refused["coverage"] == 0 and refused["strict_accuracy"] == 0
    assert refused["paper_recall_weighted"] == refused["paper_f1_of_avg_pr"] == 0


def test_headline_keys_and_breakdown_keys():
    """The metric_list holds the headline, under Table 1's rule (this package's keys name it: ``paper_``);
    breakdown_metrics every key, the three rules' scores among them."""
    assert METRIC_NAMES == ["f1_weighted", "f1_macro", "precision_dep", "recall_dep", "f1_dep", "precision_nondep", "recall_nondep", "f1_nondep"]
    assert rules.TABLE1_RULE == "paper_"
    assert metrics.f1_weighted(RECORDS) == ALL["paper_f1_weighted"] and metrics.f1_macro(RECORDS) == ALL["paper_f1_macro"]
    gold, pred = [r["gold"] for r in RECORDS], [r["pred"] for r in RECORDS]  # the third label kept
    p, r, f, _ = sk(gold, pred, None)
    assert [metrics.precision_dep(RECORDS), metrics.recall_dep(RECORDS), metrics.f1_dep(RECORDS)] == pytest.approx([p[0], r[0], f[0]])
    assert [metrics.precision_nondep(RECORDS), metrics.recall_nondep(RECORDS), metrics.f1_nondep(RECORDS)] == pytest.approx([p[1], r[1], f[1]])
    assert set(ALL) == set(AGGREGATIONS) and len(ALL) == 13 * 3 + 3 + 6 * 3  # 13 scores and 6 subsets under each rule
    assert {"accuracy", "strict_f1_weighted", "strict_accuracy", "f1_weighted_before", "f1_weighted_crosstask", "paper_f1_weighted", "paper_f1_of_avg_pr"} <= set(ALL)


def test_every_doc_returns_its_record_under_the_first_key_and_what_each_other_key_reads():
    """Upstream's record is the example's id and relation with gold and pred; this package's (its keys ``paper_``)
    adds the fields its breakdowns read."""
    doc = {"id": "7", "goal": "make tea", "plan_id": None, "relation": "after", "source": None, "image_step_idx": None, "snippet_step_idxs": None, "answer": "no"}
    values = values_of(doc, parse_answer_only("**No**."))
    assert list(values) == METRIC_NAMES
    assert values["f1_weighted"] == {"id": "7", "relation": "after", "gold": "no", "pred": "no"}
    assert values["f1_macro"] == values["recall_nondep"] == {"gold": "no", "pred": "no"}
    package = package_values(doc, values)
    assert list(package) == [f"paper_{name}" for name in METRIC_NAMES] and package["paper_recall_nondep"] == {"gold": "no", "pred": "no"}
    assert package["paper_f1_weighted"] == {"id": "7", "goal": "make tea", "plan_id": None, "relation": "after", "source": None, "distance_class": None, "gold": "no", "pred": "no"}
    # the metric values of a logged sample: 515 B here, 590 B with every field filled with long values (docs/isobench.md "Metrics")
    assert len(json.dumps(package)) == 515
    long = {**doc, "id": "youcook2_00763", "plan_id": "GLd3aX16zBg", "relation": "before", "source": "crosstask", "image_step_idx": 9, "snippet_step_idxs": [1, 2]}
    assert len(json.dumps(package_values(long, values_of(long, "invalid")))) == 590


def test_each_headline_aggregation_gives_on_its_fields_what_it_gives_on_whole_records():
    per_doc = [{name: r if name == METRIC_NAMES[0] else {"gold": r["gold"], "pred": r["pred"]} for name in METRIC_NAMES} for r in RECORDS]
    for name in METRIC_NAMES:
        assert getattr(metrics, name)([values[name] for values in per_doc]) == AGGREGATIONS[f"paper_{name}"](RECORDS), name
