"""ISO-Bench aggregations against scikit-learn on hand-made records (docs/protocol/isobench.md §5)."""

import pytest
from sklearn.metrics import accuracy_score, precision_recall_fscore_support

from temporal_bench.isobench import metrics
from temporal_bench.isobench.metrics import METRIC_NAMES, RECORD_FIELDS
from temporal_bench.utils.per_doc import make_process_results
from temporal_bench.isobench.parsing import parse_answer_only


def record(gold, pred, relation="before", source=None, distance_class=None):
    return {"id": "x", "gold": gold, "pred": pred, "relation": relation, "source": source, "distance_class": distance_class}


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


def test_paper_scores_use_the_parsed_answers_only():
    kept = [r for r in RECORDS if r["pred"] != "invalid"]
    gold, pred = [r["gold"] for r in kept], [r["pred"] for r in kept]
    for average in ("weighted", "macro"):
        p, r, f, _ = sk(gold, pred, average)
        assert getattr(metrics, f"precision_{average}")(RECORDS) == pytest.approx(p, abs=1e-12)
        assert getattr(metrics, f"recall_{average}")(RECORDS) == pytest.approx(r, abs=1e-12)
        assert getattr(metrics, f"f1_{average}")(RECORDS) == pytest.approx(f, abs=1e-12)
    p, r, f, _ = sk(gold, pred, None)
    assert [metrics.precision_dep(RECORDS), metrics.recall_dep(RECORDS), metrics.f1_dep(RECORDS)] == pytest.approx([p[0], r[0], f[0]])
    assert [metrics.precision_nondep(RECORDS), metrics.recall_nondep(RECORDS), metrics.f1_nondep(RECORDS)] == pytest.approx([p[1], r[1], f[1]])
    assert metrics.accuracy(RECORDS) == pytest.approx(accuracy_score(gold, pred)) == 3 / 6
    assert metrics.coverage(RECORDS) == 6 / 8


def test_strict_scores_count_unparsed_answers_as_wrong():
    gold = [r["gold"] for r in RECORDS]
    pred = [r["pred"] if r["pred"] != "invalid" else ("no" if r["gold"] == "yes" else "yes") for r in RECORDS]
    p, r, f, _ = sk(gold, pred, "weighted")
    assert metrics.strict_f1_weighted(RECORDS) == pytest.approx(f, abs=1e-12)
    assert metrics.strict_precision_weighted(RECORDS) == pytest.approx(p, abs=1e-12)
    assert metrics.strict_f1_macro(RECORDS) == pytest.approx(sk(gold, pred, "macro")[2], abs=1e-12)
    assert metrics.strict_accuracy(RECORDS) == 3 / 8
    assert metrics.strict_f1_weighted(RECORDS) < metrics.f1_weighted(RECORDS)


def test_breakdowns():
    def expected(keep):
        kept = [r for r in RECORDS if keep(r) and r["pred"] != "invalid"]
        return sk([r["gold"] for r in kept], [r["pred"] for r in kept], "weighted")[2]

    assert metrics.f1_weighted_before(RECORDS) == pytest.approx(expected(lambda r: r["relation"] == "before"))
    assert metrics.f1_weighted_after(RECORDS) == pytest.approx(expected(lambda r: r["relation"] == "after"))
    assert metrics.f1_weighted_close(RECORDS) == pytest.approx(expected(lambda r: r["distance_class"] == "close"))
    assert metrics.f1_weighted_distant(RECORDS) == pytest.approx(expected(lambda r: r["distance_class"] == "distant"))
    assert metrics.f1_weighted_youcook2(RECORDS) == pytest.approx(expected(lambda r: r["source"] == "youcook2"))
    assert metrics.f1_weighted_crosstask(RECORDS) == pytest.approx(expected(lambda r: r["source"] == "crosstask"))


def test_not_applicable_scores_are_none():
    bare = [record(r["gold"], r["pred"], r["relation"]) for r in RECORDS]
    for name in ("f1_weighted_close", "f1_weighted_distant", "f1_weighted_youcook2", "f1_weighted_crosstask"):
        assert getattr(metrics, name)(bare) is None
    refused = [record("yes", "invalid"), record("no", "invalid")]
    assert metrics.f1_weighted(refused) is None and metrics.accuracy(refused) is None
    assert metrics.coverage(refused) == 0 and metrics.strict_accuracy(refused) == 0


def test_every_doc_returns_every_metric_key():
    doc = {"id": "7", "plan_id": None, "relation": "after", "source": None, "distance_class": None, "answer": "no"}
    values = make_process_results(parse_answer_only, RECORD_FIELDS, METRIC_NAMES)(doc, ["**No**."])
    assert list(values) == METRIC_NAMES and len(METRIC_NAMES) == 34
    assert values["coverage"] == {"id": "7", "plan_id": None, "relation": "after", "source": None, "distance_class": None,
                                  "gold": "no", "pred": "no", "failed": False}
    names = set(METRIC_NAMES)
    assert {"f1_weighted", "f1_macro", "accuracy", "coverage", "strict_f1_weighted", "strict_f1_macro", "strict_accuracy"} <= names
