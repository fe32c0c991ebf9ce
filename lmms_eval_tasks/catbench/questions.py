"""CaT-Bench questions from the rows of the hub dataset ``vanyacohen/CaT-Bench`` (one row per step pair, asked as a
before and an after question) and their NonDep-S (switched) twins (paper §3 and §5.1).

A row whose step text is not exactly one step of its plan cannot be asked (its step numbers are unknown): it is left
out with a warning naming it. The test split's questions are checked against the paper's counts, with a warning
naming each that differs.
"""

import logging
from collections.abc import Iterable, Sequence

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import NO, YES

RELATIONS = ("before", "after")
HF_FIELDS = ("title", "steps", "origin_text", "destination_text", "label")  # a row of the hub dataset: one step pair
_LABELS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
PAPER_TEST_COUNTS = {"questions": 2840, "dependent questions": 1420}  # paper §3: 1,420 step pairs (710 Dep) of 57 plans, each asked before and after
logger = logging.getLogger(__name__)


class CatBenchDataError(ValueError):
    """A CaT-Bench row that cannot be read as the release describes."""


def binary_question(relation: str, a: int, b: int) -> str:
    """The released question string for the 0-based step pair a < b."""
    if relation == "before":
        return f"Must Step {a + 1} happen before Step {b + 1}?"
    return f"Must Step {b + 1} happen after Step {a + 1}?"


def make_question(title: str, steps: Sequence[str], a: int, b: int, relation: str, dependent: bool) -> dict:
    """One question; ``pair_id`` (title, a, b) joins the before and after questions of a step pair."""
    key = f"{title}|{a}|{b}"
    return {
        "question_id": f"real|{key}|{relation}",
        "pair_id": key,
        "variant": "real",
        "title": title,
        "steps": list(steps),
        "step_a": a,
        "step_b": b,
        "relation": relation,
        "question": binary_question(relation, a, b),
        "dependency": "dep" if dependent else "nondep",
        "answer": YES if dependent else NO,
        "choices": [YES, NO],
    }


def switched_twin(question: dict) -> dict:
    """NonDep-S: the same question string over the plan with the two asked-about step texts swapped."""
    steps = list(question["steps"])
    a, b = question["step_a"], question["step_b"]
    steps[a], steps[b] = steps[b], steps[a]
    return {**question, "steps": steps, "variant": "switched", "question_id": question["question_id"].replace("real|", "switched|", 1)}


def with_switched_twins(questions: list[dict]) -> list[dict]:
    """Each question followed by its switched twin when it is NonDep, so that a ``--limit`` keeps the pairs."""
    return [twin for question in questions for twin in ([question, switched_twin(question)] if question["dependency"] == "nondep" else [question])]


def _label(value, where: str) -> bool:
    """``label``: a boolean (or 0/1, "true"/"false"); never truthiness, as bool("false") is True."""
    if isinstance(value, bool):
        return value
    key = str(value).strip().lower() if isinstance(value, (int, str)) else None
    if key not in _LABELS:
        raise CatBenchDataError(f"{where}: label {value!r:.80} is not a boolean (true = Dep, false = NonDep)")
    return _LABELS[key]


def _step_index(steps: list[str], text: str, where: str) -> int | None:
    """The position of the one step whose text is ``text``; None, with a warning, where not exactly one step is."""
    matches = [i for i, step in enumerate(steps) if step == text]
    if len(matches) != 1:
        logger.warning(f"{where}: step text {text[:60]!r} matches {len(matches)} steps, expected exactly 1: the row is left out")
        return None
    return matches[0]


def count_differences(questions: list[dict]) -> list[str]:
    """The counts of the test split's questions that are not the paper's."""
    counts = {"questions": len(questions), "dependent questions": sum(question["dependency"] == "dep" for question in questions)}
    return [f"{counts[name]:,} {name} read, the paper has {paper:,}" for name, paper in PAPER_TEST_COUNTS.items() if counts[name] != paper]


def questions_of_rows(rows: Iterable[dict], split: str) -> list[dict]:
    """The questions of the hub rows: ``destination_text`` is the earlier step, ``origin_text`` the later."""
    questions = []
    for i, row in enumerate(rows):
        where = f"CaT-Bench {split} row {i}"
        missing = [field for field in HF_FIELDS if field not in row]
        if missing:
            raise CatBenchDataError(f"{where}: missing field(s) {missing}; found {sorted(row)}")
        steps = row["steps"]
        if not (isinstance(steps, list) and steps and all(isinstance(step, str) for step in steps)):
            raise CatBenchDataError(f"{where}: steps {steps!r:.80} is not a list of step texts")
        a, b = _step_index(steps, row["destination_text"], where), _step_index(steps, row["origin_text"], where)
        if a is None or b is None:
            continue
        if a >= b:
            raise CatBenchDataError(f"{where}: destination step {a + 1} does not precede origin step {b + 1}")
        questions += [make_question(row["title"], steps, a, b, relation, _label(row["label"], where)) for relation in RELATIONS]
    if split == "test" and count_differences(questions):
        logger.warning("CaT-Bench test split: " + "; ".join(count_differences(questions)))
    return questions


def task_docs(rows: Iterable[dict], split: str, switched: bool) -> list[dict]:
    """The questions of the split's step pairs; with ``switched``, each NonDep question followed by its twin. Each
    names whether its task has twins (``switched``: its records then give OCC).
    """
    questions = questions_of_rows(rows, split)
    return [{**question, "switched": switched} for question in (with_switched_twins(questions) if switched else questions)]
