"""What a task of a run read and how its requests fared, computed after the run from what the harness logged, for
a run of this package's tasks and of the upstream folders alike: the samples' questions, gold answers (``target``),
responses and image files (lmms-eval 0.7.3 logs the image files a doc names, as ``input_media``), and the task's
config (its ``dataset_path``).

* the data's identity: a fingerprint of the questions, gold answers and images of every doc (each benchmark says
  what a question's identity is, e.g. without the image tokens some model classes add to a prompt), its counts
  (per split, source and label: each benchmark's), where its images were read and whether it is generated data
  (the marker file of this package's synthetic data above the images or in the local dataset the task names, or what
  the benchmark reads in its records);
* the requests: those that failed or brought no response (lmms-eval's failure texts), and the answers that could
  not be parsed.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from temporal_bench.runs.lines import logged_media
from temporal_bench.runs.record_reader import RecordReader, reader_of
from temporal_bench.synthetic_data import MARKER

PLACEHOLDER = "placeholder.jsonl"  # this package's tasks load it and read the data themselves (lmms_eval_tasks/plugin)
_DIGESTS: dict[tuple[str, int, int], str | None] = {}  # (path, size, mtime) -> its content's digest: each image hashed once per process


@dataclass(frozen=True)
class DataRead:
    """The data one task of a run read (its logged docs) and how its requests fared."""

    questions: int
    fingerprint: str  # of every doc's question, gold answer and images
    counts: dict[str, int] = field(default_factory=dict)  # the benchmark's counts (split, source, label)
    images: int = 0  # image files named and read
    unread_images: tuple[str, ...] = ()  # image files named that cannot be read now (not in the fingerprint)
    folder: str | None = None  # where the images were read
    dataset: str | None = None  # the dataset the task's config names (an upstream task: its hub id)
    synthetic: bool = False
    failed: int = 0  # requests that failed or brought no response
    invalid: int = 0  # answers (of requests that did not fail) that could not be parsed

    @property
    def answered(self) -> int:
        """The requests that brought a response."""
        return self.questions - self.failed

    @property
    def unparseable(self) -> bool:
        """Whether none of the answers could be parsed: its scores say nothing of the model, so ``check`` fails the run and
        ``report`` judges none of it (one definition for both)."""
        return self.answered > 0 and self.invalid >= self.answered

    def where(self) -> str:
        """Where the data was read, as far as the run shows it."""
        if self.dataset:
            return f"the dataset {self.dataset}"
        if self.folder:
            return f"images under {self.folder}"
        return "its data variable's folder or the hub's copy (a task without images: the run does not say which)"

    def describe(self) -> str:
        """``2,840 question(s), fingerprint 3bd3... (images under /data/x)`` and what is odd about it."""
        notes = [self.where()] + (["synthetic data"] if self.synthetic else [])
        if self.unread_images:
            notes.append(f"{len(self.unread_images)} image file(s) named but not readable now, e.g. {self.unread_images[0]}")
        return f"{self.questions:,} question(s), fingerprint {self.fingerprint} ({'; '.join(notes)})"


def _digest(path: str) -> str | None:
    """The content digest of an image file (None: it cannot be read); a ``data:`` URI is its own content."""
    if path.startswith("data:"):
        return hashlib.sha256(path.encode()).hexdigest()
    try:
        stat = os.stat(path)
    except OSError:
        return None
    key = (path, stat.st_size, int(stat.st_mtime_ns))
    if key not in _DIGESTS:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _DIGESTS[key] = digest.hexdigest()
    return _DIGESTS[key]


def _synthetic_marker(folder: str | None, levels: int = 4) -> bool:
    """Whether this package's marker of generated data is in ``folder`` or one of the folders above it."""
    if not folder:
        return False
    path = Path(folder)
    return any((parent / MARKER).is_file() for parent in [path, *path.parents][: levels + 1])


def _local_dataset(config: dict) -> str | None:
    """The folder a task's ``dataset_path`` names when it is a local converted dataset (its marker of generated data
    is there: its images are unpacked into the datasets cache)."""
    path = config.get("dataset_path")
    return path if isinstance(path, str) and os.path.isdir(path) else None


def named_dataset(config: dict) -> str | None:
    """The dataset a task's config names, unless it is this package's placeholder (a task that reads the data itself)."""
    path = config.get("dataset_path")
    files = str((config.get("dataset_kwargs") or {}).get("data_files") or "")
    if not isinstance(path, str) or PLACEHOLDER in files:
        return None
    return path if path not in ("json", "csv", "parquet", "arrow", "text") else f"{path} files {files}"


def image_digests() -> Callable[[str], str | None]:
    """:func:`_digest` with each path digested once (for the lines of one run, which name an image many times)."""
    return functools.cache(_digest)


def content_key(task: str, line: dict, record: dict | None, config: dict, model_config: dict, digest: Callable[[str], str | None] = _digest) -> str | None:
    """What a logged doc asks: its benchmark's identity of the question and gold answer, and the content of its
    images (``digest``: each image's content digest); the same for the same doc of the same data whatever the run or
    model class. None for a doc the benchmark derives from others (CaT-Bench's switched twins)."""
    reader = reader_of(task)
    question = reader.question(record, line, config, model_config) if record is not None else RecordReader().question({}, line, config, model_config)
    if question is None:
        return None
    return question + "|" + ",".join(digest(path) or "?" for path in logged_media(line))


