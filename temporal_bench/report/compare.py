"""``temporal-bench compare RUN_A RUN_B``: is one run really better than the other?

Complete runs that read different data (another fingerprint of the questions, gold answers and images their samples
show, temporal_bench/runs/data_read.py) are not compared unless asked to (``--allow-different-data``, said in the
output's first line). For each task both runs logged samples of, the questions both answered are joined by the doc's
identity with the same content (the digest each record carries; never by position); a task holding several tests (the benchmark's ``per_test_records``: TempVS's
``tempvs_ordering_*``) is compared test by test. Each headline metric's difference B - A gets a p-value and an interval from one
paired cluster permutation test (temporal_bench/report/paired_test.py), and the plain-language
verdicts control the family-wise error across all rows of the comparison with Holm's method
(docs/uncertainty.md); a row without a significant difference says which difference these
questions could have shown.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from temporal_bench import benchmarks
from temporal_bench.benchmarks import Benchmark
from temporal_bench.cli_style import command_parser, progress
from temporal_bench.protocol_gaps import task_gaps
from temporal_bench.report.bootstrap import FEW_CLUSTERS
from temporal_bench.report.cli import emit
from temporal_bench.report.cluster_stats import ClusterStats, joined, stacked
from temporal_bench.report.paired_test import ALPHA, DRAWS, PairedTest, holm, paired_tests
from temporal_bench.runs.data_read import data_differences
from temporal_bench.runs.logged import RunReadError, find_runs, model_runs
from temporal_bench.runs.results import Run, merge_runs

RUNS = ("run A", "run B")


class CompareError(Exception):
    """Runs that cannot be compared."""


class DifferentData(CompareError):
    """Runs that read different data (refused without ``--allow-different-data``)."""


def _compared(task: str) -> tuple[Benchmark, ClusterStats]:
    """The benchmark of a task compared and its cluster statistics (compare_runs passes over a task without them)."""
    benchmark = benchmarks.of_task(task)
    if benchmark is None or benchmark.cluster_stats is None:
        raise CompareError(f"{task}: not a task of a benchmark with cluster statistics")
    return benchmark, benchmark.cluster_stats


class Difference(NamedTuple):
    value: float  # B - A
    low: float  # its 95% interval
    high: float
    p: float


@dataclass(frozen=True)
class Comparison:
    task: str  # the task, or for a task holding two TempVS tests the test's own task name
    metric: str
    clusters: int
    support: tuple[int, int]  # questions (pairs, for TC and OCC) the metric is computed on in A and in B
    a: float
    b: float
    test: PairedTest
    adjusted_p: float | None = None  # Holm's, across the rows of the comparison
    partial: str = ""  # which run left out docs of the task (--limit, --offset), e.g. "run B is partial (--limit 10: 10 of 120 docs)"

    @property
    def name(self) -> str:
        benchmark, stats = _compared(self.task)
        return f"{benchmark.task_labels.get(self.task, self.task)} {stats.label(self.metric)}"

    @property
    def difference(self) -> Difference:
        """B - A, its interval and p (compare_records keeps no row whose test lacks them)."""
        t = self.test
        if t.value is None or t.low is None or t.high is None or t.p is None:
            raise CompareError(f"{self.task}: {self.metric} is undefined in a run or in every draw: no row to show")
        return Difference(t.value, t.low, t.high, t.p)

    @property
    def significant(self) -> bool:
        return self.adjusted_p is not None and self.adjusted_p < ALPHA


def _unjoined(task: str, stats: ClusterStats, records: tuple[list[dict], list[dict]], shared: int) -> list[str]:
    """A note naming the questions of each run that found no counterpart in the other."""
    left = [(run, len({stats.identity(r) for r in found}) - shared, len({stats.identity(r) for r in found})) for run, found in zip(RUNS, records)]
    parts = [f"{missing:,} of {run}'s {total:,}" for run, missing, total in left if missing]
    if not parts:
        return []
    return [f"{task}: {' and '.join(parts)} questions have no counterpart answered on the same data in the other run: left out"]


def compare_records(task: str, records_a: list[dict], records_b: list[dict], same_data: bool = True, partial: str = "") -> tuple[list[Comparison], list[str]]:
    """The comparisons of the task's headline metrics (not yet adjusted), and notes (questions without
    a counterpart, a clustering fallback, few clusters, metrics undefined in a run), each in the
    words of the task's benchmark; ``partial`` says which run left out docs of the task (a metric
    undefined there may have lost what it needs to the limit, not to the task)."""
    stats = _compared(task)[1]
    a, b = joined(stats, records_a, records_b, same_data)
    if not a:
        return [], [f"{task}: no question both runs answered on the same data: not compared"]
    counts_a, counts_b = stats.counts(a), stats.counts(b)
    if set(counts_a) != set(counts_b):
        raise CompareError(f"{task}: the runs put the same questions in different clusters (records of different formats?)")
    clusters = sorted(counts_a)
    width = len(stats.stats)
    matrix_a, matrix_b = stacked(counts_a, clusters, width), stacked(counts_b, clusters, width)
    total_a, total_b = matrix_a.sum(axis=0), matrix_b.sum(axis=0)
    out = []
    notes = _unjoined(task, stats, (records_a, records_b), len(a))
    clustering = stats.clustering_note(a)
    if clustering:
        notes.append(f"{task}: {clustering}")
    if len(clusters) < FEW_CLUSTERS:
        notes.append(f"{task}: only {len(clusters)} {stats.unit}: the test stays exact, but a difference must hold in nearly all of them to reach significance (no p-value can be below {min(1.0, 2.0 ** (1 - len(clusters))):.2g})")
    tests = paired_tests({metric: stats.metrics[metric] for metric in stats.headline}, matrix_a, matrix_b)
    for metric, found in tests.items():
        if found.value is None:
            cut = f": {partial}, and the limit may have cut what it is computed on" if partial else ""
            notes.append(f"{task}: {stats.label(metric)} undefined in a run on the shared docs ({stats.why_undefined(metric, bool(partial))}){cut}")
            continue
        if found.p is None:
            notes.append(f"{task}: {stats.label(metric)} undefined in every permutation draw; not tested")
            continue
        support = (int(stats.support[metric](total_a)), int(stats.support[metric](total_b)))
        out.append(Comparison(task, metric, len(clusters), support, float(stats.metrics[metric](total_a)), float(stats.metrics[metric](total_b)), found, partial=partial))
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


def _p_cell(p: float | None) -> str:
    """``format_p`` without its ``p =``: ``0.014``, ``< 0.001``, ``1``."""
    return format_p(p).removeprefix("p ").removeprefix("= ")


def _interval(d: Difference, sign: int = 1) -> str:
    """``[low, high]`` of ``sign`` x (B - A), in points."""
    low, high = sorted((sign * d.low, sign * d.high))
    return f"[{_points(low)}, {_points(high)}]"


def plain_line(c: Comparison, rows: int) -> str:
    """ "A beats B on MT1 two-event MT by 3.1 points [1.2, 5.0], p = 0.002 ...", or no difference.
    The verdict follows the Holm-adjusted p; the interval excludes 0 exactly when the row's own p does."""
    t, d = c.test, c.difference
    adjusted = f"Holm-adjusted over {rows} rows: {_p_cell(c.adjusted_p)}"
    if c.significant:
        winner, loser, sign = ("B", "A", 1) if d.value > 0 else ("A", "B", -1)
        return f"{winner} beats {loser} on {c.name} by {_points(sign * d.value)} points {_interval(d, sign)}, {format_p(d.p)} ({adjusted})."
    if t.significant():
        return f"No significant difference on {c.name} once the {rows} rows are corrected for: B - A = {_points(d.value)} points {_interval(d)}, {format_p(d.p)} for this row alone ({adjusted})."
    return f"No significant difference on {c.name}: B - A = {_points(d.value)} points {_interval(d)}, {format_p(d.p)}. {detectable_sentence(t, c.clusters, c.partial)}"


