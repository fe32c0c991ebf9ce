"""One card per logged sample of a run: what the model was asked and shown, what it answered and
how that answer was scored.

The runs and their samples files are found by the run reader (:func:`temporal_bench.runs.logged.find_runs`), as for
every command. The prompt, the raw response, the per-doc record (read as the report reads it,
temporal_bench/runs/records.py) and the image files the doc named (lmms-eval's ``input_media``: at most four) are in
every logged sample. An image that cannot be opened now, or a question that showed images but whose sample names
none, gets a placeholder naming it; a failed request is shown as such, never as an answer, and an answer is invalid
as every command counts it (the record reader's, failures apart). The runs are shown newest first, each task with
its values as the report reads them; a task that a newer run of the same model on the same data supersedes is left
out and named. A partial task (``--limit``) is marked, and a task that several results files hold is shown once per
file, under names that tell them apart. ``--tasks`` limits the page to some tasks
(:func:`temporal_bench.runs.logged.named_tasks`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporal_bench import benchmarks
from temporal_bench.browse.benchmarks import INVALID_ANSWER, REQUEST_FAILED, RIGHT, WRONG
from temporal_bench.browse.benchmarks import BenchmarkCards as Benchmark
from temporal_bench.browse.benchmarks import Facts, Join
from temporal_bench.browse.thumbnails import Thumb, Thumbnails
from temporal_bench.runs.files import file_order, logged_filter_names
from temporal_bench.runs.limits import partial_limit
from temporal_bench.runs.lines import logged_media, logged_prompt, logged_texts
from temporal_bench.runs.logged import LoggedRun, RecordsError, model_runs, select_tasks
from temporal_bench.runs.record_reader import reader_of
from temporal_bench.runs.records import read_record
from temporal_bench.runs.results import Run, merge_runs

LOGGED_IMAGES = 4  # lmms-eval 0.7.3 logs at most four image files of a doc (evaluator._collect_input_media)
NO_IMAGE_LOGGED = "its logged sample names no image file: lmms-eval logs (as input_media) the image files or URIs a doc names, not an image the doc holds decoded (a dataset's image column)"


@dataclass
class Card:
    id: str
    task: str
    filter: str
    benchmark: Benchmark
    record: dict
    facts: Facts
    status: str
    prompt: str
    responses: list[str]
    scored: list[str]  # the responses after the task's filters (what the parser read)
    images: list[Thumb] = field(default_factory=list)
    joins: list[Join] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """The request failed or brought no response: its logged text is no answer of the model's."""
        return self.status == REQUEST_FAILED


@dataclass
class TaskCards:
    run: LoggedRun
    task: str
    benchmark: Benchmark
    cards: list[Card]
    label: str  # the task's name on the page (task_label)
    values: Run  # the values of its tests as the report reads them from its file, under the report's name of its model (:func:`report_views`)


def _texts(value: Any) -> list[str]:
    """A logged response value's texts (a text, or a list of them for repeats); none for a missing one."""
    return [str(text) for text in logged_texts(value) if text is not None]


def filter_names(run: LoggedRun, task: str, lines: list[dict]) -> list[str]:
    """Each line's filter: lm-eval logs it; lmms-eval logs every doc once per filter of the task's
    ``filter_list``, in that order."""
    if all("filter" in line for line in lines):
        return [line["filter"] for line in lines]
    names = [entry["name"] for entry in run.task_config(task).get("filter_list") or []] or ["none"]
    return logged_filter_names(names, lines)


def _owned(task: str, line: dict, record: dict | None, rules: list[Benchmark]) -> tuple[Benchmark, dict]:
    """The card rules (of ``rules``: the last line's first, then every benchmark's) of the benchmark whose per-doc
    record ``line`` holds, and that record."""
    owner = next((cards for cards in rules if cards.owns(record)), None)
    if owner and record is not None:
        return owner, record
    titles = ", ".join(b.title for b in benchmarks.all_benchmarks() if b.cards)
    raise RecordsError(f"task {task!r}: its logged sample of doc {line.get('doc_id')} holds no per-doc record of {titles}; browse shows the tasks of these benchmarks only")


