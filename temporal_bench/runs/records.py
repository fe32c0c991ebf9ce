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

from temporal_bench import benchmarks
from temporal_bench.runs.data_read import DataRead, content_key, data_read, request_failed
from temporal_bench.runs.logged import LoggedRun, RunReadError
from temporal_bench.runs.record_reader import reader_of


class RecordsError(RunReadError):
    """A task whose records cannot be read back: no samples file, or lines without a record."""


def doc_record(line: dict) -> dict | None:
    """The record our ``process_results`` returned for the sample line's doc (None if it holds
    none): the first metric value that is a record, i.e. a dict with the gold answer and the parsed
    prediction (lm-eval also logs the doc itself, under ``doc``)."""
    return next((v for k, v in line.items() if k != "doc" and isinstance(v, dict) and "gold" in v and "pred" in v), None)


def read_record(task: str, line: dict, config: dict, model_config: dict) -> dict | None:
    """The record of a sample line as its benchmark reads it under the run's settings (``config``: the task's config,
    ``model_config``: the run's ``config``), with ``failed`` and ``content``; None when the line holds none."""
    record = doc_record(line)
    if record is None:
        return None
    record = reader_of(task).normalise(record, config, model_config)
    key = content_key(task, line, record, config, model_config)
    record["failed"] = request_failed(line)
    record["content"] = hashlib.sha256(key.encode()).hexdigest()[:16] if key is not None else None
    return record


def per_test_records(task: str, records: list[dict]) -> dict[str, list[dict]]:
    """``{task: records}``, or the benchmark's split of a task holding several tests (each test's records
    under its own task's name, as :func:`temporal_bench.runs.results.per_test_results` splits the metrics)."""
    benchmark = benchmarks.of_task(task)
    if benchmark is None or benchmark.per_test_records is None:
        return {task: records}
    return benchmark.per_test_records(task, records)


def task_records(run: LoggedRun, task: str) -> list[dict]:
    """Every logged record of ``task``, in the logged order (one filter: lm-eval logs the filter's
    name; a task logged under several filters is refused rather than mixed)."""
    path = run.samples.get(task)
    if path is None or not path.is_file():
        name = path.name if path is not None else f"a samples file of {task}"
        raise RecordsError(f"{run.results_path}: no {name} beside it (run with --log_samples)")
    lines = run.lines(task)
    filters = {line["filter"] for line in lines if "filter" in line}
    if len(filters) > 1:
        raise RecordsError(f"{path}: logged under several filters ({', '.join(sorted(filters))}); intervals need one record per doc")
    records = [read_record(task, line, run.task_config(task), run.data.get("config") or {}) for line in lines]
    missing = sum(record is None for record in records)
    if missing:
        raise RecordsError(f"{path}: {missing} of {len(lines)} sample lines hold no per-doc record")
    return records


def task_data(run: LoggedRun, task: str) -> DataRead | None:
    """What ``task`` of ``run`` read and how its requests fared (temporal_bench/runs/data_read.py); None without its
    samples file (a run made without ``--log_samples``)."""
    path = run.samples.get(task)
    if path is None or not path.is_file():
        return None
    config, model_config = run.task_config(task), run.data.get("config") or {}
    lines = run.lines(task)
    return data_read(task, lines, [read_record(task, line, config, model_config) for line in lines], config, model_config)
