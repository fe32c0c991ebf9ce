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
        self._doc_len = np.array(self.index.doc_len)
        self._term_score = lru_cache(maxsize=4096)(self._term_score_uncached)

    def _term_score_uncached(self, term: str) -> np.ndarray:
        """One query term's share of ``BM25Okapi.get_scores``, computed exactly as rank_bm25 does."""
        index = self.index
        q_freq = np.array([(doc.get(term) or 0) for doc in index.doc_freqs])
        return (index.idf.get(term) or 0) * (q_freq * (index.k1 + 1) /
                                             (q_freq + index.k1 * (1 - index.b + index.b * self._doc_len / index.avgdl)))

    def scores(self, query: List[str]) -> np.ndarray:
        """``self.index.get_scores(query)``: the same terms added in the same order, so the same floats,
        but each term's share computed once per pool. Every query repeats the prompt template's words,
        and rank_bm25 walks the whole pool for each word of each query (~12 ms a query)."""
        score = np.zeros(self.index.corpus_size)
        for term in query:
            score += self._term_score(term)
        return score

    def exemplars(self, doc: Dict, k: int) -> List[Dict]:
        if doc["question_id"] in self.question_ids:
            raise ValueError(
                f"few-shot pool holds the evaluated question {doc['question_id']!r}: "
                "the pool must be another split than the one evaluated"
            )
        scores = self.scores(_tokens(prompts.answer_only(doc)))
        ranked = np.argsort(-scores, kind="stable")
        return [self.pool[i] for i in ranked if self.pool[i]["title"] != doc["title"]][:k]


@lru_cache(maxsize=4)
def retriever_for(pool_split: str) -> ExemplarRetriever:
    return ExemplarRetriever([q for q in load_split(pool_split) if q["variant"] == "real"])


def fewshot_prompt(doc: Dict, k: int, pool_split: str) -> str:
    shots = retriever_for(pool_split).exemplars(doc, k)
    rendered = "".join(f"{prompts.answer_only(shot)}{shot['answer'].capitalize()}\n\n" for shot in shots)
    return rendered + prompts.answer_only(doc)
