"""The paper's prompt (paper App. H): GOAL, the plan snippet one step per line without
numbering, the QUESTION, then the mode's instruction on its own line. The image goes through the
model's vision input (``doc_to_visual``), never as text."""

ANSWER_ONLY_INSTRUCTION = "Answer only with YES or NO."
# The paper gives no wording for E->A, only its format (<think>...</think> then <answer>YES|NO</answer>).
EXPLAIN_THEN_ANSWER_INSTRUCTION = "First think briefly inside <think>...</think>, then give your final answer inside <answer>...</answer> as either <answer>YES</answer> or <answer>NO</answer>."


def question_prompt(doc: dict) -> str:
    plan = "\n".join(doc["snippet_steps"])
    return f"GOAL: {doc['goal']}\n\nPlan:\n\n{plan}\n\nQUESTION: {doc['question']}"


def answer_only(doc: dict) -> str:
    """Mode A."""
    return f"{question_prompt(doc)}\n{ANSWER_ONLY_INSTRUCTION}"


def explain_then_answer(doc: dict) -> str:
    """Mode E->A."""
    return f"{question_prompt(doc)}\n{EXPLAIN_THEN_ANSWER_INSTRUCTION}"
