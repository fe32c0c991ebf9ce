"""The per-doc records of a run, read back from its ``--log_samples`` output.

The tasks' ``process_results`` return one record per doc, which both harnesses log under each metric key of the doc's
sample line: :func:`doc_record` is the one place that knows where a record sits in a sample line. A record read back
is the logged one as its benchmark reads it under the run's settings (its ``record_reader``: the answer of the
model's parser branch, fields its task's settings imply), with ``failed``: whether the request failed or brought no
response, and ``content``: a digest of what the doc asks and shows (None for a doc derived from others), so that
two runs' records of a question join only on the same data (temporal_bench/runs/data_read.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from temporal_bench import benchmarks
from temporal_bench.runs.data_read import content_key, image_digests
from temporal_bench.runs.lines import request_failed
from temporal_bench.runs.record_reader import reader_of


def doc_record(line: dict) -> dict | None:
    """The record our ``process_results`` returned for the sample line's doc (None if it holds
    none): the first metric value that is a record, i.e. a dict with the gold answer and the parsed
    prediction (lm-eval also logs the doc itself, under ``doc``)."""
    return next((v for k, v in line.items() if k != "doc" and isinstance(v, dict) and "gold" in v and "pred" in v), None)


def read_record(task: str, line: dict, config: dict, model_config: dict, digest: Callable[[str], str | None] | None = None) -> dict | None:
    """The record of a sample line as its benchmark reads it under the run's settings (``config``: the task's config,
    ``model_config``: the run's ``config``), with ``failed`` and ``content`` (``digest``: the images' digests, shared
    by a run's lines: runs/data_read.py ``image_digests``); None when the line holds none."""
    record = doc_record(line)
    return None if record is None else line_facts(task, line, reader_of(task).normalise(record, config, model_config), config, model_config, digest)


def line_facts(task: str, line: dict, record: dict | None, config: dict, model_config: dict, digest: Callable[[str], str | None] | None = None) -> dict:
    """``record`` (a line's record read back; None: a line holding none, as a task of no benchmark of this package
    logs them) with ``failed`` and ``content``."""
    key = content_key(task, line, record, config, model_config, digest or image_digests())
    return {**(record or {}), "failed": request_failed(line), "content": hashlib.sha256(key.encode()).hexdigest()[:16] if key is not None else None}


def per_test_records(task: str, records: list[dict]) -> dict[str, list[dict]]:
    """``{task: records}``, or the benchmark's split of a task holding several tests (each test's records
    under its own task's name, as :func:`temporal_bench.runs.results.per_test_results` splits the metrics)."""
    benchmark = benchmarks.of_task(task)
    if benchmark is None or benchmark.per_test_records is None:
        return {task: records}
    return benchmark.per_test_records(task, records)
