"""The functions of this package's CaT-Bench tasks: the upstream tasks (lmms_eval_tasks/catbench) on the data of
``CATBENCH_DATA_DIR`` or the hub release (lmms_eval_tasks/plugin/data_routes.py), and the variants this package adds
to the paper's headline prompting modes: few-shot (Table 6) and self-consistency (Table 7) prompting, the
natural-language answer-then-explain prompt (the paper's Gemini prompt) and another close/distant threshold. Each
YAML states its settings in its ``metadata``."""

import inspect
import re
from collections import Counter
from functools import partial

import datasets
from lmms_eval.api.filter import Filter

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.think_blocks import strip_think
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, NO, YES, first_yes_no
from temporal_bench.lmms_eval_tasks.catbench import utils as upstream
from temporal_bench.lmms_eval_tasks.catbench.parsing import parse_answer_only
from temporal_bench.lmms_eval_tasks.catbench.prompts import HEADER_MANY, context
from temporal_bench.lmms_eval_tasks.catbench.questions import CatBenchDataError
from temporal_bench.lmms_eval_tasks.plugin.catbench.fewshot import ExemplarRetriever
from temporal_bench.lmms_eval_tasks.plugin.catbench.release import pool_questions, split_rows
from temporal_bench.lmms_eval_tasks.plugin.data_routes import routed
from temporal_bench.lmms_eval_tasks.plugin.failed_requests import is_failed_response

_NL_ANSWER = re.compile(r"Answer\s*1\s*:[\s*]*(yes|no)\b", re.IGNORECASE)


def check_settings(switched: bool = False, close_max_distance: int = 3, fewshot_k: int = 5, pool_split: str = "train") -> None:
    """A setting of another kind or out of range is an error naming it (``switched: "no"`` would otherwise read as true)."""
    problems = []
    if not isinstance(switched, bool):
        problems.append(f"switched {switched!r}: true or false")
    if isinstance(close_max_distance, bool) or not isinstance(close_max_distance, int) or close_max_distance < 0:
        problems.append(f"close_max_distance {close_max_distance!r}: the largest step distance a pair counts as close, a whole number >= 0")
    if isinstance(fewshot_k, bool) or not isinstance(fewshot_k, int) or fewshot_k < 1:
        problems.append(f"fewshot_k {fewshot_k!r}: the number of exemplars, a whole number >= 1")
    if problems:
        raise CatBenchDataError("CaT-Bench task settings: " + "; ".join(problems))


def close_docs(dataset: datasets.Dataset, switched: bool = False, close_max_distance: int = 3) -> datasets.Dataset:
    """The upstream docs; ``close_max_distance``: the largest step distance the report's breakdowns count as close
    (its YAML's metadata records it for them; the paper's is 3)."""
    check_settings(switched, close_max_distance)
    return upstream.process_docs(dataset, switched)


def fewshot_docs(dataset: datasets.Dataset, switched: bool = False, close_max_distance: int = 3, fewshot_k: int = 5, pool_split: str = "train") -> datasets.Dataset:
    """The upstream docs, each with ``fewshot_prompt``: its (A) prompt after ``fewshot_k`` exemplars of ``pool_split``,
    another split than the one evaluated (paper §5.3)."""
    check_settings(switched, close_max_distance, fewshot_k, pool_split)
    split = str(dataset.split)
    if pool_split == split:
        raise CatBenchDataError(f"few-shot exemplars must not come from the evaluated split {pool_split!r}")
    retriever = ExemplarRetriever(pool_questions(pool_split))
    return datasets.Dataset.from_list([{**doc, "fewshot_prompt": retriever.prompt(doc, fewshot_k)} for doc in upstream.process_docs(dataset, switched)])


ROUTE_ERRORS = (CatBenchDataError,)
DOCS = {name: routed(docs, split_rows, ROUTE_ERRORS) for name, docs in (("close", close_docs), ("fewshot", fewshot_docs))}


def variant(**settings) -> partial:
    """The ``process_docs`` of a task with these settings (its YAML's metadata states them all): the upstream docs
    (with the report's close/distant threshold), or with few-shot settings this package's; a setting of another kind or
    out of range is an error when the YAML is loaded."""
    check_settings(**settings)
    kind = "fewshot" if {"fewshot_k", "pool_split"} & set(settings) else "close"
    inspect.signature(DOCS[kind]).bind(None, **settings)
    return partial(DOCS[kind], **settings)


process_docs_catbench = variant(switched=False, close_max_distance=3)
process_docs_catbench_switched = variant(switched=True, close_max_distance=3)
process_docs_catbench_close2 = variant(switched=False, close_max_distance=2)
process_docs_catbench_fewshot = variant(switched=False, close_max_distance=3, fewshot_k=5, pool_split="train")
process_docs_catbench_fewshot_switched = variant(switched=True, close_max_distance=3, fewshot_k=5, pool_split="train")


def doc_to_text_fewshot(doc: dict, lmms_eval_specific_kwargs=None) -> str:
    return doc["fewshot_prompt"]


def doc_to_text_explain_nl(doc: dict, lmms_eval_specific_kwargs=None) -> str:
    """(NL A+E) ``basic_binary_explain_nl``, the Gemini variant."""
    return f"{context(HEADER_MANY, doc)}1. {doc['question']}\n2. Explain why or why not.\n\nFormat your answer as follows:\n\nAnswer 1: yes/no\nAnswer 2: your answer in one sentence\n\n"


def parse_nl_answer(response: str) -> str:
    text = strip_think(response)
    match = _NL_ANSWER.search(text)
    return match.group(1).lower() if match else first_yes_no(text)


process_results_nl = upstream.process_results_with(parse_nl_answer)


def majority_vote(responses: list[str]) -> str:
    """Self-consistency (paper §5.3): the majority label of the parseable samples; unparseable samples are dropped,
    ties go to "no" (the paper does not say; with odd k ties need an invalid sample), no parseable sample gives the
    answer "invalid" (not an empty one, which reads as a request without response). A failed sample leaves no vote of k samples: its text is the answer, a failed request."""
    failed = [response for response in responses if is_failed_response(response)]
    if failed:
        return "" if failed[0] is None else failed[0]
    votes = Counter(label for label in map(parse_answer_only, responses) if label != INVALID)
    if not votes:
        return INVALID
    return YES if votes[YES] > votes[NO] else NO


class SelfConsistencyVote(Filter):
    """Self-consistency's majority vote over a doc's sampled answers."""

    def apply(self, resps, docs):
        return [majority_vote(list(samples)) for samples in resps]
