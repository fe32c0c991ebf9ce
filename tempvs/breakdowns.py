"""The breakdowns of TempVS's metrics (per source, per statement type and event distance, at-least-k grounding passes,
counts), computed from a run's logged records as the report reads them, under the metric keys the paper's tables
use; the headline metrics are the tasks' own (lmms_eval_tasks/tempvs/metrics.py)."""

from typing import Callable, Dict, List, Optional

from temporal_bench.lmms_eval_tasks.plugin.tempvs.metrics import gtstrict_rate, mt_acc, mt_given_gtstrict, strict_mains
from temporal_bench.lmms_eval_tasks.tempvs.extraction import UNK
from temporal_bench.lmms_eval_tasks.tempvs.metrics import accuracy, judge, ratio, unique_records
from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES
from temporal_bench.tempvs.record_reader import UNGROUNDED_MODES
from temporal_bench.tempvs.task_tests import SUITE_TASK, metric_prefix, records_of_test, tests_in

PAIRED_TYPES = ("after", "before", "then", "earlier", "implictpair")
TRIPLE_TYPES = ("beforeafter", "laterfinally", "firstsecondthird", "implicttriple")
DISTANCES = (1, 2, 3, 4)
# the official script's "at least k grounding passes" figures, k per family (run_evaluation.py,
# analyze_task_performance: k <= 1 of the two events, k <= 2 of three, k <= 4 of a sequence's images)
AT_LEAST_K = {"mt1_two": (1,), "mt1_three": (1, 2), "ordering": (1, 2, 3, 4)}


def _gt(records, source: Optional[str] = None) -> Optional[float]:
    return accuracy([r for r in unique_records(records) if r["kind"] == "grounding" and (source is None or r["source"] == source)])


def complete_mains(records, source: Optional[str] = None) -> List[Dict]:
    """The main questions whose grounding partners were all evaluated, GT_strict judged (with the task's fixes)."""
    return [r for r in strict_mains(unique_records(records)) if source is None or r["source"] == source]


def _gtstrict(records, source: Optional[str] = None) -> Optional[float]:
    complete = complete_mains(records, source)
    return ratio(sum(r["strict"] for r in complete), len(complete))


def _mt(records, source: Optional[str] = None, keep: Callable[[Dict], bool] = lambda r: True) -> Optional[float]:
    return accuracy([r for r in unique_records(records) if r["kind"] == "main" and (source is None or r["source"] == source) and keep(r)])


def _mt_given(records, source: Optional[str] = None, strict: bool = True) -> Optional[float]:
    return accuracy([r for r in complete_mains(records, source) if r["strict"] == strict])


def _with_gt_passes(records, k: int) -> List[Dict]:
    return [r for r in complete_mains(records) if r["gt_passes"] >= k]


# ---- breakdowns (computed from the logged records) ------------------------------------------------


def mt_given_gtfail(records):
    return _mt_given(records, strict=False)


def mt_acc_filtered(records):
    """Text-only runs: MT on the main questions the text-only-LLM filter keeps (paper Table 17's
    "after"); None when the records carry no filter mark."""
    mains = [r for r in unique_records(records) if r["kind"] == "main"]
    if not mains or any("filter_kept" not in r for r in mains):
        return None
    return _mt(mains, keep=lambda r: r["filter_kept"])


def main_count(records):
    """Main questions evaluated."""
    return sum(r["kind"] == "main" for r in unique_records(records))


def grounding_count(records):
    return sum(r["kind"] == "grounding" for r in unique_records(records))


def gt_missing_count(records):
    """Main questions left out of GT_strict because grounding partners were not evaluated (a task that asks grounding questions)."""
    return sum(r["mode"] not in UNGROUNDED_MODES and not r["complete"] for r in judge(unique_records(records)))


def gt_unmatched_count(records):
    return sum(r["unmatched"] for r in judge(unique_records(records)))


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


# per-source and fine-grained keys (names chosen so no metric name contains another)


def _per_source(source: str) -> Dict[str, Callable]:
    return {
        f"gt_{source}": lambda records: _gt(records, source),
        f"gtstrict_{source}": lambda records: _gtstrict(records, source),
        f"mt_{source}": lambda records: _mt(records, source),
        f"mtgts_{source}": lambda records: _mt_given(records, source),
    }


def _statement(kind: str, polarity: str) -> Callable:
    suffix = "_gt" if polarity == "pos" else "_nc"
    return lambda records: _mt(records, keep=lambda r: r.get("statement_type") == kind + suffix)


