"""``temporal-bench build-dataset`` (the task folders' converters, ``*_to_hf.py``): the converted datasets hold each
image once and give the tasks the same docs as the releases they were built from, loaded the harness's way (the
parquet rows by ``datasets``; TempVS's images from ``images.zip`` unpacked where lmms-eval's ``dataset_kwargs: {video:
true, cache_dir: tempvs}`` unpacks it). The same scores through the real CLI: tests/test_export.py."""

import zipfile
from pathlib import Path

import datasets
import pytest

from temporal_bench.__main__ import main
from temporal_bench.converted_dataset import card_configs
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks.tempvs.spec import TempVSDataError
from temporal_bench.lmms_eval_tasks.tempvs.utils import open_image
from temporal_bench.synthetic_data import is_synthetic
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs
from tests.task_docs import process_docs_of, task_docs

TEMPVS_TASKS = ["tempvs", "tempvs_mt1_two", "tempvs_mt2_caption", "tempvs_ordering_event", "tempvs_mt3_event_separate", "tempvs_mt1_two_blind", "tempvs_mt3_images_only", "tempvs_gt_all"]
SOURCE_FIELDS = ("image", "frames", "data", "data_source")  # where a doc's images and data were read: differs by route


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """{benchmark: (release folder, converted folder)}: the synthetic releases and what build-dataset made of them."""
    root = tmp_path_factory.mktemp("hub_dataset")
    releases = {"tempvs": write_tempvs(root / "tempvs", n_sequences=2), "isobench": write_isobench(root / "isobench", "json")}
    for benchmark, release in releases.items():
        assert main(["build-dataset", benchmark, "--source", str(release), "--output-dir", str(root / f"{benchmark}_hub")]) == 0
    return {benchmark: (release, root / f"{benchmark}_hub") for benchmark, release in releases.items()}


@pytest.fixture(scope="module")
def hf_home(built, tmp_path_factory):
    """``$HF_HOME`` with the TempVS dataset's images.zip unpacked under ``tempvs/``, as lmms-eval unpacks it."""
    home = tmp_path_factory.mktemp("hf_home")
    with zipfile.ZipFile(built["tempvs"][1] / "images.zip") as archive:
        archive.extractall(home / "tempvs")
    return home


def _without_source(docs):
    return [{key: value for key, value in doc.items() if key not in SOURCE_FIELDS} for doc in docs]


def test_tempvs_images_are_stored_once(built):
    release, converted = built["tempvs"]
    rows = datasets.load_dataset(str(converted), split="test")
    named = {name for row in rows for name in (row["image"], *row["frames"]) if name}
    with zipfile.ZipFile(converted / "images.zip") as archive:
        stored = archive.infolist()
    assert sorted(info.filename for info in stored) == sorted(named)  # each image the rows name, once
    assert all((release / info.filename).read_bytes() == zipfile.ZipFile(converted / "images.zip").read(info.filename) for info in stored)
    assert sum(info.compress_size for info in stored) == sum((release / name).stat().st_size for name in named)


@pytest.mark.parametrize("task", TEMPVS_TASKS)
def test_every_tempvs_task_gets_the_same_docs_from_the_converted_dataset(built, hf_home, task, monkeypatch):
    release, converted = built["tempvs"]
    expected = task_docs(task, release)
    monkeypatch.setenv("HF_HOME", str(hf_home))
    docs = list(process_docs_of(task)(datasets.load_dataset(str(converted), split="test")))
    assert _without_source(docs) == _without_source(expected)
    for doc, original in zip(docs, expected):
        for name, original_name in zip([doc["image"], *doc["frames"]], [original["image"], *original["frames"]]):
            if name:
                assert Path(name).read_bytes() == Path(original_name).read_bytes() and name.startswith(str(hf_home / "tempvs")), doc["doc_key"]
    assert {doc["data_source"]["hub"] for doc in docs} == {converted.name}


def test_isobench_gets_the_same_docs_from_the_converted_dataset(built):
    release, converted = built["isobench"]
    expected = task_docs("isobench", release)
    docs = list(process_docs_of("isobench")(datasets.load_dataset(str(converted), split="test")))
    assert _without_source(docs) == [{k: v for k, v in doc.items() if k not in ("image_path", "image_bytes")} | {"image_path": None, "image_bytes": d["image_bytes"]} for doc, d in zip(_without_source(expected), docs)]
    assert [d["image_bytes"] for d in docs] == [Path(doc["image_path"]).read_bytes() if doc["image_path"] else doc["image_bytes"] for doc in expected]


def test_the_card_names_the_command_the_configs_and_the_synthetic_source(built):
    release, converted = built["tempvs"]
    card = (converted / "README.md").read_text(encoding="utf-8")
    assert f"- command: temporal-bench build-dataset tempvs --source {release} --output-dir {converted}" in card
    assert "license: other" in card and "every image once in `images.zip`" in card and is_synthetic(converted)
    assert list(card_configs(converted)) == ["default"] and list(card_configs(built["isobench"][1])) == ["default"]


def test_a_missing_image_is_named_when_the_docs_are_built(built, tmp_path, monkeypatch):
    _, converted = built["tempvs"]
    monkeypatch.setenv("HF_HOME", str(tmp_path))  # nothing unpacked there
    with pytest.raises(SystemExit, match="TempVS image file\\(s\\) missing"):
        process_docs_of("tempvs_mt1_two")(datasets.load_dataset(str(converted), split="test"))


def test_build_dataset_names_a_folder_that_holds_no_release(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit):
        main(["build-dataset", "tempvs", "--source", str(tmp_path / "empty"), "--output-dir", str(tmp_path / "out")])
    assert f"error: {tmp_path / 'empty'}: no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/); found []" in capsys.readouterr().err


def test_an_image_that_cannot_be_read_is_named_with_its_doc(tmp_path):
    (tmp_path / "broken.jpg").write_bytes(b"not an image")
    with pytest.raises(TempVSDataError, match="broken.jpg' of doc d1 cannot be read"):
        open_image(str(tmp_path / "broken.jpg"), {"doc_key": "d1"})
