"""Exact prompt strings (docs/protocol/catbench.md §4) and answer parsing (§5)."""

import pytest

from temporal_bench.lmms_eval_tasks.catbench import prompts
from temporal_bench.lmms_eval_tasks.catbench.parsing import parse_answer_only, parse_json_answer
from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import doc_to_text_explain_nl, parse_nl_answer

DOC = {"title": "toast", "steps": ["Slice bread.", "Toast it."], "question": "Must Step 1 happen before Step 2?"}
PROC = "1. Slice bread.\n2. Toast it."
ONE = "Given a goal, a procedure to achieve that goal and a question about the steps in the procedure, you are required to answer the question in one sentence."
MANY = "Given a goal, a procedure to achieve that goal and a question about the steps in the procedure, you are required to answer the questions."


def test_answer_only_prompt():
    assert prompts.answer_only(DOC) == f"{ONE}\n\nGoal: toast\n\nProcedure:\n{PROC}\n\n\nMust Step 1 happen before Step 2? Select between yes or no\n\n"


def test_answer_then_explain_prompt():
    assert prompts.answer_then_explain(DOC) == (
        f"{MANY}\n\nGoal: toast\n\nProcedure:\n{PROC}\n\n\n1. Must Step 1 happen before Step 2?\n2. Explain why or why not.\n\n"
        'Format your answer as JSON with the key value pairs "binary_answer": "yes/no answer to Q1", "why_answer": "one sentence answer to Q2"'
    )


def test_nl_answer_then_explain_prompt():
    assert doc_to_text_explain_nl(DOC) == (
        f"{MANY}\n\nGoal: toast\n\nProcedure:\n{PROC}\n\n\n1. Must Step 1 happen before Step 2?\n2. Explain why or why not.\n\nFormat your answer as follows:\n\nAnswer 1: yes/no\nAnswer 2: your answer in one sentence\n\n"
    )


def test_explain_then_answer_prompt_uses_the_question_numbers_in_order():
    doc = {**DOC, "question": "Must Step 2 happen after Step 1?"}
    assert prompts.explain_then_answer(doc) == (
        f"{MANY}\n\nGoal: toast\n\nProcedure:\n{PROC}\n\n\n1. Explain why or why not Step 2 must happen after Step 1. Think step by step.\n"
        "2. Must Step 2 happen after Step 1? Select between yes or no\n\n"
        'Format your answer as JSON with the key value pairs "why_answer": "answer to Q1", "binary_answer": "yes/no answer to Q2"'
    )


@pytest.mark.parametrize(
    "response, label",
    [
        ("Yes", "yes"),
        ("No", "no"),
        ("yes.", "yes"),
        ("NO", "no"),
        ("**No**", "no"),
        ("Yes, it must.", "yes"),
        ("'no'", "no"),
        ("No, because the bread is toasted later. Yes.", "no"),
        ("Not necessarily", "invalid"),
        ("I don't know", "invalid"),
        ("It cannot be determined", "invalid"),
        ("", "invalid"),
        (None, "invalid"),
        ("Nope", "invalid"),
        ("The answer is yes", "yes"),
        ("Yesterday", "invalid"),
        ("\n\nYes", "yes"),
        ("   \t\n", "invalid"),
        ("\x00Yes\x07", "yes"),
        ("Sí, yes", "yes"),
        ("はい", "invalid"),
        ("blah " * 20000 + "No", "no"),
        ("Ｙｅｓ", "invalid"),
    ],
)
def test_answer_only_parsing(response, label):
    assert parse_answer_only(response) == label


@pytest.mark.parametrize(
    "response, label",
    [
        ('{"binary_answer": "yes", "why_answer": "Because no bread."}', "yes"),
        ('```json\n{"binary_answer": "No", "why_answer": "Yes it could."}\n```', "no"),
        ('{"why_answer": "It is not needed, yes.", "binary_answer": "no"}', "no"),
        ('{"binary_answer": "yes", "why_answer": "unterminated', "yes"),
        ('Sure! "binary_answer": "No" since...', "no"),
        ("No JSON here, but yes.", "no"),
        ('{"binary_answer": "maybe"} yes', "yes"),
        ('{"binary_answer": "unclear"}', "invalid"),
        ("", "invalid"),
    ],
)
def test_json_parsing(response, label):
    assert parse_json_answer(response) == label


@pytest.mark.parametrize(
    "response, label",
    [
        ("Answer 1: yes\nAnswer 2: Because no...", "yes"),
        ("Answer 1: **No**\nAnswer 2: yes it could", "no"),
        ("answer 1 : NO", "no"),
        ("Yes. Step 1 comes first.", "yes"),
        ("Answer 1: not sure", "invalid"),
    ],
)
def test_nl_parsing(response, label):
    assert parse_nl_answer(response) == label
