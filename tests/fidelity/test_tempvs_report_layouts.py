"""TempVS Tables 6 (CoT vs standard, with the differences), 17 (text-only LLMs before and after
the text-only-LLM filter), 18 (MLLMs before and after it) and 19 (MT3 with events, captions or the
images only) in
``temporal-bench report``, from the release's own prediction files (``score-predictions``): Table 17
from the blind predictions alone, no model needed, checked against the independent
re-computation of the official evaluation. (A live `_blind` run's Table 17: test_tempvs_cli.)"""

import json
import re

import pytest

from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import BLIND_MODELS
from temporal_bench.report import LAYOUTS
from temporal_bench.report.rows import build_rows
from temporal_bench.runs.results import load_runs
from temporal_bench.tempvs.fixture_predictions import write_model_predictions
from temporal_bench.tempvs.released_predictions import main_score_predictions, scored_tests, write_results
from tests.tempvs_fixture_copies import write_tempvs as write_fixture
from tests.tempvs_official_eval import official

TABLE17 = {"two_event": "mt1_two", "three_event": "mt1_three", "mt2_event": "mt2_event", "mt2_caption": "mt2_caption"}
TABLE6 = {"two_event": "mt1_two", "three_event": "mt1_three", "mt2_caption": "mt2_caption", "mt3_caption": "mt3_caption"}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Generated data in the release's layout (read as the release where the test is of the verdicts: ``read_as_release``)."""
    return write_fixture(tmp_path_factory.mktemp("tempvs_layouts") / "data")


def _blind_answers(root, model, suffix, task_id):
    import pandas

    answers = {}
    for source in ("flintstones", "pororo", "vwp", "vist"):
        frame = pandas.read_pickle(root / "predictions" / "blind" / model / f"{source}_{task_id}_preds_{suffix}.pkl")
        answers.update({(source, task_id, q): p for q, p in zip(frame["question_id"], frame["preds"])})
    return answers


def test_table17_from_the_released_blind_predictions(data, tmp_path, capsys, read_as_release):
    out = tmp_path / "scores"
    assert main_score_predictions([str(data), "--input", "blind", "--output-dir", str(out), "--table", "tempvs-table17"]) == 0
    text = capsys.readouterr().out
    rows = {(r.source, r.model): r.values for r in build_rows(LAYOUTS["tempvs-table17"], load_runs([out]))}
    for model, suffix, _ in BLIND_MODELS:
        measured = rows[("measured", model)]
        for column, test in TABLE17.items():
            spec = MAIN_TESTS[test]
            answers = _blind_answers(data, model, suffix, spec.task_id)
            for when, blind in (("before", False), ("after", True)):
                expected = official(data, spec.task_id, GROUNDING_TESTS[spec.grounding_test], answers, blind=blind, model=model)["mt_acc"]
                assert measured[f"{column}_{when}"] == pytest.approx(expected), (model, column, when)
            assert measured[f"{column}_after"] < measured[f"{column}_before"]
        assert rows[("published", model)]["two_event_before"] is not None
    # every published cell of the three models gets its reproduction verdict, the cells not reproduced listed
    assert re.search(r"\| Qwen2\.5-72B-Instruct \| published \| 0\.5361 [=≈≠] \| 0\.2952 [=≈≠] \|", text)
    llama = rows[("measured", "Llama-3.1-8B")]["two_event_before"]
    assert f"MT1 two-event: before {llama:.5f} vs 0.5023 ({llama - 0.5023:+.5f}" in text


def test_table6_is_cot_minus_standard(data, tmp_path):
    model = "InternVL2_5-78B"
    write_model_predictions(data, model)
    write_model_predictions(data, model, "cot", task_ids=[spec.task_id for spec in MAIN_TESTS.values()])
    out = tmp_path / "scores"
    for kind in ("combined", "cot"):
        write_results(out, model, kind, scored_tests(data, model, kind), data)
    runs = load_runs([out])
    rows = {r.source + r.model: r.values for r in build_rows(LAYOUTS["tempvs-table6"], runs)}
    run = runs[0]
    for column, test in TABLE6.items():
        wo, cot = (100 * run.metric(f"tempvs_{test}{suffix}", "mt_acc") for suffix in ("", "_cot"))
        assert rows["measured" + model][f"{column}_wo"] == pytest.approx(wo)
        assert rows["measured" + model][f"{column}_cot"] == pytest.approx(cot)
        assert rows["measured" + model][f"{column}_delta"] == pytest.approx(cot - wo)
    assert rows["published" + model]["mt2_caption_delta"] == 14.33
    assert rows["publishedGPT-4o"] == {
        "two_event_wo": 58.27,
        "two_event_cot": 60.43,
        "two_event_delta": 2.16,
        "three_event_wo": 64.52,
        "three_event_cot": 63.38,
        "three_event_delta": -1.14,
        "mt2_caption_wo": 61.5,
        "mt2_caption_cot": 81.41,
        "mt2_caption_delta": 19.91,
        "mt3_caption_wo": 22.97,
        "mt3_caption_cot": 33.77,
        "mt3_caption_delta": 10.8,
    }


def test_tables18_and_19_read_the_unfiltered_the_standard_and_the_images_only_tasks(tmp_path):
    """Each column from the task the paper's column describes: before = `_unfiltered`, after = standard;
    Table 19's images only = `tempvs_mt3_images_only`."""
    values = {f"tempvs_{test}{suffix}": 0.1 * i + (0.5 if suffix else 0.0) for i, test in enumerate(MAIN_TESTS) for suffix in ("", "_unfiltered")}
    values["tempvs_mt3_images_only"] = 0.21
    results = {task: {"mt_acc,none": value} for task, value in values.items()}
    (tmp_path / "model_results.json").write_text(json.dumps({"results": results, "model_name": "m", "config": {"model": "m"}}))
    runs = load_runs([tmp_path])
    [row18] = build_rows(LAYOUTS["tempvs-table18"], runs, include_published=False)
    for column, test in TABLE17.items():
        assert row18.values[f"{column}_before"] == values[f"tempvs_{test}_unfiltered"]
        assert row18.values[f"{column}_after"] == values[f"tempvs_{test}"]
    [row19] = build_rows(LAYOUTS["tempvs-table19"], runs, include_published=False)
    assert row19.values == {"with_events": values["tempvs_mt3_event"], "with_captions": values["tempvs_mt3_caption"], "images_only": 0.21}
    published = {r.model: r.values for r in build_rows(LAYOUTS["tempvs-table19"], [])}
    assert published["InternVL2_5-78B-MPO"] == {"with_events": 0.4099, "with_captions": 0.5382, "images_only": 0.2709}
    assert {r.model: r.values for r in build_rows(LAYOUTS["tempvs-table18"], [])}["Qwen2-VL-72B-Instruct"]["mt2_caption_after"] == 0.5507
