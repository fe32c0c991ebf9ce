"""A synthetic CaT-Bench in the released layouts, for the demo, tests and benchmarks.

Plans are made-up recipes; every split gets balanced Dep/NonDep step pairs, each asked as a
before and an after question, with different plan titles per split.
"""

import json
import random
from pathlib import Path

from temporal_bench.catbench.record_reader import SYNTHETIC_TITLE
from temporal_bench.lmms_eval_tasks.catbench.questions import binary_question
from temporal_bench.lmms_eval_tasks.plugin.catbench.release import HF_FILE_NAMES, RELEASE_DIR_NAMES, RELEASE_FILES
from temporal_bench.synthetic_data import mark_synthetic

_ACTIONS = ["chop", "boil", "stir", "bake", "season", "whisk", "fry", "drain", "slice", "grate", "simmer", "serve"]
_FOODS = ["onions", "potatoes", "rice", "garlic", "carrots", "eggs", "the sauce", "the dough", "beans", "cheese"]


def _plan(rng: random.Random, split: str, index: int, min_steps: int) -> dict:
    n_steps = max(rng.randint(6, 10), min_steps)
    steps = [f"{rng.choice(_ACTIONS).capitalize()} {rng.choice(_FOODS)} (step {n} of {split} plan {index})." for n in range(1, n_steps + 1)]
    return {"title": f"{SYNTHETIC_TITLE}{split} recipe {index}", "steps": steps}


def _pairs(rng: random.Random, plan: dict, per_class: int) -> list[tuple]:
    candidates = [(a, b) for a in range(len(plan["steps"])) for b in range(a + 1, len(plan["steps"]))]
    chosen = rng.sample(candidates, 2 * per_class)
    return [(a, b, True) for a, b in chosen[:per_class]] + [(a, b, False) for a, b in chosen[per_class:]]


def synthetic_pairs(split: str, n_plans: int, pairs_per_class: int, seed: int = 0) -> list[tuple]:
    """(plan, a, b, dependent) step pairs of one split."""
    rng = random.Random(f"{seed}:{split}")
    min_steps = next(n for n in range(2, 100) if n * (n - 1) // 2 >= 2 * pairs_per_class)
    pairs = []
    for index in range(n_plans):
        plan = _plan(rng, split, index, min_steps)
        pairs += [(plan, a, b, dependent) for a, b, dependent in _pairs(rng, plan, pairs_per_class)]
    return pairs


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def write_release_split(folder: Path, pairs: list[tuple]) -> None:
    """The four release (A) files; Dep pairs are numbered first, NonDep pairs continue."""
    ordered = [p for p in pairs if p[3]] + [p for p in pairs if not p[3]]
    for (dependent, relation), name in RELEASE_FILES.items():
        rows = [
            {
                "plan_idx": idx,
                "question_idx": idx,
                "title": plan["title"],
                "steps": plan["steps"],
                "question_type": name[: -len(".jsonl")],
                "step_pair_idx_asked_about": [a, b],
                "binary_question": binary_question(relation, a, b),
            }
            for idx, (plan, a, b, dep) in enumerate(ordered)
            if dep == dependent
        ]
        _write_jsonl(folder / name, rows)


def hf_rows(pairs: list[tuple]) -> list[dict]:
    return [{"title": plan["title"], "steps": plan["steps"], "origin_text": plan["steps"][b], "destination_text": plan["steps"][a], "label": dependent} for plan, a, b, dependent in pairs]


def write_fixture(root: Path, layout: str = "release", n_plans: int = 3, pairs_per_class: int = 4, seed: int = 0) -> Path:
    """All three splits under ``root`` in the ``release`` ({split}_must_why/) or ``hf`` layout."""
    for split in ("train", "validation", "test"):
        pairs = synthetic_pairs(split, n_plans, pairs_per_class, seed)
        if layout == "release":
            write_release_split(root / RELEASE_DIR_NAMES[split], pairs)
        else:
            _write_jsonl(root / HF_FILE_NAMES[split], hf_rows(pairs))
    mark_synthetic(root, "CaT-Bench")
    return root


def swap_labels(source: Path, target: Path, each: int = 200, seed: int = 1, close_max_distance: int = 3) -> Path:
    """A copy of the release split folder ``source`` (its four files) in ``target`` with ``each`` Dep step pairs made
    NonDep and as many NonDep pairs made Dep, each swap within one plan and one distance class (<= / > the close
    threshold): every file keeps its rows, every count known of the split stays (Dep, close, Dep close, plans with Dep
    and with NonDep pairs), and the data is another (docs/uncertainty.md, the release gate)."""
    rows = {name: [json.loads(line) for line in (Path(source) / name).read_text(encoding="utf-8").splitlines() if line.strip()] for name in RELEASE_FILES.values()}
    by_pair: dict[tuple, dict[str, int]] = {}  # (title, a, b) -> file -> row index
    for name, found in rows.items():
        for index, row in enumerate(found):
            by_pair.setdefault((row["title"], *row["step_pair_idx_asked_about"]), {})[name] = index
    dependent = {pair: name.startswith("dependent") for pair, files in by_pair.items() for name in files}
    groups: dict[tuple, list[list[tuple]]] = {}  # (title, close) -> [Dep pairs, NonDep pairs]
    for pair, dep in dependent.items():
        groups.setdefault((pair[0], pair[2] - pair[1] <= close_max_distance), [[], []])[0 if dep else 1].append(pair)
    rng = random.Random(seed)
    swaps = [swap for dep, nondep in groups.values() for swap in zip(dep, nondep)]
    if len(swaps) < each:
        raise ValueError(f"{source}: only {len(swaps)} Dep/NonDep pairs share a plan and distance class, fewer than {each}")
    for dep_pair, nondep_pair in rng.sample(swaps, each):
        for (is_dep, relation), name in RELEASE_FILES.items():
            if not is_dep:
                continue
            other = next(n for (d, r), n in RELEASE_FILES.items() if not d and r == relation)
            i, j = by_pair[dep_pair][name], by_pair[nondep_pair][other]
            rows[name][i], rows[other][j] = {**rows[other][j], "question_type": name[: -len(".jsonl")]}, {**rows[name][i], "question_type": other[: -len(".jsonl")]}
    for name, found in rows.items():
        _write_jsonl(Path(target) / name, found)
    return Path(target)
