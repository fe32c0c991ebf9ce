"""The data a logged run read, as its results JSON records it (each task's ``data_source`` metric: the record every
doc carries, utils/data_source.py; runs made before it was a metric: ``configs.<task>.metadata.data_source``), and
where ``temporal-bench browse`` and ``rescore`` load it from now: the folder given on their command line, else the
environment's, else the one the run recorded."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA_SOURCE_KEY = "data_source"


class DataLocationError(ValueError):
    """Runs that read one benchmark's data from different places, with no location given."""


def recorded_source(data: Mapping[str, Any], task: str) -> dict | None:
    """The data source ``task`` recorded in a results JSON's ``data`` (None for runs made before it was recorded)."""
    entry = (data.get("results") or {}).get(task) or {}
    source = next((value for key, value in entry.items() if key.partition(",")[0] == DATA_SOURCE_KEY), None)
    if source is None:
        metadata = ((data.get("configs") or {}).get(task) or {}).get("metadata")
        source = metadata.get(DATA_SOURCE_KEY) if isinstance(metadata, dict) else None
    return source if isinstance(source, dict) else None


def _where(source: dict) -> str:
    if "folder" in source:
        return f"folder {source['folder']}"
    return f"the hub dataset {source.get('hub')} (revision {source.get('revision')})"


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
            source = recorded_source(run.data, task)
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
            raise DataLocationError(f"the runs read {variable} from different places ({'; '.join(sources)}): " f"give the one to use with {option} {variable}=FOLDER")
        elif "folder" in next(iter(sources.values())):
            folder = next(iter(sources.values()))["folder"]
            found.assignments[variable] = folder
            if Path(folder).is_dir():
                found.notes.append(f"{variable}={folder} (the folder the run read, from its results JSON)")
            else:
                found.missing.append(f"the run's data folder {folder} ({variable}) no longer exists; " f"pass {option} {variable}=FOLDER with the run's data")
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
    return f"{task}: its data now ({_where(now)}, fingerprint {now.get('fingerprint')}) is not the run's " f"({_where(before)}, fingerprint {before.get('fingerprint')})"
