"""BM25-retrieved exemplars for few-shot (A) prompting (paper §5.3: k = 5, rank_bm25).

The paper leaves open what is indexed and how exemplars are shown; we index the whole (A)
prompt, lower-cased and split on whitespace, with ``BM25Okapi`` defaults, break ties by pool
order, never take an exemplar from the plan being asked about, and show each exemplar as its (A)
prompt followed by its gold answer (``Yes``/``No``), before the question's own prompt.
"""

from functools import lru_cache
from typing import Dict, List

import numpy as np

from temporal_bench.catbench import prompts
from temporal_bench.catbench.loading import load_split


def _tokens(text: str) -> List[str]:
    return text.lower().split()


class ExemplarRetriever:
    def __init__(self, pool: List[Dict]):
        if not pool:
            raise ValueError("few-shot pool is empty")
        self.pool = pool
        self.question_ids = {q["question_id"] for q in pool}
        from rank_bm25 import BM25Okapi  # here, so only the few-shot tasks need rank_bm25 installed

        self.index = BM25Okapi([_tokens(prompts.answer_only(q)) for q in pool])

    def exemplars(self, doc: Dict, k: int) -> List[Dict]:
        if doc["question_id"] in self.question_ids:
            raise ValueError(
                f"few-shot pool holds the evaluated question {doc['question_id']!r}: "
                "the pool must be another split than the one evaluated"
            )
        scores = self.index.get_scores(_tokens(prompts.answer_only(doc)))
        ranked = np.argsort(-scores, kind="stable")
        return [self.pool[i] for i in ranked if self.pool[i]["title"] != doc["title"]][:k]


@lru_cache(maxsize=4)
def retriever_for(pool_split: str) -> ExemplarRetriever:
    return ExemplarRetriever([q for q in load_split(pool_split) if q["variant"] == "real"])


def fewshot_prompt(doc: Dict, k: int, pool_split: str) -> str:
    shots = retriever_for(pool_split).exemplars(doc, k)
    rendered = "".join(f"{prompts.answer_only(shot)}{shot['answer'].capitalize()}\n\n" for shot in shots)
    return rendered + prompts.answer_only(doc)
