"""The rows of a paper table: the published ones as printed, and each measured run's, filled from its tasks with their
95% intervals and the notes on where their values came from (temporal_bench/report/model.py makes a table of them)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from temporal_bench.benchmarks import of_task
from temporal_bench.protocol_gaps import run_gaps
from temporal_bench.published import load_table, parse_flags
from temporal_bench.report.bootstrap import FEW_CLUSTERS
from temporal_bench.report.intervals import TaskIntervals, task_intervals
from temporal_bench.report.layouts import Column, Layout, Setting
from temporal_bench.runs.data_read import release_basis
from temporal_bench.runs.limits import Limit
from temporal_bench.runs.results import Run

PUBLISHED = "published"
MEASURED = "measured"

# cell markers for flagged published cells (see temporal_bench/published/__init__.py)
CELL_MARKS = {"typo": "*", "ocr_uncertain": "?", "suspect": "?"}
OTHER_RULE = "other_rule"  # a published row that fits another scoring rule than the measured rows: no verdict
ROW_MARKS = {"dagger": "†", OTHER_RULE: "‡"}
FAILED_REQUESTS = "failed requests"
UNPARSEABLE_ANSWERS = "unparseable answers"  # none parsed (DataRead.unparseable, as check fails the run): no verdict
UNVERIFIED_DATA = "unverified data"  # the release's counts, but no fingerprint of the release recorded: shown, not judged


@dataclass
class TableRow:
    source: str  # PUBLISHED or MEASURED
    model: str
    setting: str | None
    values: dict[str, float | None]  # printed units
    marks: dict[str, str] = field(default_factory=dict)  # column key -> marker
    row_mark: str = ""
    note: str = ""  # published: the paper row's note
    tasks: dict[str, str] = field(default_factory=dict)  # measured: setting label -> task used
    missing: list[str] = field(default_factory=list)  # measured: what could not be filled
    flags: str = ""  # published: the paper row's flags, as in the published CSV
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)  # measured: column key -> 95% interval (printed units)
    failed: list[str] = field(default_factory=list)  # measured: column keys whose task had every request fail (no value, no interval)
    no_interval: list[str] = field(default_factory=list)  # measured: why cells that could have an interval have none
    few_clusters: dict[str, str] = field(default_factory=dict)  # measured: task -> its clusters ("12 plans"), where fewer than FEW_CLUSTERS
    clustering: list[str] = field(default_factory=list)  # measured: tasks whose intervals fall back to a finer cluster, and why
    partial: dict[str, Limit] = field(default_factory=dict)  # measured: task -> how its run left out docs (--limit)
    set_aside: list[str] = field(default_factory=list)  # measured: Run.sources_note of its tasks that several files hold
    # measured: (mark for the model cell, task, how its data is not the release's) of its tasks: no reproduction verdict
    data_notes: list[tuple[str, str, str]] = field(default_factory=list)
    # measured, of a run shown beside another run of its model (Run.beside_runs): (mark for the model cell, task, how it stands to the other)
    beside: list[tuple[str, str, str]] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)  # measured: task -> the results file its values came from
    model_classes: list[str] = field(default_factory=list)  # measured: the harness model classes that ran its tasks
    recorded: list[str] = field(default_factory=list)  # measured: the models its results files record (a --label names the row only)
    gaps: list[str] = field(default_factory=list)  # measured: the known protocol gaps of its model classes (temporal_bench/protocol_gaps.py)

    @property
    def judged_as(self) -> str | None:
        """The model a verdict reads: the one the row's results files record (None where they record several), the
        row's own name where none is recorded (a published row)."""
        names = set(self.recorded) or {self.model}
        return next(iter(names)) if len(names) == 1 else None

    @property
    def relabelled(self) -> bool:
        """Whether the row's name is not the model its results files record (``--label``)."""
        return bool(self.recorded) and set(self.recorded) != {self.model}

    @property
    def label(self) -> str:
        """The row's model as the notes name it (bold for a measured row), with its setting."""
        name = f"**{self.model}**" if self.source == MEASURED else self.model
        return name + (f" ({self.setting})" if self.setting else "")


