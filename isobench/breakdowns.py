"""ISO-Bench's breakdowns: every score under each of the three rules (``strict_``, ``paper_`` and the default), the F1
of the weighted precision and recall, and the weighted F1 per relation, distance and source under each rule, computed
from a run's logged records as the report reads them."""

from collections.abc import Callable

from temporal_bench.isobench.rules import RULES, coverage, score_metric, scores

REPORT_SCORES = ["f1_weighted", "precision_weighted", "recall_weighted", "f1_macro", "precision_macro", "recall_macro", "precision_dep", "recall_dep", "f1_dep", "precision_nondep", "recall_nondep", "f1_nondep", "accuracy"]
SOURCES = ("youcook2", "crosstask")


def _of_source(source: str) -> Callable[[dict], bool]:
    return lambda r: r["source"] == source


SUBSETS: dict[str, Callable[[dict], bool]] = {
    "before": lambda r: r["relation"] == "before",
    "after": lambda r: r["relation"] == "after",
    "close": lambda r: r["distance_class"] == "close",
    "distant": lambda r: r["distance_class"] == "distant",
    **{source: _of_source(source) for source in SOURCES},
}


def paper_f1_of_avg_pr(records: list[dict]) -> float | None:
    """The F1 of ``paper_precision_weighted`` and ``paper_recall_weighted`` (Table 1's average F in two rows)."""
    report = scores(records, "paper_")
    if report is None:
        return None
    precision, recall = report["precision_weighted"], report["recall_weighted"]
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


AGGREGATIONS: dict[str, Callable] = {
    **{f"{rule}{score}": score_metric(score, rule) for rule in RULES for score in REPORT_SCORES},
    "paper_f1_of_avg_pr": paper_f1_of_avg_pr,
    "coverage": coverage,
    "failed_count": lambda records: sum(r["failed"] for r in records),
    # per subset under each rule: Figures 2 and 3 plot Table 1's (paper_f1_weighted_before, ...: isobench/figures.py)
    **{f"{rule}f1_weighted_{name}": score_metric("f1_weighted", rule, keep) for rule in RULES for name, keep in SUBSETS.items()},
}


def breakdown_metrics(task: str, records: list[dict]) -> dict[str, float | None]:
    """Every metric key of ``task`` (both ISO-Bench tasks report the same), headline and breakdown, computed from its
    logged per-doc records."""
    return {name: aggregate(records) for name, aggregate in AGGREGATIONS.items()}
