"""The browse page: one static HTML file (its CSS, script, cards and thumbnails inside it).

The header (the run, its headline metrics, the counts) and the filter bar are HTML written here.
The cards are data (``<script type="application/json" id="browse-data">``): every repeated text
(prompt lines, captions, answers) and every thumbnail is stored once and referred to by index, so a
full TempVS run (some 75,000 questions over 2,085 image sequences) stays small; the page's plain
script (``page.js``) draws the cards that match the filters, a page at a time, and keeps the
filters in the URL hash (``#status=wrong&task=...``).
"""

from __future__ import annotations

import json
from collections import Counter
from html import escape
from pathlib import Path

from temporal_bench.browse.benchmarks import INVALID_ANSWER, REQUEST_FAILED, RIGHT, WRONG, Join
from temporal_bench.browse.cards import Card, TaskCards, answer_notes, run_notes
from temporal_bench.browse.thumbnails import MIME, Thumb, Thumbnails
from temporal_bench.runs.results import Run, merge_runs, per_test_results

HERE = Path(__file__).resolve().parent
STATUS_LABELS = {RIGHT: "✓ right", WRONG: "✗ wrong", INVALID_ANSWER: "? invalid", REQUEST_FAILED: "⚠ request failed"}
NO_ANSWER = "none: the request failed or brought no response"  # what a failed request's card shows as its parsed answer
FILTERS = (("task", "Task"), ("source", "Source"), ("relation", "Relation"), ("distance", "Distance"))
# a card's fields as the page's data names them (short: a full TempVS run has some 75,000 cards);
# the map travels with the data, so page.js and readers of the page look each field up by its name
KEYS = {"id": "i", "status": "s", "task": "t", "source": "o", "relation": "r", "distance": "d", "facts": "f", "question": "q", "gold": "g", "parsed": "a", "response": "x", "scored": "y", "prompt": "p", "images": "m", "joins": "j"}


def _e(value) -> str:
    return escape(str(value), quote=True)


def _percent(value: float | None) -> str:
    return "undefined" if value is None else f"{100 * value:.1f}%"


def _status_counts(cards: list[Card]) -> Counter:
    return Counter(card.status for card in cards)


# ---- the header: what the page is, the run, its headline metrics ---------------------------------


def _metric_cells(task: TaskCards, run: Run, explained: dict) -> str:
    """The task's headline metrics from the results file; for a task holding several tests (a ``--tasks tempvs``
    suite task) each test's, under its name, as the report reads them."""
    tests = list(per_test_results(task.task, task.run.data["results"].get(task.task) or {}))
    cells = []
    for test in tests:
        recorded = {key.partition(",")[0] for key in run.results.get(test, {})}
        shown = [(metric, short, meaning) for metric, short, meaning in task.benchmark.headline if metric in recorded]
        if shown and tests != [task.task]:
            cells.append(f'<span class="metric-test">{_e(test)}:</span>')
        for metric, short, meaning in shown:
            explained[task.benchmark.name, short] = meaning
            cells.append(f'<span class="metric" title="{_e(meaning)}">{_e(short)} <b>{_percent(run.metric(test, metric))}</b></span>')
    return " ".join(cells)


def _metrics_table(tasks: list[TaskCards]) -> str:
    rows, explained = [], {}
    runs = {logged.results_path: merge_runs([logged])[0] for logged in {id(task.run): task.run for task in tasks}.values()}  # each file's values as the report reads them
    for task in tasks:
        counts = _status_counts(task.cards)
        rows.append(
            f"<tr><td><b>{_e(task.label)}</b><br><small>{_e(task.benchmark.name)}</small></td>"
            f"<td>{len(task.cards)}</td><td class='n-right'>{counts[RIGHT]}</td><td class='n-wrong'>{counts[WRONG]}</td>"
            f"<td class='n-invalid'>{counts[INVALID_ANSWER]}</td><td class='n-request_failed'>{counts[REQUEST_FAILED]}</td>"
            f"<td>{_metric_cells(task, runs[task.run.results_path], explained)}</td></tr>"
        )
    legend = "".join(f"<li>{_e(benchmark)} <b>{_e(short)}</b>: {_e(meaning)}</li>" for (benchmark, short), meaning in explained.items())
    legend += "<li><b>undefined</b>: no question to compute the metric over (e.g. MT | GT_strict without GT_strict passes)</li>"
    return (
        "<table class='metrics'><thead><tr><th>task</th><th>cards</th><th>right</th><th>wrong</th><th>invalid</th><th>request failed</th>"
        "<th>headline metrics (the results file's, and those computed from its samples)</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
        f"<details class='legend'><summary>What the metrics mean</summary><ul>{legend}</ul></details>"
    )


def _missing_notice(thumbnails: Thumbnails) -> str:
    if not thumbnails.missing:
        return ""
    items = "".join(f"<li><code>{_e(name)}</code>: {_e(reason)}</li>" for name, reason in thumbnails.missing.items())
    return (
        f"<div class='warn' id='missing-images'><b>{len(thumbnails.missing)} image(s) could not be found</b>; "
        f"their cards show a grey placeholder naming them.<details><summary>Which, and why</summary>"
        f"<ul>{items}</ul></details></div>"
    )