@dataclass
class RunPart:
    """One run's part of a table: its rows, and what of the table it lacks."""

    label: str
    paths: list[Path]
    rows: list[TableRow]
    unrun: dict[str, str]  # a per-setting table's setting -> the tasks the run has none of
    unplaced: list[str]  # its tasks of a sampling setting's names recorded with a (k, T) that fits no setting
    elsewhere: bool  # every task of the run belongs to another benchmark: its rows are in that one's tables
    model_classes: set[str]  # the harness model classes that ran its tasks


def _matching_tasks(run: Run, patterns: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(t for pattern in patterns for t in run.tasks if fnmatchcase(t, pattern)))


def _sampling(run: Run, task: str) -> tuple[Any, Any]:
    """(samples per question, temperature) as the run recorded them for ``task``: the task config's ``repeats`` and
    ``generation_kwargs.temperature`` (both harnesses write ``--gen_kwargs`` into the latter); None where not recorded."""
    config = run.config(task)
    return config.get("repeats"), (config.get("generation_kwargs") or {}).get("temperature")


def _sampled_as(run: Run, task: str, sampling: tuple[int, float] | None) -> bool:
    """Whether the task's recorded (k, T) is ``sampling`` (always, for a setting without one)."""
    if sampling is None:
        return True
    k, t = _sampling(run, task)
    return k is not None and t is not None and (int(k), float(t)) == sampling


def resolve_setting(run: Run, setting: Setting) -> list[str]:
    """The run's tasks for a setting: those of the first task group present in the run (and
    recorded with the setting's sampling, if it names one)."""
    for group in setting.tasks:
        found = [t for t in _matching_tasks(run, group) if _sampled_as(run, t, setting.sampling)]
        if found:
            return found
    return []


def unplaced_tasks(layout: Layout, run: Run) -> list[str]:
    """Tasks that match a sampling setting's names but whose recorded (k, T) fits none of them."""
    sampled = [s for s in layout.settings if s.sampling is not None]
    candidates = {t for s in sampled for group in s.tasks for t in _matching_tasks(run, group)}
    out = []
    for task in sorted(candidates):
        if not any(_sampled_as(run, task, s.sampling) for s in sampled):
            k, t = _sampling(run, task)
            out.append(f"`{task}` recorded k={k}, T={t}: not a setting of this table")
    return out


def setting_patterns(setting: Setting) -> str:
    names = ", ".join(p for group in setting.tasks for p in group)
    if setting.sampling is None:
        return names
    return f"{names} recorded with k={setting.sampling[0]}, T={setting.sampling[1]}"


@dataclass(frozen=True)
class Cell:
    """A measured cell as read from the run: its value (printed units), the task it came from, and its 95% interval."""

    value: float | None
    task: str | None  # the task of the value, or of the metric reported as undefined (null); None: no task has it
    interval: tuple[float, float] | None = None
    why: str = ""  # why a value that could have an interval has none
    clusters: str = ""  # the interval's clusters ("12 plans"), where fewer than FEW_CLUSTERS
    clustering: str | None = None  # the interval's fallback cluster
    failed: bool = False  # every request of its task failed: no value to show


@dataclass(frozen=True)
class Source:
    """Where the values of one task of a run came from, as its rows say: a partial run, other files set aside, failed
    requests or data that is not the release's, the model class; and the task's benchmark."""

    partial: Limit | None
    set_aside: str
    data_notes: list[tuple[str, str, str]]
    beside: tuple[str, str] | None  # a run shown beside another of its model (Run.beside_note): its mark, how it stands to the other
    path: Path
    model_class: str
    recorded: str  # the model the results file records
    benchmark: str | None
    all_failed: bool  # every request failed: its values are the parser's reading of the failure texts, no score


