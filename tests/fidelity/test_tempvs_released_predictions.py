"""Scoring the TempVS release's own model outputs (predictions/{combined,...}/{model}/*.pkl):
prediction files in the official format, written here for several model families and all four
sources, score to exactly what the independent re-computation of the official evaluation gives
(the rows of the prediction files, as the script scores them, every row the annotations and the
prediction files do not share named and counted), and ``temporal-bench score-predictions`` shows
them next to the published Tables 14-16, flagging every cell where they disagree."""

import json
import re
import shutil
from pathlib import Path

import pandas
import pytest

from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import blind_family_of as model_family
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, TempVSDataError
from temporal_bench.tempvs.fixture_predictions import write_model_predictions
from temporal_bench.tempvs.released_predictions import RowMismatch, file_suffix, main_score_predictions, official_branch, released_models, results_of, scored_tests
from tests.tempvs_fixture_copies import write_tempvs as write_fixture
from tests.tempvs_official_eval import official_release
from tests.unit.test_tempvs_data import tampered_pickle

# one model per extraction branch of the official evaluation, two of them 8-bit (file suffix)
MODELS = ("InternVL2_5-8B", "deepseek-vl2-tiny", "llava-interleave-qwen-7b-hf", "llava-onevision-qwen2-72b-ov-sft", "GPT4o", "InternVL2_5-78B-MPO")
FIGURES = {"gt": "gt_acc", "gts": "gtstrict_rate", "mt": "mt_acc", "mt_given_gts": "mt_given_gtstrict"}


def score_model(root, model, input_kind="combined"):
    """Our task name -> ``{"<metric>,none": value}`` for the six main tests of one model, as score-predictions writes them."""
    return results_of(scored_tests(root, model, input_kind))


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    """Generated data in the release's layout (the tests of the report's rows of its scored outputs read it as the
    release: ``read_as_release``)."""
    root = write_fixture(tmp_path_factory.mktemp("tempvs_release"), missing_grounding=True)
    for model in MODELS:
        write_model_predictions(root, model)
    return root


def _ours(results, test, figures=FIGURES):
    values = results[f"tempvs_{test}"]
    return {key: None if values[f"{name},none"] is None else round(values[f"{name},none"], 4) for key, name in figures.items()}


@pytest.mark.parametrize("model", MODELS)
def test_released_outputs_score_as_the_official_evaluation(release, model):
    ours = score_model(release, model)
    expected = official_release(release, model)
    for test, spec in MAIN_TESTS.items():
        assert _ours(ours, test) == {key: expected[spec.task_id][name] for key, name in FIGURES.items()}, test
        at_least = {name: name for name in expected[spec.task_id] if "atleast" in name}  # the script's k-pass columns
        assert at_least and _ours(ours, test, at_least) == {name: expected[spec.task_id][name] for name in at_least}, test
        assert ours[f"tempvs_{test}"]["main_count,none"] == expected[spec.task_id]["n"], test
    assert 0 < ours["tempvs_mt1_two"]["mt_acc,none"] < 1 and ours["tempvs_mt1_two"]["invalid_rate,none"] > 0


def test_the_family_branch_matters(release):
    """The comparison can fail: parsing InternVL's outputs with another family's branch changes MT1."""
    ours = score_model(release, "InternVL2_5-8B")["tempvs_mt1_two"]["mt_acc,none"]
    expected = official_release(release, "InternVL2_5-8B")["paired_event_discrimination"]["mt_acc"]
    shutil.copytree(release / "predictions" / "combined" / "InternVL2_5-8B", release / "predictions" / "combined" / "Qwen2-VL-7B")
    try:
        as_qwen = score_model(release, "Qwen2-VL-7B")["tempvs_mt1_two"]["mt_acc,none"]
    finally:
        shutil.rmtree(release / "predictions" / "combined" / "Qwen2-VL-7B")
    assert round(ours, 4) == expected and as_qwen != ours


def test_family_and_suffix_by_model_name():
    assert [model_family(m) for m in MODELS] == ["internvl", "deepseek", "interleave", "generic", "generic", "internvl"]
    assert model_family("Janus-Pro-7B") == "deepseek" and model_family("LLaVA-NeXT-Video-34B-hf") == "interleave"
    assert model_family("Llama-3.1-8B") == "llama_blind" and model_family("Phi-3.5-vision-instruct") == "generic"
    assert [file_suffix(m) for m in ("InternVL2_5-78B-MPO", "Qwen2-VL-72B-Instruct", "llava-next-110b", "InternVL2_5-8B")] == ["8bit", "8bit", "8bit", "full"]


