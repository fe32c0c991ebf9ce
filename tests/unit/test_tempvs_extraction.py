"""TempVS answer extraction (docs/protocol/tempvs.md §6): the official first-match regexes with their quirks and the
model-family branches (the task folder's), the opt-in fixed extraction and the CoT answer tag (this package's variants)."""

import pytest

from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import extract, fixed_extract
from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import check_settings
from temporal_bench.lmms_eval_tasks.tempvs.extraction import UNK, is_correct, official_extract
from temporal_bench.lmms_eval_tasks.tempvs.spec import TempVSDataError

MT1_OPTIONS = "A. False; B. True."

# (raw output, official generic parse) for MT1 (\b([AB])\b, first match, case-sensitive)
MT1_GENERIC = [
    ("A", "A"),
    ("B", "B"),
    ("Option B", "B"),
    ("Option [A]", "A"),
    ("The answer is B.", "B"),
    ("B. True", "B"),
    ("A man opens the door, so the answer is B.", "A"),  # quirk: the article "A" is read as the answer
    ("option b", UNK),  # quirk: lowercase is not recognised
    ("True", UNK),
    ("", UNK),
    ("I think (B) is right", "B"),
    ("AB", UNK),  # no standalone letter
    ("Answer: C", UNK),  # not an MT1 letter
]

ORDERING_GENERIC = [
    ("Option C", "C"),
    ("E", "E"),
    ("Option [D]", "D"),
    ("The correct order is Sentence c -> Sentence a", UNK),  # lowercase labels are not option letters
    ("A. Sentence c -> Sentence b", "A"),
    ("A possible order is D", "A"),  # quirk: article
    ("option e", UNK),
]

GROUNDING_GENERIC = [
    ("3", "3"),
    ("Image 4", "4"),
    ("image 2.", "2"),
    ("The event matches image 5", "5"),
    ("2 people walk; it is image 4", "2"),  # quirk: the first number anywhere
    ("three", UNK),  # quirk: number words are not read
    ("The first image", UNK),
]


@pytest.mark.parametrize("text,expected", MT1_GENERIC)
def test_mt1_generic(text, expected):
    assert official_extract(text, "mt1") == expected
    assert extract(text, "mt1", MT1_OPTIONS, fixes=frozenset()) == expected


@pytest.mark.parametrize("text,expected", ORDERING_GENERIC)
def test_ordering_generic(text, expected):
    assert official_extract(text, "ordering") == expected


@pytest.mark.parametrize("text,expected", GROUNDING_GENERIC)
def test_grounding_generic(text, expected):
    assert official_extract(text, "grounding") == expected


def test_family_branches():
    # DeepSeek/Janus: the end-of-sentence marker is removed first
    assert official_extract("B <｜end▁of▁sentence｜>", "mt1", "deepseek") == "B"
    # LLaVA-Interleave / NeXT-Video decode the prompt too: only the text after "assistant" counts
    echoed = "user Options are: A. True; B. False. The answer is: assistant B"
    assert official_extract(echoed, "mt1", "interleave") == "B"
    assert official_extract(echoed, "mt1", "generic") == "A"
    # Llama-3.1-8B (blind): the text after the first "The answer is"
    assert official_extract("Options are: A. True; B. False.\nThe answer is: Option B", "mt1", "llama_blind") == "B"
    # InternVL MT1 priority: Option X, then X. True/False, then a final letter, then Option [X]
    assert official_extract("A man walks. Option B", "mt1", "internvl") == "B"
    assert official_extract("A man walks. B. False", "mt1", "internvl") == "B"
    assert official_extract("A man walks, so B", "mt1", "internvl") == "B"
    assert official_extract("A man walks.", "mt1", "internvl") == UNK
    assert official_extract("A man walks. Option C", "ordering", "internvl") == "A"  # ordering: generic regex


FIXED = [
    ("mt1", "A man opens the door, so the answer is B.", "B"),
    ("mt1", "option b", "B"),
    ("mt1", "Option [A]", "A"),
    ("mt1", "True", "B"),  # through the options "A. False; B. True."
    ("mt1", "True or False? False", UNK),  # both words: ambiguous
    ("mt1", "A is correct", "A"),
    ("mt1", "B", "B"),
    ("ordering", "A possible order is D", "D"),
    ("ordering", "answer: e", "E"),
    ("ordering", "(C)", "C"),
    ("grounding", "2 people walk; it is image 4", "4"),
    ("grounding", "three", "3"),
    ("grounding", "The first image", "1"),
]


@pytest.mark.parametrize("kind,text,expected", FIXED)
def test_fixed_extraction(kind, text, expected):
    assert fixed_extract(text, kind, MT1_OPTIONS) == expected
    assert extract(text, kind, MT1_OPTIONS, fixes=frozenset({"extraction"})) == expected


def test_cot_reads_the_last_answer_tag():
    cot = "<think>A man waves; Image 1 ... so B?</think> <answer>Option A</answer>"
    assert extract(cot, "mt1", MT1_OPTIONS, cot=True, fixes=frozenset()) == "A"
    assert extract(cot, "mt1", MT1_OPTIONS, cot=False, fixes=frozenset()) == "A"  # first match happens to agree
    assert extract("<think>B is wrong</think><answer>True</answer>", "mt1", MT1_OPTIONS, cot=True, fixes=frozenset()) == "B"
    assert extract("<think>x</think><answer>Option D</answer>", "ordering", cot=True, fixes=frozenset()) == "D"
    # no tag: the whole output, like the official parser
    assert extract("<think>Before: B</think> no answer", "mt1", MT1_OPTIONS, cot=True, fixes=frozenset()) == "B"
    # an unclosed tag is not a tag
    assert extract("<think>C</think><answer>Option E", "ordering", cot=True, fixes=frozenset()) == "C"


def test_correctness_uses_the_last_character_case_sensitively():
    assert is_correct("B", "B") and is_correct("B", "Option B") and is_correct("3", "image 3")
    assert not is_correct("b", "B") and not is_correct(UNK, "B") and not is_correct("3", "image 4")


def test_options_are_arguments_and_a_misspelt_one_is_refused():
    assert extract("option b", "mt1", MT1_OPTIONS, fixes=frozenset({"extraction", "missing_grounding"})) == "B"
    assert extract("option b", "mt1", MT1_OPTIONS, fixes=frozenset({"missing_grounding"})) == UNK
    assert extract("A man walks. Option B", "mt1", MT1_OPTIONS, family="internvl") == "B"
    with pytest.raises(TempVSDataError, match="unknown fixes 'typo'"):
        check_settings(("mt1_two",), fixes=("typo",))
    with pytest.raises(TempVSDataError, match="unknown test 'mt4'.*unknown visual 'both'"):
        check_settings(("mt4",), visual="both")