def _cell(run: Run, setting: Setting, tasks: list[str], column: Column, intervals: dict[str, TaskIntervals], failed: set[str]) -> Cell:
    """The first numeric value among the tasks, with its interval; else the task that reports the metric as undefined
    (null, e.g. MT|GT_strict without GT_strict passes). A task whose every request failed (``failed``) has no value."""
    for task in tasks:
        value = run.metric(task, column.metric, setting.filters)
        if value is not None:
            break
    else:
        # null: computed but undefined (a ratio with an empty denominator), unlike an absent metric or lmms-eval's "N/A"
        undefined = next((t for t in tasks if any(key.partition(",")[0] == column.metric and v is None for key, v in run.shown[t].values.items())), None)
        return Cell(None, undefined, failed=undefined in failed)
    if task in failed:
        return Cell(None, task, failed=True)
    value *= column.scale
    if task not in intervals:
        intervals[task] = task_intervals(run, task)
    found, why = intervals[task].cell(column.metric, value / column.scale)
    stats = intervals[task].stats
    if found is None or stats is None or found.low is None or found.high is None:  # cell() finds only defined intervals, of tasks with cluster statistics
        return Cell(value, task, why=why)
    clusters = f"{found.clusters} {stats.unit}" if found.clusters < FEW_CLUSTERS else ""
    return Cell(value, task, (found.low * column.scale, found.high * column.scale), "", clusters, intervals[task].clustering)


def _source(run: Run, task: str) -> Source:
    """Where the values of ``task`` came from, as the rows that show them say."""
    partial = run.partial.get(task)
    set_aside = run.sources_note(task)
    model_class = run.model_class(task)
    read = run.data_read(task)
    config = run.config(task)
    basis = release_basis(task, read, config)
    data_notes = []
    all_failed = read is not None and 0 < read.questions == read.failed
    if all_failed:
        data_notes.append((FAILED_REQUESTS, task, f"had {read.failed} of {read.questions} request(s) fail or bring no response: every one, so its cells show no value"))
    elif read is not None and read.failed:
        data_notes.append((FAILED_REQUESTS, task, f"had {read.failed} of {read.questions} request(s) fail or bring no response (scored as the parser read them)"))
    if read is not None and read.unparseable:
        data_notes.append((UNPARSEABLE_ANSWERS, task, f"has no verdict: none of its {read.answered} answers could be parsed (temporal-bench check fails the run), so its scores say nothing of the model"))
    if not basis.is_release:
        mark = "synthetic data" if read is not None and read.synthetic else UNVERIFIED_DATA if basis.unverified else "not the release's data"
        data_notes.append((mark, task, f"has no verdict: {basis.why}"))
    return Source(partial, set_aside, data_notes, run.beside_note(task), run.sources[task], model_class, run.recorded_model(task), getattr(of_task(task), "name", None), all_failed)


def _missing(column: Column, tasks: list[str], cell: Cell) -> list[str]:
    """The note for a measured cell left empty: the metric is absent, or reported as null (a failed task's cells say so
    themselves)."""
    if cell.failed:
        return []
    if cell.task is None:
        return [f"`{column.metric}` ({column.header}) not in {', '.join(tasks)}"]
    if cell.value is None:
        return [f"`{column.metric}` ({column.header}) undefined (null) in {cell.task}"]
    return []


def _with_interval(row: TableRow, column: Column, cell: Cell) -> None:
    """The cell's interval on the row, or why it has none; a cell whose task had every request fail is marked."""
    if cell.failed:
        row.failed.append(column.key)
    elif cell.interval is not None:
        if cell.task is None:
            raise ValueError(f"{column.key}: a cell with an interval names no task")
        row.intervals[column.key] = cell.interval
        if cell.clusters:
            row.few_clusters[cell.task] = cell.clusters
        if cell.clustering and cell.clustering not in row.clustering:
            row.clustering.append(cell.clustering)
    elif cell.why and cell.why not in row.no_interval:
        row.no_interval.append(cell.why)


