"""``temporal-bench build-dataset`` (the task folders' converters, ``*_to_hf.py``): the converted datasets hold each
image once and give the tasks the same docs as the releases they were built from: the upstream tasks on the rows
loaded the harness's way (the parquet rows by ``datasets``; TempVS's images from ``images.zip`` unpacked where
lmms-eval's ``dataset_kwargs: {video: true, cache_dir: tempvs}`` unpacks it), and this package's tasks with their data
variable naming the converted dataset. The same scores through the real CLI: tests/e2e/test_export.py."""

import re
import shutil
import zipfile
from pathlib import Path

import datasets
import pytest
from huggingface_hub import DatasetCard

from temporal_bench.__main__ import main
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks.isobench import isobench_to_hf
from temporal_bench.lmms_eval_tasks.tempvs import tempvs_to_hf
from temporal_bench.lmms_eval_tasks.tempvs import utils as upstream_utils
from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES, TempVSDataError
from temporal_bench.lmms_eval_tasks.tempvs.utils import open_image
from temporal_bench.synthetic_data import is_synthetic
from tests.task_docs import isobench_records, task_docs
from tests.tempvs_fixture_copies import write_tempvs

UPSTREAM_TASKS = ["tempvs_mt1_two", "tempvs_mt2_caption", "tempvs_mt3_event"]  # the upstream folder's, on the rows as loaded
CONVERTED_TASKS = [*UPSTREAM_TASKS, "tempvs", "tempvs_ordering_event", "tempvs_gt_all", "tempvs_mt1_two_unfiltered"]  # this package's, TEMPVS_DATA_DIR the converted dataset
# the variants whose prompts or images the converted dataset (the standard prompt and the combined image) does not hold
RELEASE_ONLY = {
    "tempvs_mt3_event_separate": "a converted dataset holds the combined images only: the separate-image tasks need the release",
    "tempvs_mt1_two_blind": "is a converted dataset, which holds the standard prompts only: the prompt mode(s) ['blind'] need the release",
    "tempvs_mt3_images_only": "is a converted dataset, which holds the standard prompts only: the prompt mode(s) ['images_only'] need the release",
}


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


def _loaded(converted: Path, tmp_path: Path) -> datasets.Dataset:
    """The converted dataset's test split as ``load_dataset(FOLDER)`` reads it (a cache of the test's own: the folder's
    name and card would otherwise find another build's copy in the shared cache)."""
    return datasets.load_dataset(str(converted), split="test", cache_dir=str(tmp_path / "datasets_cache"))


def _without_image(docs):
    return [{key: value for key, value in doc.items() if key != "image"} for doc in docs]


def _same_images(docs, expected, folder: Path) -> None:
    """Each doc's image has the bytes of the release's, read from under ``folder``."""
    for doc, original in zip(docs, expected):
        assert Path(doc["image"]).read_bytes() == Path(original["image"]).read_bytes() and doc["image"].startswith(str(folder)), doc["doc_key"]


def test_tempvs_images_are_stored_once(built, tmp_path):
    release, converted = built["tempvs"]
    rows = _loaded(converted, tmp_path)
    named = {row["image"] for row in rows}
    with zipfile.ZipFile(converted / "images.zip") as archive:
        stored = archive.infolist()
        assert sorted(info.filename for info in stored) == sorted(named)  # each image the rows name, once
        assert all((release / info.filename).read_bytes() == archive.read(info.filename) for info in stored)
    assert sum(info.compress_size for info in stored) == sum((release / name).stat().st_size for name in named)


@pytest.mark.parametrize("task", UPSTREAM_TASKS)
def test_every_upstream_tempvs_task_gets_the_release_s_docs_from_the_converted_dataset(built, hf_home, task, tmp_path, monkeypatch):
    """The upstream task's ``process_docs`` on the loaded rows: this package's docs of the release (less the settings
    its tasks add), each image from where lmms-eval unpacked images.zip."""
    release, converted = built["tempvs"]
    expected = task_docs(task, release)
    monkeypatch.setenv("HF_HOME", str(hf_home))
    docs = list(getattr(upstream_utils, f"process_docs_{task}")(_loaded(converted, tmp_path)))
    assert _without_image(docs) == [{key: original[key] for key in doc if key != "image"} for doc, original in zip(docs, expected)]
    assert len(docs) == len(expected) > 0
    _same_images(docs, expected, hf_home / "tempvs")


