"""TempVS Figure 4 (paper §4, "Qualitative Case Analysis") from the user's runs for ``browse --examples``
(temporal_bench/browse/examples.py): one question of each main test answered by several models."""

from __future__ import annotations

from collections import defaultdict

from temporal_bench.browse.benchmarks import Join, Link
from temporal_bench.browse.cards import Card, TaskCards
from temporal_bench.browse.examples import ExampleFigure
from temporal_bench.runs.logged import RunReadError


def _tempvs_figure4(tasks: list[TaskCards], count: int) -> list[Card]:
    groups: dict[tuple, list[tuple[TaskCards, Card]]] = defaultdict(list)  # one card per run, in run order
    for task in tasks:
        if task.benchmark.name == "TempVS":
            for card in task.cards:
                if card.record["kind"] == "main" and not card.failed:  # a failed request is no model's answer
                    groups[task.task, card.filter, card.facts.question].append((task, card))  # the task's name, not its page label
    shared = [group for group in groups.values() if len(group) >= 2]
    if not shared:
        found = sorted({f"{task.task} ({task.values.label})" for task in tasks if task.benchmark.name == "TempVS"})
        raise RunReadError(f"tempvs-figure4 needs the same TempVS task logged by at least two runs (one per model); found: {', '.join(found) or 'no TempVS task'}")
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
                links = [Link(f"{other_task.values.label}: {other.record['pred']}", other.id, other.status) for other_task, other in group if other is not card]
                card.joins.insert(0, Join(title, None, links))
                picked.append(card)
    return picked


FIGURE4 = ExampleFigure("tempvs-figure4", "TempVS Figure 4 examples: the same questions across runs", _tempvs_figure4)
