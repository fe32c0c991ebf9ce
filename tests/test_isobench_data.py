"""ISO-Bench loading: both fixture layouts, column mapping and split as task settings, the data
fingerprint, Table 2 check, images."""

import json

import numpy as np
import pytest
from loguru import logger as eval_logger

from temporal_bench.isobench.fixtures import write_fixture
from temporal_bench.lmms_eval_tasks.isobench import utils as hooks
from temporal_bench.lmms_eval_tasks.isobench import utils as task_utils
from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import choose_split
from tests.task_docs import isobench_records as load_records


def open_image(doc):
    return task_utils.doc_to_visual(doc)[0]


from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import EXPECTED_COUNTS, IsoBenchDataError, Table, check_statistics, map_columns, statistics

RENAMED = {"goal": "what_to_make", "snippet": "shown_steps", "relation": "ask", "label": "gold_dep", "image": "picture_file"}
RENAMED_MAP = json.dumps({field: column for field, column in RENAMED.items()})


def without_image(record):
    """A record without what depends on the files read: its image reference and the data fingerprint."""
    return {k: v for k, v in record.items() if k not in ("image_path", "image_bytes", "data")}


def write_renamed(root):
    """The json layout with the five required columns renamed to names no loader could guess."""
    write_fixture(root, "json")
    path = root / "isobench.json"
    rows = json.loads(path.read_text())
    path.write_text(json.dumps([{RENAMED.get(k, k): v for k, v in row.items()} for row in rows]))
    return root


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    root = tmp_path_factory.mktemp("isobench_layouts")
    return {layout: write_fixture(root / layout, layout) for layout in ("json", "hf")}


def test_both_layouts_load_to_identical_records(layouts):
    json_records = load_records(layouts["json"])
    hf_records = load_records(layouts["hf"])
    assert len(json_records) == len(hf_records) == 16
    assert [without_image(r) for r in json_records] == [without_image(r) for r in hf_records]
    assert all(r["image_path"] and r["image_bytes"] is None for r in json_records)
    assert all(r["image_bytes"] and r["image_path"] is None for r in hf_records)
    for a, b in zip(json_records, hf_records):
        assert np.array_equal(np.asarray(open_image(a)), np.asarray(open_image(b)))


def test_fixture_covers_relations_labels_sources_and_distances(layouts):
    records = load_records(layouts["json"])
    cells = {(r["source"], r["relation"], r["label"]) for r in records}
    assert len(cells) == 8
    assert {r["distance_class"] for r in records} == {"close", "distant"}
    first = records[0]
    assert first["anchor"] == {"before": "first", "after": "last"}[first["relation"]]
    assert first["answer"] == first["label"] and first["choices"] == ["yes", "no"]
    assert first["question"] == f"Does this image show a step that must come {first['relation']} the {first['anchor']} step in the plan?"


def test_image_caption_never_reaches_the_record_or_prompt(layouts):
    rows = json.loads((layouts["json"] / "isobench.json").read_text())
    for row, record in zip(rows, load_records(layouts["json"])):
        assert "image_caption" not in record
        for text in (hooks.doc_to_text_answer_only(record), hooks.doc_to_text_explain_then_answer(record)):
            assert row["image_caption"] not in text


def test_renamed_columns_fail_with_help_then_load_with_the_mapping(tmp_path, layouts, monkeypatch):
    root = write_renamed(tmp_path / "renamed")
    with pytest.raises(IsoBenchDataError) as error:
        load_records(root)
    message = str(error.value)
    assert "cannot find the column(s) for ['image', 'goal', 'snippet', 'relation', 'label']" in message
    for column in RENAMED.values():
        assert column in message
    assert "the task setting column_map" in message and "ISOBENCH_COLUMN_MAP" not in message
    expected = [without_image(r) for r in load_records(layouts["json"])]
    assert [without_image(r) for r in load_records(root, column_map=RENAMED)] == expected


def test_column_map_errors_name_the_problem():
    columns = {"goal": "str", "frame": "str", "steps": "list[str]", "relation": "str", "label": "str"}
    assert map_columns(columns)["image"] == "frame"
    with pytest.raises(IsoBenchDataError, match="not in the data: {'image': 'picture'}"):
        map_columns(columns, {"image": "picture"})
    with pytest.raises(IsoBenchDataError, match=r"unknown field\(s\) \['colour'\]"):
        map_columns(columns, {"colour": "goal"})
    # a caption column is never taken for a field
    assert map_columns({**columns, "image_caption": "str", "text": "str"}).get("snippet") == "steps"
    # explicit entries win; null switches an optional field off
    with_question = {**columns, "question": "str", "snippet": "str"}
    mapping = map_columns(with_question, {"snippet": "steps", "question": None})
    assert mapping["snippet"] == "steps" and "question" not in mapping
    assert map_columns(with_question)["question"] == "question"


