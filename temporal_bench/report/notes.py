"""The notes on a report's measured rows, each said once for the whole report however many tables it concerns,
numbered, and the numbers each row refers to (render.py writes them after the tables, and a row's in its table's
``notes`` column).

A note is who it concerns (``**model**``, with the setting where it is a table's), what it says, and the tasks it says
it of: the same words of the same model in several tables or rows are one note, its tasks joined."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from temporal_bench.report.bootstrap import FEW_CLUSTERS
from temporal_bench.report.rows import MEASURED, RunPart, TableRow

MISSING = "Missing from the runs:"
NO_INTERVAL = "Measured cells without an interval:"
PARTIAL = "Partial runs (made with --limit or --offset; marked partial, no reproduction verdict):"
NO_VERDICT = (
    "Measured rows with no reproduction verdict: failed requests, or data that is not (or cannot be verified to be) the benchmark's release (a random "
    "baseline's interval check stays on the release's or other data, random answers score their expectation on any questions):"
)
BESIDE = "Rows of another run of a model, shown beside its run on the release's data or on more questions (a newer run on a subset of its questions or with --limit; superseded runs are not shown):"
GAPS = "Measured rows whose model class differs from the official inference where the task cannot make up for it (known protocol gaps, whatever the verdict):"
SOURCES = (
    "Results files of the same model holding the same task: a newer run that read all the questions of an older one supersedes it (a re-run; a full run "
    "supersedes a --limit one, not the reverse) and the older is not shown (report a file alone to see it); of the others, one shows the model's values "
    "(a full run before a --limit one, then one on the release's data, then the one on the most questions, then the newer) and the rest are shown beside "
    "it in rows of their own:"
)
FEW = f"Intervals from fewer than {FEW_CLUSTERS} clusters rest on a rough estimate of the spread; read them as rough:"
FALLBACK = "Intervals on a fallback cluster:"
HEADINGS = (MISSING, NO_INTERVAL, PARTIAL, NO_VERDICT, BESIDE, GAPS, SOURCES, FEW, FALLBACK)

Key = tuple[str, str, str]  # (heading, who, what): one note


@dataclass
class Notes:
    """Each note once, numbered in the order of :data:`HEADINGS`, and the notes each measured row refers to."""

    files: list[str]  # ``**model**: `results file`, ...`` per measured run, the files its rows read
    groups: list[tuple[str, list[tuple[int, str]]]]  # (heading, [(number, text)]) of the headings with notes
    refs: dict[int, list[int]] = field(default_factory=dict)  # id(row) -> the numbers of its notes

    def of(self, row: TableRow) -> list[int]:
        return self.refs.get(id(row), [])


class _Collected:
    """The notes as they are found, each with its tasks, and the rows that refer to each."""

    def __init__(self) -> None:
        self.tasks: dict[Key, list[str]] = {}
        self.rows: dict[int, list[Key]] = {}

    def add(self, row: TableRow | None, heading: str, who: str, what: str, task: str = "") -> None:
        key = (heading, who, what)
        tasks = self.tasks.setdefault(key, [])
        if task and task not in tasks:
            tasks.append(task)
        if row is not None and key not in (mine := self.rows.setdefault(id(row), [])):
            mine.append(key)

    def numbered(self, files: list[str]) -> Notes:
        numbers: dict[Key, int] = {}
        groups = []
        for heading in HEADINGS:
            keys = [key for key in self.tasks if key[0] == heading]
            numbers.update((key, len(numbers) + 1) for key in keys)
            lines = [(numbers[key], f"{key[1]}: " + (f"{', '.join(self.tasks[key])}{key[2]}" if self.tasks[key] else key[2])) for key in keys]
            groups += [(heading, lines)] if lines else []
        return Notes(files, groups, {row: sorted(numbers[key] for key in keys) for row, keys in self.rows.items()})


def _row_notes(found: _Collected, row: TableRow) -> None:
    """The notes a measured row's cells and tasks call for."""
    who = f"**{row.model}**"
    for text in row.missing:
        found.add(row, MISSING, row.label, text)
    for why in row.no_interval:
        found.add(row, NO_INTERVAL, who, why)
    for task, limit in row.partial.items():
        found.add(row, PARTIAL, who, f" {limit} (`{row.paths[task].as_posix()}`)", task)
    for _, task, how in row.data_notes:
        found.add(row, NO_VERDICT, who, f" {how}", task)
    for _, task, how in row.beside:
        found.add(row, BESIDE, who, f" {how}", task)
    for gap in row.gaps:
        found.add(row, GAPS, f"{who} ({', '.join(row.model_classes)})", gap)
    for note in row.set_aside:
        found.add(row, SOURCES, who, note)
    for task, clusters in row.few_clusters.items():
        found.add(row, FEW, who, f" ({clusters})", task)
    for note in row.clustering:
        found.add(row, FALLBACK, who, note)


def _part_notes(found: _Collected, part: RunPart) -> None:
    """The settings a run with rows in the table has no task for, and its tasks of no setting: noted on each of its
    rows in the table."""
    texts = [(f"**{part.label}** ({label})", f"not run (no task matching {patterns})") for label, patterns in part.unrun.items() if part.rows]
    texts += [(f"**{part.label}**", text) for text in part.unplaced]
    rows: list[TableRow | None] = [*part.rows] or [None]
    for who, text in texts:
        for row in rows:
            found.add(row, MISSING, who, text)


def collect_notes(tables: Sequence[tuple[Sequence[TableRow], Sequence[RunPart]]], partial: Sequence[tuple[str, str, str, Path]], set_aside: Sequence[tuple[str, str]]) -> Notes:
    """The notes of the measured rows and run parts of each table (``tables``: its rows, its parts), with those on every run of the report: each task shown from a
    partial run (``partial``: label, task, limit, results file) and each task several results files of a model hold
    (``set_aside``: label, :meth:`temporal_bench.runs.results.Run.sources_note`)."""
    found = _Collected()
    files: dict[str, None] = {}
    for rows, parts in tables:
        for row in rows:
            if row.source == MEASURED:
                _row_notes(found, row)
        for part in parts:
            if part.rows:
                files[f"**{part.label}**: " + ", ".join(f"`{path.as_posix()}`" for path in part.paths)] = None
            if part.rows or part.unplaced:
                _part_notes(found, part)
    for label, task, limit, path in partial:
        found.add(None, PARTIAL, f"**{label}**", f" {limit} (`{path.as_posix()}`)", task)
    for label, note in set_aside:
        found.add(None, SOURCES, f"**{label}**", note)
    return found.numbered(list(files))
