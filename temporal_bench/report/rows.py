"""The rows of a paper table: the published ones as printed, and each measured run's, filled from its tasks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from temporal_bench.published import load_table, parse_flags
from temporal_bench.report.bootstrap import FEW_CLUSTERS
from temporal_bench.report.intervals import cell_interval, clustering_note
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
    no_interval: list[str] = field(default_factory=list)  # measured: why cells that could have an interval have none
    few_clusters: dict[str, int] = field(default_factory=dict)  # measured: task -> its clusters, where fewer than FEW_CLUSTERS
    clustering: list[str] = field(default_factory=list)  # measured: tasks whose intervals fall back to a finer cluster, and why
    partial: dict[str, Limit] = field(default_factory=dict)  # measured: task -> how its run left out docs (--limit)
    set_aside: list[str] = field(default_factory=list)  # measured: Run.sources_note of its tasks that several files hold
    # measured: (mark for the model cell, task, how its data is not the release's) of its tasks: no reproduction verdict
    data_notes: list[tuple[str, str, str]] = field(default_factory=list)
    basis_notes: list[str] = field(default_factory=list)  # measured: how its data was found to be the release, where on the paper's counts
    model_classes: list[str] = field(default_factory=list)  # measured: the harness model classes that ran its tasks

    @property
    def label(self) -> str:
        """The row's model as the notes name it (bold for a measured row), with its setting."""
        name = f"**{self.model}**" if self.source == MEASURED else self.model
        return name + (f" ({self.setting})" if self.setting else "")


FAILED_REQUESTS = "failed requests"


def data_notes(run: Run, task: str) -> list[tuple[str, str, str]]:
    """(mark, task, how) for why ``task``'s numbers are held against no published one: requests that failed, or data
    that is not the benchmark's release (synthetic, of other counts or another fingerprint, or not known)."""
    read = run.data_read(task)
    notes = [(FAILED_REQUESTS, task, f"had {read.failed} of {read.questions} request(s) fail or bring no response (scored as the parser read them)")] if read is not None and read.failed else []
    basis = release_basis(task, read, run.config(task))
    if not basis.is_release:
        mark = "synthetic data" if read is not None and read.synthetic else "not the release's data"
        notes.append((mark, task, f"has no verdict: {basis.why}"))
    return notes


def basis_notes(run: Run, task: str) -> list[str]:
    """How ``task``'s data was found to be the release where it rests on the weaker basis (the counts known of it)."""
    basis = release_basis(task, run.data_read(task), run.config(task))
    return [f"{task}: {basis.why}"] if basis.weaker else []


def data_notes_text(row: TableRow) -> str:
    """The row's data notes, tasks of the same note together: ``a, b read synthetic data (...)``."""
    by_how: dict[str, list[str]] = {}
    for _, task, how in row.data_notes:
        by_how.setdefault(how, []).append(task)
    return "; ".join(f"{', '.join(tasks)} {how}" for how, tasks in by_how.items())


def _use_task(row: TableRow, run: Run, task: str | None) -> None:
    """Note on the row where the values of ``task`` came from: a partial run, other files set aside,
    data that is not the release's, the model class."""
    if task is None:
        return
    if task in run.partial:
        row.partial[task] = run.partial[task]
    note = run.sources_note(task)
    if note and note not in row.set_aside:
        row.set_aside.append(note)
    row.data_notes += [found for found in data_notes(run, task) if found not in row.data_notes]
    row.basis_notes += [found for found in basis_notes(run, task) if found not in row.basis_notes]
    if run.model_class(task) and run.model_class(task) not in row.model_classes:
        row.model_classes.append(run.model_class(task))


def _matching_tasks(run: Run, patterns: Sequence[str]) -> list[str]:
    out: list[str] = []
    for pattern in patterns:
        out.extend(t for t in run.tasks if fnmatchcase(t, pattern) and t not in out)
    return out


def _sampled_as(run: Run, task: str, sampling: tuple[int, float] | None) -> bool:
    """Whether the task's recorded (k, T) is ``sampling`` (always, for a setting without one)."""
    if sampling is None:
        return True
    k, t = run.sampling(task)
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
            k, t = run.sampling(task)
            out.append(f"`{task}` recorded k={k}, T={t}: not a setting of this table")
    return out


def _fill(run: Run, setting: Setting, tasks: list[str], column) -> tuple[float | None, str | None]:
    """The first numeric value among the tasks; else (None, task) when a task reports the metric
    as undefined (null, e.g. MT|GT_strict without GT_strict passes); else (None, None)."""
    for task in tasks:
        value = run.metric(task, column.metric, setting.filters)
        if value is not None:
            return value * column.scale, task
    return None, next((t for t in tasks if run.undefined(t, column.metric)), None)


def _attach_interval(row: TableRow, run: Run, column: Column, task: str | None, value: float | None) -> None:
    if task is None or value is None:
        return
    found, why = cell_interval(run, task, column.metric, value / column.scale)
    if found is not None:
        row.intervals[column.key] = (found.low * column.scale, found.high * column.scale)
        if found.clusters < FEW_CLUSTERS:
            row.few_clusters[task] = found.clusters
        note = clustering_note(run, task)
        if note and note not in row.clustering:
            row.clustering.append(note)
    elif why and why not in row.no_interval:
        row.no_interval.append(why)