def _notice(element_id: str, title: str, notes: list[str]) -> str:
    if not notes:
        return ""
    items = "".join(f"<li>{_e(note)}</li>" for note in notes)
    return f"<div class='warn' id='{element_id}'><b>{_e(title)}</b><ul>{items}</ul></div>"


def _joins_sentence(tasks: list[TaskCards]) -> str:
    """What the cards' joins are, for the benchmarks on the page that join questions."""
    joins = dict.fromkeys(f"{task.benchmark.name}: {task.benchmark.joins_legend}" for task in tasks if task.benchmark.joins_legend)
    return f"Cards also show the questions the metrics join them with ({_e('; '.join(joins))}). " if joins else ""


def _header(title: str, tasks: list[TaskCards], thumbnails: Thumbnails) -> str:
    cards = [card for task in tasks for card in task.cards]
    runs = {task.run.results_path: task.run for task in tasks}.values()
    sources = "".join(f"<li><code>{_e(run.results_path)}</code> ({_e(run.harness.name)})</li>" for run in runs)
    return f"""<header class="page-head">
<h1>{_e(title)}</h1>
<p class="lead">Each card below is one question the model was asked ({len(cards)} cards from {len(tasks)} task(s)):
the images it was shown, in the order it saw them; the prompt; its raw response; the answer parsed from that
response next to the gold answer; and the verdict:
<span class="badge s-right">{STATUS_LABELS[RIGHT]}</span> <span class="badge s-wrong">{STATUS_LABELS[WRONG]}</span>
<span class="badge s-invalid">{STATUS_LABELS[INVALID_ANSWER]}</span> (no answer could be parsed), or
<span class="badge s-request_failed">{STATUS_LABELS[REQUEST_FAILED]}</span> (the request failed or brought no response: no answer of the model's).
{_joins_sentence(tasks)}Use the filters to look at the failures.</p>
<details class="run"><summary>Run</summary><ul>{sources}</ul></details>
{_notice("run-notes", "Partial runs, a task in several results files, or a task shown in part", run_notes(tasks))}
{_notice("answer-notes", "Failed requests, or questions that may have shown more images than the run logged", answer_notes(tasks))}
<p id="missing-count" data-missing="{len(thumbnails.missing)}">Images not found: <b>{len(thumbnails.missing)}</b></p>
{_missing_notice(thumbnails)}
{_metrics_table(tasks)}
</header>"""


# ---- the filter bar -------------------------------------------------------------------------------


def _options(cards: list[Card], attribute: str) -> str:
    counts = Counter(_card_values(card)[attribute] for card in cards)
    order = sorted((v for v in counts if v), key=lambda v: (0, int(v), "") if v.isdigit() else (1, 0, v))
    options = [f'<option value="{_e(v)}">{_e(v)} ({counts[v]})</option>' for v in order]
    if counts.get(""):
        options.append(f'<option value="-">(none) ({counts[""]})</option>')
    return "".join(options)


def _filter_bar(tasks: list[TaskCards]) -> str:
    cards = [card for task in tasks for card in task.cards]
    counts = _status_counts(cards)
    status = (
        f'<label>Show <select id="f-status" data-filter="status"><option value="">all answers ({len(cards)})</option>'
        f'<option value="failed">not right ({len(cards) - counts[RIGHT]})</option>'
        f'<option value="wrong">wrong only ({counts[WRONG]})</option>'
        f'<option value="invalid">invalid only ({counts[INVALID_ANSWER]})</option>'
        f'<option value="{REQUEST_FAILED}">request failed only ({counts[REQUEST_FAILED]})</option>'
        f'<option value="right">right only ({counts[RIGHT]})</option></select></label>'
    )
    selects = "".join(f'<label>{label} <select id="f-{name}" data-filter="{name}"><option value="">all</option>' f"{_options(cards, name)}</select></label>" for name, label in FILTERS)
    return (
        f'<nav class="filters">{status}{selects}<label>Text <input id="f-q" data-filter="q" type="search" '
        f'placeholder="in prompt or response"></label><button id="f-reset" type="button">clear filters</button>'
        f'<span id="shown-count" aria-live="polite">{len(cards)} of {len(cards)} cards</span></nav>'
    )


# ---- the cards ------------------------------------------------------------------------------------


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
    data = {key: s(value) for key, value in _card_values(card).items() if key != "status"}
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


def _script_json(value) -> str:
    """JSON that cannot end its script element early (no "<" left in it)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def render_page(title: str, tasks: list[TaskCards], thumbnails: Thumbnails) -> str:
    css = (HERE / "page.css").read_text(encoding="utf-8")
    script = (HERE / "page.js").read_text(encoding="utf-8")
    strings = _Strings()
    cards = [_card_data(card, strings) for task in tasks for card in task.cards]
    data = _script_json({"keys": KEYS, "strings": list(strings), "cards": cards, "thumbs": thumbnails.data, "mime": MIME})
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title><style>{css}</style></head>
<body>
{_header(title, tasks, thumbnails)}
{_filter_bar(tasks)}
<main id="cards"><noscript>The cards are drawn by the page's script: allow JavaScript for this file.</noscript></main>
<p id="no-cards" hidden>No card matches these filters.</p>
<p id="more-cards" hidden><button id="show-more" type="button">show more cards</button></p>
<script type="application/json" id="browse-data">{data}</script>
<script>{script}</script>
</body></html>
"""
