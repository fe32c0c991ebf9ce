"""The paper's prompts (the official repository's strings), whitespace exact: note the three newlines
before the question.
"""

import re

_HEADER_ONE = "Given a goal, a procedure to achieve that goal and a question about the steps in the procedure, you are required to answer the question in one sentence."
HEADER_MANY = "Given a goal, a procedure to achieve that goal and a question about the steps in the procedure, you are required to answer the questions."
_QUESTION_PARTS = re.compile(r"^Must Step (\d+) happen (before|after) Step (\d+)\?$")


def procedure(doc: dict) -> str:
    return "\n".join(f"{n}. {step}" for n, step in enumerate(doc["steps"], 1))


def context(header: str, doc: dict) -> str:
    return f"{header}\n\nGoal: {doc['title']}\n\nProcedure:\n{procedure(doc)}\n\n\n"


def answer_only(doc: dict) -> str:
    """(A) ``basic_binary``."""
    return f"{context(_HEADER_ONE, doc)}{doc['question']} Select between yes or no\n\n"


def answer_then_explain(doc: dict) -> str:
    """(A+E) ``basic_binary_explain``: a JSON answer."""
    return f"{context(HEADER_MANY, doc)}1. {doc['question']}\n2. Explain why or why not.\n\n" 'Format your answer as JSON with the key value pairs "binary_answer": "yes/no answer to Q1", ' '"why_answer": "one sentence answer to Q2"'


def explain_then_answer(doc: dict) -> str:
    """(E+A) reconstruction of ``explain_binary`` (no official string exists: from the paper's Fig. 4 and the authors' released outputs)."""
    parts = _QUESTION_PARTS.match(doc["question"])
    if parts is None:
        raise ValueError(f"not a CaT-Bench question: {doc['question']!r}")
    first, relation, second = parts.groups()
    return (
        f"{context(HEADER_MANY, doc)}1. Explain why or why not Step {first} must happen {relation} Step {second}. "
        f"Think step by step.\n2. {doc['question']} Select between yes or no\n\n"
        'Format your answer as JSON with the key value pairs "why_answer": "answer to Q1", '
        '"binary_answer": "yes/no answer to Q2"'
    )
