"""Bad input, one test (or parametrised test) per case and benchmark: a data error ends in an
exception naming the file and the row / doc, a bad response is parsed to the invalid marker, counted
by the invalid metric and scored wrong; nothing crashes a run or is silently scored right.

| case | test(s) | expected outcome |
|---|---|---|
| missing image file | test_tempvs_missing_image_fails_at_load[combined, separate] (at load), test_bad_image[missing-tempvs-combined, -tempvs-separate, -isobench] | TempVSDataError / IsoBenchDataError naming the image path and the doc (doc_key / id) |
| corrupt image | test_bad_image[junk / truncated x tempvs-combined, tempvs-separate, isobench], test_cli_image_error_fails_the_run | TempVSDataError / IsoBenchDataError naming the path and the doc; the CLI logs it and writes no results |
| empty image list | test_tempvs_empty_image_list[separate, combined], test_isobench_empty_image[empty list, None] | error at load naming the annotation file, row and question_id / id (TempVS frames: only where the task shows them) |
| malformed or truncated annotation row | test_tempvs_malformed_annotations[...], test_isobench_malformed_rows[...], test_catbench_malformed_rows[...] | TempVSDataError / IsoBenchDataError / CatBenchDataError naming the file and the row or line (and question_id / id) |
| unknown answer letter | test_unknown_gold_answer[tempvs-mt1, tempvs-ordering, tempvs-grounding, isobench, catbench]; test_response_parse[unknown-*] | a gold outside the options is a load error naming file and row; an unknown response letter / word parses to UNK / invalid |
| option letters out of range | test_response_parse[out_of_range-*], test_counted_in_process / test_cli_counts[tempvs_mt1_two_cot] | MT1 C/E and MT2/MT3 F parse to UNK, counted in invalid_rate, scored wrong (a grounding number out of range parses, officially, and is scored wrong) |
| empty / None / whitespace response | test_empty_responses[every parser]; test_no_response_at_all_is_invalid; test_counted_in_process, test_cli_counts (all tasks) | UNK / invalid; counted exactly; scored wrong (None reaches process_results as "" through lmms-eval) |
| 100 KB response | test_response_parse[100kb-*] (adversarial inputs for every former super-linear pattern), test_cli_counts (100 KB responses) | parsed (no timing asserted: the patterns are linear; a quadratic one would take minutes) |
| non-ASCII and control characters | test_response_parse[unicode-*], test_unicode_digit_is_scored_wrong, test_cli_counts | control characters are not word characters (read around them); full-width letters are not answers (UNK / invalid) |
| `<think>` without `<answer>` | test_response_parse[think-*], test_cli_counts[isobench_cot, catbench, tempvs_mt1_two_cot] | an unclosed `<think>` is no answer (UNK / invalid); TempVS CoT without a tag reads the rest of the output (documented fallback) |
| several answer tags | test_response_parse[tags-*], test_cli_counts[tempvs_mt1_two_cot, isobench_cot, catbench_explain] | the last complete `<answer>` tag counts (CaT-Bench JSON: the first object) |
| wrong data directory | test_wrong_data_dir[tempvs/isobench/catbench x missing/file/empty], test_cli_data_error_fails_the_run | FileNotFoundError naming the variable and value; an empty folder: the layout error listing what was found |
| empty data file (0 bytes; an ISO-Bench file of no rows) | test_an_empty_data_file_is_refused_naming_it[catbench-*, tempvs-*, isobench-*] | CatBenchDataError / TempVSDataError / IsoBenchDataError naming the file, as for a missing one |
| wrong layout | test_wrong_layout[tempvs-*, isobench-*, catbench-*] | error naming the folder / file and what is missing or ambiguous |
| missing blind-prediction files | test_blind_predictions[missing file, missing question, no preds column] | TempVSDataError naming the prediction file (and the question_id) |
"""

import json
import re
from pathlib import Path

import datasets
import pandas
import pytest

from temporal_bench.catbench import breakdowns as catbench_breakdowns
from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.data_locations import data_locations
from temporal_bench.isobench.breakdowns import AGGREGATIONS as ISOBENCH_AGGREGATIONS
from temporal_bench.isobench.breakdowns import breakdown_metrics as isobench_breakdowns
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.answer_tags import last_answer_tag
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID
from temporal_bench.lmms_eval_tasks.catbench import metrics as catbench_metrics
from temporal_bench.lmms_eval_tasks.catbench import utils as catbench_hooks
from temporal_bench.lmms_eval_tasks.catbench.parsing import parse_answer_only as catbench_answer_only
from temporal_bench.lmms_eval_tasks.catbench.parsing import parse_json_answer
from temporal_bench.lmms_eval_tasks.catbench.questions import CatBenchDataError
from temporal_bench.lmms_eval_tasks.isobench import utils as isobench_hooks
from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import IsoBenchDataError
from temporal_bench.lmms_eval_tasks.isobench.parsing import parse_answer_only as isobench_answer_only
from temporal_bench.lmms_eval_tasks.isobench.parsing import parse_explain_then_answer
from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import parse_nl_answer
from temporal_bench.lmms_eval_tasks.plugin.failed_requests import is_failed_response
from temporal_bench.lmms_eval_tasks.plugin.tempvs import utils as tempvs_hooks
from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import extract
from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import release_rows
from temporal_bench.lmms_eval_tasks.tempvs.extraction import UNK, is_correct
from temporal_bench.lmms_eval_tasks.tempvs.spec import TempVSDataError
from temporal_bench.runs.logged import find_runs
from temporal_bench.tempvs.breakdowns import AGGREGATIONS as TEMPVS_AGGREGATIONS
from tests.harness import BIN, lmms_eval, metric, run_cli
from tests.task_docs import catbench_split as load_split
from tests.task_docs import isobench_records as load_records
from tests.task_docs import task_docs
from tests.task_docs import tempvs_main_docs as build_main_docs
from tests.tempvs_fixture_copies import write_tempvs

MT1_OPTIONS = "A. True; B. False."
NONE, FIXED = frozenset(), frozenset({"extraction"})
# 100 KB without any answer: many unclosed <answer> tags and "{", "option"/"image" with blank runs
NOISE_100KB = ("{ <answer> option    image  #  \n\n" * 4000)[:100_000]


