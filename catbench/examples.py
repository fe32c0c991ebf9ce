"""CaT-Bench Figures 5 and 6 (paper §5.4: good and bad A+E explanations) from the user's runs for
``browse --examples`` (temporal_bench/browse/examples.py): the real questions of the A+E tasks, per outcome class."""

from __future__ import annotations

import re
from collections.abc import Callable

from temporal_bench.browse.benchmarks import INVALID_ANSWER, RIGHT, WRONG, Join
from temporal_bench.browse.cards import Card, TaskCards
from temporal_bench.browse.examples import ExampleFigure
from temporal_bench.runs.logged import RunReadError

CATBENCH_AE_PREFIX = "catbench_explain"  # catbench_explain, catbench_explain_nl and their _switched variants
_STEP_MENTION = re.compile(r"\bsteps?\s+(\d+)", re.IGNORECASE)


def _asked_steps(record: dict) -> set[int]:
    """The two step numbers (1-based, as the prompt names them) of ``real|title|a|b|relation``."""
    _, a, b, _ = record["question_id"].rsplit("|", 3)
    return {int(a) + 1, int(b) + 1}


def names_other_step(card: Card) -> bool:
    """Whether the explanation names a step the question does not ask about."""
    mentioned = {int(number) for text in card.responses for number in _STEP_MENTION.findall(text)}
    return bool(mentioned - _asked_steps(card.record))


def _dependency(card: Card) -> str:
    return "Dep" if card.record["dependency"] == "dep" else "NonDep"


# (class, what it holds, whether a card belongs to it); a card may belong to two classes
CATBENCH_CLASSES: tuple[tuple[str, str, Callable[[Card], bool]], ...] = (
    ("good, Dep", "a Dep question answered right (Figure 5, upper box)", lambda card: card.status == RIGHT and _dependency(card) == "Dep"),
    ("good, NonDep", "a NonDep question answered right", lambda card: card.status == RIGHT and _dependency(card) == "NonDep"),
    (
        "bad, Dep",
        "a Dep question answered no (Figure 5, lower box, and Figure 6: multi-hop dependency, preconditions, effects); steps farthest apart first, as a multi-hop dependency needs a step between them",
        lambda card: card.status == WRONG and _dependency(card) == "Dep",
    ),
    ("bad, NonDep", "a NonDep question answered yes", lambda card: card.status == WRONG and _dependency(card) == "NonDep"),
    ("bad, names another step", "a wrong answer whose explanation names a step the question does not ask about (candidates for the irrelevant-answer type of Figure 6)", lambda card: card.status == WRONG and names_other_step(card)),
    ("invalid", "no yes/no answer could be parsed", lambda card: card.status == INVALID_ANSWER),
)


def _catbench_figures5_6(tasks: list[TaskCards], count: int) -> list[Card]:
    explained = [task for task in tasks if task.benchmark.name == "CaT-Bench" and task.task.startswith(CATBENCH_AE_PREFIX)]
    if not explained:
        found = sorted({task.task for task in tasks})
        raise RunReadError(f"catbench-figures5-6 needs an A+E run (tasks {CATBENCH_AE_PREFIX}*: the answer, then its explanation); found: {', '.join(found) or 'no task'}")
    cards = [card for task in explained for card in task.cards if card.record["variant"] == "real"]
    picked = []
    for name, meaning, belongs in CATBENCH_CLASSES:
        members = [card for card in cards if belongs(card)]
        if name == "bad, Dep":
            members.sort(key=lambda card: -card.record["distance"])
        for card in members[:count]:
            card.joins.insert(0, Join(f"CaT-Bench Figures 5-6, {name}: {meaning} ({len(members)} such)", None))
            picked.append(card)
    return picked


FIGURES5_6 = ExampleFigure("catbench-figures5-6", "CaT-Bench Figures 5-6 examples: A+E explanations by outcome", _catbench_figures5_6)
