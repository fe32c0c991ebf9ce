"""CaT-Bench aggregations against sklearn and hand-counted consistency."""

import json

import pytest
from sklearn.metrics import classification_report

from temporal_bench.catbench.breakdowns import BREAKDOWNS, breakdown_metrics
from temporal_bench.lmms_eval_tasks.catbench import metrics
from temporal_bench.lmms_eval_tasks.catbench.metrics import METRIC_NAMES
from temporal_bench.lmms_eval_tasks.catbench.utils import process_results_answer_only


def _record(pair, relation, dependency, pred, variant="real", distance=1, close_max_distance=3):
    return {
        "question_id": f"{variant}|{pair}|{relation}",
        "pair_id": pair,
        "variant": variant,
        "dependency": dependency,
        "relation": relation,
        "distance": distance,
        "task": "catbench",
        "close_max_distance": close_max_distance,
        "data": "0123456789ab",
        "gold": "yes" if dependency == "dep" else "no",
        "pred": pred,
        "failed": False,
    }


RECORDS = [
    _record("p1", "before", "dep", "yes"),
    _record("p1", "after", "dep", "yes", distance=5),
    _record("p2", "before", "dep", "no"),
    _record("p2", "after", "dep", "invalid", distance=5),
    _record("p3", "before", "nondep", "no"),
    _record("p3", "after", "nondep", "yes", distance=4),
    _record("p4", "before", "nondep", "no", distance=2),
    _record("p4", "after", "nondep", "no"),
    _record("p3", "before", "nondep", "no", variant="switched"),
    _record("p3", "after", "nondep", "no", variant="switched"),
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
    assert BREAKDOWNS["accuracy"](RECORDS) == pytest.approx(6 / 9)


def test_temporal_consistency_counts_complete_pairs_and_invalid_as_inconsistent():
    # p1 yes/yes consistent, p2 no/invalid inconsistent, p3 no/yes inconsistent, p4 no/no consistent; p5 incomplete
    assert metrics.tc(RECORDS) == 0.5


def test_order_contrastive_consistency_pairs_each_nondep_question_with_its_twin():
    # (p3,before) no/no equal, (p3,after) yes/no differ, (p4,before) no/yes differ; (p4,after) has no twin
    assert metrics.occ(RECORDS) == pytest.approx(1 / 3)
    assert metrics.occ([r for r in RECORDS if r["variant"] == "real"]) is None


def test_invalid_rate_and_count():
    assert BREAKDOWNS["invalid_count"](RECORDS) == 1
    assert BREAKDOWNS["invalid_rate"](RECORDS) == pytest.approx(1 / 12)


def test_a_failed_request_is_counted_apart_from_invalid_answers():
    """As check and browse count them (temporal_bench/runs/data_read.py): a failed request's text does not parse, but
    it is no answer; the rate is among the answers that came back."""
    failed = [{**record, "pred": "invalid", "failed": True} for record in RECORDS[:3]]
    records = failed + RECORDS[3:]
    assert (BREAKDOWNS["invalid_count"](records), BREAKDOWNS["failed_count"](records)) == (1, 3)
    assert BREAKDOWNS["invalid_rate"](records) == pytest.approx(1 / 9)
    assert BREAKDOWNS["invalid_rate"](failed) is None


def test_breakdowns_use_subsets():
    before = [r for r in RECORDS if r["relation"] == "before"]
    assert BREAKDOWNS["f1_macro_before"](RECORDS) == metrics.f1_macro(before)
    assert BREAKDOWNS["f1_macro_close"](RECORDS) == metrics.f1_macro([r for r in RECORDS if r["distance"] <= 3])
    wider = [{**r, "close_max_distance": 4} for r in RECORDS]  # the run's setting, carried by every record
    assert BREAKDOWNS["f1_macro_distant"](wider) == metrics.f1_macro([r for r in RECORDS if r["distance"] > 4])
    assert BREAKDOWNS["f1_macro_close"](wider) != BREAKDOWNS["f1_macro_close"](RECORDS)


def test_records_of_two_settings_are_refused():
    with pytest.raises(ValueError, match=r"several close_max_distance settings \[3, 4\]"):
        BREAKDOWNS["f1_macro_close"](RECORDS + [_record("p9", "before", "dep", "yes", close_max_distance=4)])


def test_breakdown_metrics_gives_every_key_of_the_task():
    values = breakdown_metrics("catbench_switched", RECORDS)
    assert list(values) == METRIC_NAMES + list(BREAKDOWNS)
    assert values["accuracy"] == pytest.approx(6 / 9) and values["invalid_count"] == 1 and values["tc"] == 0.5
    assert values["f1_macro_before"] == metrics.f1_macro([r for r in RECORDS if r["relation"] == "before"])
    assert values == {**{name: getattr(metrics, name)(RECORDS) for name in METRIC_NAMES}, **{name: compute(RECORDS) for name, compute in BREAKDOWNS.items()}}


DOC = {
    "question_id": "switched|venison-casserole-with-tomatoes-and-sweet-red-pepper|3|11|before",
    "pair_id": "venison-casserole-with-tomatoes-and-sweet-red-pepper|3|11",
    "variant": "switched",
    "dependency": "nondep",
    "relation": "before",
    "answer": "no",
    "switched": True,
}


def test_process_results_logs_the_record_once_and_each_key_what_it_reads():
    result = process_results_answer_only(DOC, ["I cannot say"])
    assert list(result) == METRIC_NAMES
    record = result["f1_macro"]
    assert record == {**{k: DOC[k] for k in ("question_id", "pair_id", "variant", "dependency", "relation")}, "gold": "no", "pred": "invalid"}
    assert result["tc"] == {"pair_id": DOC["pair_id"], "variant": "switched", "relation": "before", "pred": "invalid"}
    assert result["recall_nondep"] == {"variant": "switched", "gold": "no", "pred": "invalid"}
    # lmms-eval and lm-eval log every metric value in each sample line: together well under 2 KB
    assert len(json.dumps(result)) < 1400
    assert "occ" not in process_results_answer_only({**DOC, "switched": False}, ["no"])  # no twins, no OCC


def test_each_key_scores_its_own_fields_as_the_whole_records():
    """The harness aggregates each key's fields; the report aggregates whole records: the same figures."""
    per_doc = [{name: record if name == "f1_macro" else {f: record[f] for f in metrics.FIELDS_READ[name]} for name in METRIC_NAMES} for record in RECORDS]
    for name in METRIC_NAMES:
        assert getattr(metrics, name)([values[name] for values in per_doc]) == getattr(metrics, name)(RECORDS), name


def test_a_record_read_back_has_its_plan_distance_and_threshold():
    """The report reads the step distance and plan from the question id and the threshold from the task's metadata."""
    from temporal_bench.runs.records import read_record

    line = {"doc_id": 0, "target": "no", "filtered_resps": "[LMMS_EVAL_REQUEST_FAILED after 5 retries] No such model", **process_results_answer_only(DOC, ["[LMMS_EVAL_REQUEST_FAILED after 5 retries] No such model"])}
    record = read_record("catbench_close2", line, {"metadata": {"close_max_distance": 2}}, {})
    assert (record["plan"], record["distance"], record["close_max_distance"]) == ("venison-casserole-with-tomatoes-and-sweet-red-pepper", 8, 2)
    assert (record["pred"], record["failed"]) == ("no", True)  # the task parses a failure text as any text; the run's reader names it failed
