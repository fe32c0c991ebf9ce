"""TempVS metrics: the package's aggregations against the independent re-computation of the
official evaluation (tests/tempvs_official_eval.py); the join under missing partners; the
missing-grounding quirk and its fix; the compact per-doc values and the breakdowns."""

import random

import pytest

from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import process_results
from temporal_bench.lmms_eval_tasks.tempvs import metrics
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS
from temporal_bench.tempvs import breakdowns
from temporal_bench.tempvs.record_reader import TempVSRecords
from tests.task_docs import tempvs_main_docs as build_main_docs
from tests.tempvs_fixture_copies import write_tempvs as write_fixture
from tests.tempvs_official_eval import official

# ---- mixed answers with the extraction quirks --------------------------------------------------


def mixed_response(doc: dict) -> str:
    rng = random.Random(doc["doc_key"])
    answer = doc["answer"]
    wrong = next(c for c in doc["choices"] if c != answer)
    if doc["kind"] == "grounding":
        options = [f"Image {answer}", answer, wrong, f"2 people, image {answer}", "three", f"It is shown in image {answer}."]
    else:
        options = [f"Option {answer}", answer, wrong, f"A man is there, so {answer}", f"option {answer.lower()}", "I am not sure"]
    return rng.choice(options)


def answers_of(docs, respond) -> dict[tuple, str]:
    return {(d["source"], d["task_id"], d["question_id"]): respond(d) for d in docs}


def record_of(doc: dict, response: str, fixes=()) -> dict:
    """The doc's record as a run logs it (the task's first metric key) and the report reads it back."""
    record = next(iter(process_results({**doc, "fixes": list(fixes)}, [response]).values()))
    return {**TempVSRecords().normalise(record, {"metadata": {"mode": doc["mode"]}}, {}), "failed": False}


def package_metrics(docs, respond, names=("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict", "mt_given_gtfail"), fixes=frozenset()):
    records = [record_of(d, respond(d), fixes) for d in docs]
    return {name: breakdowns.AGGREGATIONS[name](records) for name in names}, records


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return write_fixture(tmp_path_factory.mktemp("tempvs_m"))


@pytest.mark.parametrize("test", sorted(MAIN_TESTS))
def test_package_equals_reference_on_mixed_answers(root, test):
    spec = MAIN_TESTS[test]
    docs, _ = build_main_docs(test, data_dir=root)
    ours, records = package_metrics(docs, mixed_response)
    expected = official(root, spec.task_id, GROUNDING_TESTS[spec.grounding_test], answers_of(docs, mixed_response))
    for name, value in ours.items():
        assert value == pytest.approx(expected[name]) if expected[name] is not None else value is None, name
    for source, figures in expected["per_source"].items():
        assert breakdowns.AGGREGATIONS[f"gt_{source}"](records) == pytest.approx(figures["gt_acc"])
        assert breakdowns.AGGREGATIONS[f"mt_{source}"](records) == pytest.approx(figures["mt_acc"])
        assert breakdowns.AGGREGATIONS[f"gtstrict_{source}"](records) == pytest.approx(figures["gtstrict_rate"])
        exp = figures["mt_given_gtstrict"]
        got = breakdowns.AGGREGATIONS[f"mtgts_{source}"](records)
        assert (got is None) if exp is None else got == pytest.approx(exp)
    at_least = [name for name in breakdowns.metric_names(breakdowns.metric_family(test)) if "atleast" in name]
    assert at_least and {name: breakdowns.AGGREGATIONS[name](records) for name in at_least} == pytest.approx({name: expected[name] for name in at_least})
    assert 0 < ours["mt_acc"] < 1 or test.startswith("mt2")  # the mix is really mixed
    assert 0 < ours["gt_acc"] < 1


def test_reference_can_disagree(root):
    """The comparison can fail: scoring without the blind filter changes the reference's numbers."""
    spec = MAIN_TESTS["mt1_two"]
    docs, _ = build_main_docs("mt1_two", data_dir=root)
    ours, _ = package_metrics(docs, mixed_response)
    unfiltered = official(root, spec.task_id, GROUNDING_TESTS[spec.grounding_test], answers_of(docs, mixed_response), blind=False)
    assert unfiltered["mt_acc"] != pytest.approx(ours["mt_acc"])


def test_unfiltered_variant_equals_reference_without_blind_filter(root):
    spec = MAIN_TESTS["mt2_caption"]
    docs, _ = build_main_docs("mt2_caption", blind_filter=False, data_dir=root)
    ours, _ = package_metrics(docs, mixed_response)
    expected = official(root, spec.task_id, GROUNDING_TESTS[spec.grounding_test], answers_of(docs, mixed_response), blind=False)
    assert ours["mt_acc"] == pytest.approx(expected["mt_acc"]) and ours["gtstrict_rate"] == pytest.approx(expected["gtstrict_rate"])


def test_fine_grained_keys(root):
    docs, _ = build_main_docs("mt1_two", data_dir=root)
    _, records = package_metrics(docs, mixed_response)
    mains = [(d, r) for d, r in zip(docs, records) if d["kind"] == "main"]
    for kind in breakdowns.PAIRED_TYPES:
        for polarity, suffix in (("pos", "_gt"), ("neg", "_nc")):
            chosen = [r["correct"] for d, r in mains if d["statement_type"] == kind + suffix]
            value = breakdowns.AGGREGATIONS[f"two_{kind}_{polarity}"](records)
            assert value == (sum(chosen) / len(chosen) if chosen else None)
    for distance in (1, 2, 3, 4):
        chosen = [r["correct"] for d, r in mains if d["event_distance"] == distance]
        assert chosen and breakdowns.AGGREGATIONS[f"dist{distance}"](records) == sum(chosen) / len(chosen)
    assert breakdowns.AGGREGATIONS["invalid_rate"](records) == sum(r["pred"] == "UNK" for r in records) / len(records) > 0


