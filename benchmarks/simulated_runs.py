"""Simulated pairs of runs with each benchmark's real dependence structure, for calibrating
``temporal-bench compare`` (benchmarks/compare_calibration.py, tests/fidelity/test_compare_calibration.py).

A run is a list of per-doc records in the format the tasks log (what ``process_results`` returns), so
the records go through the benchmarks' own count functions (temporal_bench/report/cluster_stats.py:
the GT_strict join, TC pairs, OCC twins, ISO-Bench's unparsed answers) and the same paired test as a
real comparison. A record is right with chance ``sigmoid(logit(score) + u + w + shift)``:

* ``u``: the run's own effect of the cluster (TempVS image sequence, CaT-Bench plan, ISO-Bench plan
  video), drawn afresh for each run: a model is good or bad on a whole cluster at once; for ISO-Bench
  also of the video's goal (``goal_sd``: its videos share the goal's steps, so a model knows a goal or not);
* ``w``: the item's difficulty, shared by both runs (items hard for one model are hard for the
  other): a TempVS main question's true and false statements share it (same event pair, same
  grounding partners), a CaT-Bench pair's before/after questions and switched twins share it;
* ``shift``: 0 for run A, the effect for run B (0 under the null);
* a yes/no model's ``bias`` towards "yes" (CaT-Bench, ISO-Bench): added where the gold answer is yes,
  subtracted where it is no (run B may have another, e.g. the opposite).

``invalid`` of the answers are unparseable. Two runs under the null are two models of equal skill,
so the permutation test's exchangeability holds only in distribution, as in a real comparison.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, NO, YES
from temporal_bench.lmms_eval_tasks.plugin.tempvs.docs import task_docs
from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import find_root, release_question_rows
from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import prepared_rows
from temporal_bench.lmms_eval_tasks.tempvs.metrics import make_record
from temporal_bench.tempvs.record_reader import TempVSRecords
from temporal_bench.tempvs.task_tests import per_test_records


@dataclass(frozen=True)
class Structure:
    """One benchmark task's docs: record templates and, per record, its cluster and item index."""

    name: str
    templates: list[dict]
    clusters: np.ndarray  # cluster index of each record
    items: np.ndarray  # item index of each record (records of one item share its difficulty)
    answer: Callable[[dict, bool, bool], dict]  # (template, right, unparsed) -> the record
    goals: np.ndarray | None = None  # goal index of each record (ISO-Bench: the goal of its plan video), for goal effects
    variant: str = ""  # what sets this structure apart from others of the task, for tables (e.g. "clustered by video")

    @property
    def label(self) -> str:
        return f"{self.name} ({self.variant})" if self.variant else self.name

    @cached_property
    def yes_gold(self) -> np.ndarray:
        """Per record: 1 where the gold answer is yes, -1 where it is no, 0 for a question of another kind."""
        return np.array([{YES: 1, NO: -1}.get(t.get("gold"), 0) for t in self.templates])


def _indices(keys: list) -> np.ndarray:
    index: dict = {}
    return np.array([index.setdefault(key, len(index)) for key in keys])


# ---- TempVS -------------------------------------------------------------------------------------


def _tempvs_answer(template: dict, right: bool, unparsed: bool) -> dict:
    return {**template, "correct": right and not unparsed}


def release_task_docs(data_dir: Path, tests: tuple) -> list[dict]:
    """The docs of a task holding ``tests`` on the release in ``data_dir``, as the task builds them (no images read)."""
    return task_docs(prepared_rows(release_question_rows(find_root(Path(data_dir)), tests).rows), tests, suite=False)


def tempvs(data_dir: Path, task: str) -> list[Structure]:
    """The task's docs as it loads them (``tempvs_mt1_two``; ``tempvs_ordering_event`` gives its two
    tests, which share the grounding questions); the item of a main question is its grounding partners."""
    test = task[len("tempvs_") :]
    tests = ("mt2_event", "mt3_event") if test == "ordering_event" else ("mt2_caption", "mt3_caption") if test == "ordering_caption" else (test,)
    docs = release_task_docs(data_dir, tests)
    templates = [TempVSRecords().normalise(make_record(doc, None), {}, {}) for doc in docs]  # as temporal_bench/runs/records.py reads them
    out = []
    for name, records in per_test_records(task, templates).items():
        items = [(r["source"], r["img_seq_id"], str(r["partners"]) if r["kind"] == "main" else r["key"]) for r in records]
        out.append(Structure(name, records, _indices([(r["source"], r["img_seq_id"]) for r in records]), _indices(items), _tempvs_answer))
    return out