def detectable_sentence(t: PairedTest, clusters: int, partial: str = "") -> str:
    """What "no significant difference" can mean on these questions: the smallest difference that
    would have reached significance (a real difference of that size is found about half the time);
    for a partial run, that it is a part of the task; where the swaps barely move B - A, that no such
    difference can be told."""
    if partial:
        return f"Not the same as equal: {partial}, so these questions are a part of the task and cannot say which difference the whole task could show."
    if t.detectable is None or t.detectable == float("inf"):
        return f"With {clusters} clusters no difference can reach significance here: the runs may differ by any amount."
    if _points(t.detectable) == "0.0":
        return "Not the same as equal: swapping the runs' answers cluster by cluster leaves B - A within 0.05 points in 95% of the draws (the runs score alike in nearly every cluster), so these questions cannot say which difference could reach significance."
    return f"Not the same as equal: on these questions only a difference beyond {_points(t.detectable)} points could reach significance (for this row alone), and a real difference of that size is found about half the time."


def summary_line(comparisons: Sequence[Comparison]) -> str:
    b_wins = sum(c.significant and c.difference.value > 0 for c in comparisons)
    a_wins = sum(c.significant and c.difference.value < 0 for c in comparisons)
    rows = len(comparisons)
    return (
        f"Over the {rows} rows, with Holm's correction (at most a {ALPHA:.0%} chance that any row is called significant "
        f"when the runs do not differ): B beats A on {b_wins}, A beats B on {a_wins}, no significant difference on "
        f"{rows - a_wins - b_wins}."
    )


