"""The functions of the CaT-Bench variants this package adds to the paper's headline prompting modes
(lmms_eval_tasks/catbench): few-shot (Table 6) and self-consistency (Table 7) prompting, the natural-language
answer-then-explain prompt (the paper's Gemini prompt) and another close/distant threshold. Each YAML states its
settings in its ``metadata``."""

import re
from collections import Counter
from functools import partial
from typing import Dict, List

import datasets
from lmms_eval.api.filter import Filter

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.answer_tags import (
    strip_think,
)
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.fail_fast import (
    stops_run_on,
)
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.failed_requests import (
    is_failed_response,
)
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import (
    INVALID,
    NO,
    YES,
    first_yes_no,
)
from temporal_bench.lmms_eval_tasks.catbench.data import split_questions
from temporal_bench.lmms_eval_tasks.catbench.parsing import parse_answer_only
from temporal_bench.lmms_eval_tasks.catbench.prompts import HEADER_MANY, context
from temporal_bench.lmms_eval_tasks.catbench.questions import CatBenchDataError
from temporal_bench.lmms_eval_tasks.catbench.utils import (
    process_docs,
    process_results_with,
    variant,
)
from temporal_bench.lmms_eval_tasks.catbench_variants.fewshot import ExemplarRetriever

_NL_ANSWER = re.compile(r"Answer\s*1\s*:[\s*]*(yes|no)\b", re.IGNORECASE)


def with_fewshot(docs: List[Dict], split: str, k: int, pool_split: str) -> List[Dict]:
    """Each doc with ``fewshot_prompt``: its (A) prompt after ``k`` exemplars of ``pool_split``, another split than ``split``."""
    if pool_split == split:
        raise CatBenchDataError(f"few-shot exemplars must not come from the evaluated split {pool_split!r}")
    retriever = ExemplarRetriever([q for q in split_questions(pool_split, pool=True)[0] if q["variant"] == "real"])
    return [{**doc, "fewshot_prompt": retriever.prompt(doc, int(k))} for doc in docs]


@stops_run_on((CatBenchDataError,))
def process_docs_fewshot(dataset: datasets.Dataset, task: str, close_max_distance: int = 3, switched: bool = False, fewshot_k: int = 5, pool_split: str = "train") -> datasets.Dataset:
    """The docs of ``process_docs``, each with its few-shot prompt."""
    docs = with_fewshot(list(process_docs(dataset, task, close_max_distance, switched)), str(dataset.split) if dataset is not None else "test", fewshot_k, pool_split)
    return datasets.Dataset.from_list(docs)


def doc_to_text_fewshot(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return doc["fewshot_prompt"]


def doc_to_text_explain_nl(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    """(NL A+E) ``basic_binary_explain_nl``, the Gemini variant."""
    return f"{context(HEADER_MANY, doc)}1. {doc['question']}\n2. Explain why or why not.\n\nFormat your answer as follows:\n\nAnswer 1: yes/no\nAnswer 2: your answer in one sentence\n\n"


def parse_nl_answer(response: str) -> str:
    text = strip_think(response)
    match = _NL_ANSWER.search(text)
    return match.group(1).lower() if match else first_yes_no(text)


process_results_nl = process_results_with(parse_nl_answer)


def majority_vote(responses: List[str]) -> str:
    """Self-consistency (paper §5.3): the majority label of the parseable samples; unparseable samples are dropped,
    ties go to "no" (the paper does not say; with odd k ties need an invalid sample), no parseable sample gives an
    empty answer (invalid). A failed sample leaves no vote of k samples: its text is the answer, a failed request."""
    failed = [response for response in responses if is_failed_response(response)]
    if failed:
        return "" if failed[0] is None else failed[0]
    votes = Counter(label for label in map(parse_answer_only, responses) if label != INVALID)
    if not votes:
        return ""
    return YES if votes[YES] > votes[NO] else NO


class SelfConsistencyVote(Filter):
    """Self-consistency's majority vote over a doc's sampled answers."""

    def apply(self, resps, docs):
        return [majority_vote(list(samples)) for samples in resps]


process_docs_catbench_close2 = variant("catbench_close2", close_max_distance=2)
process_docs_catbench_explain_nl = variant("catbench_explain_nl")
process_docs_catbench_explain_nl_switched = variant("catbench_explain_nl_switched", switched=True)
process_docs_catbench_fewshot = partial(process_docs_fewshot, task="catbench_fewshot")
process_docs_catbench_fewshot_switched = partial(process_docs_fewshot, task="catbench_fewshot_switched", switched=True)
process_docs_catbench_sc = variant("catbench_sc")
process_docs_catbench_sc_switched = variant("catbench_sc_switched", switched=True)
process_docs_catbench_sc_t08 = variant("catbench_sc_t08")
process_docs_catbench_sc_t08_switched = variant("catbench_sc_t08_switched", switched=True)
process_docs_catbench_sc_k5 = variant("catbench_sc_k5")
process_docs_catbench_sc_k5_switched = variant("catbench_sc_k5_switched", switched=True)
process_docs_catbench_sc_k5_t08 = variant("catbench_sc_k5_t08")
process_docs_catbench_sc_k5_t08_switched = variant("catbench_sc_k5_t08_switched", switched=True)
