"""Calibration of ``temporal-bench compare`` (docs/uncertainty.md, "Comparing two runs").

Simulated run pairs with each benchmark's dependence structure (benchmarks/simulated_runs.py: shared
grounding and true/false statement pairs on the full-size synthetic TempVS release, CaT-Bench's TC
pairs and OCC twins on the plans of the split in ``--catbench`` (default: the validation split the suite
ships; give a copy of the official repository's data/test_must_why for the test split's 57 plans),
ISO-Bench's 764 examples over 480 plan videos of CrossTask's 18 and YouCook2's 89 goals, with run
effects of the video and, at each ``--goal-sd``, of the goal) go through compare's own code
(``compare_records``: the count functions, the paired permutation test). ISO-Bench is run twice per
goal effect: clustered by goal (records carrying their goal, as compare clusters them) and by video
(records without it, the fallback). CaT-Bench is run with models of no yes/no bias and, at each
``--catbench-bias``, with both models biased towards yes alike and with opposite biases (A towards
yes, B towards no). Prints, per metric, the share of pairs called different at the 5% level

* under a true null (two models of equal skill): the type-I error, goal 3-7% (with opposite biases
  only macro F1 and TC are equal, ``mean B - A`` says which rows are a null);
* at a realistic effect (run B's log-odds raised by ``--effect``, about 5 points of accuracy at a
  score of 0.6): the power, and how often the 95% interval covers the true difference (the mean
  difference over the simulated pairs);

and, per task, how often Holm's correction lets any of its rows through under the null (the
family-wise error, at most 5%), next to what the old per-row tests without correction would give.

    .venv/bin/python benchmarks/full_size_data.py tempvs   # once: writes benchmarks/.data/tempvs
    .venv/bin/python benchmarks/compare_calibration.py --pairs 1000
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import numpy as np
from full_size_data import tempvs as write_tempvs
from simulated_runs import Answers, Structure, catbench_split, isobench, run_pair, tempvs

from temporal_bench.report.cluster_stats import cluster_stats_of
from temporal_bench.report.compare import compare_records
from temporal_bench.report.paired_test import ALPHA, holm

TEMPVS_TASKS = ("tempvs_mt1_two", "tempvs_mt1_three", "tempvs_ordering_event", "tempvs_ordering_caption")
CATBENCH_VAL = Path(__file__).resolve().parents[1] / "tests" / "data" / "catbench" / "val"

Case = tuple[Structure, Answers, Answers]  # the docs, how run A answers, how run B answers (before the effect)


def rejection_rates(cases: list[Case], shift: float, pairs: int, seed: int):
    """Per (case, metric): the share of ``pairs`` simulated pairs with p < ALPHA, the share of intervals
    that cover the true difference (estimated as the mean difference over the pairs), the pairs with the
    metric defined and that mean difference; per case: the share with any row significant after Holm's
    correction across the task's rows, and without it."""
    rng = np.random.default_rng(seed)
    tests: dict[tuple[str, str], list] = defaultdict(list)
    family: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _ in range(pairs):
        for structure, answers, answers_b in cases:
            key = case_label(structure, answers, answers_b)
            a, b = run_pair(structure, answers, shift, rng, answers_b)
            rows, _ = compare_records(structure.name, a, b)
            for row in rows:
                tests[key, row.metric].append(row.test)
            family[key][0] += any(p < ALPHA for p in holm([row.test.p for row in rows]))
            family[key][1] += any(row.test.p < ALPHA for row in rows)
    rates = {}
    for key, found in tests.items():
        truth = np.mean([t.value for t in found])
        rates[key] = (np.mean([t.p < ALPHA for t in found]), np.mean([t.low <= truth <= t.high for t in found]), len(found), truth)
    return rates, {task: (h / pairs, raw / pairs) for task, (h, raw) in family.items()}


def case_label(structure: Structure, answers: Answers, answers_b: Answers) -> str:
    if structure.goals is not None:
        return f"{structure.label}, goal sd {answers.goal_sd:g}"
    if answers.bias or answers_b.bias:
        return f"{structure.label}, yes bias A {answers.bias:+g}, B {answers_b.bias:+g}"
    return structure.label


