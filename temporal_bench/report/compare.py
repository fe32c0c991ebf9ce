"""``temporal-bench compare RUN_A RUN_B``: is one run really better than the other?

For each task both runs logged samples of, the questions both answered are joined by the doc's
identity (never by position), and each headline metric's difference B - A gets a paired cluster
bootstrap interval (the same resampled clusters for both runs) and a p-value: the exact McNemar
test on the discordant questions for the accuracy-type metrics, else the bootstrap's own
(docs/uncertainty.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from temporal_bench.report.bootstrap import (
    FEW_CLUSTERS,
    Difference,
    mcnemar_p,
    paired_difference,
)
from temporal_bench.report.cli import emit
from temporal_bench.report.cluster_stats import Benchmark, benchmark_of, stacked
from temporal_bench.report.layouts import TEMPVS_TESTS
from temporal_bench.report.records import RecordsError, task_records
from temporal_bench.report.rescore import LoggedRun, RescoreError, find_runs
from temporal_bench.report.results import run_label

METRIC_LABELS = {
    "gt_acc": "GT", "gtstrict_rate": "GT_strict", "mt_acc": "MT", "mt_given_gtstrict": "MT|GT_strict",
    "f1_macro": "macro F1", "f1_dep": "Dep F1", "f1_nondep": "NonDep F1", "tc": "TC", "occ": "OCC",
    "f1_weighted": "weighted F1", "coverage": "coverage",
}
TASK_LABELS = {task: label for label, task in TEMPVS_TESTS.values()}


class CompareError(Exception):
    """Runs that cannot be compared."""


@dataclass
class Comparison:
    task: str
    metric: str
    docs: int  # docs (questions) both runs answered
    a: float | None
    b: float | None
    difference: Difference
    p: float | None
    test: str  # "McNemar (<A-only right>/<B-only right>)" or "bootstrap"

    @property
    def name(self) -> str:
        return f"{TASK_LABELS.get(self.task, self.task)} {METRIC_LABELS.get(self.metric, self.metric)}"


def joined(benchmark: Benchmark, records_a: list[dict], records_b: list[dict]) -> tuple[list[dict], list[dict]]:
    """The records of the questions both runs answered, in A's order (the first record of a doc)."""
    by_id_a: dict[str, dict] = {}
    by_id_b: dict[str, dict] = {}
    for records, by_id in ((records_a, by_id_a), (records_b, by_id_b)):
        for record in records:
            by_id.setdefault(benchmark.identity(record), record)
    shared = [key for key in by_id_a if key in by_id_b]
    return [by_id_a[k] for k in shared], [by_id_b[k] for k in shared]


def compare_records(task: str, records_a: list[dict], records_b: list[dict]) -> tuple[list[Comparison], list[str]]:
    """The comparisons of the task's headline metrics, and notes (too few clusters, metrics undefined in a run)."""
    benchmark = benchmark_of(task)
    a, b = joined(benchmark, records_a, records_b)
    counts_a, counts_b = benchmark.counts(a), benchmark.counts(b)
    if set(counts_a) != set(counts_b):
        raise CompareError(f"{task}: the runs put the same questions in different clusters "
                           "(records of different formats?)")
    clusters = sorted(counts_a)
    width = len(benchmark.stats)
    matrix_a, matrix_b = stacked(counts_a, clusters, width), stacked(counts_b, clusters, width)
    out = []
    notes = []
    if len(clusters) < FEW_CLUSTERS:
        notes.append(f"{task}: only {len(clusters)} clusters (fewer than {FEW_CLUSTERS}): its intervals are too "
                     "narrow and its bootstrap p-values too small; read them as rough")
    for metric in benchmark.headline:
        difference = paired_difference(benchmark.metrics[metric], matrix_a, matrix_b)
        if difference.value is None:
            notes.append(f"{task}: {METRIC_LABELS[metric]} undefined in a run on the shared docs "
                             "(e.g. no GT_strict pass, no grounding questions)")
            continue
        value_a = float(benchmark.metrics[metric](matrix_a.sum(axis=0)))
        value_b = float(benchmark.metrics[metric](matrix_b.sum(axis=0)))
        if metric in benchmark.outcomes:
            outcomes = benchmark.outcomes[metric]
            p, only_a, only_b = mcnemar_p(outcomes(a), outcomes(b))
            test = f"McNemar {only_a}/{only_b}"
        else:
            p, test = difference.p_bootstrap, "bootstrap"
        out.append(Comparison(task, metric, len(a), value_a, value_b, difference, p, test))
    return out, notes


