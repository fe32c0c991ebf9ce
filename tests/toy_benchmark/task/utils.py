"""Hooks of the toy task (lmms-eval loads this file by path): each doc's record is its metric value."""

from pathlib import Path

dataset_kwargs = {"data_files": {"test": str(Path(__file__).resolve().parent / "docs.jsonl")}}


def doc_to_visual(doc):
    return []


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return f"{doc['question']} Answer yes or no."


def process_results(doc, results):
    pred = results[0].strip().lower()
    return {"accuracy": {"id": doc["id"], "gold": doc["answer"], "pred": pred, "correct": pred == doc["answer"]}}


def accuracy(records):
    return sum(record["correct"] for record in records) / len(records)
