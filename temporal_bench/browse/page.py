"""The browse page: one static HTML file (its CSS, script, cards and thumbnails inside it).

The template ``page.html`` (jinja2, every value escaped) writes the header (the runs, each task's counts and headline
metrics, the notices) and the filter bar. The cards are data (``<script type="application/json" id="browse-data">``):
every repeated text (prompt lines, captions, answers) and every thumbnail is stored once and referred to by index,
so a full TempVS run (some 40,000 questions over 4,170 strips) stays small; the page's plain script (``page.js``)
draws the cards that match the filters, a page at a time, and keeps the filters in the URL hash
(``#status=wrong&task=...``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2

from temporal_bench.browse.benchmarks import INVALID_ANSWER, REQUEST_FAILED, RIGHT, WRONG, Join, status_mark
from temporal_bench.browse.cards import Card, TaskCards, answer_notes, run_notes
from temporal_bench.browse.thumbnails import MIME, Thumb, Thumbnails

TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent), autoescape=True, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
TEMPLATES.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "separators": (",", ":")}  # tojson: compact, "<" and "&" escaped
STATUSES = {status: (status_mark(status), status.replace("_", " ")) for status in (RIGHT, WRONG, INVALID_ANSWER, REQUEST_FAILED)}
NO_ANSWER = "none: the request failed or brought no response"  # what a failed request's card shows as its parsed answer
FILTERS = (("task", "Task"), ("source", "Source"), ("relation", "Relation"), ("distance", "Distance"))
# a card's fields as the page's data names them (short: a full TempVS run has some 40,000 cards);
# the map travels with the data, so page.js and readers of the page look each field up by its name
KEYS = {"id": "i", "status": "s", "task": "t", "source": "o", "relation": "r", "distance": "d", "facts": "f", "question": "q", "gold": "g", "parsed": "a", "response": "x", "scored": "y", "prompt": "p", "images": "m", "joins": "j"}


def _metrics(task: TaskCards) -> list[tuple[str, list[tuple[str, str, float | None]]]]:
    """The task's headline metrics as the report reads them from its file (its results, and the breakdowns computed
    from its samples): ``(test, [(short name, meaning, value)])``, each test of a task holding several (a ``--tasks
    tempvs`` suite task) under its name."""
    tests = task.values.shown
    named = len(tests) > 1 or task.task not in tests
    groups = []
    for test, source in tests.items():
        recorded = {key.partition(",")[0] for key in source.values}
        shown = [(short, meaning, task.values.metric(test, metric)) for metric, short, meaning in task.benchmark.headline if metric in recorded]
        if shown:
            groups.append((test if named else "", shown))
    return groups


def _options(cards: list[Card], attribute: str) -> list[tuple[str, str, int]]:
    """A filter's options: ``(value, text, cards)``, numbers in numeric order, then ``(none)``."""
    counts = Counter(_card_values(card)[attribute] for card in cards)
    order = sorted((v for v in counts if v), key=lambda v: (0, int(v), "") if v.isdigit() else (1, 0, v))
    return [(v, v, counts[v]) for v in order] + ([("-", "(none)", counts[""])] if counts.get("") else [])


def _card_values(card: Card) -> dict[str, str]:
    return {"task": card.task, "source": card.facts.source, "relation": card.facts.relation, "distance": card.facts.distance, "status": card.status}


class _Strings(dict):
    """Every repeated text of the cards once (prompt lines, captions, answers), referred to by its index: its place in
    the dict's insertion order."""

    def __call__(self, text) -> int:
        return self.setdefault(str(text), len(self))


def _thumb_data(thumb: Thumb, s: _Strings) -> list:
    if thumb.missing:
        return [None, s(thumb.missing), s(thumb.reason), s(thumb.caption)]
    return [thumb.id, thumb.width, thumb.height, s(thumb.caption)]


def _join_data(join: Join, s: _Strings) -> list:
    links = [[s(link.label), link.card, link.status] for link in join.links]
    return [s(join.title), {True: 1, False: 0, None: None}[join.ok], links, s(join.note)]


def _card_data(card: Card, s: _Strings) -> dict:
    facts = [card.facts.source, card.facts.kind]
    if card.facts.relation:
        facts.append(f"relation {card.facts.relation}")
    if card.facts.distance:
        facts.append(f"distance {card.facts.distance}")
    if card.filter != "none":
        facts.append(f"filter {card.filter}")
    parsed = {INVALID_ANSWER: f'none ("{card.record["pred"]}")', REQUEST_FAILED: NO_ANSWER}.get(card.status, card.record["pred"])
    data: dict[str, Any] = {key: s(value) for key, value in _card_values(card).items() if key != "status"}
    data.update(
        id=card.id,
        status=card.status,
        facts=s(" · ".join(f for f in facts if f)),
        question=card.facts.question,
        gold=s(card.record["gold"]),
        parsed=s(parsed),
        response=[s(text) for text in card.responses],
        prompt=[s(line) for line in card.prompt.split("\n")],
    )
    if card.scored != card.responses:
        data["scored"] = [s(text) for text in card.scored]
    if card.images:
        data["images"] = [_thumb_data(thumb, s) for thumb in card.images]
    if card.joins:
        data["joins"] = [_join_data(join, s) for join in card.joins]
    return {KEYS[key]: value for key, value in data.items()}


def render_page(title: str, tasks: list[TaskCards], thumbnails: Thumbnails, superseded: Sequence[str] = ()) -> str:
    """The page of ``tasks``' cards; ``superseded``: what it leaves out as superseded (:func:`temporal_bench.browse.cards.superseded_notes`)."""
    cards = [card for task in tasks for card in task.cards]
    strings = _Strings()
    data = {"keys": KEYS, "cards": [_card_data(card, strings) for card in cards], "thumbs": thumbnails.data, "mime": MIME}
    rows: list[dict[str, Any]] = [{"label": task.label, "benchmark": task.benchmark.name, "counts": Counter(card.status for card in task.cards), "metrics": _metrics(task)} for task in tasks]
    return TEMPLATES.get_template("page.html").render(
        title=title,
        cards=len(cards),
        counts=Counter(card.status for card in cards),
        statuses=STATUSES,
        joins=list(dict.fromkeys(f"{task.benchmark.name}: {task.benchmark.joins_legend}" for task in tasks if task.benchmark.joins_legend)),
        files=list(dict.fromkeys((task.run.results_path, task.run.harness.name) for task in tasks)),
        superseded=superseded,
        run_notes=run_notes(tasks),
        answer_notes=answer_notes(tasks),
        missing=thumbnails.missing,
        rows=rows,
        legend=list(dict.fromkeys((row["benchmark"], short, meaning) for row in rows for _, metrics in row["metrics"] for short, meaning, _ in metrics)),
        filters=[(name, label, _options(cards, name)) for name, label in FILTERS],
        data={**data, "strings": list(strings)},
    )