def isobench_cases(goal_sds: list[float], goals: tuple[int, int]) -> list[Case]:
    """ISO-Bench at each goal effect, clustered by goal and by video."""
    return [(isobench(goals_per_source=goals, with_goals=by_goal), Answers(goal_sd=sd), Answers(goal_sd=sd)) for sd in goal_sds for by_goal in (True, False)]


def catbench_cases(split: Path, biases: list[float]) -> list[Case]:
    """CaT-Bench on the split's plans: models of no bias, then at each bias both biased alike and oppositely."""
    structure = catbench_split(split)
    return [(structure, Answers(), Answers())] + [(structure, Answers(bias=bias), Answers(bias=b_bias)) for bias in biases if bias for b_bias in (bias, -bias)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", type=Path, default=Path(__file__).resolve().parent / ".data")
    parser.add_argument("--pairs", type=int, default=1000, help="simulated run pairs per setting")
    parser.add_argument("--effect", type=float, default=0.22, help="run B's log-odds shift for the power (0.22: about +5 points at 0.6)")
    parser.add_argument("--tasks", default=",".join((*TEMPVS_TASKS, "catbench_switched", "isobench")), help="comma-separated tasks to simulate (default: all; a TempVS ordering task gives its two tests)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the null pairs (the power pairs use seed + 1)")
    parser.add_argument("--goal-sd", default="0,0.4,0.6", help="comma-separated spreads of ISO-Bench's goal effects (log-odds), each run clustered by goal and by video")
    parser.add_argument("--isobench-goals", default="18,89", help="CrossTask's and YouCook2's goals among ISO-Bench's videos")
    parser.add_argument("--catbench", type=Path, default=CATBENCH_VAL, help="the CaT-Bench split whose plans the pairs run on: a folder of the original release's four files (default: %(default)s)")
    parser.add_argument("--catbench-bias", default="1", help="comma-separated yes/no biases (log-odds towards yes) of CaT-Bench's models, each alike in both runs and opposite")
    args = parser.parse_args()
    tasks = args.tasks.split(",")
    tempvs_tasks = [task for task in TEMPVS_TASKS if task in tasks]
    data_dir = Path(write_tempvs(args.workdir / "tempvs")["TEMPVS_DATA_DIR"]) if tempvs_tasks else None
    goals = tuple(int(n) for n in args.isobench_goals.split(","))
    cases = (
        [(s, Answers(), Answers()) for task in tempvs_tasks for s in tempvs(data_dir, task)]
        + (catbench_cases(args.catbench, [float(bias) for bias in args.catbench_bias.split(",")]) if "catbench_switched" in tasks else [])
        + (isobench_cases([float(sd) for sd in args.goal_sd.split(",")], goals) if "isobench" in tasks else [])
    )
    null, null_family = rejection_rates(cases, 0.0, args.pairs, seed=args.seed)
    power, _ = rejection_rates(cases, args.effect, args.pairs, seed=args.seed + 1)
    print(f"\n{args.pairs} simulated pairs per setting; {Answers()} (ISO-Bench: goal_sd as named); effect: +{args.effect} log-odds\n")
    print("| task | metric | clusters | mean B - A under the null (points) | type-I error at 5% | mean B - A at the effect | power | interval coverage at the effect | pairs with the metric defined |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for structure, answers, answers_b in cases:
        key = case_label(structure, answers, answers_b)
        for (case, metric), (rate, _, defined, difference) in null.items():
            if case == key:
                rejected, covered, _, effect = power[case, metric]
                clusters = len(cluster_stats_of(structure.name).counts([structure.answer(t, True, False) for t in structure.templates]))
                print(f"| {case} | {cluster_stats_of(structure.name).label(metric)} | {clusters:,} | {100 * difference:+.1f} | {100 * rate:.1f}% | {100 * effect:+.1f} | {100 * rejected:.1f}% | {100 * covered:.1f}% | {defined} |")
    print("\n| task | any row significant under the null: Holm | without correction |")
    print("|---|--:|--:|")
    for task, (corrected, raw) in null_family.items():
        print(f"| {task} | {100 * corrected:.1f}% | {100 * raw:.1f}% |")


if __name__ == "__main__":
    main()
