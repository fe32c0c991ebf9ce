"""Which data a run read: the resolved source and a fingerprint of the files, logged at load and
carried in every per-doc record so that a results/samples pair says what it was computed on."""

import hashlib
from pathlib import Path
from typing import Iterable

from loguru import logger as eval_logger


def fingerprint(paths: Iterable[Path]) -> str:
    """The first 12 hex digits of a SHA-256 over the files' names and contents, in name order."""
    digest = hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        digest.update(path.name.encode() + b"\0")
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:12]


def log_source(benchmark: str, source: str, paths: Iterable[Path]) -> str:
    """Log ``<benchmark> data: <source>, <n> annotation files, fingerprint <hex>`` and return the fingerprint."""
    paths = list(paths)
    value = fingerprint(paths)
    eval_logger.info(f"{benchmark} data: {source}, {len(paths)} annotation file(s), fingerprint {value}")
    return value
