"""Hooks of the rescore probe tasks: each task's ``matching`` setting reaches its docs through
``temporal_bench.utils.task_options``, as in the benchmarks' task folders."""

from pathlib import Path

import datasets

from temporal_bench.utils.task_options import applied_settings, process_docs_per_task


def _process_docs(task: str):
    def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
        matching = applied_settings(task)[1]["matching"]
        return datasets.Dataset.from_list([{**doc, "matching": matching} for doc in dataset])

    return process_docs


globals().update(process_docs_per_task(Path(__file__).parent, _process_docs))


def doc_to_visual(doc):
    return []


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return lmms_eval_specific_kwargs["prefix"] + doc["question"]


def process_results(doc, results):
    response = results[0] if doc["matching"] == "exact" else results[0].lower()
    return {"accuracy": float(response == doc["answer"])}