# ---- CaT-Bench ----------------------------------------------------------------------------------


def _yes_no_answer(template: dict, right: bool, unparsed: bool) -> dict:
    return {**template, "pred": INVALID if unparsed else template["gold"] if right else (NO if template["gold"] == YES else YES)}


def plan_sizes(total: int, plans: int, smallest: int, seed: int = 0) -> list[int]:
    """``total`` items over ``plans`` of unequal sizes (at least ``smallest`` each)."""
    weights = np.random.default_rng(seed).gamma(1.5, size=plans)
    extra = np.floor(weights / weights.sum() * (total - smallest * plans)).astype(int)
    extra[: total - smallest * plans - extra.sum()] += 1
    return [smallest + int(e) for e in extra]


def catbench(plans: int = 57, pairs: int = 1420) -> Structure:
    """The test split's shape: ``pairs`` step pairs (half Dep) over ``plans`` plans of unequal size,
    each pair asked "before" and "after" (TC), each NonDep question with its switched twin (OCC)."""
    return catbench_plans([["dep" if pair % 2 == 0 else "nondep" for pair in range(size)] for size in plan_sizes(pairs, plans, smallest=4)])


def catbench_plans(plans: list[list[str]]) -> Structure:
    """CaT-Bench questions of the given plans, each a list of its step pairs' dependency ("dep" or
    "nondep"): each pair asked "before" and "after" (TC), each NonDep question with its switched twin (OCC)."""
    templates, clusters, items = [], [], []
    for plan, dependencies in enumerate(plans):
        for pair, dependency in enumerate(dependencies):
            pair_id = f"plan {plan}|{pair}|{pair + 1}"
            variants = ("real", "switched") if dependency == "nondep" else ("real",)
            for relation in ("before", "after"):
                for variant in variants:
                    templates.append({"question_id": f"{pair_id}|{relation}|{variant}", "pair_id": pair_id, "variant": variant, "dependency": dependency, "relation": relation, "gold": "yes" if dependency == "dep" else "no"})
                    clusters.append(plan)
                    items.append(pair_id)
    return Structure("catbench_switched", templates, np.array(clusters), _indices(items), _yes_no_answer)