# ---- fixtures and helpers ------------------------------------------------------------------------


def tempvs_data(root: Path, fmt: str = "pkl", n_sequences: int = 2) -> Path:
    return write_tempvs(root, n_sequences=n_sequences, formats=(fmt,))


def table_path(root: Path, name: str, fmt: str = "pkl") -> Path:
    return root / ("benchmark_pkl" if fmt == "pkl" else "benchmark") / f"flintstones_{name}_test.{fmt}"


def edit_row(path: Path, index: int = 0, drop=(), **changes) -> dict:
    """Change fields of row ``index`` of a fixture table (pickle or JSON list), drop fields (JSON only)."""
    rows = pandas.read_pickle(path).to_dict("records") if path.suffix == ".pkl" else json.loads(path.read_text())
    rows[index].update(changes)
    for name in drop:
        del rows[index][name]
    if path.suffix == ".pkl":
        pandas.DataFrame(rows).to_pickle(path)
    else:
        path.write_text(json.dumps(rows))
    return rows[index]


def where(path: Path, row: dict, index: int = 0) -> str:
    """How TempVS names a row in its errors."""
    return f"{path} row {index} (question_id {row['question_id']!r})"


def isobench_rows(root: Path):
    path = root / "isobench.json"
    return path, json.loads(path.read_text())


def catbench_release(root: Path) -> Path:
    write_catbench(root, "release", n_plans=1, pairs_per_class=2)
    return root / "test_must_why"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """One copy of each benchmark for the response cases (never modified)."""
    base = tmp_path_factory.mktemp("bad_input")
    write_catbench(base / "catbench", "release", n_plans=1, pairs_per_class=2)
    return {"tempvs": tempvs_data(base / "tempvs", n_sequences=5), "isobench": write_isobench(base / "isobench", "json", n=8), "catbench": base / "catbench"}


# ---- images --------------------------------------------------------------------------------------


def _tempvs_image(tmp_path, visual):
    """A main doc, one image it shows, how the error names the doc, the errors for a missing / corrupt image."""
    root = tempvs_data(tmp_path / "d")
    docs, _ = build_main_docs("mt1_two", visual=visual, data_dir=root)
    doc = next(d for d in docs if d["kind"] == "main")
    image = Path(doc["image"] if visual == "combined" else doc["frames"][2])
    return tempvs_hooks.doc_to_visual, doc, image, doc["doc_key"], (TempVSDataError, TempVSDataError)


def _isobench_image(tmp_path):
    """ISO-Bench opens every image when the docs are built (the rows hand lmms-eval decoded images): the damage is found there."""
    root = write_isobench(tmp_path / "d", "json", n=4)
    return lambda _: load_records(root), None, root / "images" / "iso-0002.jpg", "'iso-0002'", (IsoBenchDataError,) * 2


IMAGES = {"tempvs-combined": lambda tmp: _tempvs_image(tmp, "combined"), "tempvs-separate": lambda tmp: _tempvs_image(tmp, "separate"), "isobench": _isobench_image}


@pytest.mark.parametrize("damage", ["missing", "junk", "truncated"])
@pytest.mark.parametrize("benchmark", list(IMAGES))
def test_bad_image(tmp_path, benchmark, damage):
    doc_to_visual, doc, image, doc_name, (missing_error, corrupt_error) = IMAGES[benchmark](tmp_path)
    if damage == "missing":
        image.unlink()
    else:
        image.write_bytes(b"not an image" if damage == "junk" else image.read_bytes()[:200])
    with pytest.raises(missing_error if damage == "missing" else corrupt_error) as error:
        doc_to_visual(doc)
    assert str(image) in str(error.value) and doc_name in str(error.value)


@pytest.mark.parametrize("visual", ["combined", "separate"])
def test_tempvs_missing_image_fails_at_load(tmp_path, visual):
    """Found when the docs are built, before any model call; the error names the file and a doc showing it."""
    _, doc, image, doc_key, _ = _tempvs_image(tmp_path, visual)
    image.unlink()
    with pytest.raises(TempVSDataError, match="^1 TempVS (frame )?image file\\(s\\) missing") as error:
        build_main_docs("mt1_two", visual=visual, data_dir=tmp_path / "d")
    assert f"{image} (doc " in str(error.value)
    build_main_docs("mt1_two", visual="none", mode="blind", blind_filter=False, with_grounding=False, data_dir=tmp_path / "d")


@pytest.mark.parametrize("visual,field,value", [("separate", "img_path_list", []), ("combined", "combined_img_path", "")])
def test_tempvs_empty_image_list(tmp_path, visual, field, value):
    """No frames: an error where the task shows them (the combined-image tasks never do); no combined image: an error
    for every task, the separate-image ones too (their rows are the converter's, which always show the strip)."""
    root = tempvs_data(tmp_path / "d")
    path = table_path(root, "paired_event_discrimination")
    row = edit_row(path, **{field: value})
    if visual == "separate":
        build_main_docs("mt1_two", visual="combined", blind_filter=False, data_dir=root)
    for shown in {visual, "separate"}:
        with pytest.raises(TempVSDataError) as error:
            build_main_docs("mt1_two", visual=shown, blind_filter=False, data_dir=root)
        assert str(error.value).startswith(f"{where(path, row)}: {field} is empty"), shown


@pytest.mark.parametrize("value,message", [([], "0 images, ISO-Bench has exactly one per example"), (None, "no value for ['image']")])
def test_isobench_empty_image(tmp_path, value, message):
    root = write_isobench(tmp_path / "d", "json", n=4)
    path, rows = isobench_rows(root)
    rows[1]["image"] = value
    path.write_text(json.dumps(rows))
    with pytest.raises(IsoBenchDataError) as error:
        load_records(root)
    assert str(error.value).startswith(f"{path} row 1 (id 'iso-0001'): {message}")


# ---- annotation rows -----------------------------------------------------------------------------


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _append_non_object(path: Path) -> None:
    path.write_text(json.dumps(json.loads(path.read_text())[:3] + [["a", "list"]]))


