"""What a card shows of each benchmark, read from the per-doc record its metrics logged.

Each benchmark says which logged records are its own (the fields of its record), whether an answer
was right (invalid is the benchmark's record reader's, as for every command, and a failed request is none of
these: temporal_bench/browse/cards.py), the facts the page
filters on (source, relation, distance), which of the image files a question's logged sample names it shows and
how (in the order the model saw them), the joins its metrics make between
questions (TempVS: a main question and its grounding questions, GT_strict; CaT-Bench: the before
and after questions of a step pair, TC, and a NonDep question and its switched twin, OCC) and the
run's headline metrics. Each benchmark's rules are a :class:`BenchmarkCards` in its registry entry's
``cards`` (e.g. tempvs/cards.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

RIGHT, WRONG, INVALID_ANSWER = "right", "wrong", "invalid"
REQUEST_FAILED = "request_failed"  # the request failed or brought no response: the model gave no answer


@dataclass(frozen=True)
class Facts:
    question: str  # the question's id in the benchmark
    kind: str = ""
    source: str = ""
    relation: str = ""
    distance: str = ""


@dataclass(frozen=True)
class Link:
    """Another question a join pairs this one with: its card (empty when it was not logged)."""

    label: str
    card: str
    status: str


@dataclass
class Join:
    """One join the metrics make: its verdict (True passed, False failed, None not judged)."""

    title: str
    ok: bool | None
    links: list[Link] = field(default_factory=list)
    note: str = ""


class BenchmarkCards:
    name = ""  # the benchmark's title, as the page shows it
    record_fields: Sequence[str] = ()
    headline: Sequence[tuple[str, str, str]] = ()  # (metric, short name, what it measures)
    joins_legend = ""  # what the joins of its cards are, for the page's header ("" for a benchmark without joins)
    has_images = False

    def owns(self, record: Any) -> bool:
        return isinstance(record, dict) and {*self.record_fields, "gold", "pred"} <= record.keys()

    def right(self, record: dict) -> bool:
        """Whether an answer (neither a failed request nor invalid: temporal_bench/browse/cards.py) was right."""
        return record["pred"] == record["gold"]

    def facts(self, record: dict) -> Facts:
        raise NotImplementedError

    def order(self, record: dict) -> int:
        """Cards of a task are shown by this key (stable: then in logged order)."""
        return 0

    def shows_images(self, config: dict, record: dict) -> bool:
        """Whether a question (its ``record``; ``config``: its task's config as the run recorded it) showed the model
        images."""
        return self.has_images

    def images(self, sources: list[str], config: dict) -> list[tuple[str, str, str]]:
        """(source, thumbnail role, caption) of each image a question showed, from the image files (or ``data:``
        URIs) its logged sample names."""
        return []

    def served(self, record: dict) -> Join | None:
        """A join the record shows by itself (None: none)."""
        return None

    def join(self, cards: list) -> None:
        """Add the joins of the cards of one task (and filter): each card has ``record``, ``id``,
        ``status`` and a list ``joins``."""


def status_mark(status: str) -> str:
    return {RIGHT: "✓", WRONG: "✗", INVALID_ANSWER: "?", REQUEST_FAILED: "⚠"}.get(status, "–")