def setting_patterns(setting: Setting) -> str:
    names = ", ".join(p for group in setting.tasks for p in group)
    if setting.sampling is None:
        return names
    return f"{names} recorded with k={setting.sampling[0]}, T={setting.sampling[1]}"


def measured_rows(layout: Layout, run: Run) -> list[TableRow]:
    """The rows one run contributes to a layout (none when it ran none of the layout's tasks)."""
    rows: list[TableRow] = []
    if layout.rows == "setting":
        for setting in layout.settings:
            tasks = resolve_setting(run, setting)
            if not tasks:
                continue
            row = TableRow(MEASURED, run.label, setting.label, {})
            used = []
            for column in layout.columns:
                value, task = _fill(run, setting, tasks, column)
                row.values[column.key] = value
                _attach_interval(row, run, column, task, value)
                row.missing += _missing(column, tasks, value, task)
                _use_task(row, run, task)
                if task is not None and task not in used:
                    used.append(task)
            row.tasks[setting.label] = ", ".join(used) or ", ".join(tasks)
            rows.append(row)
        return rows
    resolved = {s.label: resolve_setting(run, s) for s in layout.settings}
    if not any(resolved.values()):
        return rows
    row = TableRow(MEASURED, run.label, None, {})
    for setting in layout.settings:
        if not resolved[setting.label]:
            row.missing.append(f"{setting.label}: not run (no task matching {setting_patterns(setting)})")
    for column in layout.columns:
        setting = layout.setting(column.setting)
        tasks = resolved[setting.label]
        value, task = _fill(run, setting, tasks, column) if tasks else (None, None)
        _use_task(row, run, task)
        if column.minus is not None:  # a difference of two cells: no interval of its own
            baseline = layout.setting(column.minus)
            base, base_task = _fill(run, baseline, resolved[baseline.label], column)
            _use_task(row, run, base_task)
            row.values[column.key] = None if value is None or base is None else value - base
            continue
        row.values[column.key] = value
        _attach_interval(row, run, column, task, value)
        if tasks:
            row.missing += _missing(column, tasks, value, task)
        if task is not None:
            used = row.tasks.setdefault(setting.label, "")
            if task not in used.split(", "):
                row.tasks[setting.label] = f"{used}, {task}" if used else task
    return [row]


def _missing(column, tasks: list[str], value: float | None, task: str | None) -> list[str]:
    """The note for a measured cell left empty: the metric is absent, or reported as null."""
    if task is None:
        return [f"`{column.metric}` ({column.header}) not in {', '.join(tasks)}"]
    if value is None:
        return [f"`{column.metric}` ({column.header}) undefined (null) in {task}"]
    return []


def unrun_settings(layout: Layout, run: Run) -> list[str]:
    """Settings of a per-setting layout that the run has no task for."""
    if layout.rows != "setting":
        return []
    return [s.label for s in layout.settings if not resolve_setting(run, s)]


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
        values = {c.key: raw.get(c.key) for c in layout.columns}
        flags = parse_flags(raw.get("flags"))
        marks = {}
        for column in layout.columns:  # in column order, so the output is deterministic
            for kind in sorted(flags):
                if column.key in flags[kind] and kind in CELL_MARKS and CELL_MARKS[kind] not in marks.get(column.key, ""):
                    marks[column.key] = marks.get(column.key, "") + CELL_MARKS[kind]
        row_mark = "".join(ROW_MARKS[k] for k in sorted(flags) if k in ROW_MARKS)
        rows.append(
            TableRow(
                PUBLISHED,
                str(model),
                setting,
                values,
                marks,
                row_mark,
                raw.get("note") or "",
                flags=raw.get("flags") or "",
            )
        )
    return rows


def build_rows(layout: Layout, runs: Iterable[Run], include_published: bool = True) -> list[TableRow]:
    rows = published_rows(layout) if include_published else []
    for run in runs:
        rows.extend(measured_rows(layout, run))
    if layout.rank_by:
        # stable: ties keep published (paper order) before measured (run order)
        rows.sort(key=lambda r: _rank_key(layout, r))
    return rows


def rank_value(layout: Layout, row: TableRow) -> float | None:
    """The row's ranking value: its ``rank_by`` column, or the mean of several (None if one is missing)."""
    keys = (layout.rank_by,) if isinstance(layout.rank_by, str) else layout.rank_by
    values = [row.values.get(k) for k in keys or ()]
    if not values or any(v is None for v in values):
        return None
    return sum(values) / len(values)


def _rank_key(layout: Layout, row: TableRow) -> tuple[bool, float]:
    value = rank_value(layout, row)
    return (value is None, -(value or 0.0))


def cell_text(value: float | None, decimals: int, source: str) -> str:
    if value is None:
        return "-" if source == PUBLISHED else "–"
    return f"{value:.{decimals}f}"


def bounds_text(bounds: tuple[float, float], decimals: int) -> str:
    return f"[{bounds[0]:.{decimals}f}, {bounds[1]:.{decimals}f}]"
