"""One card per logged sample of a run: what the model was asked and shown, what it answered and
how that answer was scored.

The runs and their samples files are found as ``temporal-bench rescore`` finds them
(:func:`temporal_bench.report.rescore.find_runs`). The prompt, the raw response and the per-doc
record (parsed answer, gold answer, join keys) are in every logged sample; the images are not
(lmms-eval logs no doc), so for a benchmark with images each task is rebuilt through the harness,
as re-scoring does, and its docs are matched back by ``doc_id`` and checked against the logged
target. A task that cannot be rebuilt (its data is not reachable) still gets its cards, each with
a placeholder naming the reason. A task of a run made with ``--limit`` is marked partial, and a task
that several results files hold is shown once per file, under names that tell them apart.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from temporal_bench.browse.benchmarks import Benchmark, Facts, Join, benchmark_of
from temporal_bench.browse.thumbnails import Thumb, Thumbnails
from temporal_bench.report.rescore import (LoggedRun, RescoreError, logged_filter_names, quiet_harness_logs, read_samples, rebuilt_tasks,
                                           select_tasks)
from temporal_bench.report.results import partial_limit
from temporal_bench.tempvs.spec import SUITE_GROUNDING_TASK
from temporal_bench.tempvs.suite import is_suite_main


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


@dataclass
class TaskCards:
    run: LoggedRun
    task: str
    benchmark: Benchmark
    cards: list[Card]
    docs_problem: str = ""  # why the task's docs (its images) could not be found
    label: str = ""  # the task's name on the page (task_label)


def _texts(value: Any) -> list[str]:
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return [] if value is None else [str(value)]


def logged_prompt(line: dict) -> str:
    """lmms-eval logs the prompt as ``input``, lm-eval as the request's first argument."""
    if "input" in line:
        return str(line["input"])
    arguments = line.get("arguments")
    if isinstance(arguments, dict) and arguments:
        first = next(iter(arguments.values()))
        return str(first.get("arg_0", "")) if isinstance(first, dict) else str(first)
    return "\n".join(_texts(arguments))


def filter_names(run: LoggedRun, task: str, lines: list[dict]) -> list[str]:
    """Each line's filter: lm-eval logs it; lmms-eval logs every doc once per filter of the task's
    ``filter_list``, in that order."""
    if all("filter" in line for line in lines):
        return [line["filter"] for line in lines]
    names = [entry["name"] for entry in run.task_config(task).get("filter_list") or []] or ["none"]
    return logged_filter_names(names, lines)


def _record(task: str, line: dict) -> tuple[Benchmark, dict]:
    for value in line.values():
        benchmark = benchmark_of(value)
        if benchmark:
            return benchmark, value
    raise RescoreError(f"task {task!r}: its logged sample of doc {line.get('doc_id')} holds no TempVS, CaT-Bench "
                       "or ISO-Bench per-doc record; browse shows the tasks of this package only")


def task_docs(run: LoggedRun, task: str, lines: list[dict]) -> tuple[dict[int, dict] | None, str]:
    """The docs of ``task`` by ``doc_id``, rebuilt through the harness (lm-eval logs them itself),
    or None and the reason they cannot be had."""
    if all(isinstance(line.get("doc"), dict) for line in lines):
        return {line["doc_id"]: line["doc"] for line in lines}, ""
    try:
        with quiet_harness_logs():
            rebuilt = rebuilt_tasks(run, [task])[task]
            docs = rebuilt.eval_docs
    except RescoreError as error:
        return None, str(error)
    return {line["doc_id"]: docs[line["doc_id"]] for line in lines
            if line["doc_id"] < len(docs) and str(rebuilt.doc_to_target(docs[line["doc_id"]])) == line["target"]}, ""


