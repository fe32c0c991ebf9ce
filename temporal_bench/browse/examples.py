"""``temporal-bench browse --examples FIGURE``: the cards that make one of the papers' qualitative
figures, picked from the user's own runs (docs/browse.md, "The papers' qualitative figures").

* ``tempvs-figure4``, TempVS Figure 4 (paper §4, "Qualitative Case Analysis": one question of each
  main test answered by four models): per TempVS task, the main questions logged by at least two
  runs, those the runs answered differently first; each picked card links the same question in the
  other runs.
* ``catbench-figures5-6``, CaT-Bench Figures 5 and 6 (paper §5.4: good and bad A+E explanations,
  the bad ones by error type): the real questions of the A+E tasks, per outcome class. The paper's
  error types (multi-hop dependency, preconditions, effects, irrelevant answer) were assigned by
  hand; the classes here are what the records say, plus the wrong answers whose explanation names a
  step the question does not ask about (candidates for the irrelevant-answer type).

The page keeps the picked cards and the cards their joins link (a TempVS main question's grounding
questions, a CaT-Bench question's twins), and only their images; a link further out is dropped and
counted in its join's note. Every card's images are still read (as for the full page) before the pick.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from temporal_bench.browse.benchmarks import INVALID_ANSWER, RIGHT, WRONG, Join, Link
from temporal_bench.browse.cards import Card, TaskCards, keep_cards, keep_thumbnails
from temporal_bench.browse.thumbnails import Thumbnails
from temporal_bench.rescore.errors import RescoreError

DEFAULT_COUNT = 3
CATBENCH_AE_PREFIX = "catbench_explain"  # catbench_explain, catbench_explain_nl and their _switched variants
_STEP_MENTION = re.compile(r"\bsteps?\s+(\d+)", re.IGNORECASE)


def model_label(data: dict) -> str:
    """A run's model as its results file names it: ``name (model_args)``."""
    config = data.get("config") or {}
    model, args = config.get("model") or data.get("model_name") or "model", config.get("model_args")
    return f"{model} ({args})" if args else str(model)


# ---- TempVS Figure 4 ------------------------------------------------------------------------------

def _tempvs_figure4(tasks: list[TaskCards], count: int) -> list[Card]:
    groups: dict[tuple, list[tuple[TaskCards, Card]]] = defaultdict(list)  # one card per run, in run order
    for task in tasks:
        if task.benchmark.name == "TempVS":
            for card in task.cards:
                if card.record["kind"] == "main":
                    groups[task.task, card.filter, card.facts.question].append((task, card))  # the task's name, not its page label
    shared = [group for group in groups.values() if len(group) >= 2]
    if not shared:
        found = sorted({f"{task.task} ({model_label(task.run.data)})" for task in tasks if task.benchmark.name == "TempVS"})
        raise RescoreError("tempvs-figure4 needs the same TempVS task logged by at least two runs (one per model); "
                           f"found: {', '.join(found) or 'no TempVS task'}")
    by_task = defaultdict(list)
    for group in shared:
        by_task[group[0][0].task, group[0][1].filter].append(group)
    picked = []
    for task_groups in by_task.values():
        # most different answers first, then most runs; ties keep the first run's card order
        task_groups.sort(key=lambda group: (-len({card.record["pred"] for _, card in group}), -len(group)))
        for group in task_groups[:count]:
            answers = len({card.record["pred"] for _, card in group})
            title = f"TempVS Figure 4: the same question answered by {len(group)} runs ({answers} different answer(s))"
            for _, card in group:
                links = [Link(f"{model_label(other_task.run.data)}: {other.record['pred']}", other.id, other.status)
                         for other_task, other in group if other is not card]
                card.joins.insert(0, Join(title, None, links))
                picked.append(card)
    return picked


# ---- CaT-Bench Figures 5 and 6 --------------------------------------------------------------------

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
    ("good, Dep", "a Dep question answered right (Figure 5, upper box)",
     lambda card: card.status == RIGHT and _dependency(card) == "Dep"),
    ("good, NonDep", "a NonDep question answered right",
     lambda card: card.status == RIGHT and _dependency(card) == "NonDep"),
    ("bad, Dep", "a Dep question answered no (Figure 5, lower box, and Figure 6: multi-hop dependency, "
                 "preconditions, effects); steps farthest apart first, as a multi-hop dependency needs a step between them",
     lambda card: card.status == WRONG and _dependency(card) == "Dep"),
    ("bad, NonDep", "a NonDep question answered yes",
     lambda card: card.status == WRONG and _dependency(card) == "NonDep"),
    ("bad, names another step", "a wrong answer whose explanation names a step the question does not ask about "
                                "(candidates for the irrelevant-answer type of Figure 6)",
     lambda card: card.status == WRONG and names_other_step(card)),
    ("invalid", "no yes/no answer could be parsed", lambda card: card.status == INVALID_ANSWER),
)


def _catbench_figures5_6(tasks: list[TaskCards], count: int) -> list[Card]:
    explained = [task for task in tasks if task.benchmark.name == "CaT-Bench" and task.task.startswith(CATBENCH_AE_PREFIX)]
    if not explained:
        found = sorted({task.task for task in tasks})
        raise RescoreError(f"catbench-figures5-6 needs an A+E run (tasks {CATBENCH_AE_PREFIX}*: the answer, then its "
                           f"explanation); found: {', '.join(found) or 'no task'}")
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


# ---- the page's cards -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    title: str
    pick: Callable[[list[TaskCards], int], list[Card]]


FIGURES = {
    "tempvs-figure4": Figure("TempVS Figure 4 examples: the same questions across runs", _tempvs_figure4),
    "catbench-figures5-6": Figure("CaT-Bench Figures 5-6 examples: A+E explanations by outcome", _catbench_figures5_6),
}


def pick_examples(figure: str, tasks: list[TaskCards], thumbnails: Thumbnails, count: int = DEFAULT_COUNT) -> list[TaskCards]:
    """The tasks' cards for ``figure`` (a key of :data:`FIGURES`): the picked ones, each with a join
    saying why it was picked, and the cards they link; ``thumbnails`` keeps only their images."""
    if count < 1:
        raise ValueError(f"--examples-count must be at least 1, not {count}")
    picked = FIGURES[figure].pick(tasks, count)
    kept = {card.id for card in picked} | {link.card for card in picked for join in card.joins for link in join.links if link.card}
    tasks = keep_cards(tasks, kept)
    keep_thumbnails(tasks, thumbnails)
    return tasks
