"""The benchmarks' data folders as the commands take them (``--data NAME=FOLDER``), where a run's docs are rebuilt
from (rescore), and the environment that names them while that happens.

A folder given on the command line wins, then the environment's variable, then the folder the run's logged images
lie in (the release's root above them: temporal_bench/runs/data_read.py); a task without images (CaT-Bench) read
from a local folder, which lmms-eval does not record, is rebuilt from the environment's or the hub's data and its
answers are checked against the logged ones (rescore refuses a doc whose gold answer differs).
"""

import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporal_bench import manifest

DATA_ENVS = tuple(declared.data_variable for declared in manifest.manifests().values())


def data_variable(task: str) -> str:
    """The data variable of a task's benchmark (its prefix)."""
    return manifest.data_variable(task.split("_", 1)[0])


def parse_locations(items) -> dict[str, str]:
    """``NAME=VALUE`` items naming data folders (one of :data:`DATA_ENVS`) as a dict."""
    found = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or name not in DATA_ENVS:
            raise ValueError(f"{item!r}: expected NAME=FOLDER with NAME one of {', '.join(DATA_ENVS)} (scoring settings are task configuration, not variables)")
        found[name] = value
    return found


@contextlib.contextmanager
def data_locations(assignments: dict[str, str]) -> Iterator[None]:
    """The environment with the data folders of ``assignments`` set, restored afterwards (rebuilding a
    run's docs in-process, as rescore and the demo do)."""
    saved = {name: os.environ.get(name) for name in assignments}
    os.environ.update(assignments)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@dataclass
class DataLocations:
    """The variables to set while a run's docs are rebuilt, and one note per decision."""

    assignments: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # which location each benchmark's data comes from, and why


def data_locations_of(reads: dict[str, Any], given: dict[str, str], option: str) -> DataLocations:
    """Where the tasks whose ``reads`` (task -> temporal_bench.runs.data_read.DataRead, None: no samples) are given load
    their data: for each data variable, the folder ``given`` on the command line (with ``option``), else the
    environment's, else the release folder above the images the run read (one such folder; several: an error)."""
    from temporal_bench.runs.record_reader import reader_of

    found = DataLocations()
    roots: dict[str, set[str]] = {}
    for task, read in reads.items():
        root = reader_of(task).data_folder(Path(read.folder)) if read is not None and read.folder else None
        roots.setdefault(data_variable(task), set()).update([str(root)] if root else [])
    for variable in sorted(set(roots) | set(given)):
        environment = os.environ.get(variable, "").strip()
        if variable in given:
            found.assignments[variable] = given[variable]
            found.notes.append(f"{variable}={given[variable]} (given with {option})")
        elif environment:
            found.notes.append(f"{variable}={environment} (from the environment)")
        elif len(roots.get(variable, ())) > 1:
            raise ValueError(f"the runs read {variable}'s data from different folders ({'; '.join(sorted(roots[variable]))}): give the one to use with {option} {variable}=FOLDER")
        elif roots.get(variable):
            (folder,) = roots[variable]
            found.assignments[variable] = folder
            found.notes.append(f"{variable}={folder} (the folder of the images the run read)")
        else:
            found.notes.append(f"{variable} not set: the hub release, or give the run's folder with {option} {variable}=FOLDER")
    return found


def data_folder_above(folder: Path, holds: Sequence[str]) -> Path | None:
    """The nearest folder at or above ``folder`` that holds one of ``holds`` (file or folder names)."""
    return next((parent for parent in [folder, *folder.parents] if any((parent / name).exists() for name in holds)), None)
