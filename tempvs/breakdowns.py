"""The breakdowns of TempVS's metrics (per source, per statement type and event distance, at-least-k grounding passes,
counts), computed from a run's logged records as the report reads them, under the metric keys the paper's tables
use; the headline metrics are the tasks' own (lmms_eval_tasks/tempvs/metrics.py), each breakdown one of them on the
records it selects."""

from collections.abc import Callable

from temporal_bench.lmms_eval_tasks.plugin.tempvs.metrics import UNGROUNDED_MODES, Judged, gt_acc_of, gtstrict_rate_of, mt_acc_of, mt_given_gtstrict_of
from temporal_bench.lmms_eval_tasks.tempvs.extraction import UNK
from temporal_bench.lmms_eval_tasks.tempvs.metrics import accuracy, ratio
from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES
from temporal_bench.tempvs.task_tests import SUITE_TASK, metric_prefix, records_of_test, tests_in

PAIRED_TYPES = ("after", "before", "then", "earlier", "implictpair")
TRIPLE_TYPES = ("beforeafter", "laterfinally", "firstsecondthird", "implicttriple")
DISTANCES = (1, 2, 3, 4)
# the official script's "at least k grounding passes" figures, k per family (run_evaluation.py,
# analyze_task_performance: k <= 1 of the two events, k <= 2 of three, k <= 4 of a sequence's images)
AT_LEAST_K = {"mt1_two": (1,), "mt1_three": (1, 2), "ordering": (1, 2, 3, 4)}
Metric = Callable[[Judged], float | int | None]


def _where(metric: Metric, keep: Callable[[dict], bool]) -> Metric:
    """``metric`` on the records ``keep`` selects."""
    return lambda scope: metric(scope.where(keep))


def _of_source(source: str) -> Callable[[dict], bool]:
    return lambda r: r["source"] == source


def _field_is(field: str, value: object) -> Callable[[dict], bool]:
    """The records whose ``field`` is ``value`` (a record without the field: not one of them)."""
    return lambda r: r.get(field) == value


def _at_least(k: int) -> dict[str, Metric]:
    """MT among the main questions with at least ``k`` grounding passes, and their number (the
    script's ``main_acc_given_{k}_pass``, ``{k}_pass_count``)."""
    passed = lambda scope: [r for r in scope.strict_mains if r["gt_passes"] >= k]  # noqa: E731
    return {f"mt_given_gt_atleast{k}": lambda scope: accuracy(passed(scope)), f"gt_atleast{k}_count": lambda scope: len(passed(scope))}


def mt_given_gtfail(scope: Judged) -> float | None:
    return accuracy([r for r in scope.strict_mains if not r["strict"]])


def mt_acc_filtered(scope: Judged) -> float | None:
    """Text-only runs: MT on the main questions the text-only-LLM filter keeps (paper Table 17's
    "after"); None when the records carry no filter mark."""
    if not scope.mains or any("filter_kept" not in r for r in scope.mains):
        return None
    return mt_acc_of(scope.where(lambda r: r["kind"] == "main" and r["filter_kept"]))


def gt_missing_count(scope: Judged) -> int:
    """Main questions left out of GT_strict because grounding partners were not evaluated (a task that asks grounding questions)."""
    return sum(r["mode"] not in UNGROUNDED_MODES and not r["complete"] for r in scope.joined)


def gt_unmatched_count(scope: Judged) -> int | None:
    """Main questions some of whose grounding rows the data lacks; None where the records do not say (the upstream
    tasks' records, lmms_eval_tasks/tempvs, carry no ``unmatched``)."""
    return None if any("unmatched" not in r for r in scope.joined) else sum(r["unmatched"] for r in scope.joined)


def invalid_rate(scope: Judged) -> float | None:
    """Share of the answers that came back (main and grounding questions) that could not be parsed (UNK); a failed
    request is no answer (``failed_count``), as every command counts them (temporal_bench/runs/data_read.py)."""
    answered = [r for r in scope.records if not r["failed"]]
    return ratio(sum(r["pred"] == UNK for r in answered), len(answered))


def served_count(scope: Judged) -> int:
    """Grounding questions of the grounding tests answered by the distinct questions asked (the task ``tempvs``)."""
    return sum(len(r.get("serves") or ()) for r in scope.records)


