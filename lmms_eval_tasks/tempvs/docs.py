"""The docs of a TempVS task: its questions, chosen from the question rows of the converted dataset (tempvs_to_hf.py).

A main test's docs are its main questions, less those the text-only-LLM filter drops, and the grounding questions its
metrics need, told apart by ``kind``; each main doc names its grounding partners (``partners``), and the metrics
join on those keys, never on doc order. Docs are ordered per source, per image sequence, grounding before main
questions, so that ``--limit`` keeps the partners of the main questions it keeps. The task ``tempvs`` asks each
distinct grounding question once for all six main tests (``serves``: the questions it answers).
"""

import os
from collections import OrderedDict
from typing import Dict, List, Sequence, Tuple

import datasets

from temporal_bench.lmms_eval_tasks.tempvs.spec import (
    GROUNDING_TESTS,
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


def _distinct(grounding: List[Dict]) -> List[Dict]:
    """One doc per distinct grounding request (prompt text and image) of a source: the paired, triple and all-events
    files ask many of the same questions. Each lists in ``serves`` the questions it answers, as ``[test, question_id,
    gt_option, img_seq_id]``."""
    asked: Dict[Tuple, Dict] = {}
    for row in grounding:
        asked.setdefault((row["prompt"], row["image"]), {**row, "serves": []})["serves"].append([row["test"], row["question_id"], row["gt_option"], row["img_seq_id"]])
    return list(asked.values())


def task_docs(rows: List[Dict], tests: Sequence[str], suite: bool) -> List[Dict]:
    """The docs of a task holding ``tests`` (main tests, or one grounding test) from the question rows."""
    if tests[0] in GROUNDING_TESTS:
        return [row for row in rows if row["test"] == tests[0]]
    grounding_tests = list(dict.fromkeys(MAIN_TESTS[test].grounding_test for test in tests))
    docs = []
    for source in SOURCES:
        sequences: "OrderedDict[str, Dict[str, List]]" = OrderedDict()
        for test in tests:
            for row in (r for r in rows if r["source"] == source and r["test"] == test and r["blind_correct"] < BLIND_DROP_THRESHOLD):
                sequences.setdefault(row["img_seq_id"], {"grounding": [], "main": []})["main"].append(row)
        grounding = [r for test in grounding_tests for r in rows if r["source"] == source and r["test"] == test]
        for row in _distinct(grounding) if suite else grounding:
            sequences.setdefault(row["img_seq_id"], {"grounding": [], "main": []})["grounding"].append(row)
        for members in sequences.values():
            docs += members["grounding"] + members["main"]
    return docs


def process_docs(dataset: datasets.Dataset, tests: Sequence[str], suite: bool = False) -> datasets.Dataset:
    """The docs of the task holding ``tests`` (its YAML's metadata states them), each with its image's file and the
    task's tests; an error naming the image files that cannot be found."""
    needed = {t for test in tests for t in ((test, MAIN_TESTS[test].grounding_test) if test in MAIN_TESTS else (test,))}
    docs = task_docs([row for row in dataset if row["test"] in needed], tests, suite)
    files = {name: image_file(name) for name in dict.fromkeys(doc["image"] for doc in docs)}
    missing = [(name, next(doc["doc_key"] for doc in docs if doc["image"] == name)) for name, path in files.items() if not os.path.isfile(path)]
    if missing:
        raise TempVSDataError(f"{len(missing)} TempVS image file(s) missing, e.g. " + "; ".join(f"{name} (doc {key})" for name, key in missing[:5]))
    keys = [doc["doc_key"] for doc in docs]
    if len(set(keys)) != len(keys):
        raise TempVSDataError(f"duplicate TempVS question {next(k for k in keys if keys.count(k) > 1)} (question_id must be unique per source and file)")
    return datasets.Dataset.from_list([{**doc, "image": files[doc["image"]], "tests": list(tests), "suite": suite} for doc in docs])