def task_label(run: LoggedRun, task: str, shared: bool) -> str:
    """The task's name on the page: marked partial when its run left docs out (``--limit``), and
    followed by its results file when another file on the page holds the same task (``shared``), so
    the Task filter tells the runs apart."""
    limit = partial_limit(run.data, task)
    return task + (f" (partial: {limit.flags})" if limit else "") + (f" [{run.results_path.name}]" if shared else "")


def card_images(benchmark: Benchmark, label: str, line: dict, record: dict, config: dict, why_none: str) -> list[Thumb]:
    """The images a question showed, from the files its logged sample names (made later: :func:`make_images`); a
    question that showed images but whose sample names none gets one placeholder naming it (``why_none``: why)."""
    sources = logged_media(line)
    if not sources and benchmark.shows_images(config, record):
        return [Thumb("", missing=f"the image(s) of {label} doc {line.get('doc_id')}", reason=why_none)]
    return [Thumb(caption, source=source, role=role) for source, role, caption in benchmark.images(sources, config)]


def _status(record: dict, task: str, benchmark: Benchmark) -> str:
    """A question's verdict; invalid as every command counts it (its benchmark's record reader), a failed request apart."""
    if record["failed"]:
        return REQUEST_FAILED
    if reader_of(task).invalid(record):
        return INVALID_ANSWER
    return RIGHT if benchmark.right(record) else WRONG


def task_cards(run: LoggedRun, task: str, first_id: int, label: str, values: Run) -> TaskCards:
    lines = run.lines(task)
    if not lines:
        raise RecordsError(f"{run.samples[task]}: no logged samples")
    config, model_config = run.task_config(task), run.data.get("config") or {}
    records: list[dict | None]
    try:
        records = list(run.records(task))  # as the report read them
    except RecordsError:  # logged under several filters (lm-eval), or lines without a record (named below)
        records = [read_record(task, line, config, model_config) for line in lines]
    why_none = NO_IMAGE_LOGGED if model_runs([run]) else f"{run.results_path} holds a release's scored outputs, whose samples name no image files"
    rules = [b.cards for b in benchmarks.all_benchmarks() if b.cards is not None]
    cards: list[Card] = []
    for number, (line, logged, filter_name) in enumerate(zip(lines, records, filter_names(run, task, lines)), first_id):
        benchmark, record = _owned(task, line, logged, [cards[-1].benchmark, *rules] if cards else rules)
        card = Card(
            f"c{number}", label, filter_name, benchmark, record, benchmark.facts(record), _status(record, task, benchmark), logged_prompt(line), _texts(line.get("resps", line.get("filtered_resps"))), _texts(line.get("filtered_resps"))
        )
        card.images = card_images(benchmark, label, line, record, config, why_none)
        card.joins += [join for join in [benchmark.served(record)] if join]
        cards.append(card)
    benchmark = cards[0].benchmark
    cards.sort(key=lambda card: benchmark.order(card.record))
    _join(benchmark, cards)
    return TaskCards(run, task, benchmark, cards, label, values)


def _join(benchmark: Benchmark, cards: list[Card]) -> None:
    """The joins of each filter's cards (lmms-eval logs a doc once per filter)."""
    for name in dict.fromkeys(card.filter for card in cards):
        benchmark.join([card for card in cards if card.filter == name])


def report_views(runs: Sequence[LoggedRun]) -> dict[tuple[Path, str], Run]:
    """Per (results file, task as logged) the page shows, its tests' values as the report reads them (its results and
    the breakdowns computed from its samples: temporal_bench/runs/results.py). A task is left out where a newer run
    of the same model on the same data supersedes it (a re-run; a newer full run supersedes a ``--limit`` one, not
    the reverse); a partial run newer than the full one, and a run on other data, are shown beside it."""
    views: dict[tuple[Path, str], Run] = {}
    for merged in merge_runs(runs):
        for test, shown in merged.shown.items():
            other = merged.other_data(test) if test in merged.set_aside else []
            for source in (shown, *merged.set_aside.get(test, [])):
                if source is shown or file_order(source.path) > file_order(shown.path) or any(source is o for o in other):
                    views.setdefault((source.path, source.logged_as), Run(merged.label, [source.logged])).shown[test] = source
    return views


def _newest_first(runs: Sequence[LoggedRun]) -> list[LoggedRun]:
    return sorted(runs, key=lambda run: file_order(run.results_path), reverse=True)


