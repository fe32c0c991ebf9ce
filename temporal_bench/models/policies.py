"""How the no-weights models choose an answer for one doc.

Every processed doc of the three benchmarks carries ``answer`` (the gold answer text) and
``choices`` (the answers the question offers), so these policies work for all tasks alike.
"""

import hashlib
import json
import random
from collections import Counter, defaultdict
from collections.abc import Sequence


def random_choice(doc: dict, task: str, doc_id: int, seed: int) -> str:
    """A uniform pick among the doc's own options, reproducible per (seed, task, doc)."""
    return random.Random(f"{seed}:{task}:{doc_id}").choice(list(doc["choices"]))


def request_choice(prompt: str, images: Sequence, choices: Sequence[str]) -> str:
    """A pick among ``choices`` and an unparseable reply, fixed by the prompt text and the images'
    pixels in their order: identical requests get identical answers, any other request most likely
    another (the test model of deduplicated requests, issue 28)."""
    digest = hashlib.sha256(prompt.encode())
    for image in images:
        digest.update(f"{image.size}{image.mode}".encode())
        digest.update(image.tobytes())
    options = [*choices, "I am not sure."]
    return options[int.from_bytes(digest.digest()[:8], "big") % len(options)]


def majority_answer(docs: Sequence[dict]) -> str:
    """The most frequent gold answer of a task; ties go to the option listed first."""
    counts = Counter(doc["answer"] for doc in docs)
    order = {choice: i for i, choice in enumerate(docs[0]["choices"])}
    return max(counts, key=lambda answer: (counts[answer], -order.get(answer, len(order))))


def wrong_answer(doc: dict) -> str:
    return next(choice for choice in doc["choices"] if choice != doc["answer"])


class ScriptedAnswers:
    """Answers by policy: ``oracle``, ``wrong``, ``constant`` (``response``) or ``script``.

    A script is a JSON object ``{"<task>/<doc_id>": response or [responses...]}``; a list is
    consumed one element per request for that doc, which scripts repeated sampling
    (self-consistency). ``template`` wraps the chosen answer, e.g. ``<answer>{answer}</answer>``
    (empty: the answer as it is).
    """

    def __init__(self, policy: str = "oracle", response: str = "", script: str = "", template: str = ""):
        if policy not in ("oracle", "wrong", "constant", "script"):
            raise ValueError(f"unknown scripted policy {policy!r}")
        # an argument that only another policy reads would be ignored (script=FILE alone: the gold answers)
        for name, value, reader in (("script", script, "script"), ("response", response, "constant")):
            if value and policy != reader:
                raise ValueError(f"--model scripted: {name}={value} is read only with policy={reader}, and this run's policy is {policy}: add policy={reader} to --model_args")
        self.policy = policy
        self.response = response
        self.template = template or "{answer}"
        self.script: dict[str, str | list[str]] = {}
        if policy == "script":
            with open(script, encoding="utf-8") as handle:
                self.script = json.load(handle)
        self._calls: dict[str, int] = defaultdict(int)

    def respond(self, doc: dict, task: str, doc_id: int) -> str:
        if self.policy == "oracle":
            return self.template.format(answer=doc["answer"])
        if self.policy == "wrong":
            return self.template.format(answer=wrong_answer(doc))
        if self.policy == "constant":
            return self.response
        key = f"{task}/{doc_id}"
        if key not in self.script:
            raise KeyError(f"script has no response for {key}")
        entry = self.script[key]
        if isinstance(entry, list):
            call = self._calls[key]
            self._calls[key] += 1
            return entry[call % len(entry)]
        return entry