def _with_sources(row: TableRow, benchmark: str, sources: dict[str, Source], tasks: Iterable[str | None]) -> None:
    """Note on the row where the values of its ``tasks`` came from, and the known protocol gaps of its model classes."""
    for task in dict.fromkeys(task for task in tasks if task is not None):
        source = sources[task]
        row.paths[task] = source.path
        if source.partial:
            row.partial[task] = source.partial
        row.set_aside += [source.set_aside] if source.set_aside else []
        row.data_notes += source.data_notes
        row.beside += [(source.beside[0], task, source.beside[1])] if source.beside else []
        if source.model_class and source.model_class not in row.model_classes:
            row.model_classes.append(source.model_class)
        if source.recorded not in row.recorded:
            row.recorded.append(source.recorded)
    row.gaps = run_gaps(benchmark, row.judged_as or row.model, row.model_classes)


def _setting_rows(layout: Layout, label: str, resolved: dict[str, list[str]], cells: dict[tuple[str, str], Cell], sources: dict[str, Source]) -> list[TableRow]:
    """One row per setting the run has tasks for."""
    rows = []
    for setting in (s for s in layout.settings if resolved[s.label]):
        tasks = resolved[setting.label]
        row = TableRow(MEASURED, label, setting.label, {})
        for column in layout.columns:
            cell = cells[setting.label, column.key]
            row.values[column.key] = cell.value
            _with_interval(row, column, cell)
            row.missing += _missing(column, tasks, cell)
        used = [cells[setting.label, column.key].task for column in layout.columns]
        _with_sources(row, layout.benchmark, sources, used)
        row.tasks[setting.label] = ", ".join(t for t in dict.fromkeys(used) if t is not None) or ", ".join(tasks)
        rows.append(row)
    return rows


def _model_rows(layout: Layout, label: str, resolved: dict[str, list[str]], cells: dict[tuple[str, str], Cell], sources: dict[str, Source]) -> list[TableRow]:
    """The run's one row, its settings in the columns (none when it ran none of them)."""
    if not any(resolved.values()):
        return []
    row = TableRow(MEASURED, label, None, {})
    row.missing += [f"{s.label}: not run (no task matching {setting_patterns(s)})" for s in layout.settings if not resolved[s.label]]
    used = []
    for column in layout.columns:
        if column.setting is None:
            raise KeyError(f"{layout.name}: column {column.key!r} names no setting, which a layout of one row per model needs")
        cell = cells[column.setting, column.key]
        used.append(cell.task)
        if column.minus is not None:  # a difference of two cells: no interval of its own
            base = cells[column.minus, column.key]
            used.append(base.task)
            row.values[column.key] = None if cell.value is None or base.value is None else cell.value - base.value
            if cell.failed or base.failed:
                row.failed.append(column.key)
            continue
        row.values[column.key] = cell.value
        _with_interval(row, column, cell)
        if resolved[column.setting]:
            row.missing += _missing(column, resolved[column.setting], cell)
        if cell.task is not None:
            used_here = row.tasks.setdefault(column.setting, "")
            if cell.task not in used_here.split(", "):
                row.tasks[column.setting] = f"{used_here}, {cell.task}" if used_here else cell.task
    _with_sources(row, layout.benchmark, sources, used)
    return [row]


def _run_part(layout: Layout, run: Run, sources: dict[str, Source], intervals: dict[str, TaskIntervals]) -> RunPart:
    """The rows one run contributes to a layout (none when it ran none of its tasks), and what of it the run lacks:
    each cell read from the run once, then laid out."""
    resolved = {s.label: resolve_setting(run, s) for s in layout.settings}
    unplaced = unplaced_tasks(layout, run)
    failed = {task for task, source in sources.items() if source.all_failed}
    cells = {(s.label, c.key): _cell(run, s, resolved[s.label], c, intervals, failed) for c in layout.columns for s in layout.settings if layout.rows == "setting" or s.label in (c.setting, c.minus)}
    rows = (_setting_rows if layout.rows == "setting" else _model_rows)(layout, run.label, resolved, cells, sources)
    unrun = {s.label: setting_patterns(s) for s in layout.settings if not resolved[s.label]} if layout.rows == "setting" else {}
    benchmarks = {source.benchmark for source in sources.values()}
    elsewhere = bool(benchmarks) and None not in benchmarks and layout.benchmark not in benchmarks
    shown = set(run.sources.values())
    return RunPart(run.label, [path for path in run.paths if path in shown], rows, unrun, unplaced, elsewhere, {source.model_class for source in sources.values()})