def test_a_model_no_official_branch_names_is_parsed_with_the_generic_one_and_said_so():
    from loguru import logger

    warnings = []
    sink = logger.add(lambda message: warnings.append(message.record["message"]), level="WARNING")
    try:
        assert [official_branch(m) for m in ("Qwen2-VL-7B-Instruct", "GPT4o", "InternVL2_5-8B")] == ["generic", "generic", "internvl"] and not warnings
        assert official_branch("MyOwnModel-7B") == "generic"
    finally:
        logger.remove(sink)
    assert warnings == ["TempVS: no official extraction branch names model 'MyOwnModel-7B'; using the generic one"]


def test_a_source_without_grounding_outputs_is_left_out_and_a_missing_main_file_fails(tmp_path, release):
    root = tmp_path / "release"
    shutil.copytree(release, root)
    folder = root / "predictions" / "combined" / "GPT4o"
    (folder / "vwp_single_grounding_paired_preds_full.pkl").unlink()
    ours = score_model(root, "GPT4o")
    expected = official_release(root, "GPT4o")
    assert _ours(ours, "mt1_two") == {key: expected["paired_event_discrimination"][name] for key, name in FIGURES.items()}
    assert ours["tempvs_mt1_two"]["mtgts_vwp,none"] is None and ours["tempvs_mt1_two"]["mt_vwp,none"] is None
    assert ours["tempvs_mt1_three"]["mt_vwp,none"] is not None
    (folder / "pororo_ordering_images_opt_story_preds_full.pkl").unlink()
    with pytest.raises(TempVSDataError, match="pororo_ordering_images_opt_story_preds_full.pkl is missing"):
        score_model(root, "GPT4o")


def test_score_predictions_cli_shows_published_rows_and_disagreements(tmp_path, release, capsys, read_as_release):
    out = tmp_path / "scores"
    assert main_score_predictions([str(release), "--output-dir", str(out), "--model", "InternVL2_5-78B-MPO", "--model", "GPT4o", "--table", "tempvs-table14"]) == 0
    text = capsys.readouterr().out
    assert sorted(p.parent.name for p in out.glob("*/released_combined_results.json")) == ["GPT4o", "InternVL2_5-78B-MPO"]
    # published cells carry their reproduction verdict (reproduced, close or differs)
    assert re.search(r"\| InternVL2_5-78B-MPO \| published \| 0\.7046 [=≈≠] \| 0\.5881 [=≈≠] \| 0\.5847 [=≈≠] \| 0\.5992 [=≈≠] \|", text)
    ours = _ours(score_model(release, "InternVL2_5-78B-MPO"), "mt1_two")
    assert re.search(rf"\| \*\*InternVL2_5-78B-MPO\*\* \| measured \| {ours['gt']:.4f} \[[0-9.]+, [0-9.]+\] \| " rf"{ours['gts']:.4f} \[[0-9.]+, [0-9.]+\] \|", text)
    # the published row of the same model is compared cell by cell (the release's GPT4o folder holds the outputs
    # of the paper's gpt-4o-2024-11-20, as its results file labels them), each cell not reproduced with the
    # measured value to a decimal more than the paper's
    compared = {t.split("**")[1]: t for t in text.splitlines() if t.startswith("- **") and " reproduced, " in t}
    assert sorted(compared) == ["InternVL2_5-78B-MPO", "gpt-4o-2024-11-20"]
    assert ours["gt"] == round(9 / 11, 4) and "MT1 two-event: GT 0.81818 vs 0.7046 (+0.11358, " in compared["InternVL2_5-78B-MPO"]
    assert "MT1 three-event: MT|GTs 0.35294 vs 0.6644 (-0.31146, also outside the 95% interval)" in compared["gpt-4o-2024-11-20"]


def test_scoring_needs_no_images(tmp_path, release):
    root = tmp_path / "release"
    shutil.copytree(release, root, ignore=shutil.ignore_patterns("*.jpg", "*.png"))
    assert score_model(root, "GPT4o") == score_model(release, "GPT4o")


def test_a_tampered_prediction_file_is_refused_not_run(tmp_path, release):
    root = tmp_path / "release"
    shutil.copytree(release, root, ignore=shutil.ignore_patterns("*.jpg", "*.png"))
    path = root / "predictions" / "combined" / "GPT4o" / "vist_triple_event_discrimination_preds_full.pkl"
    marker = tmp_path / "code_ran"
    tampered_pickle(path, marker)
    with pytest.raises(TempVSDataError, match=f"^{re.escape(str(path))}: refused to unpickle: it names os.system, "):
        score_model(root, "GPT4o")
    assert not marker.exists()


def test_released_models_and_errors(tmp_path, release):
    assert released_models(release) == sorted(MODELS)
    with pytest.raises(TempVSDataError, match="no released predictions"):
        released_models(release, "cot")
    with pytest.raises(SystemExit):
        main_score_predictions([str(tmp_path), "--output-dir", str(tmp_path / "o")])


