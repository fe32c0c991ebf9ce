"""The normalised CaT-Bench question record, the questions of the hub dataset's step-pair rows, and the NonDep-S (switched) twins."""

from typing import Dict, Iterable, List, Sequence

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import NO, YES

RELATIONS = ("before", "after")
HF_FIELDS = ("title", "steps", "origin_text", "destination_text", "label")  # a row of the hub dataset: one step pair


def binary_question(relation: str, a: int, b: int) -> str:
    """The released question string for the 0-based step pair a < b."""
    if relation == "before":
        return f"Must Step {a + 1} happen before Step {b + 1}?"
    return f"Must Step {b + 1} happen after Step {a + 1}?"


def make_question(title: str, steps: Sequence[str], a: int, b: int, relation: str, dependent: bool, question: str) -> Dict:
    """One question. ``pair_id`` (title, a, b) joins the before and after questions of a pair."""
    key = f"{title}|{a}|{b}"
    record = {"question_id": f"real|{key}|{relation}", "pair_id": key, "variant": "real", "title": title, "steps": list(steps), "step_a": a, "step_b": b, "relation": relation}
    record.update(question=question, dependency="dep" if dependent else "nondep", distance=b - a, answer=YES if dependent else NO, choices=[YES, NO])
    return record


def switched_twin(question: Dict) -> Dict:
    """NonDep-S: the same question string over the plan with the two asked-about step texts swapped."""
    steps = list(question["steps"])
    a, b = question["step_a"], question["step_b"]
    steps[a], steps[b] = steps[b], steps[a]
    return {**question, "steps": steps, "variant": "switched", "question_id": question["question_id"].replace("real|", "switched|", 1)}


def with_switched_twins(questions: List[Dict]) -> List[Dict]:
    """The real questions followed by one switched twin per NonDep question (paper §5.1, Fig. 3)."""
    return questions + [switched_twin(q) for q in questions if q["dependency"] == "nondep"]


class CatBenchDataError(ValueError):
    """A CaT-Bench file or row that cannot be read as the release describes."""


def require_fields(row: Dict, fields, where: str) -> None:
    missing = [field for field in fields if field not in row]
    if missing:
        raise CatBenchDataError(f"{where}: missing field(s) {missing}; found {sorted(row)}")


def steps_of(value, where: str) -> List[str]:
    if not (isinstance(value, list) and value and all(isinstance(step, str) for step in value)):
        raise CatBenchDataError(f"{where}: steps {value!r:.80} is not a list of step texts")
    return value


_HF_LABELS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def _hf_label(value, where: str) -> bool:
    """``label`` of a Hugging Face row: a boolean (or 0/1, "true"/"false"); never truthiness, as bool("false") is True."""
    if isinstance(value, bool):
        return value
    key = str(value).strip().lower() if isinstance(value, (int, str)) else None
    if key not in _HF_LABELS:
        raise CatBenchDataError(f"{where}: label {value!r:.80} is not a boolean (true = Dep, false = NonDep)")
    return _HF_LABELS[key]


def _step_index(steps: List[str], text: str, where: str) -> int:
    matches = [i for i, step in enumerate(steps) if step == text]
    if len(matches) != 1:
        raise CatBenchDataError(f"{where}: step text {text[:60]!r} matches {len(matches)} steps, expected exactly 1")
    return matches[0]


def expand_hf_rows(rows: Iterable[tuple]) -> List[Dict]:
    """Hugging Face rows are step pairs: ``destination_text`` is the earlier step, ``origin_text`` the later."""
    questions = []
    for where, row in rows:
        require_fields(row, HF_FIELDS, where)
        steps = list(steps_of(row["steps"], where))
        a = _step_index(steps, row["destination_text"], where)
        b = _step_index(steps, row["origin_text"], where)
        if a >= b:
            raise CatBenchDataError(f"{where}: destination step {a + 1} does not precede origin step {b + 1}")
        dependent = _hf_label(row["label"], where)
        for relation in RELATIONS:
            questions.append(make_question(row["title"], steps, a, b, relation, dependent, binary_question(relation, a, b)))
    return questions
