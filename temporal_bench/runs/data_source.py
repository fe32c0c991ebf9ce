"""The data a logged run read, as its results JSON records it (each task's ``data_source`` metric: the record
every doc carries, utils/data_source.py), and where ``temporal-bench browse`` and ``rescore`` load it from now:
the folder given on their command line, else the environment's, else the one the run recorded.

Every command reads the record through this module only (:func:`task_source` takes the whole results JSON and a
task name), so that where the harnesses store it can change in one place. Besides the location and fingerprint, a
record says how many rows (questions) the task read (``rows``), how many the benchmark's release has
(``expected_rows``; null: unknown) and whether the data is synthetic (``synthetic``); a key a run did not record
is unknown, never guessed, except that a run recorded without ``synthetic`` counts as synthetic when its recorded
folder holds the marker file of generated data.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import SYNTHETIC_MARKER

DATA_SOURCE_KEY = "data_source"


class DataLocationError(ValueError):
    """Runs that read one benchmark's data from different places, with no location given."""


def task_source(data: Mapping[str, Any], task: str) -> dict | None:
    """The data source ``task`` recorded in a results JSON (``data``, as read): its ``data_source`` metric, else
    ``configs.<task>.metadata.data_source`` (a results file written outside a harness, or a run made before the
    metric); None: none recorded."""
    entry = (data.get("results") or {}).get(task) or {}
    source = next((value for key, value in entry.items() if key.partition(",")[0] == DATA_SOURCE_KEY), None)
    if source is None:
        metadata = ((data.get("configs") or {}).get(task) or {}).get("metadata")
        source = metadata.get(DATA_SOURCE_KEY) if isinstance(metadata, dict) else None
    return source if isinstance(source, dict) else None


def record_task_source(data: dict[str, Any], task: str, source: Mapping[str, Any]) -> None:
    """Record ``source`` as the data ``task`` read, where the tasks record it (their ``data_source`` metric, under
    each filter the entry has): for results files written outside a harness (the TempVS release's scored outputs)
    and tests' edited runs."""
    entry = data.setdefault("results", {}).setdefault(task, {})
    keys = [key for key in entry if key.partition(",")[0] == DATA_SOURCE_KEY] or [f"{DATA_SOURCE_KEY},none"]
    for key in keys:
        entry[key] = dict(source)


def _where(source: dict) -> str:
    if "folder" in source:
        return f"folder {source['folder']}"
    return f"the hub dataset {source.get('hub')} (revision {source.get('revision')})"


def describe_source(source: Mapping[str, Any] | None) -> str:
    """``folder /data/x (fingerprint 3bd355309f7d)``; for None, that the run recorded no data source."""
    if source is None:
        return "no recorded data source (a run made before runs recorded it)"
    return f"{_where(dict(source))} (fingerprint {source.get('fingerprint')})"


