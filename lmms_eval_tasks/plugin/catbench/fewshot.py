"""BM25-retrieved exemplars for few-shot (A) prompting (paper §5.3: k = 5 exemplars retrieved with BM25).

The paper leaves open what is indexed and how exemplars are shown; here the whole (A) prompt is indexed,
lower-cased and split on whitespace, and scored as ``rank_bm25.BM25Okapi`` scores it with its defaults (the same
floats; a test compares the two), ties broken by pool order; an exemplar never comes from the plan asked about,
and each is shown as its (A) prompt followed by its gold answer (``Yes``/``No``) before the question's prompt.
"""

import math
from collections import Counter

import numpy as np

from temporal_bench.lmms_eval_tasks.catbench import prompts
from temporal_bench.lmms_eval_tasks.catbench.questions import CatBenchDataError

K1, B, EPSILON = 1.5, 0.75, 0.25  # BM25Okapi's defaults


def _tokens(text: str) -> list[str]:
    return text.lower().split()


class ExemplarRetriever:
    def __init__(self, pool: list[dict]):
        if not pool:
            raise CatBenchDataError("the few-shot pool is empty")
        self.pool = pool
        self.question_ids = {q["question_id"] for q in pool}
        self.doc_freqs = [Counter(_tokens(prompts.answer_only(q))) for q in pool]
        doc_len = np.array([sum(freqs.values()) for freqs in self.doc_freqs])
        self.norm = K1 * (1 - B + B * doc_len / (doc_len.sum() / len(pool)))
        holding = Counter(word for freqs in self.doc_freqs for word in freqs)  # word -> documents holding it
        self.idf = {word: math.log(len(pool) - n + 0.5) - math.log(n + 0.5) for word, n in holding.items()}
        floor = EPSILON * sum(self.idf.values()) / len(self.idf)  # a negative idf is raised to this floor
        self.idf = {word: idf if idf >= 0 else floor for word, idf in self.idf.items()}
        self._term_scores: dict[str, np.ndarray] = {}

    def _term_score(self, term: str) -> np.ndarray:
        """One query term's share of the document scores (each term's computed once per pool: every query repeats the
        prompt template's words)."""
        if term not in self._term_scores:
            q_freq = np.array([freqs.get(term, 0) for freqs in self.doc_freqs])
            self._term_scores[term] = self.idf.get(term, 0) * (q_freq * (K1 + 1) / (q_freq + self.norm))
        return self._term_scores[term]

    def scores(self, query: list[str]) -> np.ndarray:
        score = np.zeros(len(self.pool))
        for term in query:
            score += self._term_score(term)
        return score

    def exemplars(self, doc: dict, k: int) -> list[dict]:
        if doc["question_id"] in self.question_ids:
            raise CatBenchDataError(f"the few-shot pool holds the evaluated question {doc['question_id']!r}: the pool must be another split than the one evaluated")
        ranked = np.argsort(-self.scores(_tokens(prompts.answer_only(doc))), kind="stable")
        return [self.pool[i] for i in ranked if self.pool[i]["title"] != doc["title"]][:k]

    def prompt(self, doc: dict, k: int) -> str:
        shots = self.exemplars(doc, k)
        return "".join(f"{prompts.answer_only(shot)}{shot['answer'].capitalize()}\n\n" for shot in shots) + prompts.answer_only(doc)
