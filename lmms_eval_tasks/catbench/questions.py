"""CaT-Bench questions from the rows of the hub dataset ``vanyacohen/CaT-Bench`` (one row per step pair, asked as a
before and an after question) and their NonDep-S (switched) twins (paper §3 and §5.1)."""

from typing import Dict, Iterable, List, Sequence

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import NO, YES

RELATIONS = ("before", "after")
HF_FIELDS = ("title", "steps", "origin_text", "destination_text", "label")  # a row of the hub dataset: one step pair
_LABELS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


class CatBenchDataError(ValueError):
    """A CaT-Bench row that cannot be read as the release describes."""


def binary_question(relation: str, a: int, b: int) -> str:
    """The released question string for the 0-based step pair a < b."""
    if relation == "before":
        return f"Must Step {a + 1} happen before Step {b + 1}?"
    return f"Must Step {b + 1} happen after Step {a + 1}?"


def make_question(title: str, steps: Sequence[str], a: int, b: int, relation: str, dependent: bool) -> Dict:
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


def switched_twin(question: Dict) -> Dict:
    """NonDep-S: the same question string over the plan with the two asked-about step texts swapped."""
    steps = list(question["steps"])
    a, b = question["step_a"], question["step_b"]
    steps[a], steps[b] = steps[b], steps[a]
    return {**question, "steps": steps, "variant": "switched", "question_id": question["question_id"].replace("real|", "switched|", 1)}


def with_switched_twins(questions: List[Dict]) -> List[Dict]:
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


def _step_index(steps: List[str], text: str, where: str) -> int:
    matches = [i for i, step in enumerate(steps) if step == text]
    if len(matches) != 1:
        raise CatBenchDataError(f"{where}: step text {text[:60]!r} matches {len(matches)} steps, expected exactly 1")
    return matches[0]


def questions_of_rows(rows: Iterable[Dict], split: str) -> List[Dict]:
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
        if a >= b:
            raise CatBenchDataError(f"{where}: destination step {a + 1} does not precede origin step {b + 1}")
        questions += [make_question(row["title"], steps, a, b, relation, _label(row["label"], where)) for relation in RELATIONS]
    return questions