def single_run(path: Path) -> Run:
    """The one model's run under ``path`` (its files merged: a re-run supersedes the run it repeats, and the notes say
    so); the TempVS release's scored outputs beside it (the demo's ``tempvs_released_blind/``) are no run of a model and
    are passed over."""
    runs = merge_runs(model_runs(find_runs(path)))
    if not runs:
        raise CompareError(f"{path}: no lmms-eval or lm-eval results file of a model's run here: give the --output_path folder of a run made with --log_samples")
    if len(runs) != 1:
        found = ", ".join(f"{run.label} ({', '.join(str(p) for p in run.paths)})" for run in runs) or "none"
        raise CompareError(f"{path}: expected the runs of one model, found {len(runs)}: {found}")
    return runs[0]


def data_check(run_a: Run, run_b: Run, allow_different_data: bool = False) -> tuple[dict[str, str], list[str]]:
    """The tasks both complete runs have that read different data (a line naming both each; raises
    :class:`DifferentData` unless ``allow_different_data``), and notes on tasks whose data a run cannot tell (no
    samples). Where a run is partial (``--limit``), its questions join the other run's only where they ask and show
    the same (:func:`temporal_bench.report.cluster_stats.joined`)."""
    shared = sorted(set(run_a.tasks) & set(run_b.tasks))
    complete = [task for task in shared if task not in run_a.partial and task not in run_b.partial]  # a partial run's docs differ by design: joined by content
    differ, unknown = data_differences({task: {name: run.data_read(task) for name, run in zip(RUNS, (run_a, run_b))} for task in complete})
    if differ and not allow_different_data:
        raise DifferentData(
            "the runs read different data, so their answers are not comparable: " + " | ".join(differ.values()) + " (compare runs on the same data, or pass --allow-different-data to compare the questions of the same id anyway)"
        )
    return differ, unknown


def task_comparisons(task: str, run_a: Run, run_b: Run, same_data: bool) -> tuple[list[Comparison], list[str]]:
    """The comparisons of one task both runs have, and its notes (a partial run, failed requests: not compared)."""
    partial = [f"run {name} is partial ({run.partial[task]})" for name, run in (("A", run_a), ("B", run_b)) if task in run.partial]
    notes = [f"{task}: {text}: the rows compare the questions both runs answered, not the whole task" for text in partial]
    (records_a, why_a), (records_b, why_b) = run_a.records(task), run_b.records(task)
    if why_a or why_b:
        return [], notes + [why for why in (why_a, why_b) if why]
    failed = [f"{sum(r['failed'] for r in found):,} of run {name}'s {len(found):,}" for name, found in (("A", records_a), ("B", records_b)) if any(r["failed"] for r in found)]
    if failed:
        return [], notes + [f"{task}: not compared: {' and '.join(failed)} requests failed or brought no response, which its scores count as the parser read their text (run them again: docs/backends.md)"]
    found, task_notes = compare_records(task, records_a, records_b, same_data, " and ".join(partial))
    return found, notes + task_notes


def compare_runs(run_a: Run, run_b: Run, different_data: Sequence[str] = ()) -> tuple[list[Comparison], list[str]]:
    """The comparisons of the tasks both runs have (a task holding several TempVS tests: test by test), with Holm's
    adjusted p-values across all of them, and notes on the tasks left out. The tasks named in ``different_data``
    (allowed to differ) join their questions by identity alone."""
    comparisons, notes = [], []
    for task in sorted(set(run_a.tasks) | set(run_b.tasks)):
        benchmark = benchmarks.of_task(task)
        if benchmark is None or benchmark.cluster_stats is None:
            notes.append(f"{task}: not a task of {', '.join(b.title for b in benchmarks.all_benchmarks() if b.cluster_stats)}")
        elif task not in run_a.tasks or task not in run_b.tasks:
            notes.append(f"{task}: only in run {'A' if task in run_a.tasks else 'B'}")
        else:
            found, task_notes = task_comparisons(task, run_a, run_b, task not in different_data)
            comparisons += found
            notes += task_notes
    for name, run in (("A", run_a), ("B", run_b)):
        notes += [f"run {name}: {run.sources_note(task)}" for task in sorted(run.set_aside)]
        classes = sorted({run.model_class(task) for task in run.tasks})
        notes += [f"run {name} ({', '.join(classes)}): known protocol gap: {gap}" for gap in task_gaps(run.tasks, run.label, classes)]
    adjusted = holm([c.difference.p for c in comparisons])
    return [replace(c, adjusted_p=p) for c, p in zip(comparisons, adjusted)], notes


