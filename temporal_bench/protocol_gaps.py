"""What a harness model class sends differently from a benchmark's official inference of some published models, where
the task cannot make up for it (a benchmark's registry entry ``protocol_gaps``; TempVS's: tempvs/protocol_gaps.py).
Named for a run whatever its scores: by ``temporal-bench check``, beside the report's rows and in ``compare``'s notes;
a published cell of such a model that the run does not reproduce says "≠ gap" (temporal_bench/report/verdicts.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatch


@dataclass(frozen=True)
class ProtocolGap:
    rows: tuple[str, ...]  # the published model names it touches (fnmatch patterns, case-insensitive)
    applies_to: Callable[[str], bool]  # whether a harness model class (``config.model``) has the gap
    text: str  # what differs, with the official code's file

    def applies(self, model: str, model_classes: Sequence[str]) -> bool:
        """Whether a run of ``model`` (a published row's name, or a run's label: its last path part is matched) through
        one of ``model_classes`` has the gap."""
        name = model.rsplit("/", 1)[-1].lower()
        return any(fnmatch(name, pattern.lower()) for pattern in self.rows) and any(self.applies_to(c) for c in model_classes)


def run_gaps(benchmark: str, model: str, model_classes: Sequence[str]) -> list[str]:
    """The known protocol gaps of a run of ``model`` through ``model_classes`` on ``benchmark``'s tasks."""
    from temporal_bench import benchmarks

    return [gap.text for gap in benchmarks.get(benchmark).protocol_gaps if gap.applies(model, model_classes)]


def task_gaps(tasks: Sequence[str], model: str, model_classes: Sequence[str]) -> list[str]:
    """``Benchmark: gap`` for each known protocol gap of a run of ``model`` through ``model_classes`` on ``tasks``."""
    from temporal_bench import benchmarks

    named = dict.fromkeys(b.name for b in map(benchmarks.of_task, tasks) if b is not None)
    return [f"{benchmarks.get(name).title}: {text}" for name in named for text in run_gaps(name, model, model_classes)]