# the metric keys of each family's breakdowns (names chosen so no metric name contains another)
MAIN_CORE: dict[str, Metric] = {
    "gt_acc": gt_acc_of,
    "gtstrict_rate": gtstrict_rate_of,
    "mt_acc": mt_acc_of,
    "mt_given_gtstrict": mt_given_gtstrict_of,
    "mt_given_gtfail": mt_given_gtfail,
    "invalid_rate": invalid_rate,
    "failed_count": lambda scope: sum(r["failed"] for r in scope.records),  # requests that failed or brought no response
    "main_count": lambda scope: len(scope.mains),  # main questions evaluated
    "grounding_count": lambda scope: len(scope.grounding),  # the grounding questions evaluated
    "gt_missing_count": gt_missing_count,
    "gt_unmatched_count": gt_unmatched_count,
}
PER_SOURCE = {f"{name}_{source}": _where(metric, _of_source(source)) for source in SOURCES for name, metric in (("gt", gt_acc_of), ("gtstrict", gtstrict_rate_of), ("mt", mt_acc_of), ("mtgts", mt_given_gtstrict_of))}
AT_LEAST = {k: _at_least(k) for k in AT_LEAST_K["ordering"]}
BY_STATEMENT = {
    family: {f"{prefix}_{kind}_{polarity}": _where(mt_acc_of, _field_is("statement_type", f"{kind}_{suffix}")) for kind in kinds for polarity, suffix in (("pos", "gt"), ("neg", "nc"))}
    for family, prefix, kinds in (("mt1_two", "two", PAIRED_TYPES), ("mt1_three", "three", TRIPLE_TYPES))
}
BY_DISTANCE = {f"dist{d}": _where(mt_acc_of, _field_is("event_distance", d)) for d in DISTANCES}
METRICS: dict[str, Metric] = {
    **MAIN_CORE,
    **PER_SOURCE,
    "mt_acc_filtered": mt_acc_filtered,
    **{name: f for names in AT_LEAST.values() for name, f in names.items()},
    **BY_STATEMENT["mt1_two"],
    **BY_STATEMENT["mt1_three"],
    **BY_DISTANCE,
}


def _of_records(metric: Metric) -> Callable[[list[dict]], float | int | None]:
    return lambda records: metric(Judged.of(records))


# each metric of a task's records (each call judges them: breakdown_metrics judges a task's records once for all)
AGGREGATIONS = {name: _of_records(metric) for name, metric in METRICS.items()}


def metric_names(family: str, mode: str = "standard") -> list[str]:
    """Every metric key (headline and breakdown) of a task family: ``mt1_two``, ``mt1_three``,
    ``ordering`` or ``grounding``; text-only (``blind``) tasks add ``mt_acc_filtered``."""
    if family == "grounding":
        return ["gt_acc", "invalid_rate", "failed_count", "grounding_count"] + [f"gt_{source}" for source in SOURCES]
    names = [*MAIN_CORE, *PER_SOURCE] + (["mt_acc_filtered"] if mode == "blind" else [])
    names += [name for k in AT_LEAST_K[family] for name in AT_LEAST[k]]
    return names + list(BY_STATEMENT.get(family, {})) + (list(BY_DISTANCE) if family == "mt1_two" else [])


def metric_family(test: str) -> str:
    return test if test.startswith("mt1_") else ("grounding" if test.startswith("gt_") else "ordering")


def breakdown_metrics(task: str, records: list[dict]) -> dict[str, float | int | None]:
    """Every metric key of a task, headline and breakdown, from its logged records (as the report reads them back
    from the samples files); a task holding several tests has each test's under its prefix. Each test's records are
    judged once, every metric a formula of that scope."""
    scope = Judged.of(records)
    tests = tests_in(task, scope.records)
    if not tests:
        return {}
    if len(tests) == 1:
        mode = "blind" if any(r.get("mode") == "blind" for r in scope.records) else "standard"
        return {name: METRICS[name](scope) for name in metric_names(metric_family(tests[0]), mode)}
    values: dict[str, float | int | None] = {"asked_count": len(scope.grounding), "served_count": served_count(scope)} if task == SUITE_TASK else {}
    for test in tests:
        scoped = Judged.of(records_of_test(test, scope.records))
        values.update({f"{metric_prefix(task, test)}_{name}": METRICS[name](scoped) for name in metric_names(metric_family(test))})
    return values
