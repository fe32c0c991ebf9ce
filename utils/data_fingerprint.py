"""Which data a run read: the resolved source and a fingerprint of the files, logged at load,
recorded in the results JSON and carried in every per-doc record, so that a run says what it was
computed on with or without ``--log_samples``.

The record is the task config's ``metadata.data_source`` (:data:`DATA_SOURCE_KEY`): the hook that
loads the data writes it into the config of the harness task it runs for (utils/harness_task.py),
which the harness then dumps as ``configs.<task>.metadata`` (docs/harness.md "What a run records").
"""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Optional

from loguru import logger as eval_logger

from temporal_bench.utils.harness_task import calling_task

DATA_SOURCE_KEY = "data_source"


@dataclass(frozen=True)
class DataSource:
    """Where a task's data came from: the folder its ``variable`` named, or a hub dataset at a revision."""

    variable: str  # the benchmark's *_DATA_DIR
    description: str  # for the load log
    folder: Optional[Path] = None  # a local folder: setting ``variable`` to it reads the same data
    hub: Optional[str] = None  # else the hub dataset id
    revision: Optional[str] = None  # and the revision of its cached copy

    def record(self, fingerprint: str, files: int) -> Dict:
        where = {"folder": os.path.abspath(self.folder)} if self.folder is not None else {"hub": self.hub, "revision": self.revision}
        return {"variable": self.variable, **where, "fingerprint": fingerprint, "files": files}


def fingerprint(paths: Iterable[Path]) -> str:
    """The first 12 hex digits of a SHA-256 over the files' names and contents, in name order."""
    digest = hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        digest.update(path.name.encode() + b"\0")
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:12]


def log_source(benchmark: str, source: DataSource, paths: Iterable[Path]) -> str:
    """Log ``<benchmark> data: <source>, <n> annotation files, fingerprint <hex>``, record the source
    in the config of the harness task being built (none when called outside a harness) and return
    the fingerprint."""
    paths = list(paths)
    value = fingerprint(paths)
    eval_logger.info(f"{benchmark} data: {source.description}, {len(paths)} annotation file(s), fingerprint {value}")
    task = calling_task()
    if task is not None:
        metadata = task.config.metadata if isinstance(task.config.metadata, dict) else {}
        # a new dict: the harness may share the loaded YAML's dict between the tasks it builds
        task.config.metadata = {**metadata, DATA_SOURCE_KEY: source.record(value, len(paths))}
    return value
