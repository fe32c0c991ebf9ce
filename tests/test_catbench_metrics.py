"""CaT-Bench aggregations against sklearn and hand-counted consistency."""

import pytest
from sklearn.metrics import classification_report

from temporal_bench.catbench import metrics
from temporal_bench.catbench.metrics import METRIC_NAMES, RECORD_FIELDS
from temporal_bench.utils.per_doc import make_process_results
from temporal_bench.catbench.parsing import parse_answer_only


def _record(pair, relation, dependency, pred, variant="real", distance=1):
    return {"question_id": f"{variant}|{pair}|{relation}", "pair_id": pair, "variant": variant, "dependency": dependency,
            "relation": relation, "distance": distance, "gold": "yes" if dependency == "dep" else "no", "pred": pred}


RECORDS = [
    _record("p1", "before", "dep", "yes"), _record("p1", "after", "dep", "yes", distance=5),
    _record("p2", "before", "dep", "no"), _record("p2", "after", "dep", "invalid", distance=5),
    _record("p3", "before", "nondep", "no"), _record("p3", "after", "nondep", "yes", distance=4),
    _record("p4", "before", "nondep", "no", distance=2), _record("p4", "after", "nondep", "no"),
    _record("p3", "before", "nondep", "no", variant="switched"), _record("p3", "after", "nondep", "no", variant="switched"),
    _record("p4", "before", "nondep", "yes", variant="switched"),
    _record("p5", "before", "dep", "yes"),  # partner cut by --limit
]


def test_classification_scores_equal_sklearn_with_invalid_scored_wrong():
    real = [r for r in RECORDS if r["variant"] == "real"]
    gold = [r["gold"] for r in real]
    pred = [r["pred"] if r["pred"] != "invalid" else ("no" if r["gold"] == "yes" else "yes") for r in real]
    report = classification_report(gold, pred, labels=["yes", "no"], output_dict=True, zero_division=0)
    assert metrics.f1_macro(RECORDS) == pytest.approx(report["macro avg"]["f1-score"], abs=1e-12)
    assert metrics.precision_macro(RECORDS) == pytest.approx(report["macro avg"]["precision"], abs=1e-12)
    assert metrics.recall_dep(RECORDS) == pytest.approx(report["yes"]["recall"], abs=1e-12)
    assert metrics.f1_nondep(RECORDS) == pytest.approx(report["no"]["f1-score"], abs=1e-12)
    assert metrics.accuracy(RECORDS) == pytest.approx(6 / 9)


def test_temporal_consistency_counts_complete_pairs_and_invalid_as_inconsistent():
    # p1 yes/yes consistent, p2 no/invalid inconsistent, p3 no/yes inconsistent, p4 no/no consistent; p5 incomplete
    assert metrics.tc(RECORDS) == 0.5


def test_order_contrastive_consistency_pairs_each_nondep_question_with_its_twin():
    # (p3,before) no/no equal, (p3,after) yes/no differ, (p4,before) no/yes differ; (p4,after) has no twin
    assert metrics.occ(RECORDS) == pytest.approx(1 / 3)
    assert metrics.occ([r for r in RECORDS if r["variant"] == "real"]) is None


def test_invalid_rate_and_count():
    assert metrics.invalid_count(RECORDS) == 1
    assert metrics.invalid_rate(RECORDS) == pytest.approx(1 / 12)


def test_breakdowns_use_subsets(monkeypatch):
    before = [r for r in RECORDS if r["relation"] == "before"]
    assert metrics.f1_macro_before(RECORDS) == metrics.f1_macro(before)
    assert metrics.f1_macro_close(RECORDS) == metrics.f1_macro([r for r in RECORDS if r["distance"] <= 3])
    monkeypatch.setenv("CATBENCH_CLOSE_MAX_DISTANCE", "4")
    assert metrics.f1_macro_distant(RECORDS) == metrics.f1_macro([r for r in RECORDS if r["distance"] > 4])


def test_process_results_returns_every_metric_key_for_every_doc():
    doc = {"question_id": "q", "pair_id": "p", "variant": "real", "dependency": "dep", "relation": "before",
           "distance": 2, "answer": "yes"}
    result = make_process_results(parse_answer_only, RECORD_FIELDS, METRIC_NAMES)(doc, ["I cannot say"])
    assert set(result) == set(METRIC_NAMES)
    assert result["tc"]["pred"] == "invalid" and result["tc"]["gold"] == "yes"
