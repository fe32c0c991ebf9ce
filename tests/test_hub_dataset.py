"""``temporal-bench build-dataset``: the converted hub datasets give the same docs and the same scores as the
releases they were built from, through lmms-eval and through ``datasets`` alone (issue 25 item 2)."""

from pathlib import Path

import datasets
import pytest

from temporal_bench.__main__ import main
from temporal_bench.isobench import hub_dataset as isobench_hub
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from tests.task_docs import isobench_records as load_records
from temporal_bench.tempvs import hooks
from temporal_bench.tempvs import hub_dataset as tempvs_hub
from temporal_bench.tempvs.docs import shown_images
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs
from temporal_bench.tempvs.loading import TempVSDataError, load_task_docs
from temporal_bench.tempvs.tasks import TASKS as TEMPVS_TASKS
from temporal_bench.converted_dataset import card_configs
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import fingerprint
from temporal_bench.synthetic_data import is_synthetic
from tests.harness import lmms_eval, read_samples

# a main task with its grounding questions and the text-only-LLM filter, an MT2 + MT3 ordering task, ISO-Bench answer-only
RUN_TASKS = ["tempvs_mt1_two", "tempvs_ordering_event", "isobench"]
TEMPVS_CONFIGS = ["mt1_two", "mt1_three", "mt2_event", "mt2_caption", "mt3_event", "mt3_caption", "ordering_event", "ordering_caption", "gt_paired", "gt_triple", "gt_all", "gt_all_story", "suite_grounding"]
IMAGE_FIELDS = ("image", "frames", "images", "image_path", "image_bytes", "data")  # how each route refers to an image, and the data fingerprint


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """{variable: (release folder, converted folder)}: the synthetic releases and what build-dataset made of them."""
    root = tmp_path_factory.mktemp("hub_dataset")
    releases = {"TEMPVS_DATA_DIR": ("tempvs", write_tempvs(root / "tempvs", n_sequences=2)), "ISOBENCH_DATA_DIR": ("isobench", write_isobench(root / "isobench", "json"))}
    folders = {}
    for variable, (benchmark, release) in releases.items():
        output = root / f"{benchmark}_hub"
        assert main(["build-dataset", benchmark, "--source", str(release), "--output-dir", str(output)]) == 0
        folders[variable] = (release, output)
    return folders


@pytest.fixture(scope="module")
def runs(built, tmp_path_factory):
    """One lmms-eval run per route (request_hash: each answer fixed by the prompt text and the image pixels)."""
    out = {}
    for route, index in (("release", 0), ("converted", 1)):
        folder = tmp_path_factory.mktemp(route)
        env = {variable: str(folders[index]) for variable, folders in built.items()}
        out[route] = (folder / "lmms_eval_out", lmms_eval(folder, RUN_TASKS, model="request_hash", model_args="", env=env))
    return out


def scored(sample):
    """A logged sample without what names the files read: the image paths sent and the data fingerprint in each record."""
    return {key: {k: v for k, v in value.items() if k != "data"} if isinstance(value, dict) else value for key, value in sample.items() if key != "input_media"}


def test_a_run_on_the_converted_datasets_scores_every_doc_as_on_the_releases(runs):
    (release_out, release), (converted_out, converted) = runs["release"], runs["converted"]
    for task in RUN_TASKS:
        assert [scored(s) for s in read_samples(converted_out, task)] == [scored(s) for s in read_samples(release_out, task)], task
    assert {task: len(read_samples(converted_out, task)) for task in RUN_TASKS} == {"tempvs_mt1_two": 57, "tempvs_ordering_event": 50, "isobench": 16}
    assert converted["results"] == release["results"]
    assert (release["results"]["tempvs_mt1_two"]["mt_acc,none"], release["results"]["tempvs_mt1_two"]["gt_acc,none"]) == (10 / 26, 7 / 31)
    assert release["results"]["isobench"]["coverage,none"] == 10 / 16


def test_a_run_on_a_converted_dataset_records_the_folder_and_the_parquet_files_it_read(built, runs):
    results = runs["converted"][1]
    for task, variable, config in (("tempvs_mt1_two", "TEMPVS_DATA_DIR", "mt1_two"), ("tempvs_ordering_event", "TEMPVS_DATA_DIR", "ordering_event"), ("isobench", "ISOBENCH_DATA_DIR", "default")):
        folder = built[variable][1]
        files = sorted((folder / card_configs(folder)[config][0]).parent.glob("*.parquet"))
        assert results["configs"][task]["metadata"]["data_source"] == {"variable": variable, "folder": str(folder), "fingerprint": fingerprint(files), "files": len(files)}