def run_parts(run: Run, layouts: Sequence[Layout]) -> list[RunPart]:
    """The run's part of each layout; each task is read once for all of them (where its values came from, its
    intervals)."""
    sources = {task: _source(run, task) for task in run.tasks}
    intervals: dict[str, TaskIntervals] = {}
    return [_run_part(layout, run, sources, intervals) for layout in layouts]


def published_rows(layout: Layout) -> list[TableRow]:
    if layout.published is None:
        return []
    printed = layout.published_rows() if layout.published_rows else load_table(*layout.published).rows
    rows = []
    for raw in printed:
        model = raw.get(layout.published_model_column) if layout.published_model_column else layout.published_model
        setting = None
        if layout.rows == "setting":
            setting = raw.get(layout.published_setting_column) if layout.published_setting_column else None
            setting = setting or "–"
        flags = parse_flags(raw.get("flags"))
        marks = {}
        for column in layout.columns:  # in column order, so the output is deterministic
            cell = "".join(dict.fromkeys(CELL_MARKS[kind] for kind in sorted(flags) if column.key in flags[kind] and kind in CELL_MARKS))
            if cell:
                marks[column.key] = cell
        row_mark = "".join(ROW_MARKS[k] for k in sorted(flags) if k in ROW_MARKS)
        values = {c.key: raw.get(c.key) for c in layout.columns}
        rows.append(TableRow(PUBLISHED, str(model), setting, values, marks, row_mark, raw.get("note") or "", flags=raw.get("flags") or ""))
    return rows


def provenance(layout: Layout) -> str:
    """Where the layout's published rows were printed: ``<paper> (arXiv <id>), Table <n>``."""
    if layout.published is None:
        raise ValueError(f"{layout.name}: no published table")
    meta = load_table(*layout.published).meta
    arxiv = meta.get("arxiv", "")
    arxiv = f" (arXiv {arxiv})" if arxiv and arxiv[0].isdigit() else ""
    table = meta.get("table", layout.published[1])
    tables = f"Tables {table.replace('_', ' and ')}" if "_" in table else f"Table {table}"
    return f"{meta.get('paper', '')}{arxiv}, {tables}"


def rank_value(layout: Layout, row: TableRow) -> float | None:
    """The row's ranking value: its ``rank_by`` column, or the mean of several (None if one is missing)."""
    keys = (layout.rank_by,) if isinstance(layout.rank_by, str) else layout.rank_by
    values = [row.values.get(k) for k in keys or ()]
    defined = [v for v in values if v is not None]
    if not values or len(defined) < len(values):
        return None
    return sum(defined) / len(defined)


def ranked(layout: Layout, rows: list[TableRow]) -> list[TableRow]:
    """The rows high to low by the layout's ``rank_by`` (stable: ties keep published, in paper order, before measured,
    in run order), or as they are."""
    if not layout.rank_by:
        return rows
    return sorted(rows, key=lambda row: (rank_value(layout, row) is None, -(rank_value(layout, row) or 0.0)))


def build_rows(layout: Layout, runs: Iterable[Run], include_published: bool = True) -> list[TableRow]:
    """The table's rows: the published ones (``include_published``), then each run's, ranked."""
    published = published_rows(layout) if include_published else []
    return ranked(layout, published + [row for run in runs for row in run_parts(run, [layout])[0].rows])
