"""Half-widths of the 95% confidence intervals (docs/uncertainty.md) at the benchmarks' full size.

For each headline figure, simulated runs at a typical score go through the report's own cluster
bootstrap (temporal_bench/report/bootstrap.py ``interval`` with the benchmarks' metric functions),
on the clusters of the full-size data:

* TempVS: the image sequences of the synthetic full-size release (benchmarks/full_size_data.py,
  the paper's Table 2 counts), with each test's main and grounding questions as the tasks load them;
* CaT-Bench: the test split's 2,840 questions (1,420 before/after pairs, half Dep) over its 57 plans;
* ISO-Bench: 764 examples over the goals of their plans, the unit they share (CrossTask's 18 tasks and
  YouCook2's 89 recipes: 107; the paper's 480 plan videos hold them).

Two assumptions about the answers: independent (every question right with the same chance), and a
moderate within-cluster correlation (each cluster's chance drawn from a Beta distribution around
the score with intra-cluster correlation ``--icc``). Prints a markdown table (points = % units).

    .venv/bin/python benchmarks/full_size_data.py tempvs   # once: writes benchmarks/.data/tempvs
    .venv/bin/python benchmarks/interval_widths.py
"""

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
from full_size_data import add_data_options, data_env
from simulated_runs import release_task_docs

from temporal_bench.catbench.cluster_stats import CATBENCH
from temporal_bench.isobench.cluster_stats import ISOBENCH
from temporal_bench.isobench.rules import TABLE1_RULE
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS
from temporal_bench.report.bootstrap import interval
from temporal_bench.tempvs.cluster_stats import TEMPVS

CATBENCH_PLANS, CATBENCH_PAIRS = 57, 1420
ISOBENCH_GOALS, ISOBENCH_EXAMPLES = 18 + 89, 764
# a typical score per TempVS test (mid-table in the paper's Tables 14-16)
TEMPVS_MT_SCORE = {"mt1_two": 0.6, "mt1_three": 0.6, "mt2_event": 0.5, "mt2_caption": 0.5, "mt3_event": 0.3, "mt3_caption": 0.3}
GT_SCORE = 0.6
F1_SCORE = 0.6  # accuracy of the yes/no benchmarks' simulated answers (a wrong answer flips the label)

Simulate = Callable[[np.random.Generator, np.ndarray], np.ndarray]  # (rng, cluster chances) -> counts