def test_missing_partners_are_excluded_not_passed(root):
    docs, _ = build_main_docs("mt2_event", data_dir=root)
    wrong = lambda d: "9" if d["kind"] == "grounding" else d["answer"]  # noqa: E731  every grounding fails
    _, records = package_metrics(docs, wrong)
    assert metrics.gtstrict_rate(records) == 0.0
    cut = [r for r in records if not (r["kind"] == "grounding" and r["source"] == "vwp")]  # e.g. --limit
    vwp_mains = sum(r["kind"] == "main" and r["source"] == "vwp" for r in records)
    assert vwp_mains and breakdowns.AGGREGATIONS["gt_missing_count"](cut) == vwp_mains
    assert metrics.gtstrict_rate(cut) == 0.0 and breakdowns.AGGREGATIONS["gtstrict_vwp"](cut) is None
    only_main = [r for r in records if r["kind"] == "main"]
    assert metrics.gtstrict_rate(only_main) is None and metrics.mt_given_gtstrict(only_main) is None
    assert metrics.mt_acc(only_main) == 1.0
    assert breakdowns.AGGREGATIONS["gt_missing_count"](records + records[:5]) == 0  # duplicates (padding) are counted once
    assert breakdowns.AGGREGATIONS["main_count"](records + records[-3:]) == breakdowns.AGGREGATIONS["main_count"](records)


def test_missing_grounding_rows_quirk_and_fix(tmp_path):
    root = write_fixture(tmp_path / "d", missing_grounding=True)
    spec = MAIN_TESTS["mt1_two"]
    docs, _ = build_main_docs("mt1_two", blind_filter=False, data_dir=root)
    wrong_ground = lambda d: "9" if d["kind"] == "grounding" else d["answer"]  # noqa: E731
    faithful, records = package_metrics(docs, wrong_ground)
    expected = official(root, spec.task_id, GROUNDING_TESTS[spec.grounding_test], answers_of(docs, wrong_ground), blind=False)
    # the official join appends nothing for the missing event: (0, 1) and (0, 4) pairs are judged on
    # one failing row, so they fail; nothing passes
    assert faithful["gtstrict_rate"] == expected["gtstrict_rate"] == 0.0
    assert breakdowns.AGGREGATIONS["gt_unmatched_count"](records) == 4
    oracle = lambda d: d["answer"]  # noqa: E731
    faithful, records = package_metrics(docs, oracle)
    assert faithful["gtstrict_rate"] == 1.0  # quirk: a partly missing grounding still passes
    fixed, _ = package_metrics(docs, oracle, fixes=frozenset({"missing_grounding"}))
    mains = sum(d["kind"] == "main" for d in docs)
    assert fixed["gtstrict_rate"] == pytest.approx((mains - 4) / mains)


def test_per_doc_values_are_compact_and_aggregate_like_whole_records(root):
    """The first metric key carries the whole record, the others only their aggregation's fields (or
    None): each headline aggregation gives the same figure on those values as on whole records."""
    docs, _ = build_main_docs("mt2_event", data_dir=root)
    records = [record_of(d, mixed_response(d)) for d in docs]
    values = [metrics.values_of(r) for r in records]
    assert list(values[0]) == list(metrics.HEADLINE) and values[0]["gt_acc"] == records[0]
    for name in metrics.HEADLINE:
        assert breakdowns.AGGREGATIONS[name]([v[name] for v in values]) == breakdowns.AGGREGATIONS[name](records), name
    main = next(v for v, r in zip(values, records) if r["kind"] == "main")
    assert main["mt_acc"] == {"key": main["gt_acc"]["key"], "kind": "main", "correct": main["gt_acc"]["correct"]}
    # MT2/MT3: the partners are every grounding row of the sequence, so the record holds their number
    assert main["gtstrict_rate"]["partners"] == len([d for d in docs if d["doc_key"] == main["gt_acc"]["key"]][0]["partners"])
    assert next(v for v, r in zip(values, records) if r["kind"] == "grounding")["mt_acc"] is None


def test_breakdowns_equal_the_aggregations_on_records(root):
    docs, _ = build_main_docs("mt1_two", data_dir=root)
    records = [record_of(d, mixed_response(d)) for d in docs]
    breakdown = breakdowns.breakdown_metrics("tempvs_mt1_two", records + records[:3])
    assert list(breakdown) == breakdowns.metric_names("mt1_two")
    assert breakdown == {name: breakdowns.AGGREGATIONS[name](records) for name in breakdowns.metric_names("mt1_two")}
    assert breakdown["main_count"] + breakdown["grounding_count"] == len(docs)
    # a task holding MT2 and MT3: each test's keys under its prefix, equal to the test's own task
    both, _ = build_main_docs(("mt2_event", "mt3_event"), data_dir=root)
    shared = breakdowns.breakdown_metrics("tempvs_ordering_event", [record_of(d, mixed_response(d)) for d in both])
    for test in ("mt2_event", "mt3_event"):
        alone, _ = build_main_docs(test, data_dir=root)
        single = breakdowns.breakdown_metrics(f"tempvs_{test}", [record_of(d, mixed_response(d)) for d in alone])
        assert {f"{test[:3]}_{k}": v for k, v in single.items()} == {k: v for k, v in shared.items() if k.startswith(test[:3])}