def catbench_split_plans(folder: Path) -> list[tuple[int, int]]:
    """(Dep pairs, NonDep pairs) of each plan (``title``) of the CaT-Bench split whose four files of the original
    release lie in ``folder`` (tests/data/catbench/val; the official repository's data/test_must_why): each step
    pair asks a before and an after question, counted once here."""
    plans: dict[str, list[int]] = {}
    for column, name in enumerate(("dependent_real_before", "nondependent_real_before")):
        for line in (Path(folder) / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            plans.setdefault(json.loads(line)["title"], [0, 0])[column] += 1
    return [(dep, nondep) for dep, nondep in plans.values()]


def catbench_split(folder: Path) -> Structure:
    """The questions of the split in ``folder`` (:func:`catbench_split_plans`), plan by plan, with its plans' Dep and NonDep pairs."""
    plans = catbench_split_plans(folder)
    structure = catbench_plans([["dep"] * dep + ["nondep"] * nondep for dep, nondep in plans])
    return replace(structure, variant=f"{len(plans)} plans, {sum(map(sum, plans)):,} pairs")


def drawn_plans(pool: list[tuple[int, int]], count: int, scale: float, rng: np.random.Generator) -> list[list[str]]:
    """``count`` plans drawn from ``pool`` ((Dep, NonDep) pairs each) with replacement, each count times
    ``scale`` (rounded, a class the plan has keeps at least one pair), as :func:`catbench_plans` takes them."""
    scaled = lambda pairs: max(1, round(pairs * scale)) if pairs else 0  # noqa: E731
    return [["dep"] * scaled(dep) + ["nondep"] * scaled(nondep) for dep, nondep in (pool[i] for i in rng.integers(0, len(pool), count))]


# ---- ISO-Bench ----------------------------------------------------------------------------------

# the release's two sources: (examples, goals) of CrossTask (18 tasks) and YouCook2 (89 recipes)
ISOBENCH_SOURCES = {"crosstask": (139, 18), "youcook2": (625, 89)}


def isobench(plans: int = 480, goals_per_source: tuple[int, int] | None = None, with_goals: bool = True) -> Structure:
    """The release's 764 examples over ``plans`` plan videos of unequal size (shared out between the
    sources by their examples), each video of one goal of its source (``goals_per_source``: CrossTask's
    and YouCook2's goals, default 18 and 89), alternately Dep and NonDep; ``with_goals`` False: records
    without their goal, so compare clusters them by video (as a run whose records carry none)."""
    templates, clusters, goals = [], [], []
    counts = goals_per_source or tuple(n for _, n in ISOBENCH_SOURCES.values())
    sources = {source: (examples, n) for (source, (examples, _)), n in zip(ISOBENCH_SOURCES.items(), counts)}
    total = sum(examples for examples, _ in sources.values())
    for index, (source, (examples, source_goals)) in enumerate(sources.items()):
        videos = round(plans * examples / total)
        first = len(set(clusters))
        for video, size in enumerate(plan_sizes(examples, videos, smallest=1, seed=1 + index)):
            goal = video % source_goals  # every goal gets videos
            for example in range(size):
                template = {"id": f"{source}-{video}-{example}", "plan_id": f"{source}-{video}", "gold": "yes" if (video + example) % 2 == 0 else "no"}
                templates.append({**template, "goal": f"{source} goal {goal}"} if with_goals else template)
                clusters.append(first + video)
                goals.append(f"{source} {goal}")
    variant = f"{sum(n for _, n in sources.values())} goals, clustered by {'goal' if with_goals else 'video'}"
    return Structure("isobench", templates, np.array(clusters), np.arange(len(templates)), _yes_no_answer, _indices(goals), variant)


# ---- runs ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answers:
    """How a simulated model answers: its score (the chance of a right answer at zero effects), the
    spread of its cluster effects and of the items' difficulty (logit scale), and the unparsed rate."""

    score: float = 0.6
    cluster_sd: float = 0.8
    item_sd: float = 0.8
    invalid: float = 0.03
    goal_sd: float = 0.0  # the spread of the run's goal effects (structures with goals)
    bias: float = 0.0  # log-odds towards answering "yes" (yes/no questions)


def _base(structure: Structure, answers: Answers, rng: np.random.Generator) -> np.ndarray:
    """Each record's log-odds of a right answer before the run's own effects: score and item difficulty."""
    difficulty = rng.normal(0, answers.item_sd, structure.items.max() + 1)[structure.items]
    return np.log(answers.score / (1 - answers.score)) + difficulty


def _answered(structure: Structure, answers: Answers, base: np.ndarray, rng: np.random.Generator) -> list[dict]:
    effect = rng.normal(0, answers.cluster_sd, structure.clusters.max() + 1)[structure.clusters]
    if structure.goals is not None and answers.goal_sd:
        effect = effect + rng.normal(0, answers.goal_sd, structure.goals.max() + 1)[structure.goals]
    right = rng.random(len(base)) < 1 / (1 + np.exp(-(base + effect + answers.bias * structure.yes_gold)))
    unparsed = rng.random(len(base)) < answers.invalid
    return [structure.answer(t, bool(r), bool(u)) for t, r, u in zip(structure.templates, right, unparsed)]


def one_run(structure: Structure, answers: Answers, rng: np.random.Generator) -> list[dict]:
    """The records of one run (fresh item difficulties)."""
    return _answered(structure, answers, _base(structure, answers, rng), rng)


def run_pair(structure: Structure, answers: Answers, shift: float, rng: np.random.Generator, answers_b: Answers | None = None) -> tuple[list[dict], list[dict]]:
    """Records of run A and of run B (B's log-odds shifted by ``shift``; B answering as ``answers_b``, default as A,
    with A's score and item spread) on the same docs and item difficulties."""
    base = _base(structure, answers, rng)
    return _answered(structure, answers, base, rng), _answered(structure, answers_b or answers, base + shift, rng)