def run_cards(runs: list[LoggedRun], wanted: Sequence[str] = (), views: dict[tuple[Path, str], Run] | None = None) -> list[TaskCards]:
    """The cards of every task of every run (or of the tasks named in ``wanted``: :func:`temporal_bench.runs.logged.named_tasks`),
    newest run first, but those superseded (``views``: :func:`report_views` of ``runs``, where computed already); a
    task without its samples file is an error naming it (as for re-scoring). Their images are asked for, not made
    (:func:`make_images`)."""
    done: list[TaskCards] = []
    views = report_views(runs) if views is None else views
    chosen = [(run, [task for task in names if (run.results_path, task) in views]) for run, names in select_tasks(_newest_first(runs), wanted)]
    files = Counter(task for _, names in chosen for task in names)
    for run, names in chosen:
        for task in names:
            done.append(task_cards(run, task, 1 + sum(len(t.cards) for t in done), task_label(run, task, files[task] > 1), views[run.results_path, task]))
    return done


def make_images(tasks: list[TaskCards], thumbnails: Thumbnails) -> None:
    """The images of the cards, each made once (:meth:`Thumbnails.make`), in their places."""
    cards = [card for task in tasks for card in task.cards]
    made = iter(thumbnails.make([thumb for card in cards for thumb in card.images]))
    for card in cards:
        card.images = [next(made) for _ in card.images]


def superseded_notes(runs: list[LoggedRun], views: dict[tuple[Path, str], Run], wanted: Sequence[str] = ()) -> list[str]:
    """The tasks (of those ``wanted``) that :func:`run_cards` leaves out as superseded (not in ``views``), per results file."""
    left_out = [(run, [task for task in names if (run.results_path, task) not in views]) for run, names in select_tasks(_newest_first(runs), wanted)]
    return [f"{run.results_path}: {', '.join(names)}: superseded by a newer run of the same model on the same data (the report shows that one); browse this file to see it" for run, names in left_out if names]


def keep_cards(tasks: list[TaskCards], kept: set[str]) -> list[TaskCards]:
    """The tasks with only the kept cards; links to cards not kept are dropped and counted."""
    out = []
    for task in tasks:
        cards = [card for card in task.cards if card.id in kept]
        for card in cards:
            for join in card.joins:
                links = [link for link in join.links if not link.card or link.card in kept]
                dropped = len(join.links) - len(links)
                if dropped:
                    join.links = links
                    join.note = "; ".join(filter(None, (join.note, f"{dropped} more linked question(s) not on this page")))
        if cards:
            out.append(dataclasses.replace(task, cards=cards))
    return out


def run_notes(tasks: list[TaskCards]) -> list[str]:
    """What a reader must know about the runs on the page: each task of a partial run (``--limit``) and each task that
    several results files hold (each file's cards shown under its own name)."""
    notes = [f"{task.label}: a partial run ({limit}) in {task.run.results_path}: its cards and metrics cover only those docs" for task in tasks if (limit := partial_limit(task.run.data, task.task))]
    holders = defaultdict(list)
    for task in tasks:
        holders[task.task].append(task.label)
    notes += [f"{name} is in {len(labels)} results files, shown apart as: {'; '.join(labels)}" for name, labels in holders.items() if len(labels) > 1]
    return notes


def answer_notes(tasks: list[TaskCards]) -> list[str]:
    """What a reader must know about the cards of each task: its failed requests (no answer of the model's, scored by
    the metrics as the parser read the failure texts), and its cards showing as many images as lmms-eval logs of a doc
    (the question may have shown more)."""
    notes = []
    for task in tasks:
        failed = sum(card.failed for card in task.cards)
        if failed:
            notes.append(
                f"{task.label}: {failed} of {len(task.cards)} request(s) failed or brought no response: their cards say so and show no answer; "
                "the task's metrics scored those texts as its parser read them, so they are not the model's scores (docs/backends.md)"
            )
        capped = sum(len(card.images) >= LOGGED_IMAGES for card in task.cards)
        if capped:
            notes.append(f"{task.label}: {capped} card(s) show the first {LOGGED_IMAGES} images of their question, all that lmms-eval logs of a doc: the model may have seen more")
    return notes