def _points(value: float) -> str:
    text = f"{100 * value:.1f}"
    return "0.0" if text == "-0.0" else text


def format_p(p: float | None) -> str:
    if p is None:
        return "p undefined"
    if p < 0.001:
        return "p < 0.001"
    return "p = 1" if p == 1 else f"p = {p:.3f}"


def plain_line(c: Comparison) -> str:
    """"A beats B on MT1 two-event MT by 3.1 points [1.2, 5.0], p = 0.002", or no difference."""
    d = c.difference
    if d.low is None or d.low <= 0 <= d.high:
        interval = f"[{_points(d.low)}, {_points(d.high)}]" if d.low is not None else "[undefined]"
        return (f"No significant difference on {c.name}: B - A = {_points(d.value)} points {interval}, "
                f"{format_p(c.p)} ({c.test}).")
    if d.value > 0:
        return f"B beats A on {c.name} by {_points(d.value)} points [{_points(d.low)}, {_points(d.high)}], {format_p(c.p)} ({c.test})."
    return f"A beats B on {c.name} by {_points(-d.value)} points [{_points(-d.high)}, {_points(-d.low)}], {format_p(c.p)} ({c.test})."


def single_run(path: Path) -> LoggedRun:
    runs = find_runs(path)
    if len(runs) != 1:
        found = ", ".join(str(r.results_path) for r in runs) or "none"
        raise CompareError(f"{path}: expected one lmms-eval or lm-eval run, found {len(runs)} ({found})")
    return runs[0]


def compare_runs(run_a: LoggedRun, run_b: LoggedRun) -> tuple[list[Comparison], list[str]]:
    """The comparisons of the tasks both runs have, and notes on the tasks left out."""
    comparisons, notes = [], []
    for task in sorted(set(run_a.tasks) | set(run_b.tasks)):
        if benchmark_of(task) is None:
            notes.append(f"{task}: not a TempVS, CaT-Bench or ISO-Bench task")
        elif task not in run_a.tasks or task not in run_b.tasks:
            notes.append(f"{task}: only in run {'A' if task in run_a.tasks else 'B'}")
        else:
            try:
                found, task_notes = compare_records(task, task_records(run_a, task), task_records(run_b, task))
                comparisons += found
                notes += task_notes
            except RecordsError as exc:
                notes.append(str(exc))
    return comparisons, notes


def render(run_a: LoggedRun, run_b: LoggedRun, comparisons: Sequence[Comparison], notes: Sequence[str]) -> str:
    out = ["# Paired comparison", ""]
    for name, run in (("A", run_a), ("B", run_b)):
        out.append(f"- {name}: **{run_label(run.data, run.results_path)}**, `{run.results_path.as_posix()}`")
    out += ["", "Values in %; B - A with its 95% paired cluster-bootstrap interval; McNemar a/b: questions only A / "
            "only B got right (docs/uncertainty.md).", "",
            "| task | metric | docs in both | A | B | B - A [95%] | p (test) |", "|---|---|--:|--:|--:|--:|---|"]
    for c in comparisons:
        d = c.difference
        interval = f"[{_points(d.low)}, {_points(d.high)}]" if d.low is not None else ""
        out.append(f"| {c.task} | {METRIC_LABELS.get(c.metric, c.metric)} | {c.docs} | {_points(c.a)} | "
                   f"{_points(c.b)} | {_points(d.value)} {interval} | {format_p(c.p).removeprefix('p ').removeprefix('= ')} ({c.test}) |")
    out += [""] + [plain_line(c) for c in comparisons]
    if notes:
        out += ["", "Notes:"] + [f"- {note}" for note in notes]
    return "\n".join(out) + "\n"


def main_compare(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="temporal-bench compare",
        description="Compare two runs question by question: each headline metric's difference B - A "
                    "with a paired cluster-bootstrap interval and a p-value (needs both runs' --log_samples output).")
    parser.add_argument("run_a", type=Path, help="run A: its results JSON, or a folder holding one run")
    parser.add_argument("run_b", type=Path, help="run B: its results JSON, or a folder holding one run")
    parser.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        run_a, run_b = single_run(args.run_a), single_run(args.run_b)
        comparisons, notes = compare_runs(run_a, run_b)
    except (CompareError, RescoreError, FileNotFoundError) as exc:
        parser.error(str(exc))
    if not comparisons:
        parser.error("no task to compare: " + "; ".join(notes or ["the runs have no tasks"]))
    return emit(render(run_a, run_b, comparisons, notes), args.output)


if __name__ == "__main__":
    raise SystemExit(main_compare())
