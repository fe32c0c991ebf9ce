"""What the official TempVS evaluation pairs with what: its data sources, tests and grounding tests
(Song et al., 2025, paper §3 and the official evaluation script ``run_evaluation.py``)."""

from typing import NamedTuple

# the evaluation script's source order; docs follow it
SOURCES: tuple[str, ...] = ("flintstones", "pororo", "vwp", "vist")


class TempVSDataError(ValueError):
    """A TempVS file or row that cannot be read as the release describes."""


class MainTest(NamedTuple):
    task_id: str  # the official task id
    family: str  # "mt1" or "ordering"
    grounding_test: str  # the grounding test its GT and GT_strict use
    blind_filtered: bool  # the text-only-LLM filter applies (MT1 and MT2)


MAIN_TESTS = {
    "mt1_two": MainTest("paired_event_discrimination", "mt1", "gt_paired", True),
    "mt1_three": MainTest("triple_event_discrimination", "mt1", "gt_triple", True),
    "mt2_event": MainTest("ordering_texts_opt_event", "ordering", "gt_all", True),
    "mt2_caption": MainTest("ordering_texts_opt_story", "ordering", "gt_all_story", True),
    "mt3_event": MainTest("ordering_images_opt_event", "ordering", "gt_all", False),
    "mt3_caption": MainTest("ordering_images_opt_story", "ordering", "gt_all_story", False),
}
GROUNDING_TESTS = {
    "gt_paired": "single_grounding_paired",
    "gt_triple": "single_grounding_triple",
    "gt_all": "single_grounding_all",
    "gt_all_story": "single_grounding_all_story",
}
TASK_IDS = {**{test: spec.task_id for test, spec in MAIN_TESTS.items()}, **GROUNDING_TESTS}
TEST_NAMES = {task_id: test for test, task_id in TASK_IDS.items()}


def task_kind(task_id: str) -> str:
    """``grounding``, ``mt1`` or ``ordering``: which answer pattern applies."""
    if "grounding" in task_id:
        return "grounding"
    return "mt1" if "discrimination" in task_id else "ordering"


def doc_key(source: str, test: str, question_id) -> str:
    """A question's key: question ids repeat across files, so the source and the test are part of it."""
    return f"{source}/{test}/{question_id}"
