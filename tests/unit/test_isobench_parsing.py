"""ISO-Bench answer parsing (docs/protocol/isobench.md §4) and the exact prompts (§3)."""

import pytest

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.answer_tags import last_answer_tag
from temporal_bench.lmms_eval_tasks.isobench import prompts
from temporal_bench.lmms_eval_tasks.isobench.parsing import parse_answer_only, parse_explain_then_answer

# (response, expected label) for Answer-Only: the first whole-word YES/NO, case-insensitive.
ANSWER_ONLY_CASES = [
    ("Yes", "yes"),
    ("No", "no"),
    ("yes", "yes"),
    ("no.", "no"),
    ("Yes.", "yes"),
    ("YES", "yes"),
    ("**NO**", "no"),
    ("**Yes**, the cheese has to melt before the sandwich is served.", "yes"),
    ("No, the image shows plating, which happens at the end.", "no"),
    ("NO - the frame shows a later step", "no"),
    ("`yes`", "yes"),
    ("Yes\n\nThe image shows the bread being toasted, which is needed first.", "yes"),
    ("The answer is: NO", "no"),
    ("Answer: yes", "yes"),
    ("yes, because the onions must be chopped before they are fried", "yes"),
    ("The step shown must come before the first step in the plan, so yes.", "yes"),
    ("None of the snippet steps depend on it. No.", "no"),
    ("I know the dough has to rest first; yes.", "yes"),
    ("Yes/No", "yes"),  # the paper's rule: the first occurrence wins
    ("<think>the bread is toasted before assembling</think> NO", "no"),
    ("I cannot tell from the image.", "invalid"),
    ("Not necessarily.", "invalid"),
    ("I don't know.", "invalid"),
    ("It is not possible to know without more context.", "invalid"),
    ("Cannot determine.", "invalid"),
    ("Nope", "invalid"),
    ("Unknown", "invalid"),
    ("Notably, the frame shows a knife.", "invalid"),
    ("", "invalid"),
]

# (response, expected label) for Explain-Then-Answer: only the final complete <answer> tag counts.
EXPLAIN_THEN_ANSWER_CASES = [
    ("<think>The cheese must melt before baking.</think>\n<answer>YES</answer>", "yes"),
    ("<think>The frame shows serving.</think><answer>NO</answer>", "no"),
    ("<think>At first I thought yes, the oil is heated, but the frame shows plating.</think> <answer>NO</answer>", "no"),
    ("<think>No dependency? Actually the pan must be hot first, so no... wait.</think><answer>yes</answer>", "yes"),
    ("<think>The image shows onions being chopped, which must happen before frying them, so the answer", "invalid"),
    ("<think>Chopping comes first.</think>\n<answer>", "invalid"),
    ("<think>Chopping comes first.</think>\n<answer>YES", "invalid"),
    ("<answer>YES</answer> Hmm, on reflection: <answer>NO</answer>", "no"),
    ("<answer>**No**</answer>", "no"),
    ("<ANSWER>Yes</ANSWER>", "yes"),
    ("<answer> yes. </answer>", "yes"),
    ("<answer>Yes, it must.</answer>", "yes"),
    ("YES", "invalid"),
    ("<think>yes</think> The answer is NO.", "invalid"),
    ("<answer>YES or NO</answer>", "invalid"),
    ("<answer>I cannot tell</answer>", "invalid"),
    ("<answer>Not necessarily</answer>", "invalid"),
    ("<think>I don't know what the frame shows.</think><answer>No</answer>", "no"),
    ("<think>Writing <answer>YES</answer> would ignore the order.</think><answer>NO</answer>", "no"),
]


@pytest.mark.parametrize("response,expected", ANSWER_ONLY_CASES)
def test_answer_only(response, expected):
    assert parse_answer_only(response) == expected


@pytest.mark.parametrize("response,expected", EXPLAIN_THEN_ANSWER_CASES)
def test_explain_then_answer(response, expected):
    assert parse_explain_then_answer(response) == expected


def test_case_table_is_large_and_covers_every_label():
    labels = [e for _, e in ANSWER_ONLY_CASES + EXPLAIN_THEN_ANSWER_CASES]
    assert len(labels) >= 30 and {"yes", "no", "invalid"} <= set(labels)


def test_last_answer_tag():
    assert last_answer_tag("<answer>a</answer> x <Answer> b </Answer>") == "b"
    assert last_answer_tag("<answer><answer>NO</answer>") == "NO"
    assert last_answer_tag("<answer>YES") is None
    assert last_answer_tag(None) is None
    assert last_answer_tag("<answer>\nyes\n</answer>") == "yes"


DOC = {
    "goal": "croque monsieur",
    "snippet_steps": ["toast the bread", "spread the butter on the bread", "bake the bread in an oven until the cheese melt"],
    "question": "Does this image show a step that must come before the first step in the plan?",
}


def test_answer_only_prompt_is_exact():
    assert prompts.answer_only(DOC) == (
        "GOAL: croque monsieur\n\nPlan:\n\ntoast the bread\nspread the butter on the bread\n"
        "bake the bread in an oven until the cheese melt\n\n"
        "QUESTION: Does this image show a step that must come before the first step in the plan?\n"
        "Answer only with YES or NO."
    )


def test_explain_then_answer_prompt_is_exact():
    assert prompts.explain_then_answer(DOC) == (
        "GOAL: croque monsieur\n\nPlan:\n\ntoast the bread\nspread the butter on the bread\n"
        "bake the bread in an oven until the cheese melt\n\n"
        "QUESTION: Does this image show a step that must come before the first step in the plan?\n"
        "First think briefly inside <think>...</think>, then give your final answer inside <answer>...</answer> "
        "as either <answer>YES</answer> or <answer>NO</answer>."
    )
