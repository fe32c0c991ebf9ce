"""CaT-Bench's breakdowns (accuracy, invalid answers, macro F1 by relation and by close/distant step pairs), computed
with the tasks' headline metrics from a run's logged records as the report reads them."""

from collections.abc import Callable

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID
from temporal_bench.lmms_eval_tasks.catbench import metrics
from temporal_bench.lmms_eval_tasks.catbench.metrics import METRIC_NAMES, report_metric


def invalid_count(records: list[dict]) -> int:
    """Answers that came back but could not be parsed; a failed request is no answer (``failed_count``), as every
    command counts them (temporal_bench/runs/data_read.py)."""
    return sum(r["pred"] == INVALID and not r["failed"] for r in records)


def close_max_distance(records: list[dict]) -> int:
    """The run's ``close_max_distance`` setting, which every record read back carries (catbench/record_reader.py)."""
    values = {r["close_max_distance"] for r in records}
    if len(values) > 1:
        raise ValueError(f"records of several close_max_distance settings {sorted(values)}: one run's records only")
    return values.pop()


def _where(score: str, keep: Callable[[dict], bool]) -> Callable:
    """Aggregation giving ``score`` of the classification report over the records kept."""
    return lambda records: report_metric(score)([r for r in records if keep(r)])


def _by_distance(close: bool) -> Callable:
    def aggregate(records: list[dict]) -> float | None:
        threshold = close_max_distance(records) if records else 0
        return _where("f1_macro", lambda r: (r["distance"] <= threshold) == close)(records)

    return aggregate


def invalid_rate(records: list[dict]) -> float | None:
    """:func:`invalid_count` among the answers that came back (None when every request failed)."""
    answered = sum(not r["failed"] for r in records)
    return invalid_count(records) / answered if answered else None


def failed_count(records: list[dict]) -> int:
    """Requests that failed or brought no response."""
    return sum(r["failed"] for r in records)


BREAKDOWNS: dict[str, Callable] = {
    "accuracy": report_metric("accuracy"),
    "invalid_count": invalid_count,
    "invalid_rate": invalid_rate,
    "failed_count": failed_count,
    "f1_macro_before": _where("f1_macro", lambda r: r["relation"] == "before"),
    "f1_macro_after": _where("f1_macro", lambda r: r["relation"] == "after"),
    "f1_macro_close": _by_distance(close=True),
    "f1_macro_distant": _by_distance(close=False),
}


def breakdown_metrics(task: str, records: list[dict]) -> dict[str, float | None]:
    """Every metric key a CaT-Bench task reports, headline and breakdown, from one run's logged records (None where a
    figure has no examples)."""
    if not records:
        raise ValueError(f"{task}: no records")
    return {**{name: getattr(metrics, name)(records) for name in METRIC_NAMES}, **{name: compute(records) for name, compute in BREAKDOWNS.items()}}