def test_every_tempvs_task_gets_the_same_docs_from_the_converted_dataset(built):
    release, converted = built["TEMPVS_DATA_DIR"]
    for task in TEMPVS_TASKS.values():
        expected, expected_report, _ = load_task_docs(task.settings, release)
        docs, report, source = load_task_docs(task.settings, converted)
        assert [{k: v for k, v in d.items() if k not in IMAGE_FIELDS} for d in docs] == [{k: v for k, v in d.items() if k not in IMAGE_FIELDS} for d in expected], task.name
        assert report.counts == expected_report.counts, task.name
        for doc, original in zip(docs, expected):
            assert [image["bytes"] for image in doc["images"]] == [Path(path).read_bytes() for path in shown_images(original)], doc["doc_key"]
        assert source.folder == converted
    shown = docs[-1]["images"][0]  # the browser opens a converted doc's image by its name
    assert hooks.open_image(docs[-1]["image"] or docs[-1]["frames"][0], docs[-1]).tobytes() == hooks.open_image(shown, docs[-1]).tobytes()


def test_load_dataset_reads_every_config_offline_and_docs_from_dataset_needs_nothing_else(built):
    release, converted = built["TEMPVS_DATA_DIR"]
    assert list(card_configs(converted)) == TEMPVS_CONFIGS
    card = (converted / "README.md").read_text(encoding="utf-8")
    assert f"- command: temporal-bench build-dataset tempvs --source {release} --output-dir {converted}" in card
    assert "license: other" in card and "Images therefore repeat" in card and is_synthetic(converted)
    rows = {config: datasets.load_dataset(str(converted), config, split="test") for config in TEMPVS_CONFIGS}
    assert {config: len(dataset) for config, dataset in rows.items()} == {
        "mt1_two": 96,
        "mt1_three": 72,
        "mt2_event": 49,
        "mt2_caption": 49,
        "mt3_event": 49,
        "mt3_caption": 49,
        "ordering_event": 57,
        "ordering_caption": 57,
        "gt_paired": 32,
        "gt_triple": 40,
        "gt_all": 41,
        "gt_all_story": 41,
        "suite_grounding": 154,
    }
    assert rows["mt1_two"].features["images"] == datasets.List(datasets.Image())
    settings = TEMPVS_TASKS["tempvs_mt1_two"].settings.metadata()
    assert tempvs_hub.config_name(settings) == "mt1_two"
    docs = tempvs_hub.docs_from_dataset(rows["mt1_two"], settings)
    expected, _, _ = load_task_docs(TEMPVS_TASKS["tempvs_mt1_two"].settings, release)
    assert [doc["doc_key"] for doc in docs] == [doc["doc_key"] for doc in expected]
    with pytest.raises(TempVSDataError, match=r"the dataset holds no flintstones/paired_event_discrimination rows .*config_name"):
        tempvs_hub.docs_from_dataset(rows["gt_triple"], settings)  # not the config this task reads
    iso_release, iso_converted = built["ISOBENCH_DATA_DIR"]
    assert isobench_hub.config_name({}) == "default" and list(card_configs(iso_converted)) == ["default", "data"]
    iso_docs = isobench_hub.docs_from_dataset(datasets.load_dataset(str(iso_converted), "default", split="test"), {})
    assert [{k: v for k, v in d.items() if k not in IMAGE_FIELDS} for d in iso_docs] == [{k: v for k, v in d.items() if k not in IMAGE_FIELDS} for d in load_records(iso_release)]


def test_a_config_saved_with_save_to_disk_is_what_lmms_eval_s_load_from_disk_route_reads(built, tmp_path):
    """lmms-eval's ``dataset_kwargs: {load_from_disk: true}`` calls ``datasets.load_from_disk(dataset_path)`` and
    runs process_docs on each split: save the config as a DatasetDict with its ``test`` split."""
    _, converted = built["TEMPVS_DATA_DIR"]
    datasets.load_dataset(str(converted), "ordering_event").save_to_disk(str(tmp_path / "ordering_event"))
    loaded = datasets.load_from_disk(str(tmp_path / "ordering_event"))
    assert list(loaded) == ["test"]
    settings = TEMPVS_TASKS["tempvs_ordering_event"].settings.metadata()
    docs = tempvs_hub.as_dataset(tempvs_hub.docs_from_dataset(loaded["test"], settings))
    expected = tempvs_hub.docs_from_dataset(datasets.load_dataset(str(converted), "ordering_event", split="test"), settings)
    assert docs.features["images"] == datasets.List(datasets.Image()) and len(docs) == len(expected) == 50
    assert [doc["prompt"] for doc in docs] == [doc["prompt"] for doc in expected]


def test_build_dataset_names_a_folder_that_holds_no_release(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit):
        main(["build-dataset", "tempvs", "--source", str(tmp_path / "empty"), "--output-dir", str(tmp_path / "out")])
    assert f"error: {tmp_path / 'empty'}: no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/); found []" in capsys.readouterr().err