TEMPVS_MALFORMED = {
    # name: (format, file, damage(path) -> row or None, expected message after the location)
    "truncated-pickle": ("pkl", "paired_event_discrimination", _truncate, "cannot be unpickled (UnpicklingError"),
    "not-a-dataframe": ("pkl", "paired_event_discrimination", lambda p: pandas.to_pickle([{"a": 1}], p), "holds a list, not a pandas DataFrame"),
    "truncated-json": ("json", "paired_event_discrimination", _truncate, "neither JSON nor JSON lines: line "),
    "row-not-an-object": ("json", "paired_event_discrimination", _append_non_object, "row 3: not an object"),
    "field-absent": ("json", "paired_event_discrimination", lambda p: edit_row(p, drop=["statement_text"]), "no value in field(s) ['statement_text'], which the prompt needs"),
    "value-missing": ("pkl", "ordering_texts", lambda p: edit_row(p, options=None), "no value in field(s) ['options']"),
    "bad-event-tuple": ("pkl", "paired_event_discrimination", lambda p: edit_row(p, event_pair_tuple="(0, "), "SyntaxError: "),
    "bad-distance": ("json", "paired_event_discrimination", lambda p: edit_row(p, event_distance="far"), "ValueError: invalid literal"),
    "no-question-id": ("pkl", "ordering_texts", lambda p: edit_row(p, question_id=None), "missing field 'question_id'"),
}


@pytest.mark.parametrize("case", list(TEMPVS_MALFORMED))
def test_tempvs_malformed_annotations(tmp_path, case):
    fmt, name, damage, message = TEMPVS_MALFORMED[case]
    root = tempvs_data(tmp_path / "d", fmt)
    path = table_path(root, name, fmt)
    row = damage(path)
    located = where(path, row) if row and row.get("question_id") else str(path)
    test = "mt2_event" if name == "ordering_texts" else "mt1_two"
    with pytest.raises(TempVSDataError) as error:
        build_main_docs(test, blind_filter=False, data_dir=root)
    assert str(error.value).startswith(located) and message in str(error.value)


def test_tempvs_truncated_json_lines_row(tmp_path):
    root = tempvs_data(tmp_path / "d", "json")
    path = table_path(root, "paired_event_discrimination", "json")
    rows = json.loads(path.read_text())
    lines = path.with_suffix(".jsonl")
    lines.write_text("\n".join(json.dumps(row) for row in rows)[:-40] + "\n")
    path.unlink()
    with pytest.raises(TempVSDataError, match=f"^{lines}:{len(rows)}: not valid JSON"):
        build_main_docs("mt1_two", blind_filter=False, data_dir=root)


def _isobench_edit(row_edit=None, text_edit=None, name="isobench.json"):
    def damage(root):
        path, rows = isobench_rows(root)
        if row_edit:
            row_edit(rows[2])
        text = json.dumps(rows) if name.endswith(".json") else "\n".join(json.dumps(row) for row in rows)
        path.unlink()
        (root / name).write_text(text_edit(text) if text_edit else text)
        return root / name

    return damage


