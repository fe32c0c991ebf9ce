"""The normalised CaT-Bench question record and the NonDep-S (switched) twins."""

from typing import Dict, List, Sequence

from temporal_bench.utils.yes_no import NO, YES

RELATIONS = ("before", "after")


def binary_question(relation: str, a: int, b: int) -> str:
    """The released question string for the 0-based step pair a < b."""
    if relation == "before":
        return f"Must Step {a + 1} happen before Step {b + 1}?"
    return f"Must Step {b + 1} happen after Step {a + 1}?"


def make_question(title: str, steps: Sequence[str], a: int, b: int, relation: str, dependent: bool, question: str) -> Dict:
    """One question. ``pair_id`` (title, a, b) joins the before and after questions of a pair."""
    return {
        "question_id": f"real|{title}|{a}|{b}|{relation}",
        "pair_id": f"{title}|{a}|{b}",
        "variant": "real",
        "title": title,
        "steps": list(steps),
        "step_a": a,
        "step_b": b,
        "relation": relation,
        "question": question,
        "dependency": "dep" if dependent else "nondep",
        "distance": b - a,
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
    """The real questions followed by one switched twin per NonDep question (paper §5.1, Fig. 3)."""
    return questions + [switched_twin(q) for q in questions if q["dependency"] == "nondep"]
