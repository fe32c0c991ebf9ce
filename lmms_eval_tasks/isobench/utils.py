"""The functions the ISO-Bench task YAMLs name: the image, the prompts and parsers of the two prompt modes, and the
per-doc records of the metrics."""

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID
from temporal_bench.lmms_eval_tasks.isobench import prompts
from temporal_bench.lmms_eval_tasks.isobench.metrics import values_of
from temporal_bench.lmms_eval_tasks.isobench.parsing import PARSERS


def doc_to_visual(doc: dict) -> list:
    return [doc["image"].convert("RGB")]


def doc_to_target(doc: dict) -> str:
    return doc["answer"]


def doc_to_text_answer_only(doc: dict) -> str:
    return prompts.answer_only(doc)


def doc_to_text_explain_then_answer(doc: dict) -> str:
    return prompts.explain_then_answer(doc)


def process_results_answer_only(doc: dict, results: list[str]) -> dict:
    return values_of(doc, PARSERS["answer_only"](results[0]) if results else INVALID)


def process_results_explain_then_answer(doc: dict, results: list[str]) -> dict:
    return values_of(doc, PARSERS["explain_then_answer"](results[0]) if results else INVALID)