def same_data(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two recorded sources are the same data: the same fingerprint of the files read, or the
    same revision of the same hub dataset (whose cached files may be laid out differently)."""
    if a.get("fingerprint") is not None and a.get("fingerprint") == b.get("fingerprint"):
        return True
    return "hub" in a and a.get("revision") is not None and (a.get("hub"), a.get("revision")) == (b.get("hub"), b.get("revision"))


def source_is_synthetic(source: Mapping[str, Any] | None) -> bool:
    """Whether the source is marked synthetic: its ``synthetic`` key, else the marker file in the folder
    it recorded (False when neither says so)."""
    if source is None:
        return False
    if isinstance(source.get("synthetic"), bool):
        return source["synthetic"]
    return "folder" in source and (Path(source["folder"]) / SYNTHETIC_MARKER).is_file()


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def count_difference(source: Mapping[str, Any] | None) -> str | None:
    """``read 654 rows, the release has 764`` when the source records both counts and they differ;
    None when they agree, either is unknown, or the data is synthetic (its size differs by design)."""
    if source is None or source_is_synthetic(source):
        return None
    rows, expected = _count(source.get("rows")), _count(source.get("expected_rows"))
    if rows is None or expected is None or rows == expected:
        return None
    return f"read {rows:,} rows, the release has {expected:,}"


@dataclass
class DataLocations:
    """The variables to set while a run's docs are rebuilt, and one note per decision."""

    assignments: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # which location each benchmark's data comes from, and why
    missing: list[str] = field(default_factory=list)  # the notes on recorded folders that no longer exist


def data_locations_of(runs: Sequence[Any], given: Mapping[str, str], option: str, wanted: Sequence[str] = ()) -> DataLocations:
    """Where the tasks of ``runs`` (temporal_bench.runs.logged.LoggedRun; those ``wanted``, or all) load their data: for
    each data variable, the folder ``given`` on the command line (with ``option``), else the
    environment's, else the single place the runs recorded. A recorded folder that no longer exists
    is still set (loading then fails naming it, never falls back to the hub) and noted in ``missing``."""
    recorded: dict[str, dict[str, dict]] = defaultdict(dict)  # variable -> where -> source
    unrecorded = []
    for run in runs:
        for task in (t for t in run.tasks if not wanted or t in wanted):
            source = task_source(run.data, task)
            if source is None or not source.get("variable"):
                unrecorded.append(task)
            else:
                recorded[source["variable"]][_where(source)] = source
    found = DataLocations()
    for variable in sorted(set(recorded) | set(given)):
        sources = recorded.get(variable, {})
        read = f" (the run read {'; '.join(sources)})" if sources else ""
        environment = os.environ.get(variable, "").strip()
        if variable in given:
            found.assignments[variable] = given[variable]
            found.notes.append(f"{variable}={given[variable]} (given with {option}){read}")
        elif environment:
            found.notes.append(f"{variable}={environment} (from the environment){read}")
        elif len(sources) > 1:
            raise DataLocationError(f"the runs read {variable} from different places ({'; '.join(sources)}): give the one to use with {option} {variable}=FOLDER")
        elif "folder" in next(iter(sources.values())):
            folder = next(iter(sources.values()))["folder"]
            found.assignments[variable] = folder
            if Path(folder).is_dir():
                found.notes.append(f"{variable}={folder} (the folder the run read, from its results JSON)")
            else:
                found.missing.append(f"the run's data folder {folder} ({variable}) no longer exists; pass {option} {variable}=FOLDER with the run's data")
                found.notes.append(found.missing[-1])
        else:
            found.notes.append(f"{variable} not set: {next(iter(sources))}, as the run read it")
    if unrecorded:
        found.notes.append(f"{', '.join(unrecorded)}: the run recorded no data source; loaded where the environment says")
    return found


def data_change(task: str, before: Mapping[str, Any] | None, now: Mapping[str, Any] | None) -> str | None:
    """A note when the task's data ``now`` (the rebuilt docs') has another fingerprint than the data the run read
    (``before``, its recorded source); None when they match or either is unknown."""
    if before is None or now is None or before.get("fingerprint") == now.get("fingerprint"):
        return None
    return f"{task}: its data now ({_where(now)}, fingerprint {now.get('fingerprint')}) is not the run's ({_where(before)}, fingerprint {before.get('fingerprint')})"


def _identified(source: Mapping[str, Any] | None) -> bool:
    """Whether a source says which data it is: a fingerprint, or a hub dataset's revision."""
    return source is not None and (source.get("fingerprint") is not None or ("hub" in source and source.get("revision") is not None))


def data_differences(sources: Mapping[str, Mapping[str, Mapping[str, Any] | None]]) -> tuple[dict[str, str], list[str]]:
    """``task -> run -> its recorded source`` (None: none recorded): for each task whose runs read
    different data a line naming each run's source, and lines naming the tasks a run recorded no
    fingerprint for while another did (their data cannot be checked)."""
    differ: dict[str, str] = {}
    unchecked: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}  # (runs without, runs with) -> tasks
    for task, by_run in sources.items():
        groups: list[tuple[Mapping[str, Any], list[str]]] = []  # one per distinct data: its source, the runs that read it
        for run, source in by_run.items():
            if _identified(source):
                group = next((g for g in groups if same_data(g[0], source)), None)
                if group is None:
                    groups.append((source, [run]))
                else:
                    group[1].append(run)
        if len(groups) > 1:
            differ[task] = f"{task}: " + "; ".join(f"{', '.join(runs)} read {describe_source(source)}" for source, runs in groups)
        missing = tuple(run for run, source in by_run.items() if not _identified(source))
        if groups and missing:
            unchecked.setdefault((missing, tuple(r for _, runs in groups for r in runs)), []).append(task)
    unknown = [f"{', '.join(tasks)}: {', '.join(missing)} recorded no fingerprint of the data read, so it cannot be checked against {', '.join(known)}'s" for (missing, known), tasks in unchecked.items()]
    return differ, unknown