def _distance(distance: int) -> Callable:
    return lambda records: _mt(records, keep=lambda r: r.get("event_distance") == distance)


def _at_least(k: int) -> Dict[str, Callable]:
    """MT among the main questions with at least ``k`` grounding passes, and their number (the
    script's ``main_acc_given_{k}_pass``, ``{k}_pass_count``)."""
    return {f"mt_given_gt_atleast{k}": lambda records: accuracy(_with_gt_passes(records, k)), f"gt_atleast{k}_count": lambda records: len(_with_gt_passes(records, k))}


AGGREGATIONS: Dict[str, Callable] = {
    "gt_acc": _gt,
    "gtstrict_rate": gtstrict_rate,
    "mt_acc": mt_acc,
    "mt_given_gtstrict": mt_given_gtstrict,
    "mt_given_gtfail": mt_given_gtfail,
    "mt_acc_filtered": mt_acc_filtered,
    "invalid_rate": invalid_rate,
    "failed_count": failed_count,
    "main_count": main_count,
    "grounding_count": grounding_count,
    "gt_missing_count": gt_missing_count,
    "gt_unmatched_count": gt_unmatched_count,
}
for _source in SOURCES:
    AGGREGATIONS.update(_per_source(_source))
for _kind in PAIRED_TYPES:
    for _polarity in ("pos", "neg"):
        AGGREGATIONS[f"two_{_kind}_{_polarity}"] = _statement(_kind, _polarity)
for _kind in TRIPLE_TYPES:
    for _polarity in ("pos", "neg"):
        AGGREGATIONS[f"three_{_kind}_{_polarity}"] = _statement(_kind, _polarity)
for _d in DISTANCES:
    AGGREGATIONS[f"dist{_d}"] = _distance(_d)
for _k in AT_LEAST_K["ordering"]:
    AGGREGATIONS.update(_at_least(_k))

MAIN_CORE = ["gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict", "mt_given_gtfail", "invalid_rate", "failed_count", "main_count", "grounding_count", "gt_missing_count", "gt_unmatched_count"]
PER_SOURCE = [name for source in SOURCES for name in (f"gt_{source}", f"gtstrict_{source}", f"mt_{source}", f"mtgts_{source}")]
HIGHER_IS_BETTER = {"invalid_rate": False, "failed_count": False, "gt_missing_count": False, "gt_unmatched_count": False}


def metric_names(family: str, mode: str = "standard") -> List[str]:
    """Every metric key (headline and breakdown) of a task family: ``mt1_two``, ``mt1_three``,
    ``ordering`` or ``grounding``; text-only (``blind``) tasks add ``mt_acc_filtered``."""
    if family == "grounding":
        return ["gt_acc", "invalid_rate", "failed_count", "grounding_count"] + [f"gt_{source}" for source in SOURCES]
    names = MAIN_CORE + PER_SOURCE + (["mt_acc_filtered"] if mode == "blind" else [])
    names += [name for k in AT_LEAST_K[family] for name in (f"mt_given_gt_atleast{k}", f"gt_atleast{k}_count")]
    if family == "mt1_two":
        names += [f"two_{k}_{p}" for k in PAIRED_TYPES for p in ("pos", "neg")] + [f"dist{d}" for d in DISTANCES]
    elif family == "mt1_three":
        names += [f"three_{k}_{p}" for k in TRIPLE_TYPES for p in ("pos", "neg")]
    return names


def metric_family(test: str) -> str:
    return test if test.startswith("mt1_") else ("grounding" if test.startswith("gt_") else "ordering")


def breakdown_metrics(task: str, records: List[Dict]) -> Dict[str, Optional[float]]:
    """Every metric key of a task, headline and breakdown, from its logged records (as the report reads them back
    from the samples files); a task holding several tests has each test's under its prefix."""
    records = unique_records(records)
    tests = tests_in(task, records)
    if not tests:
        return {}
    if len(tests) == 1:
        mode = "blind" if any(r.get("mode") == "blind" for r in records) else "standard"
        return {name: AGGREGATIONS[name](records) for name in metric_names(metric_family(tests[0]), mode)}
    values = {"asked_count": grounding_count(records), "served_count": served_count(records)} if task == SUITE_TASK else {}
    for test in tests:
        scoped = records_of_test(test, records)
        values.update({f"{metric_prefix(task, test)}_{name}": AGGREGATIONS[name](scoped) for name in metric_names(metric_family(test))})
    return values