@pytest.mark.parametrize("task", CONVERTED_TASKS)
def test_every_tempvs_task_gets_the_same_docs_with_the_converted_dataset_as_its_data(built, task):
    """``TEMPVS_DATA_DIR`` naming the converted dataset: the docs of the release, images unpacked into the datasets cache."""
    release, converted = built["tempvs"]
    expected, docs = task_docs(task, release), task_docs(task, converted)
    assert _without_image(docs) == _without_image(expected)
    _same_images(docs, expected, Path(datasets.config.HF_DATASETS_CACHE) / "temporal_bench")


@pytest.mark.parametrize("task", sorted(RELEASE_ONLY))
def test_a_variant_the_converted_dataset_cannot_serve_says_it_needs_the_release(built, task):
    with pytest.raises(SystemExit, match=f"TempVSDataError: .*{re.escape(RELEASE_ONLY[task])}"):
        task_docs(task, built["tempvs"][1])


def test_a_rebuilt_converted_dataset_is_read_afresh(built, tmp_path):
    """The converted dataset rebuilt in the same folder from other data: its new rows, not a cached copy of the old."""
    release, converted = built["tempvs"]
    copy = tmp_path / "tempvs_hub"
    shutil.copytree(converted, copy)
    before = task_docs("tempvs_mt1_two", copy)
    smaller = write_tempvs(tmp_path / "smaller", n_sequences=1)
    shutil.rmtree(copy)
    assert main(["build-dataset", "tempvs", "--source", str(smaller), "--output-dir", str(copy)]) == 0
    after, expected = task_docs("tempvs_mt1_two", copy), task_docs("tempvs_mt1_two", smaller)
    assert _without_image(after) == _without_image(expected) and len(expected) < len(before)


def test_isobench_gets_the_same_docs_from_the_converted_dataset(built, tmp_path):
    """The upstream task's docs are the loaded rows; this package's, with ``ISOBENCH_DATA_DIR`` the converted dataset,
    are those of the release; the images are the release's files."""
    release, converted = built["isobench"]
    expected = isobench_records(release)
    rows = list(_loaded(converted, tmp_path).cast_column("image", datasets.Image(decode=False)))
    assert [{key: value for key, value in row.items() if key != "image"} for row in rows] == [{key: value for key, value in doc.items() if key != "image_path"} for doc in expected]
    assert [row["image"]["bytes"] for row in rows] == [Path(doc["image_path"]).read_bytes() for doc in expected]
    docs = isobench_records(converted)
    assert [{key: value for key, value in doc.items() if key != "image_path"} for doc in docs] == [{key: value for key, value in doc.items() if key != "image_path"} for doc in expected]
    assert [Path(doc["image_path"]).read_bytes() for doc in docs] == [Path(doc["image_path"]).read_bytes() for doc in expected]


def _card_configs(folder: Path) -> list[str]:
    return [config["config_name"] for config in DatasetCard.load(folder / "README.md").data.to_dict()["configs"]]


def test_the_card_names_the_command_the_configs_and_the_synthetic_source(built):
    release, converted = built["tempvs"]
    card = (converted / "README.md").read_text(encoding="utf-8")
    assert f"- command: temporal-bench build-dataset tempvs --source {release} --output-dir {converted}" in card
    assert "license: other" in card and "every image once in `images.zip`" in card and is_synthetic(converted)
    assert [_card_configs(converted), _card_configs(built["isobench"][1])] == [["default"], ["default"]]  # as the hub reads the card