def test_separate_and_cot_inputs(tmp_path, release, capsys, read_as_release):
    model = "InternVL2_5-26B-MPO"
    write_model_predictions(release, model)
    write_model_predictions(release, model, "separate")
    main_ids = [spec.task_id for spec in MAIN_TESTS.values()]
    write_model_predictions(release, model, "cot", task_ids=main_ids)
    try:
        separate = score_model(release, model, "separate")
        assert sorted(separate) == sorted(f"tempvs_{test}_separate" for test in MAIN_TESTS)
        cot = score_model(release, model, "cot")
        # CoT outputs answer inside <answer> tags; grounding comes from the combined folder
        assert cot["tempvs_mt1_two_cot"]["gt_acc,none"] == score_model(release, model)["tempvs_mt1_two"]["gt_acc,none"]
        assert cot["tempvs_mt1_two_cot"]["invalid_rate,none"] < 1
        out = tmp_path / "scores"
        assert main_score_predictions([str(release), "--input", "separate", "--model", model, "--output-dir", str(out), "--table", "tempvs-table12"]) == 0
        text = capsys.readouterr().out
        mt = separate["tempvs_mt1_two_separate"]["mt_acc,none"]
        assert f"| **{model}** | measured | {mt:.4f} [" in text and f"| {model} | published | 0.5962 " in text
    finally:
        for folder in ("separate", "cot", f"combined/{model}"):
            shutil.rmtree(release / "predictions" / folder)


def _drop_row(path: Path, position: int) -> str:
    """Remove one row of a pickled TempVS table; its question_id."""
    frame = pandas.read_pickle(path)
    question_id = str(frame.iloc[position]["question_id"])
    frame.drop(frame.index[position]).to_pickle(path)
    return question_id


def test_the_rows_of_the_prediction_files_are_scored_and_differences_reported(tmp_path, release, capsys):
    """As the official script, the prediction file's rows are scored: a row the annotations lack is
    still scored, a row the prediction file lacks is not; each is named and counted, never silent."""
    root = tmp_path / "release"
    shutil.copytree(release, root)
    before = score_model(root, "GPT4o")
    annotated = _drop_row(root / "benchmark_pkl" / "flintstones_paired_event_discrimination_test.pkl", 0)
    folder = root / "predictions" / "combined" / "GPT4o"
    unanswered = _drop_row(folder / "vwp_single_grounding_paired_preds_full.pkl", 1)
    unordered = _drop_row(folder / "pororo_ordering_images_opt_event_preds_full.pkl", 2)
    scored = scored_tests(root, "GPT4o")
    ours, expected = score_model(root, "GPT4o"), official_release(root, "GPT4o")
    for test, spec in MAIN_TESTS.items():
        assert _ours(ours, test) == {key: expected[spec.task_id][name] for key, name in FIGURES.items()}, test
        at_least = {name: name for name in expected[spec.task_id] if "atleast" in name}  # the script's k-pass columns
        assert at_least and _ours(ours, test, at_least) == {name: expected[spec.task_id][name] for name in at_least}, test
        assert ours[f"tempvs_{test}"]["main_count,none"] == expected[spec.task_id]["n"], test
    # the annotation-only question is scored as before; the MT3 row without an output is not
    assert ours["tempvs_mt1_two"]["main_count,none"] == before["tempvs_mt1_two"]["main_count,none"]
    assert ours["tempvs_mt3_event"]["main_count,none"] == before["tempvs_mt3_event"]["main_count,none"] - 1
    assert scored.mismatches == [
        RowMismatch("predictions/combined/GPT4o/flintstones_paired_event_discrimination_preds_full.pkl", (annotated,), ()),
        RowMismatch("predictions/combined/GPT4o/vwp_single_grounding_paired_preds_full.pkl", (), (unanswered,)),
        RowMismatch("predictions/combined/GPT4o/pororo_ordering_images_opt_event_preds_full.pkl", (), (unordered,)),
    ]
    out = tmp_path / "scores"
    assert main_score_predictions([str(root), "--output-dir", str(out), "--model", "GPT4o", "--table", "tempvs-table14"]) == 0
    text = capsys.readouterr().out
    assert (f"- **GPT4o**: predictions/combined/GPT4o/flintstones_paired_event_discrimination_preds_full.pkl: 1 row(s) only in the prediction file ({annotated})") in text
    assert f"vwp_single_grounding_paired_preds_full.pkl: 1 row(s) only in the annotation file ({unanswered})" in text
    written = json.loads((out / "GPT4o" / "released_combined_results.json").read_text(encoding="utf-8"))
    assert [(m["only_in_predictions"], m["only_in_annotations"]) for m in written["released_rows"]] == [([annotated], []), ([], [unanswered]), ([], [unordered])]


def test_matching_files_report_no_difference(release, capsys):
    assert scored_tests(release, "GPT4o").mismatches == []
