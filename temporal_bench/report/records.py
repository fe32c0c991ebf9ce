"""The per-doc records of a run, read back from its ``--log_samples`` output.

Our tasks' ``process_results`` return one record per doc (tempvs/metrics.py ``make_record``,
utils/per_doc.py), which both harnesses log under each metric key of the doc's sample line.
:func:`doc_record` is the one place that knows where a record sits in a sample line; runs and their
samples files are found as ``temporal-bench rescore`` finds them (temporal_bench/report/rescore.py).
"""

from __future__ import annotations

from pathlib import Path

from temporal_bench.report.rescore import LoggedRun, find_runs, read_samples
from temporal_bench.tempvs import suite
from temporal_bench.tempvs.spec import SUITE_GROUNDING_TASK


class RecordsError(Exception):
    """A task whose records cannot be read back: no samples file, or lines without a record."""


def doc_record(line: dict) -> dict | None:
    """The record our ``process_results`` returned for the sample line's doc (None if it holds
    none): the first metric value that is a record, i.e. a dict with the gold answer and the parsed
    prediction (lm-eval also logs the doc itself, under ``doc``)."""
    return next((v for k, v in line.items() if k != "doc" and isinstance(v, dict) and "gold" in v and "pred" in v), None)


def logged_run(results_path: Path) -> LoggedRun:
    """The run of one results file (lmms-eval's or lm-eval's naming)."""
    runs = find_runs(results_path)
    if not runs:
        raise RecordsError(f"{results_path}: not an lmms-eval or lm-eval results file with samples beside it")
    return runs[0]


def task_records(run: LoggedRun, task: str) -> list[dict]:
    """Every logged record of ``task``, in the logged order (one filter: lm-eval logs the filter's
    name; a task logged under several filters is refused rather than mixed). A main task of
    ``--tasks tempvs`` gets the records of the grounding questions it joins too, from the suite
    grounding task's samples (temporal_bench/tempvs/suite.py), as its metrics saw them."""
    records = _logged_records(run, task)
    if suite.is_suite_main(task):
        records = suite.with_served_grounding(records, suite.served_by_test(_logged_records(run, SUITE_GROUNDING_TASK)))
    return records


def _logged_records(run: LoggedRun, task: str) -> list[dict]:
    path = run.samples.get(task)
    if path is None or not path.is_file():
        name = path.name if path is not None else f"a samples file of {task}"
        raise RecordsError(f"{run.results_path}: no {name} beside it (run with --log_samples)")
    lines = read_samples(path)
    filters = {line["filter"] for line in lines if "filter" in line}
    if len(filters) > 1:
        raise RecordsError(f"{path}: logged under several filters ({', '.join(sorted(filters))}); "
                           "intervals need one record per doc")
    records = [doc_record(line) for line in lines]
    missing = sum(record is None for record in records)
    if missing:
        raise RecordsError(f"{path}: {missing} of {len(lines)} sample lines hold no per-doc record")
    return records
