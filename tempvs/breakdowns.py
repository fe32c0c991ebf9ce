"""The breakdowns of TempVS's metrics (per source, per statement type and event distance, at-least-k grounding passes,
counts), computed from a run's logged records as the report reads them, under the metric keys the paper's tables
use; the headline metrics are the tasks' own (lmms_eval_tasks/tempvs/metrics.py), each breakdown one of them on the
records it selects."""

from collections.abc import Callable

from temporal_bench.lmms_eval_tasks.plugin.tempvs.metrics import UNGROUNDED_MODES, asked_count, gt_acc, gtstrict_rate, mt_acc, mt_given_gtstrict, strict_mains
from temporal_bench.lmms_eval_tasks.tempvs.extraction import UNK
from temporal_bench.lmms_eval_tasks.tempvs.metrics import accuracy, judge, ratio, unique_records
from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES
from temporal_bench.tempvs.task_tests import SUITE_TASK, metric_prefix, records_of_test, tests_in

PAIRED_TYPES = ("after", "before", "then", "earlier", "implictpair")
TRIPLE_TYPES = ("beforeafter", "laterfinally", "firstsecondthird", "implicttriple")
DISTANCES = (1, 2, 3, 4)
# the official script's "at least k grounding passes" figures, k per family (run_evaluation.py,
# analyze_task_performance: k <= 1 of the two events, k <= 2 of three, k <= 4 of a sequence's images)
AT_LEAST_K = {"mt1_two": (1,), "mt1_three": (1, 2), "ordering": (1, 2, 3, 4)}


def _where(metric: Callable, keep: Callable[[dict], bool]) -> Callable:
    """``metric`` on the records ``keep`` selects (one per doc key)."""
    return lambda records: metric([r for r in unique_records(records) if keep(r)])


def _of_source(source: str) -> Callable[[dict], bool]:
    return lambda r: r["source"] == source


def _field_is(field: str, value: object) -> Callable[[dict], bool]:
    """The records whose ``field`` is ``value`` (a record without the field: not one of them)."""
    return lambda r: r.get(field) == value


def _with_gt_passes(records, k: int) -> list[dict]:
    return [r for r in strict_mains(unique_records(records)) if r["gt_passes"] >= k]


def _at_least(k: int) -> dict[str, Callable]:
    """MT among the main questions with at least ``k`` grounding passes, and their number (the
    script's ``main_acc_given_{k}_pass``, ``{k}_pass_count``)."""
    return {f"mt_given_gt_atleast{k}": lambda records: accuracy(_with_gt_passes(records, k)), f"gt_atleast{k}_count": lambda records: len(_with_gt_passes(records, k))}


def mt_given_gtfail(records):
    return accuracy([r for r in strict_mains(unique_records(records)) if not r["strict"]])


def mt_acc_filtered(records):
    """Text-only runs: MT on the main questions the text-only-LLM filter keeps (paper Table 17's
    "after"); None when the records carry no filter mark."""
    mains = [r for r in unique_records(records) if r["kind"] == "main"]
    if not mains or any("filter_kept" not in r for r in mains):
        return None
    return mt_acc([r for r in mains if r["filter_kept"]])


def main_count(records):
    """Main questions evaluated."""
    return sum(r["kind"] == "main" for r in unique_records(records))


def gt_missing_count(records):
    """Main questions left out of GT_strict because grounding partners were not evaluated (a task that asks grounding questions)."""
    return sum(r["mode"] not in UNGROUNDED_MODES and not r["complete"] for r in judge(unique_records(records)))


def gt_unmatched_count(records):
    """Main questions some of whose grounding rows the data lacks; None where the records do not say (the upstream
    tasks' records, lmms_eval_tasks/tempvs, carry no ``unmatched``)."""
    judged = judge(unique_records(records))
    return None if any("unmatched" not in r for r in judged) else sum(r["unmatched"] for r in judged)


def invalid_rate(records):
    """Share of evaluated questions (main and grounding) whose answer could not be parsed (UNK)."""
    records = unique_records(records)
    return ratio(sum(r["pred"] == UNK for r in records), len(records))


def failed_count(records):
    """Requests that failed or brought no response."""
    return sum(r["failed"] for r in unique_records(records))


def served_count(records):
    """Grounding questions of the grounding tests answered by the distinct questions asked (the task ``tempvs``)."""
    return sum(len(r.get("serves") or ()) for r in unique_records(records))


# the metric keys of each family's breakdowns (names chosen so no metric name contains another)
MAIN_CORE: dict[str, Callable] = {
    "gt_acc": gt_acc,
    "gtstrict_rate": gtstrict_rate,
    "mt_acc": mt_acc,
    "mt_given_gtstrict": mt_given_gtstrict,
    "mt_given_gtfail": mt_given_gtfail,
    "invalid_rate": invalid_rate,
    "failed_count": failed_count,
    "main_count": main_count,
    "grounding_count": asked_count,  # the grounding questions evaluated
    "gt_missing_count": gt_missing_count,
    "gt_unmatched_count": gt_unmatched_count,
}
PER_SOURCE = {f"{name}_{source}": _where(metric, _of_source(source)) for source in SOURCES for name, metric in (("gt", gt_acc), ("gtstrict", gtstrict_rate), ("mt", mt_acc), ("mtgts", mt_given_gtstrict))}
AT_LEAST = {k: _at_least(k) for k in AT_LEAST_K["ordering"]}
BY_STATEMENT = {
    family: {f"{prefix}_{kind}_{polarity}": _where(mt_acc, _field_is("statement_type", f"{kind}_{suffix}")) for kind in kinds for polarity, suffix in (("pos", "gt"), ("neg", "nc"))}
    for family, prefix, kinds in (("mt1_two", "two", PAIRED_TYPES), ("mt1_three", "three", TRIPLE_TYPES))
}
BY_DISTANCE = {f"dist{d}": _where(mt_acc, _field_is("event_distance", d)) for d in DISTANCES}
AGGREGATIONS: dict[str, Callable] = {
    **MAIN_CORE,
    **PER_SOURCE,
    "mt_acc_filtered": mt_acc_filtered,
    **{name: f for names in AT_LEAST.values() for name, f in names.items()},
    **BY_STATEMENT["mt1_two"],
    **BY_STATEMENT["mt1_three"],
    **BY_DISTANCE,
}


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


def breakdown_metrics(task: str, records: list[dict]) -> dict[str, float | None]:
    """Every metric key of a task, headline and breakdown, from its logged records (as the report reads them back
    from the samples files); a task holding several tests has each test's under its prefix."""
    records = unique_records(records)
    tests = tests_in(task, records)
    if not tests:
        return {}
    if len(tests) == 1:
        mode = "blind" if any(r.get("mode") == "blind" for r in records) else "standard"
        return {name: AGGREGATIONS[name](records) for name in metric_names(metric_family(tests[0]), mode)}
    values = {"asked_count": asked_count(records), "served_count": served_count(records)} if task == SUITE_TASK else {}
    for test in tests:
        scoped = records_of_test(test, records)
        values.update({f"{metric_prefix(task, test)}_{name}": AGGREGATIONS[name](scoped) for name in metric_names(metric_family(test))})
    return values