def test_records_carry_the_fingerprint_of_the_files_read(tmp_path, layouts):
    logged = []
    sink = eval_logger.add(logged.append, format="{message}")
    try:
        fingerprints = {layout: {r["data"] for r in load_records(root)} for layout, root in layouts.items()}
    finally:
        eval_logger.remove(sink)
    assert all(len(found) == 1 and len(next(iter(found))) == 12 for found in fingerprints.values())
    assert fingerprints["json"] != fingerprints["hf"]
    (json_fingerprint,) = fingerprints["json"]
    assert f"ISO-Bench data: ISOBENCH_DATA_DIR={layouts['json']}, 1 file(s), fingerprint {json_fingerprint}\n" in logged
    # the same rows in another folder: the same fingerprint; one changed row: another
    copy = write_fixture(tmp_path / "copy", "json")
    assert {r["data"] for r in load_records(copy)} == fingerprints["json"]
    rows = json.loads((copy / "isobench.json").read_text())
    rows[0]["goal"] = "another goal"
    (copy / "isobench.json").write_text(json.dumps(rows))
    assert {r["data"] for r in load_records(copy)}.isdisjoint(fingerprints["json"])


def test_split_choice():
    table = Table("t", {}, [])
    assert choose_split({"train": table}) is table
    assert choose_split({"test": table, "validation": Table("v", {}, [])}) is table
    with pytest.raises(IsoBenchDataError, match="several splits .* set the task setting data_split"):
        choose_split({"train": table, "test": table})
    assert choose_split({"train": Table("r", {}, []), "test": table}, "test") is table
    with pytest.raises(IsoBenchDataError, match="split 'dev' not found"):
        choose_split({"train": table}, "dev")


def test_table2_check_warns_only_on_mismatch(tmp_path):
    full = load_records(write_fixture(tmp_path / "full", "json", n=764))
    assert statistics(full) == EXPECTED_COUNTS
    logged = []
    sink = eval_logger.add(logged.append, format="{message}", level="WARNING")
    try:
        assert check_statistics(full) == []
        problems = check_statistics(full[:-1])
    finally:
        eval_logger.remove(sink)
    assert len(problems) == 1 and "differs from the paper's Table 2" in problems[0] and "'rows': (763, 764)" in problems[0]
    assert any("Table 2" in line for line in logged)
    flipped = [{**r, "label": "no" if r["label"] == "yes" else "yes"} for r in full]
    assert "'dep': (381, 383)" in check_statistics(flipped)[0]


def test_without_positions_and_sources_the_fields_are_none(tmp_path):
    records = load_records(write_fixture(tmp_path / "bare", "json", with_positions=False, with_source=False))
    assert {(r["distance_class"], r["source"], r["image_step_idx"]) for r in records} == {(None, None, None)}


def test_source_from_file_name_when_no_column(tmp_path):
    root = write_fixture(tmp_path / "d", "json", with_source=False)
    (root / "isobench.json").rename(root / "crosstask_test.json")
    assert {r["source"] for r in load_records(root)} == {"crosstask"}


def test_process_docs_and_doc_to_visual(layouts, monkeypatch):
    monkeypatch.setenv("ISOBENCH_DATA_DIR", str(layouts["hf"]))
    docs = task_utils.process_docs_isobench(None)
    assert len(docs) == 16 and docs[3]["answer"] in ("yes", "no")
    assert [{**without_image(d), "task": ""} for d in task_utils.process_docs_isobench_cot(None)] == [{**without_image(d), "task": ""} for d in docs]
    (image,) = hooks.doc_to_visual(docs[3])
    assert image.mode == "RGB" and image.size == (96, 72)


def test_missing_and_corrupt_images_name_the_file_and_doc(tmp_path):
    root = write_fixture(tmp_path / "d", "json")
    records = load_records(root)
    (root / "images" / "iso-0002.jpg").unlink()
    with pytest.raises(IsoBenchDataError, match=r"doc 'iso-0002': cannot read image .*iso-0002\.jpg"):
        open_image(records[2])
    (root / "images" / "iso-0003.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(IsoBenchDataError, match=r"doc 'iso-0003': cannot read image .*iso-0003\.jpg"):
        open_image(records[3])
    with pytest.raises(IsoBenchDataError, match="doc 'x': cannot read image embedded image bytes"):
        open_image({"id": "x", "image_bytes": b"garbage", "image_path": None})


def test_label_and_relation_values_are_normalised(tmp_path):
    root = write_fixture(tmp_path / "d", "json", n=8)
    path = root / "isobench.json"
    rows = json.loads(path.read_text())
    values = [("POS", "Before"), ("NEG", "AFTER"), (True, "before"), (0, "after"), ("yes", "before"), ("nondep", "after"), ("1", "before"), ("false", "after")]
    for row, (label, relation) in zip(rows, values):
        row.update(label=label, relation=relation)
    path.write_text(json.dumps(rows))
    records = load_records(root)
    assert [(r["label"], r["relation"]) for r in records] == [("yes", "before"), ("no", "after"), ("yes", "before"), ("no", "after"), ("yes", "before"), ("no", "after"), ("yes", "before"), ("no", "after")]
    rows[0]["label"] = "maybe"
    path.write_text(json.dumps(rows))
    with pytest.raises(IsoBenchDataError, match="label 'maybe'"):
        load_records(root)