def spread(total: int, slots: int) -> list[int]:
    return [(q + 1) * total // slots - q * total // slots for q in range(slots)]


def cluster_chances(rng: np.random.Generator, score: float, clusters: int, icc: float) -> np.ndarray:
    if icc == 0:
        return np.full(clusters, score)
    scale = (1 - icc) / icc
    return rng.beta(score * scale, (1 - score) * scale, size=clusters)


def tempvs_sizes(data_dir: Path, test: str) -> tuple[np.ndarray, np.ndarray]:
    """Main and grounding questions per image sequence, as the task loads them."""
    docs = release_task_docs(data_dir, (test,))
    sequences = sorted({(d["source"], d["img_seq_id"]) for d in docs})
    index = {s: i for i, s in enumerate(sequences)}
    main, grounding = np.zeros(len(sequences), int), np.zeros(len(sequences), int)
    for d in docs:
        (main if d["kind"] == "main" else grounding)[index[d["source"], d["img_seq_id"]]] += 1
    return main, grounding


def accuracy_counts(benchmark, right: str, total: str, sizes: np.ndarray) -> Simulate:
    def simulate(rng, chances):
        counts = np.zeros((len(sizes), len(benchmark.stats)))
        counts[:, benchmark.column(right)] = rng.binomial(sizes, chances)
        counts[:, benchmark.column(total)] = sizes
        return counts

    return simulate


def catbench_counts(rng, chances) -> np.ndarray:
    """Per plan: its pairs (half Dep), each asked before and after; wrong answers flip the label."""
    counts = np.zeros((CATBENCH_PLANS, len(CATBENCH.stats)))
    for plan, (pairs, chance) in enumerate(zip(spread(CATBENCH_PAIRS, CATBENCH_PLANS), chances)):
        right = rng.random((pairs, 2)) < chance
        dep = np.arange(pairs) % 2 == 0
        for gold_dep, cell_right, cell_wrong in ((True, "yes_yes", "yes_no"), (False, "no_no", "no_yes")):
            rows = right[dep == gold_dep]
            counts[plan, CATBENCH.column(cell_right)] = rows.sum()
            counts[plan, CATBENCH.column(cell_wrong)] = rows.size - rows.sum()
        counts[plan, CATBENCH.column("tc_consistent_dep")] = (right[dep, 0] == right[dep, 1]).sum()
        counts[plan, CATBENCH.column("tc_consistent_nondep")] = (right[~dep, 0] == right[~dep, 1]).sum()
        counts[plan, CATBENCH.column("tc_complete_dep")] = dep.sum()
        counts[plan, CATBENCH.column("tc_complete_nondep")] = (~dep).sum()
    return counts


def isobench_counts(rng, chances) -> np.ndarray:
    """Per goal: its examples (alternately Dep and NonDep), every answer parsed."""
    counts = np.zeros((ISOBENCH_GOALS, len(ISOBENCH.stats)))
    for plan, (examples, chance) in enumerate(zip(spread(ISOBENCH_EXAMPLES, ISOBENCH_GOALS), chances)):
        right = rng.random(examples) < chance
        dep = (np.arange(examples) + plan) % 2 == 0
        for gold_dep, cell_right, cell_wrong in ((True, "yes_yes", "yes_no"), (False, "no_no", "no_yes")):
            counts[plan, ISOBENCH.column(cell_right)] = (right & (dep == gold_dep)).sum()
            counts[plan, ISOBENCH.column(cell_wrong)] = (~right & (dep == gold_dep)).sum()
        counts[plan, ISOBENCH.column("answers")] = examples
    return counts


def half_width(metric, simulate: Simulate, clusters: int, score: float, icc: float, runs: int, seed: int) -> tuple[float, float]:
    """Mean half-width over ``runs`` simulated runs, and the mean value, both in points."""
    rng = np.random.default_rng(seed)
    found = [interval(metric, simulate(rng, cluster_chances(rng, score, clusters, icc))) for _ in range(runs)]
    return 100 * np.mean([(i.high - i.low) / 2 for i in found]), 100 * np.mean([i.value for i in found])


def rows(data_dir: Path, icc: float, runs: int) -> list[tuple[str, str, int, int, float, dict[float, float]]]:
    """(figure, metric, questions, clusters, typical value, {icc: half-width}); clusters: those
    holding the task's docs (a TempVS sequence may hold grounding questions only)."""
    out = []

    def add(name, metric_name, benchmark, simulate, questions, clusters, score):
        found = {level: half_width(benchmark.metrics[metric_name], simulate, clusters, score, level, runs, seed=i) for i, level in enumerate((0.0, icc))}
        value = found[0.0][1]  # the metric's value under independent answers (TC: p^2 + (1-p)^2)
        out.append((name, metric_name, questions, clusters, value, {level: width for level, (width, _) in found.items()}))

    for test, spec in MAIN_TESTS.items():
        main, grounding = tempvs_sizes(data_dir, test)
        label = f"TempVS {test}"
        add(label, "mt_acc", TEMPVS, accuracy_counts(TEMPVS, "mt_correct", "mt_total", main), int(main.sum()), len(main), TEMPVS_MT_SCORE[test])
        if test in ("mt1_two", "mt1_three", "mt2_event"):  # MT2/MT3 share the all-events grounding test
            add(f"TempVS {GROUNDING_TESTS[spec.grounding_test]}", "gt_acc", TEMPVS, accuracy_counts(TEMPVS, "gt_correct", "gt_total", grounding), int(grounding.sum()), len(grounding), GT_SCORE)
    for metric_name in ("f1_macro", "tc"):
        add("CaT-Bench test", metric_name, CATBENCH, catbench_counts, 2 * CATBENCH_PAIRS, CATBENCH_PLANS, F1_SCORE)
    add("ISO-Bench", f"{TABLE1_RULE}f1_weighted", ISOBENCH, isobench_counts, ISOBENCH_EXAMPLES, ISOBENCH_GOALS, F1_SCORE)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--icc", type=float, default=0.2, help="within-cluster correlation of the second assumption")
    parser.add_argument("--runs", type=int, default=20, help="simulated runs averaged per cell")
    add_data_options(parser)
    args = parser.parse_args(argv)
    env = data_env(args.workdir, ["tempvs"], args.fraction)
    print(f"\n| figure | metric | questions | clusters | typical value | ± independent | ± ICC {args.icc} |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for name, metric, questions, clusters, value, widths in rows(Path(env["TEMPVS_DATA_DIR"]), args.icc, args.runs):
        print(f"| {name} | {metric} | {questions} | {clusters} | {value:.1f} | {widths[0.0]:.1f} | {widths[args.icc]:.1f} |")


if __name__ == "__main__":
    main()
