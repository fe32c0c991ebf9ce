"""``temporal-bench browse --examples FIGURE``: the cards that make one of the papers' qualitative
figures, picked from the user's own runs (docs/browse.md, "The papers' qualitative figures"). Each
benchmark lists its figures (an :class:`ExampleFigure`: which cards to pick, with a join saying why)
in its registry entry's ``examples`` (e.g. tempvs/examples.py).

The page keeps the picked cards and the cards their joins link (a TempVS main question's grounding
questions, a CaT-Bench question's twins), and only their images (the only ones read); a link further out is dropped
and counted in its join's note.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from temporal_bench import benchmarks
from temporal_bench.benchmarks import Collected, named
from temporal_bench.browse.cards import Card, TaskCards, keep_cards
from temporal_bench.runs.logged import LoggedRun

DEFAULT_COUNT = 3


@dataclass(frozen=True)
class ExampleFigure:
    name: str  # the --examples value
    title: str
    pick: Callable[[list[TaskCards], int], list[Card]]  # (the runs' tasks, how many per group) -> the picked cards


# every benchmark's qualitative figures by --examples name
FIGURES = Collected(lambda benchmark: named(benchmark.examples))


def figure_tasks(figure: str, runs: Sequence[LoggedRun]) -> list[str]:
    """The tasks of the runs that ``figure`` picks from: those of the benchmark that has it (no other
    benchmark's cards are built for it)."""
    owner = next(benchmark for benchmark in benchmarks.all_benchmarks() if figure in dict(named(benchmark.examples)))
    return list(dict.fromkeys(task for run in runs for task in run.tasks if benchmarks.of_task(task) is owner))


def pick_examples(figure: str, tasks: list[TaskCards], count: int = DEFAULT_COUNT) -> list[TaskCards]:
    """The tasks' cards for ``figure`` (a key of :data:`FIGURES`): the picked ones, each with a join
    saying why it was picked, and the cards they link."""
    if count < 1:
        raise ValueError(f"--examples-count must be at least 1, not {count}")
    picked = FIGURES[figure].pick(tasks, count)
    kept = {card.id for card in picked} | {link.card for card in picked for join in card.joins for link in join.links if link.card}
    return keep_cards(tasks, kept)
