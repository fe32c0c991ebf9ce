"""ISO-Bench loading by this package's tasks (lmms_eval_tasks/plugin/isobench/release.py): both fixture layouts, column
mapping and split as task settings, the counts of Table 2, images."""

import json

import numpy as np
import pytest
from PIL import Image

from temporal_bench.isobench.fixtures import write_fixture
from temporal_bench.isobench.record_reader import RELEASE_COUNTS, IsoBenchRecords
from temporal_bench.lmms_eval_tasks.isobench import utils as hooks
from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import IsoBenchDataError
from temporal_bench.lmms_eval_tasks.plugin.isobench import utils as plugin_utils
from temporal_bench.lmms_eval_tasks.plugin.isobench.release import Table, choose_split, map_columns
from temporal_bench.lmms_eval_tasks.plugin.isobench.utils import distance_class
from tests.task_docs import isobench_records as load_records
from tests.task_docs import placeholder


def open_image(record):
    with Image.open(record["image_path"]) as image:
        return image.convert("RGB")


def counts(records):
    """The counts the report checks against Table 2, of the records as a run logs them."""
    return IsoBenchRecords().counts([{**r, "gold": r["answer"]} for r in records], {})


RENAMED = {"goal": "what_to_make", "snippet": "shown_steps", "relation": "ask", "label": "gold_dep", "image": "picture_file"}
RENAMED_MAP = json.dumps({field: column for field, column in RENAMED.items()})


def without_image(record):
    """A record without where its image lies."""
    return {k: v for k, v in record.items() if k != "image_path"}


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
    assert all(r["image_path"].startswith(str(layouts["json"])) for r in json_records)  # the release's files
    assert all("isobench_images" in r["image_path"] for r in hf_records)  # embedded images, each written once by its content
    for a, b in zip(json_records, hf_records):
        assert np.array_equal(np.asarray(open_image(a)), np.asarray(open_image(b)))


def test_fixture_covers_relations_labels_sources_and_distances(layouts):
    records = load_records(layouts["json"])
    cells = {(r["source"], r["relation"], r["label"]) for r in records}
    assert len(cells) == 8
    assert {distance_class(r["image_step_idx"], r["snippet_step_idxs"]) for r in records} == {"close", "distant"}
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


def test_split_choice():
    table = Table("t", {}, [])
    assert choose_split({"train": table}) is table
    assert choose_split({"test": table, "validation": Table("v", {}, [])}) is table
    with pytest.raises(IsoBenchDataError, match="several splits .* set the task setting data_split"):
        choose_split({"train": table, "test": table})
    assert choose_split({"train": Table("r", {}, []), "test": table}, "test") is table
    with pytest.raises(IsoBenchDataError, match="split 'dev' not found"):
        choose_split({"train": table}, "dev")


def test_the_counts_of_table2(tmp_path):
    full = load_records(write_fixture(tmp_path / "full", "json", n=764))
    assert counts(full) == RELEASE_COUNTS
    assert counts(full[:-1])["rows"] == 763
    flipped = [{**r, "answer": "no" if r["answer"] == "yes" else "yes"} for r in full]
    assert (counts(flipped)["dep"], counts(flipped)["nondep"]) == (381, 383)


def test_without_positions_and_sources_the_fields_are_none(tmp_path):
    records = load_records(write_fixture(tmp_path / "bare", "json", with_positions=False, with_source=False))
    assert {(distance_class(r["image_step_idx"], r["snippet_step_idxs"]), r["source"], r["image_step_idx"]) for r in records} == {(None, None, None)}


def test_source_from_file_name_when_no_column(tmp_path):
    root = write_fixture(tmp_path / "d", "json", with_source=False)
    (root / "isobench.json").rename(root / "crosstask_test.json")
    assert {r["source"] for r in load_records(root)} == {"crosstask"}


def test_process_docs_and_doc_to_visual(layouts, monkeypatch):
    monkeypatch.setenv("ISOBENCH_DATA_DIR", str(layouts["hf"]))
    docs = plugin_utils.process_docs_isobench(placeholder())
    assert len(docs) == 16 and docs[3]["answer"] in ("yes", "no")
    (image,) = hooks.doc_to_visual(docs[3])
    assert image.mode == "RGB" and image.size == (96, 72)


def test_missing_empty_and_corrupt_images_are_named_when_the_data_loads(tmp_path):
    root = write_fixture(tmp_path / "d", "json")
    (root / "images" / "iso-0002.jpg").unlink()
    with pytest.raises(IsoBenchDataError, match=r"isobench\.json row 2 \(id 'iso-0002'\): image file .*iso-0002\.jpg not found"):
        load_records(root)
    root = write_fixture(tmp_path / "e", "json")
    (root / "images" / "iso-0003.jpg").write_bytes(b"")
    with pytest.raises(IsoBenchDataError, match=r"image file .*iso-0003\.jpg is empty"):
        load_records(root)
    (root / "images" / "iso-0003.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(IsoBenchDataError, match=r"example 'iso-0003': cannot read image .*iso-0003\.jpg"):
        load_records(root)


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