def _support(c: Comparison) -> str:
    a, b = c.support
    return f"{a:,}" if a == b else f"{a:,} / {b:,}"


def render(run_a: Run, run_b: Run, comparisons: Sequence[Comparison], notes: Sequence[str], different_data: Sequence[str] = ()) -> str:
    out = []
    if different_data:
        out += [f"**The runs read different data** (compared anyway, --allow-different-data; questions joined by id alone, which may ask other things): {' | '.join(different_data)}", ""]
    out += ["# Paired comparison", ""]
    for name, run in (("A", run_a), ("B", run_b)):
        marked = f" (partial run: {', '.join(sorted(run.partial))}; see the notes)" if run.partial else ""
        shown = dict.fromkeys(source.path.as_posix() for source in run.shown.values())
        out.append(f"- {name}: **{run.label}**, " + ", ".join(f"`{path}`" for path in shown) + marked)
    out += [
        "",
        f"Values in %. n: the questions both runs answered that the metric is computed on (A / B where they differ; "
        f"pairs for TC and OCC). B - A with its 95% interval and p from a paired permutation test that swaps the runs' "
        f"answers cluster by cluster ({DRAWS:,} draws); Holm: p adjusted across the {len(comparisons)} rows "
        "(docs/uncertainty.md).",
        "",
        "| task | metric | n | clusters | A | B | B - A [95%] | p | Holm |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for c in comparisons:
        d = c.difference
        out.append(f"| {c.task} | {_compared(c.task)[1].label(c.metric)} | {_support(c)} | {c.clusters:,} | {_points(c.a)} | {_points(c.b)} | {_points(d.value)} {_interval(d)} | {_p_cell(d.p)} | {_p_cell(c.adjusted_p)} |")
    out += [""] + [plain_line(c, len(comparisons)) for c in comparisons] + ["", summary_line(comparisons)]
    if notes:
        out += ["", "Notes:"] + [f"- {note}" for note in notes]
    return "\n".join(out) + "\n"


def main_compare(argv: Sequence[str] | None = None) -> int:
    parser = command_parser(
        "compare",
        ["temporal-bench compare runs/model_a runs/model_b --output a_vs_b.md"],
        "Each headline metric's difference B - A with a p-value and 95% interval from a paired cluster permutation test, and verdicts corrected for the number of rows (needs both runs' --log_samples output; docs/uncertainty.md).",
    )
    parser.add_argument("run_a", type=Path, metavar="RUN_A", help="run A: its results JSON, or a folder holding one run")
    parser.add_argument("run_b", type=Path, metavar="RUN_B", help="run B: its results JSON, or a folder holding one run")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here instead of standard output (default: standard output)")
    parser.add_argument(
        "--allow-different-data",
        action="store_true",
        help="compare runs whose tasks read different data (another copy, version or subset), joining questions by id alone; the output's first line names the difference (default: exit 1 naming both data sources)",
    )
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        progress("compare", f"reading {args.run_a} and {args.run_b}")
        run_a, run_b = single_run(args.run_a), single_run(args.run_b)
        different, unknown = data_check(run_a, run_b, args.allow_different_data)
        progress("compare", "comparing the runs question by question (a permutation test and its interval per row)")
        comparisons, notes = compare_runs(run_a, run_b, list(different))
    except DifferentData as exc:
        print(f"temporal-bench compare: {exc}", file=sys.stderr)
        return 1
    except (CompareError, RunReadError, FileNotFoundError) as exc:
        parser.error(str(exc))
    if not comparisons:
        parser.error("no task to compare: " + "; ".join(notes or ["the runs have no tasks"]))
    return emit(render(run_a, run_b, comparisons, unknown + notes, list(different.values())), args.output)


if __name__ == "__main__":
    raise SystemExit(main_compare())