ISOBENCH_MALFORMED = {
    "truncated-json": (_isobench_edit(text_edit=lambda t: t[: len(t) // 2]), r"^{path}: neither JSON nor JSON lines: line 1, column \d+"),
    "truncated-jsonl-line": (_isobench_edit(text_edit=lambda t: t[:-30], name="isobench.jsonl"), r"^{path}:4: not valid JSON"),
    "row-not-an-object": (_isobench_edit(text_edit=lambda t: t[:-1] + ", 17]"), r"^{path} row 4: not an object of fields but 17"),
    "label-missing": (_isobench_edit(lambda row: row.update(label=None)), r"^{path} row 2 \(id 'iso-0002'\): no value for \['label'\]"),
    "goal-empty": (_isobench_edit(lambda row: row.update(goal=" ")), r"^{path} row 2 \(id 'iso-0002'\): empty goal"),
    "snippet-missing": (_isobench_edit(lambda row: row.pop("snippet"), name="isobench.jsonl"), r"^{path}:3 \(id 'iso-0002'\): no value for \['snippet'\]"),
    "relation-unknown": (_isobench_edit(lambda row: row.update(relation="during")), r"^{path} row 2 \(id 'iso-0002'\): relation 'during'"),
}


@pytest.mark.parametrize("case", list(ISOBENCH_MALFORMED))
def test_isobench_malformed_rows(tmp_path, case):
    damage, pattern = ISOBENCH_MALFORMED[case]
    root = write_isobench(tmp_path / "d", "json", n=4)
    path = damage(root)
    with pytest.raises(IsoBenchDataError, match=pattern.format(path=path)):
        load_records(root)


def _catbench_edit(edit):
    """Replace line 2 of dependent_real_before.jsonl by ``edit(row)`` (a string)."""

    def damage(folder):
        path = folder / "dependent_real_before.jsonl"
        lines = path.read_text().splitlines()
        lines[1] = edit(json.loads(lines[1]))
        path.write_text("\n".join(lines) + "\n")
        return path

    return damage


def _catbench_hf(label):
    def damage(folder):
        write_catbench(folder.parent / "hf", "hf", n_plans=1, pairs_per_class=2)
        path = folder.parent / "hf" / "test.jsonl"
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        rows[1]["label"] = label
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
        return path

    return damage


CATBENCH_MALFORMED = {
    "truncated-line": (_catbench_edit(lambda row: json.dumps(row)[:40]), "not valid JSON"),
    "not-an-object": (_catbench_edit(lambda row: json.dumps([row["title"]])), "not a JSON object"),
    "step-pair-not-a-pair": (_catbench_edit(lambda row: json.dumps({**row, "step_pair_idx_asked_about": [1]})), "step_pair_idx_asked_about [1] is not a pair of step indices"),
    "steps-not-a-list": (_catbench_edit(lambda row: json.dumps({**row, "steps": "1. Chop. 2. Boil."})), "is not a list of step texts"),
    "field-missing": (_catbench_edit(lambda row: json.dumps({k: v for k, v in row.items() if k != "title"})), "missing field(s) ['title']"),
    "hf-label-as-text": (_catbench_hf("false"), None),  # bool("false") is True: read as a word, never as truthiness
}


@pytest.mark.parametrize("case", list(CATBENCH_MALFORMED))
def test_catbench_malformed_rows(tmp_path, case):
    damage, message = CATBENCH_MALFORMED[case]
    folder = catbench_release(tmp_path / "d")
    path = damage(folder)
    if message is None:  # row 1, a Dep pair, now labelled "false": its before and after questions are NonDep
        assert [q["answer"] for q in load_split("test", path.parent)[2:4]] == ["no", "no"]
        return
    with pytest.raises(CatBenchDataError) as error:
        load_split("test", path.parent)
    assert str(error.value).startswith(f"{path}:2: ") and message in str(error.value)


# ---- unknown gold answers ------------------------------------------------------------------------


def _tempvs_gold(name, test, gt_option, message):
    def check(tmp_path):
        root = tempvs_data(tmp_path / "d")
        path = table_path(root, name)
        row = edit_row(path, gt_option=gt_option)
        with pytest.raises(TempVSDataError) as error:
            build_main_docs(test, blind_filter=False, data_dir=root)
        assert str(error.value) == f"{where(path, row)}: {message}"

    return check


def _yes_no_gold(tmp_path, benchmark):
    if benchmark == "isobench":
        root = write_isobench(tmp_path / "d", "json", n=4)
        path, rows = isobench_rows(root)
        rows[3]["label"] = "maybe"
        path.write_text(json.dumps(rows))
        with pytest.raises(IsoBenchDataError, match=rf"^{path} row 3 \(id 'iso-0003'\): label 'maybe'"):
            load_records(root)
    else:
        path = _catbench_hf("unsure")(catbench_release(tmp_path / "d"))
        with pytest.raises(CatBenchDataError, match=f"^{path}:2: label 'unsure' is not a boolean"):
            load_split("test", path.parent)


UNKNOWN_GOLD = {
    "tempvs-mt1": _tempvs_gold("paired_event_discrimination", "mt1_two", "C", "gt_option 'C' does not end in an option letter A/B: no answer could ever be scored right"),
    "tempvs-ordering": _tempvs_gold("ordering_images", "mt3_event", "Option F", "gt_option 'Option F' does not end in an option letter A/B/C/D/E: no answer could ever be scored right"),
    "tempvs-grounding": _tempvs_gold("single_grounding_paired", "mt1_two", "image 0", "gt_option 'image 0' is not 'image N' (N from 1)"),
    "isobench": lambda tmp_path: _yes_no_gold(tmp_path, "isobench"),
    "catbench": lambda tmp_path: _yes_no_gold(tmp_path, "catbench"),
}


@pytest.mark.parametrize("case", list(UNKNOWN_GOLD))
def test_unknown_gold_answer(tmp_path, case):
    UNKNOWN_GOLD[case](tmp_path)


# ---- responses: parsing --------------------------------------------------------------------------

PARSERS = {
    "tempvs_mt1": lambda r: extract(r, "mt1", MT1_OPTIONS, family="generic", fixes=NONE),
    "tempvs_mt1_cot": lambda r: extract(r, "mt1", MT1_OPTIONS, cot=True, family="generic", fixes=NONE),
    "tempvs_ordering": lambda r: extract(r, "ordering", family="generic", fixes=NONE),
    "tempvs_grounding": lambda r: extract(r, "grounding", family="generic", fixes=NONE),
    "tempvs_internvl": lambda r: extract(r, "mt1", MT1_OPTIONS, family="internvl", fixes=NONE),
    "tempvs_mt1_fixed": lambda r: extract(r, "mt1", MT1_OPTIONS, family="deepseek", fixes=FIXED),
    "tempvs_ordering_fixed": lambda r: extract(r, "ordering", family="generic", fixes=FIXED),
    "tempvs_grounding_fixed": lambda r: extract(r, "grounding", family="interleave", fixes=FIXED),
    "isobench": isobench_answer_only,
    "isobench_cot": parse_explain_then_answer,
    "catbench": catbench_answer_only,
    "catbench_json": parse_json_answer,
    "catbench_nl": parse_nl_answer,
}
NOTHING = {name: (UNK if name.startswith("tempvs") else INVALID) for name in PARSERS}


@pytest.mark.parametrize("response", ["", None, "  \n\t \r\n"], ids=["empty", "none", "whitespace"])
@pytest.mark.parametrize("parser", list(PARSERS))
def test_empty_responses(parser, response):
    assert PARSERS[parser](response) == NOTHING[parser]


RESPONSES = [
    # (case, parser, response, parsed)
    ("unknown", "tempvs_mt1", "X", UNK),
    ("unknown", "tempvs_mt1", "b", UNK),  # official: case-sensitive
    ("unknown", "tempvs_ordering", "Option Z", UNK),
    ("unknown", "tempvs_grounding", "the last image", UNK),
    ("unknown", "isobench", "maybe", INVALID),
    ("unknown", "isobench_cot", "<answer>unsure</answer>", INVALID),
    ("unknown", "catbench", "Nope", INVALID),
    ("unknown", "catbench_json", '{"binary_answer": "unclear"}', INVALID),
    ("out_of_range", "tempvs_mt1", "C", UNK),
    ("out_of_range", "tempvs_mt1", "Option E", UNK),
    ("out_of_range", "tempvs_mt1_fixed", "option c", UNK),
    ("out_of_range", "tempvs_internvl", "Option C", UNK),
    ("out_of_range", "tempvs_ordering", "F", UNK),
    ("out_of_range", "tempvs_ordering", "Option F.", UNK),
    ("out_of_range", "tempvs_ordering_fixed", "answer: f", UNK),
    ("100kb", "tempvs_mt1", NOISE_100KB, UNK),
    ("100kb", "tempvs_mt1", NOISE_100KB + " B", "B"),
    ("100kb", "tempvs_mt1_cot", NOISE_100KB + "<answer>B</answer>", "B"),
    ("100kb", "tempvs_internvl", "A" + " " * 100_000 + "x", UNK),
    ("100kb", "tempvs_mt1_fixed", "option" + " " * 100_000, UNK),
    ("100kb", "tempvs_mt1_fixed", "\n" * 100_000, UNK),
    ("100kb", "tempvs_mt1_fixed", (" " * 20 + "\n") * 5_000 + "B.", "B"),
    ("100kb", "tempvs_ordering_fixed", "answer is" + " " * 100_000, UNK),
    ("100kb", "tempvs_grounding_fixed", "image" + " " * 100_000, UNK),
    ("100kb", "tempvs_grounding", NOISE_100KB + " image 3", "3"),
    ("100kb", "isobench", NOISE_100KB + " NO", "no"),
    ("100kb", "isobench_cot", "<answer>" * 12_500, INVALID),
    ("100kb", "isobench_cot", "<answer " * 12_500 + "<answer>yes</answer>", "yes"),
    ("100kb", "catbench", "blah " * 20_000 + "No", "no"),
    ("100kb", "catbench", "<think>" * 14_000, INVALID),
    ("100kb", "catbench_json", "{" * 100_000, INVALID),
    ("100kb", "catbench_json", '{"binary_answer": "' * 5_000, INVALID),
    ("100kb", "catbench_nl", "Answer 1:" + " " * 100_000, INVALID),
    ("100kb", "catbench_nl", "Answer 1:" + " *" * 50_000 + "no", "no"),
    ("unicode", "tempvs_mt1", "Ｂ", UNK),  # a full-width letter is not an option letter
    ("unicode", "tempvs_mt1", "\x00B\x07", "B"),  # control characters are not word characters
    ("unicode", "tempvs_mt1", "Option\u00a0B", "B"),
    ("unicode", "tempvs_ordering", "Ｏｐｔｉｏｎ Ｃ", UNK),
    ("unicode", "tempvs_grounding", "Image ③", UNK),  # a circled digit is not a digit
    ("unicode", "tempvs_mt1_cot", "<answer>\x1bB\x1b</answer>", "B"),
    ("unicode", "isobench", "Ｙｅｓ", INVALID),
    ("unicode", "isobench", "\x00No\x07", "no"),
    ("unicode", "isobench", "Sí, claro", INVALID),
    ("unicode", "catbench", "はい", INVALID),
    ("unicode", "catbench", "\u200bYes\u200b", "yes"),
    ("unicode", "catbench_json", '{"binary_answer": "n\u00f6"}', INVALID),
    ("think", "tempvs_mt1_cot", "<think>Option B, because the man", UNK),
    ("think", "tempvs_mt1_cot", "<think>It is B.</think>", "B"),  # closed: the documented whole-output fallback
    ("think", "tempvs_mt1", "<think>A man waves</think> B", "A"),  # non-CoT: the official first match, raw output
    ("think", "isobench_cot", "<think>YES, it must.</think>", INVALID),
    ("think", "isobench_cot", "<think>so <answer>YES", INVALID),
    ("think", "isobench", "<think>yes, the bread is toasted first", INVALID),
    ("think", "isobench", "<think>yes?</think> No.", "no"),
    ("think", "catbench", "<think>yes", INVALID),
    ("think", "catbench", "</think> No", "no"),  # the opening tag was prefilled by the chat template
    ("think", "catbench_json", '<think>{"binary_answer": "no"}', INVALID),
    ("think", "catbench_nl", "<think>Answer 1: yes", INVALID),
    ("tags", "tempvs_mt1_cot", "<answer>A</answer> wait <answer>B</answer>", "B"),
    ("tags", "tempvs_mt1_cot", "<answer>A</answer> wait <answer>unsure</answer>", UNK),
    ("tags", "tempvs_mt1_cot", "<answer>Option A</answer><answer>Option B", "A"),  # an unclosed tag is no tag
    ("tags", "isobench_cot", "<answer>YES</answer> wait <answer>NO</answer>", "no"),
    ("tags", "isobench_cot", "<answer>YES</answer> wait <answer>maybe</answer>", INVALID),
    ("tags", "isobench_cot", "<answer><answer>NO</answer></answer>", "no"),
    ("tags", "catbench_json", '{"binary_answer": "yes"} {"binary_answer": "no"}', "yes"),
    ("tags", "catbench_nl", "Answer 1: no\nAnswer 1: yes", "no"),
]


@pytest.mark.parametrize("case,parser,response,parsed", RESPONSES, ids=[f"{case}-{parser}-{i}" for i, (case, parser, _, _) in enumerate(RESPONSES)])
def test_response_parse(case, parser, response, parsed):
    assert PARSERS[parser](response) == parsed


def test_unicode_digit_is_scored_wrong():
    """A full-width digit is a digit to Python's \\d, as in the official pandas parse: it parses, never matches."""
    parsed = extract("image ３", "grounding", family="generic", fixes=NONE)
    assert parsed == "３" and not is_correct(parsed, "image 3")


def test_last_answer_tag_of_100kb_of_openings():
    assert last_answer_tag("<answer>" * 12_500 + "NO</answer>") == "NO"


# ---- responses: counted and scored wrong ---------------------------------------------------------

MT1_UNPARSEABLE = ["", "  \n\t ", None, "C", "Option E", "Ｂ", "\x00\x07", "<think>Option B, because the man", NOISE_100KB, "<answer>maybe</answer>"]
GROUNDING_UNPARSEABLE = ["", "Image ③"]


def _wrong(doc):
    return next(c for c in doc["choices"] if c != doc["answer"])


def tempvs_plan(docs):
    """MT1 CoT: 10 unparseable main answers and 2 unparseable grounding answers; 100 KB, several tags and
    control characters around right answers; the rest right."""
    mains = [i for i, d in enumerate(docs) if d["kind"] == "main"]
    grounding = [i for i, d in enumerate(docs) if d["kind"] == "grounding"]
    responses = [f"<answer>Option {d['answer']}</answer>" if d["kind"] == "main" else f"Image {d['answer']}" for d in docs]
    for i, response in zip(mains, MT1_UNPARSEABLE):
        responses[i] = response
    for i, response in zip(grounding, GROUNDING_UNPARSEABLE):
        responses[i] = response
    odd = [(i, docs[i]["answer"], _wrong(docs[i])) for i in mains[len(MT1_UNPARSEABLE) : len(MT1_UNPARSEABLE) + 4]]
    (a, ra, _), (b, rb, wb), (c, rc, wc), (d, rd, _) = odd
    responses[a] = NOISE_100KB + f"<answer>{ra}</answer>"
    responses[b] = f"<answer>{wb}</answer> Wait, no. <answer>{rb}</answer>"
    responses[c] = f"<answer>{rc}</answer> Wait, no. <answer>{wc}</answer>"  # the last tag is wrong
    responses[d] = f"\x00<answer>Option {rd}</answer>\x07"
    n_bad = len(MT1_UNPARSEABLE) + len(GROUNDING_UNPARSEABLE)
    return responses, {"invalid_rate": n_bad / len(docs), "mt_acc": (len(mains) - len(MT1_UNPARSEABLE) - 1) / len(mains), "gt_acc": (len(grounding) - len(GROUNDING_UNPARSEABLE)) / len(grounding)}


def _yes_no(docs):
    right = [d["answer"].upper() for d in docs]
    return right, [{"YES": "NO", "NO": "YES"}[r] for r in right]


def isobench_plan(docs):
    """8 docs: 5 unparseable, 3 right (after 100 KB, between control characters, plain)."""
    r, _ = _yes_no(docs)
    responses = ["", None, "maybe", "Ｙｅｓ", "<think>yes, the bread is toasted first", NOISE_100KB + " " + r[5], f"\x00{r[6]}\x07", r[7]]
    return responses, {"coverage": 3 / 8, "accuracy": 1.0, "strict_accuracy": 3 / 8}


def isobench_cot_plan(docs):
    """8 docs: 4 without a usable final tag, the last of several tags right once and wrong once, 2 right."""
    r, w = _yes_no(docs)
    responses = [
        "<think>Yes, it must come first.</think>",
        "<answer>YES or NO</answer>",
        f"<answer>{w[2]}</answer> Wait. <answer>{r[2]}</answer>",
        f"<answer>{r[3]}</answer> Wait. <answer>{w[3]}</answer>",
        "<answer>" * 12_500,
        " \n\t",
        f"<answer>{r[6]}</answer>",
        f"\x07<answer>{r[7]}</answer>\x00",
    ]
    return responses, {"coverage": 4 / 8, "accuracy": 3 / 4, "strict_accuracy": 3 / 8}


def catbench_plan(docs):
    """8 questions: 5 unparseable (scored as the wrong class), 3 right."""
    r, _ = _yes_no(docs)
    responses = ["", None, "Nope", "<think>yes, chopping comes first", "Ｎｏ", NOISE_100KB + " " + r[5], f"\x00{r[6]}\x07", r[7]]
    return responses, {"invalid_count": 5, "invalid_rate": 5 / 8, "accuracy": 3 / 8}


def catbench_explain_plan(docs):
    """8 questions (JSON): 3 unparseable, the first of two objects right once and wrong once, 3 right."""
    r, w = _yes_no(docs)
    js = lambda answer: json.dumps({"binary_answer": answer.lower(), "why_answer": "Steps."})  # noqa: E731
    responses = [js("maybe"), "{" * 100_000, f"{js(r[2])} {js(w[2])}", f"{js(w[3])} {js(r[3])}", "<think>" + js(r[4]), js(r[5]), js(r[6]), js(r[7])]
    return responses, {"invalid_count": 3, "invalid_rate": 3 / 8, "accuracy": 4 / 8}


def apart_from_failed(expected: dict, failed: int, questions: int) -> dict:
    """A plan's expected values (each unparseable response invalid) with the ``failed`` requests that failed or brought
    no response counted apart, as every command counts them: no answer, so not invalid either."""
    invalid = expected.get("invalid_count", round(expected.get("invalid_rate", 0) * questions))
    counted = {"invalid_count": invalid - failed, "invalid_rate": (invalid - failed) / (questions - failed)}
    return {name: counted.get(name, value) if name in ("invalid_count", "invalid_rate") else value for name, value in expected.items()}


PLANS = {"tempvs_mt1_two_cot": tempvs_plan, "isobench": isobench_plan, "isobench_cot": isobench_cot_plan, "catbench": catbench_plan, "catbench_explain": catbench_explain_plan}


def docs_and_scorer(task, data):
    """The task's docs in doc_id order, its process_results and its aggregations."""
    if task.startswith("tempvs"):
        docs = task_docs(task, data["tempvs"])
        return docs, tempvs_hooks.process_results, TEMPVS_AGGREGATIONS
    if task.startswith("isobench"):
        process = isobench_hooks.process_results_explain_then_answer if task.endswith("cot") else isobench_hooks.process_results_answer_only
        return task_docs(task, data["isobench"]), process, ISOBENCH_AGGREGATIONS
    process = catbench_hooks.process_results_json if task == "catbench_explain" else catbench_hooks.process_results_answer_only
    docs = task_docs(task, data["catbench"])
    aggregations = {**{name: getattr(catbench_metrics, name) for name in catbench_metrics.METRIC_NAMES}, **catbench_breakdowns.BREAKDOWNS}
    return docs, lambda doc, results: dict.fromkeys(aggregations, process(doc, results)["f1_macro"]), aggregations


@pytest.mark.parametrize("task", list(PLANS))
def test_counted_in_process(task, data):
    docs, process_results, aggregations = docs_and_scorer(task, data)
    responses, expected = PLANS[task](docs)
    # every key of a doc holds its one record; breakdown keys (ISO-Bench's accuracy) are computed from it too
    # each record as the run reader gives it: whether its request failed or brought no response (runs/lines.py)
    records = [{**next(iter(process_results(doc, [response]).values())), "failed": is_failed_response(response)} for doc, response in zip(docs, responses)]
    expected = apart_from_failed(expected, sum(record["failed"] for record in records), len(records))
    assert {name: aggregations[name](records) for name in expected} == expected


@pytest.mark.parametrize("task", list(PLANS))
def test_no_response_at_all_is_invalid(task, data):
    """An empty result list (no response) is scored like an empty response, never an error or a pass."""
    docs, process_results, _ = docs_and_scorer(task, data)
    assert process_results(docs[0], []) == process_results(docs[0], [""])
    record = next(iter(process_results(docs[0], []).values()))
    assert record["pred"] in ("UNK", "invalid") and not record.get("correct", False)


@pytest.fixture(scope="module")
def cli_results(data, tmp_path_factory):
    """One lmms-eval run of the five tasks with the scripted bad responses."""
    base = tmp_path_factory.mktemp("bad_responses_cli")
    script = {}
    for task, plan in PLANS.items():
        responses, _ = plan(docs_and_scorer(task, data)[0])
        script.update({f"{task}/{i}": response for i, response in enumerate(responses)})
    path = base / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    env = {"TEMPVS_DATA_DIR": str(data["tempvs"]), "ISOBENCH_DATA_DIR": str(data["isobench"]), "CATBENCH_DATA_DIR": str(data["catbench"])}
    return lmms_eval(base, list(PLANS), model_args=f"policy=script,script={path}", env=env), base / "lmms_eval_out"


@pytest.mark.parametrize("task", list(PLANS))
def test_cli_counts(task, data, cli_results):
    results, output = cli_results
    _, expected = PLANS[task](docs_and_scorer(task, data)[0])
    records = find_runs(output)[0].records(task)
    expected = apart_from_failed(expected, sum(record["failed"] for record in records), len(records))
    found = {name: metric(results, task, name) for name in expected if f"{name},none" in results["results"][task]}
    if task.startswith("isobench"):  # the keys outside the metric_list, from the logged records
        found.update({name: value for name, value in isobench_breakdowns(task, records).items() if name in expected and name not in found})
    assert found == expected


# ---- data directories and layouts ----------------------------------------------------------------

LOADERS = {
    "tempvs": ("TEMPVS_DATA_DIR", lambda: release_rows(["mt1_two"]), "no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/)"),
    "isobench": ("ISOBENCH_DATA_DIR", load_records, "no ISO-Bench data found"),
    "catbench": ("CATBENCH_DATA_DIR", lambda: load_split("test"), "no CaT-Bench 'test' split, which this task evaluates"),
}


@pytest.mark.parametrize("kind", ["missing", "a-file", "empty"])
@pytest.mark.parametrize("benchmark", list(LOADERS))
def test_wrong_data_dir(tmp_path, monkeypatch, benchmark, kind):
    variable, load, layout_message = LOADERS[benchmark]
    folder = tmp_path / "data"
    if kind == "a-file":
        folder.write_text("x")
    elif kind == "empty":
        folder.mkdir()
        (folder / "README.txt").write_text("x")
    monkeypatch.setenv(variable, str(folder))
    expected = f"{layout_message}" if kind == "empty" else f"{variable}={str(folder)!r} is not a directory"
    with pytest.raises((FileNotFoundError, TempVSDataError, IsoBenchDataError, CatBenchDataError)) as error:
        load()
    assert expected in str(error.value) and str(folder) in str(error.value)
    if kind == "empty":
        assert "README.txt" in str(error.value)


def _tempvs_too_deep(tmp_path):
    root = tempvs_data(tmp_path / "d")
    with pytest.raises(TempVSDataError, match=r"benchmark_pkl: no TempVS layout .* found \['flintstones_ordering_images_test.pkl'"):
        build_main_docs("mt1_two", data_dir=root / "benchmark_pkl")


def _tempvs_file_missing(tmp_path):
    root = tempvs_data(tmp_path / "d")
    table_path(root, "triple_event_discrimination").unlink()
    with pytest.raises(TempVSDataError, match=f"annotation file flintstones_triple_event_discrimination_test.pkl/.json is missing under {root}/benchmark_pkl or {root}/benchmark$"):
        build_main_docs("mt1_three", data_dir=root)


def _isobench_several_splits(tmp_path):
    root = write_isobench(tmp_path / "d", "json", n=4)
    rows = json.loads((root / "isobench.json").read_text())
    for split in ("validation", "dev"):
        (root / f"{split}.json").write_text(json.dumps(rows))
    (root / "isobench.json").unlink()
    with pytest.raises(IsoBenchDataError, match=r"several splits \['dev', 'validation'\] .* set the task setting data_split"):
        load_records(root)


def _isobench_hf_columns(tmp_path):
    root = tmp_path / "d"
    datasets.Dataset.from_list([{"frame_png": "a.png", "recipe_title": "x"}]).save_to_disk(str(root))
    with pytest.raises(IsoBenchDataError, match=r"cannot find the column\(s\) for \['image', 'goal', 'snippet', 'relation', 'label'\]"):
        load_records(root)


def _catbench_incomplete(tmp_path):
    folder = catbench_release(tmp_path / "d")
    (folder / "nondependent_real_after.jsonl").unlink()
    with pytest.raises(CatBenchDataError, match=r"an incomplete release split, \['nondependent_real_after.jsonl'\] missing"):
        load_split("test", folder)


def _catbench_other_split(tmp_path):
    root = tmp_path / "d"
    write_catbench(root, "hf", n_plans=1, pairs_per_class=2)
    (root / "val.jsonl").unlink()
    with pytest.raises(
        CatBenchDataError, match=r"no CaT-Bench 'validation' split, which this task evaluates: expected .*val_must_why/ .* or .*val.jsonl; found \['SYNTHETIC_DATA.txt', 'test.jsonl', 'train.jsonl'\]; it holds the train and test split"
    ):
        load_split("validation", root)


WRONG_LAYOUTS = {
    "tempvs-folder-too-deep": _tempvs_too_deep,
    "tempvs-file-missing": _tempvs_file_missing,
    "isobench-several-splits": _isobench_several_splits,
    "isobench-unknown-columns": _isobench_hf_columns,
    "catbench-incomplete-release": _catbench_incomplete,
    "catbench-split-absent": _catbench_other_split,
}


@pytest.mark.parametrize("case", list(WRONG_LAYOUTS))
def test_wrong_layout(tmp_path, case):
    WRONG_LAYOUTS[case](tmp_path)


# ---- empty data files: refused as a missing file is --------------------------------------------


def _tempvs_converted(root: Path) -> Path:
    from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import convert

    convert(tempvs_data(root / "release", n_sequences=1), root / "converted")
    return root / "converted"


def _tempvs_rows(folder: Path):
    with data_locations({"TEMPVS_DATA_DIR": str(folder)}):
        return release_rows(["mt1_two"])


def _tempvs_docs(folder: Path):
    return build_main_docs("mt1_two", data_dir=folder)


EMPTY_FILES = {
    # case: (write the data into a folder -> the data folder, the file emptied (in it), its content, read the data folder)
    "catbench-release": (lambda root: write_catbench(root, "release", n_plans=1, pairs_per_class=1), "test_must_why/dependent_real_before.jsonl", b"", lambda folder: load_split("test", folder)),
    "catbench-hf": (lambda root: write_catbench(root, "hf", n_plans=1, pairs_per_class=1), "test.jsonl", b"", lambda folder: load_split("test", folder)),
    "tempvs-pkl": (lambda root: tempvs_data(root, n_sequences=1), "benchmark_pkl/flintstones_paired_event_discrimination_test.pkl", b"", _tempvs_docs),
    "tempvs-json": (lambda root: tempvs_data(root, "json", n_sequences=1), "benchmark/flintstones_paired_event_discrimination_test.json", b"", _tempvs_docs),
    "tempvs-blind-predictions": (lambda root: tempvs_data(root, n_sequences=1), "predictions/blind/Phi-3.5-mini-instruct/vwp_paired_event_discrimination_preds_full.pkl", b"", _tempvs_docs),
    "tempvs-converted-parquet": (_tempvs_converted, "data/test-00000-of-00001.parquet", b"", _tempvs_rows),
    "tempvs-converted-images": (_tempvs_converted, "images.zip", b"", _tempvs_rows),
    "isobench-json": (lambda root: write_isobench(root, "json", n=4), "isobench.json", b"", load_records),
    "isobench-saved-dataset": (lambda root: write_isobench(root, "hf", n=4), "test/data-00000-of-00001.arrow", b"", load_records),
    "isobench-second-file-no-rows": (lambda root: write_isobench(root, "json", n=4), "crosstask.json", b"[]", load_records),  # beside isobench.json
}


@pytest.mark.parametrize("case", list(EMPTY_FILES))
def test_an_empty_data_file_is_refused_naming_it(tmp_path, monkeypatch, case):
    """A 0-byte file (a truncated or incomplete copy) is an error naming it, as a missing file is, not a file left out."""
    write, name, content, read = EMPTY_FILES[case]
    folder = write(tmp_path / "d")
    (folder / name).write_bytes(content)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", str(tmp_path / "cache"))  # where a converted dataset's images are unpacked
    with pytest.raises((TempVSDataError, IsoBenchDataError, CatBenchDataError), match=rf"^{re.escape(str(folder / name))}: (an empty file \(0 bytes\)|no rows \(an empty)"):
        read(folder)


def test_a_corrupt_image_archive_of_a_converted_dataset_is_refused_naming_it(tmp_path, monkeypatch):
    folder = _tempvs_converted(tmp_path / "d")
    (folder / "images.zip").write_bytes(b"PK not a zip archive")
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", str(tmp_path / "cache"))
    with pytest.raises(TempVSDataError, match=rf"^{re.escape(str(folder / 'images.zip'))}: not a readable zip archive"):
        _tempvs_rows(folder)


# ---- blind predictions (TempVS) ------------------------------------------------------------------


def _blind_file(root: Path) -> Path:
    return root / "predictions" / "blind" / "Phi-3.5-mini-instruct" / "vwp_paired_event_discrimination_preds_full.pkl"


def _drop_row(path):
    frame = pandas.read_pickle(path)
    frame.drop(index=frame.index[1]).to_pickle(path)
    return f"{path}: no prediction for 1 question\\(s\\) of vwp/paired_event_discrimination, e.g. question_id \\['{frame.iloc[1]['question_id']}'\\]"


BLIND_DAMAGE = {
    "missing-file": lambda path: path.unlink() or f"blind prediction file {path.with_suffix('')}.pkl/.json is missing: .*_unfiltered task",
    "missing-question": _drop_row,
    "no-preds-column": lambda path: pandas.read_pickle(path).drop(columns=["preds"]).to_pickle(path) or f"{path} row 0: a blind prediction row needs question_id, gt_option and preds",
}


@pytest.mark.parametrize("case", list(BLIND_DAMAGE))
def test_blind_predictions(tmp_path, case):
    root = tempvs_data(tmp_path / "d")
    pattern = BLIND_DAMAGE[case](_blind_file(root))
    with pytest.raises(TempVSDataError, match=pattern):
        build_main_docs("mt1_two", data_dir=root)
    build_main_docs("mt1_two", blind_filter=False, data_dir=root)  # the unfiltered task needs no predictions


# ---- data errors through the lmms-eval CLI (it logs them and exits 0) ----------------------------


def _cli(tmp_path, tasks, model, model_args, env):
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", model, "--model_args", model_args, "--tasks", tasks, "--output_path", str(out), "--log_samples"], out, env)
    assert not list(out.rglob("*_results.json")), "a failed run must not leave a results file"
    return log.stdout + log.stderr


def test_cli_data_error_fails_the_run(tmp_path):
    (tmp_path / "empty").mkdir()
    output = _cli(tmp_path, "tempvs_mt1_two", "scripted", "policy=oracle", {"TEMPVS_DATA_DIR": str(tmp_path / "empty")})
    assert f"TempVSDataError: {tmp_path / 'empty'}: no TempVS layout" in output


def test_cli_image_error_fails_the_run(tmp_path):
    root = write_isobench(tmp_path / "d", "json", n=4)
    (root / "images" / "iso-0002.jpg").write_bytes(b"not a jpeg")
    output = _cli(tmp_path, "isobench", "decode_only", "seed=1", {"ISOBENCH_DATA_DIR": str(root)})
    assert f"IsoBenchDataError: ISO-Bench example 'iso-0002': cannot read image {root / 'images' / 'iso-0002.jpg'}" in output
