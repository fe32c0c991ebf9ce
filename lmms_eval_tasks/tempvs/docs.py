"""The docs of a TempVS task: its questions, chosen from the question rows of the converted dataset (tempvs_to_hf.py).

A main test's docs are its main questions, less those the text-only-LLM filter drops, and the grounding questions its
metrics need, told apart by ``kind``; each main doc names its grounding partners (``partners``), and the metrics
join on those keys, never on doc order. Docs are ordered per source, per image sequence, grounding before main
questions, so that ``--limit`` keeps the partners of the main questions it keeps.
"""

import os
from collections import OrderedDict

import datasets

from temporal_bench.lmms_eval_tasks.tempvs.spec import (
    MAIN_TESTS,
    SOURCES,
    TempVSDataError,
)

BLIND_DROP_THRESHOLD = 2  # the text-only-LLM filter drops a main question that >= 2 of the 3 text-only LLMs answered correctly (paper §3.3)
IMAGE_CACHE = "tempvs"  # where lmms-eval unpacks the dataset's images.zip: $HF_HOME/tempvs (the YAML's dataset_kwargs)


def image_file(name: str) -> str:
    """The file of an image the rows name: an existing path as it is, else where lmms-eval unpacked the images."""
    from lmms_eval.tasks._task_utils.media_resolver import resolve_media_reference

    return resolve_media_reference(name, media_type="image", cache_dir=IMAGE_CACHE)


def by_sequence(main: list[dict], grounding: list[dict]) -> list[dict]:
    """Per image sequence (in the order the main questions show them, then those with grounding questions only), its
    grounding questions, then its main questions."""
    sequences: OrderedDict[str, dict[str, list]] = OrderedDict()
    for kind, rows in (("main", main), ("grounding", grounding)):
        for row in rows:
            sequences.setdefault(row["img_seq_id"], {"grounding": [], "main": []})[kind].append(row)
    return [doc for members in sequences.values() for doc in members["grounding"] + members["main"]]


def task_docs(rows: list[dict], test: str) -> list[dict]:
    """The docs of the main test ``test`` from the question rows."""
    docs = []
    for source in SOURCES:
        main = [row for row in rows if row["source"] == source and row["test"] == test and row["blind_correct"] < BLIND_DROP_THRESHOLD]
        docs += by_sequence(main, [row for row in rows if row["source"] == source and row["test"] == MAIN_TESTS[test].grounding_test])
    return docs


def with_image_files(docs: list[dict]) -> list[dict]:
    """The docs, each with its image's file; an error naming the image files that cannot be found, or a question that
    repeats."""
    files = {name: image_file(name) for name in dict.fromkeys(doc["image"] for doc in docs)}
    missing = [(name, next(doc["doc_key"] for doc in docs if doc["image"] == name)) for name, path in files.items() if not os.path.isfile(path)]
    if missing:
        raise TempVSDataError(f"{len(missing)} TempVS image file(s) missing, e.g. " + "; ".join(f"{name} (doc {key})" for name, key in missing[:5]))
    keys = [doc["doc_key"] for doc in docs]
    if len(set(keys)) != len(keys):
        raise TempVSDataError(f"duplicate TempVS question {next(k for k in keys if keys.count(k) > 1)} (question_id must be unique per source and file)")
    return [{**doc, "image": files[doc["image"]]} for doc in docs]


def process_docs(dataset: datasets.Dataset, test: str) -> datasets.Dataset:
    """The docs of the task asking the main test ``test``, each with its image's file."""
    rows = [row for row in dataset if row["test"] in (test, MAIN_TESTS[test].grounding_test)]
    return datasets.Dataset.from_list(with_image_files(task_docs(rows, test)))