def task_label(run: LoggedRun, task: str, shared: bool) -> str:
    """The task's name on the page: marked partial when its run left docs out (``--limit``), and
    followed by its results file when another file on the page holds the same task (``shared``), so
    the Task filter tells the runs apart."""
    limit = partial_limit(run.data, task)
    return task + (f" (partial: {limit.flags})" if limit else "") + (f" [{run.results_path.name}]" if shared else "")


def task_cards(run: LoggedRun, task: str, thumbnails: Thumbnails, first_id: int, label: str = "") -> TaskCards:
    lines = read_samples(run.samples[task])
    if not lines:
        raise RescoreError(f"{run.samples[task]}: no logged samples")
    benchmark = _record(task, lines[0])[0]
    docs, problem = task_docs(run, task, lines) if benchmark.has_images else ({}, "")
    cards = []
    for number, (line, filter_name) in enumerate(zip(lines, filter_names(run, task, lines)), first_id):
        _, record = _record(task, line)
        card = Card(f"c{number}", label or task, filter_name, benchmark, record, benchmark.facts(record), benchmark.status(record),
                    logged_prompt(line), _texts(line.get("resps", line.get("filtered_resps"))),
                    _texts(line.get("filtered_resps")))
        if benchmark.has_images:
            doc = docs.get(line["doc_id"]) if docs is not None else None
            if doc is None:
                reason = problem or (f"doc {line['doc_id']} of the data found now is not the run's "
                                     f"(logged target {line['target']!r}); give browse the run's data")
                card.images = [thumbnails.note_missing("", f"the images of {task} doc {line['doc_id']}", reason)]
            else:
                card.images = benchmark.images(doc, thumbnails)
        card.joins += [join for join in [benchmark.served(record)] if join]
        cards.append(card)
    cards.sort(key=lambda card: benchmark.order(card.record))
    if not is_suite_main(task):  # those join the suite grounding task's cards (run_cards)
        _join(benchmark, cards)
    return TaskCards(run, task, benchmark, cards, problem, label or task)


def _join(benchmark: Benchmark, cards: list[Card]) -> None:
    by_filter = defaultdict(list)
    for card in cards:
        by_filter[card.filter].append(card)
    for group in by_filter.values():
        benchmark.join(group)


def _join_suite(tasks: list[TaskCards]) -> None:
    """The main tasks of a ``--tasks tempvs`` run joined with the grounding questions the suite
    grounding task asked for them (without it: not judged, as for any missing grounding question)."""
    grounding = [card for t in tasks if t.task == SUITE_GROUNDING_TASK for card in t.cards]
    for t in tasks:
        if is_suite_main(t.task):
            _join(t.benchmark, t.cards + grounding)


def run_cards(runs: list[LoggedRun], thumbnails: Thumbnails) -> list[TaskCards]:
    """The cards of every task of every run, in the runs' order; a task without its samples file
    is an error naming it (as for re-scoring)."""
    done: list[TaskCards] = []
    chosen = select_tasks(runs, [])
    files = Counter(task for _, names in chosen for task in names)
    for run, names in chosen:
        of_run = []
        for task in names:
            label = task_label(run, task, files[task] > 1)
            of_run.append(task_cards(run, task, thumbnails, 1 + sum(len(t.cards) for t in done + of_run), label))
        _join_suite(of_run)
        done += of_run
    return done


def run_notes(tasks: list[TaskCards]) -> list[str]:
    """What a reader must know about the runs on the page: each task of a partial run (``--limit``),
    and each task that several results files hold (each file's cards shown under its own name)."""
    notes = []
    for task in tasks:
        limit = partial_limit(task.run.data, task.task)
        if limit:
            notes.append(f"{task.label}: a partial run ({limit}) in {task.run.results_path}: "
                         "its cards and metrics cover only those docs")
    holders = defaultdict(list)
    for task in tasks:
        holders[task.task].append(task.label)
    notes += [f"{name} is in {len(labels)} results files, shown apart as: {'; '.join(labels)}"
              for name, labels in holders.items() if len(labels) > 1]
    return notes
