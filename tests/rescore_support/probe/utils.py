"""Hooks of the rescore probe tasks: each task's ``matching`` setting is a keyword of its ``process_docs``,
as in the benchmarks' task folders."""

from functools import partial

import datasets


def process_docs(dataset: datasets.Dataset, matching: str = "exact") -> datasets.Dataset:
    return datasets.Dataset.from_list([{**doc, "matching": matching} for doc in dataset])


process_docs_rescore_probe = partial(process_docs, matching="exact")
process_docs_rescore_probe_lenient = partial(process_docs, matching="lenient")


def doc_to_visual(doc):
    return []


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return lmms_eval_specific_kwargs["prefix"] + doc["question"]


def process_results(doc, results):
    response = results[0] if doc["matching"] == "exact" else results[0].lower()
    return {"accuracy": float(response == doc["answer"])}