def test_a_missing_image_is_named_when_the_docs_are_built(built, tmp_path, monkeypatch):
    """The upstream task with nothing unpacked under ``$HF_HOME``; this package's with a converted dataset whose
    images.zip is missing (the run then ends: status 1)."""
    _, converted = built["tempvs"]
    monkeypatch.setenv("HF_HOME", str(tmp_path))  # nothing unpacked there
    with pytest.raises(TempVSDataError, match="TempVS image file\\(s\\) missing, e.g. flintstones/combined/"):
        upstream_utils.process_docs_tempvs_mt1_two(_loaded(converted, tmp_path))
    copy = tmp_path / "tempvs_hub"
    shutil.copytree(converted, copy)
    (copy / "images.zip").unlink()
    with pytest.raises(SystemExit, match="TempVS image file\\(s\\) missing"):
        task_docs("tempvs_mt1_two", copy)


def test_build_dataset_names_a_folder_that_holds_no_release(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit):
        main(["build-dataset", "tempvs", "--source", str(tmp_path / "empty"), "--output-dir", str(tmp_path / "out")])
    assert f"error: {tmp_path / 'empty'}: no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/); found []" in capsys.readouterr().err


def test_an_image_that_cannot_be_read_is_named_with_its_doc(tmp_path):
    (tmp_path / "broken.jpg").write_bytes(b"not an image")
    with pytest.raises(TempVSDataError, match="broken.jpg' of doc d1 cannot be read"):
        open_image(str(tmp_path / "broken.jpg"), {"doc_key": "d1"})


def _table2_rows(drop: int = 0) -> list[dict]:
    """Question rows with Table 2's counts: each main test's per source, MT1 and MT2 with some questions the text-only
    filter drops (which MT2's count leaves out, MT1's does not), and grounding rows, which no count holds."""
    rows = []
    for test, counts in tempvs_to_hf.TABLE2.items():
        for source in SOURCES:
            row = {"kind": "main", "test": test, "source": source, "blind_correct": 3 if test.startswith("mt1") else 0}  # MT1: counted before the filter
            dropped = [{**row, "blind_correct": 2}] * 3 if test.startswith("mt2") else []
            rows += [row] * counts[source] + dropped + [{"kind": "grounding", "test": "gt_all", "source": source, "blind_correct": -1}]
    return rows[drop:]


def test_the_release_check_passes_on_table_2s_counts_and_names_the_count_a_missing_row_changes():
    counts = tempvs_to_hf.table2_counts(_table2_rows())
    assert tempvs_to_hf.differences(counts) == [] and "| mt1_two | 2104 (2104) | 864 (864) | 850 (850) | 3742 (3742) | 7560 (7560) |" in tempvs_to_hf.counts_table(counts)
    assert tempvs_to_hf.differences(tempvs_to_hf.table2_counts(_table2_rows(drop=1))) == ["mt1_two flintstones: 2103 read, Table 2 gives 2104"]


def test_the_isobench_release_check_passes_on_the_papers_counts_and_names_the_count_a_missing_row_changes(tmp_path):
    root = write_isobench(tmp_path / "d", "json", n=764)  # Table 2's and App. C's counts
    rows = isobench_to_hf.examples(isobench_to_hf.release_rows(root))
    assert isobench_to_hf.differences(isobench_to_hf.release_counts(rows)) == []
    assert "| crosstask, after | 67 | 67 |" in isobench_to_hf.counts_table(isobench_to_hf.release_counts(rows))
    missing = [row for row in rows if row["id"] != rows[0]["id"]]
    cell = f"{rows[0]['relation']}, {'DEP' if rows[0]['label'] == 'yes' else 'NONDEP'}"
    assert isobench_to_hf.differences(isobench_to_hf.release_counts(missing)) == [
        f"{cell}: {isobench_to_hf.PAPER_COUNTS[cell] - 1} read, the paper has {isobench_to_hf.PAPER_COUNTS[cell]}",
        f"{rows[0]['source']}, {rows[0]['relation']}: {isobench_to_hf.PAPER_COUNTS[rows[0]['source'] + ', ' + rows[0]['relation']] - 1} read, the paper has {isobench_to_hf.PAPER_COUNTS[rows[0]['source'] + ', ' + rows[0]['relation']]}",
    ]