def data_read(task: str, lines: list[dict], records: list[dict], config: dict, model_config: dict) -> DataRead:
    """The :class:`DataRead` of ``task`` from its logged ``lines`` and their records as read back (each with the
    ``content`` digest of what its doc asks and shows: temporal_bench/runs/records.py)."""
    reader = reader_of(task)
    images = {path: _digest(path) for path in {path: None for line in lines for path in logged_media(line)}}
    digest = hashlib.sha256()
    for key in sorted(record["content"] for record in records if record["content"] is not None):
        digest.update(key.encode() + b"\n")
    unread = [path for path, value in images.items() if value is None]
    readable = [path for path, value in images.items() if value and not path.startswith("data:")]
    folder = os.path.commonpath(readable) if readable else None
    folder = str(Path(folder).parent) if folder and Path(folder).is_file() else folder or model_config.get("data")  # data: the folder a release's scored outputs come from
    return DataRead(
        questions=len(lines),
        fingerprint=digest.hexdigest()[:16],
        counts=reader.counts(records, config),
        images=len(readable),
        unread_images=tuple(unread),
        folder=folder,
        dataset=named_dataset(config),
        synthetic=reader.synthetic(records, lines) or _synthetic_marker(folder) or _synthetic_marker(_local_dataset(config)),
        failed=sum(record["failed"] for record in records),
        invalid=sum(reader.invalid(record) and not record["failed"] for record in records),
    )


def _differing_counts(read: DataRead, expected: dict[str, int]) -> str | None:
    differ = {key: (read.counts.get(key, 0), value) for key, value in expected.items() if read.counts.get(key, 0) != value}
    return "counts (read / the release's): " + ", ".join(f"{key} {found}/{value}" for key, (found, value) in differ.items()) if differ else None


def count_difference(task: str, read: DataRead, config: dict) -> str | None:
    """``counts (read / the release's): rows 654/764`` when the data's counts differ from the release's, for a benchmark
    whose release counts are known exactly (None when they agree, are not known, or the data is generated: its size
    differs by design)."""
    reader = reader_of(task)
    expected = reader.release_counts(config) if reader.counts_are_exact else None
    difference = _differing_counts(read, expected) if expected is not None and not read.synthetic else None
    hint = reader.count_hint(read.counts, config) if difference else None
    return f"{difference}; {hint}" if hint else difference


class ReleaseBasis(NamedTuple):
    """Whether a task read its benchmark's release as the paper's tables evaluated it, and why (or why not)."""

    is_release: bool
    why: str
    unverified: bool = False  # every count known of the release matches, but no fingerprint of it is recorded here: shown, never judged


def release_basis(task: str, read: DataRead | None, config: dict) -> ReleaseBasis:
    """Whether ``task`` read the release of its benchmark as its paper's tables evaluated it, and on what basis (or why
    not): its fingerprint equals the one this package records for the release. Where none is recorded, data whose every
    count known of the release matches may be the release but cannot be told from a copy with those counts (labels
    swapped within a class, other images of the same size): it is ``unverified``, shown but not judged."""
    reader = reader_of(task)
    if read is None:
        return ReleaseBasis(False, "no samples were logged (--log_samples), so the data it read is unknown")
    if read.synthetic:
        return ReleaseBasis(False, "it read synthetic data (generated in the benchmark's layout, not its release)")
    known = reader.release_fingerprint(config)
    if known is not None and read.fingerprint != known:
        return ReleaseBasis(False, f"not the release's data: fingerprint {read.fingerprint}, the release's is {known}")
    not_judged = reader.not_judged(config)
    if not_judged:
        return ReleaseBasis(False, not_judged)
    if known is not None:
        return ReleaseBasis(True, "its data's fingerprint is the release's")
    expected = reader.release_counts(config)
    wanted = {key: value for key, value in (expected or {}).items() if key in read.counts or reader.counts_are_exact}
    if not wanted:
        return ReleaseBasis(False, reader.no_counts_reason(config))
    difference = _differing_counts(read, wanted)
    if difference:
        return ReleaseBasis(False, f"not the release's data: {difference}")
    return ReleaseBasis(
        False,
        "unverified data: every count known of the release matches, but no fingerprint of the release is recorded here to tell it from a copy with the same counts (docs/uncertainty.md#recording-a-releases-fingerprint)",
        unverified=True,
    )


def data_differences(reads: dict[str, dict[str, DataRead | None]]) -> tuple[dict[str, str], list[str]]:
    """``task -> run -> the data it read`` (None: no samples to tell): for each task whose runs read different data
    (another fingerprint) a line naming each run's data, and lines naming the tasks a run cannot tell its data of."""
    differ, unknown = {}, []
    for task, by_run in reads.items():
        known = {run: read for run, read in by_run.items() if read is not None}
        if len({read.fingerprint for read in known.values()}) > 1:
            differ[task] = f"{task}: " + "; ".join(f"{run} read {read.describe()}" for run, read in known.items())
        missing = [run for run, read in by_run.items() if read is None]
        if missing and known:
            unknown.append(f"{task}: {', '.join(missing)} logged no samples, so its data cannot be checked against {', '.join(known)}'s")
    return differ, unknown
