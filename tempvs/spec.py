"""What the official TempVS evaluation pairs with what (docs/protocol/tempvs.md §0-§3, §7)."""

from dataclasses import dataclass
from typing import Optional, Tuple

# The evaluation script's source order (§0); docs and per-source metrics follow it.
class TempVSDataError(ValueError):
    """A TempVS file or row that cannot be read as the release describes."""


SOURCES: Tuple[str, ...] = ("flintstones", "pororo", "vwp", "vist")
CHARACTER_SOURCES = ("flintstones", "pororo")  # character descriptions only for these (§4.1)

ANNOTATION_FILES = (
    "paired_event_discrimination",
    "triple_event_discrimination",
    "ordering_texts",
    "ordering_images",
    "single_grounding_paired",
    "single_grounding_triple",
    "single_grounding_all",
)

# text-only LLMs of the blind filter and their prediction-file suffixes (§2.5)
BLIND_MODELS = (("Llama-3.1-8B", "full"), ("Phi-3.5-mini-instruct", "full"), ("Qwen2.5-72B-Instruct", "8bit"))
BLIND_DROP_THRESHOLD = 2  # drop a main question that >= 2 of the 3 LLMs answered correctly (§7.1)

# §7.2: joined with "|" and searched case-insensitively as substrings of every event* column
INVALID_EVENT_MARKERS = ("NO_EVENT", "No_Event", "no_event", "NO_Event", "good time", "great time", "wonderful time", "have fun", "had fun")

# Paper Table 2 (counts; the MT1 ones are probably before the blind filter, §2.6) for the load log.
PAPER_COUNTS = {
    "paired_event_discrimination": {"flintstones": 2104, "pororo": 864, "vwp": 850, "vist": 3742},
    "triple_event_discrimination": {"flintstones": 916, "pororo": 172, "vwp": 208, "vist": 830},
    "ordering_texts_opt_event": {"flintstones": 501, "pororo": 320, "vwp": 274, "vist": 708},
    "ordering_texts_opt_story": {"flintstones": 485, "pororo": 326, "vwp": 256, "vist": 551},
    "ordering_images_opt_event": {"flintstones": 565, "pororo": 395, "vwp": 316, "vist": 809},
    "ordering_images_opt_story": {"flintstones": 565, "pororo": 395, "vwp": 316, "vist": 809},
}


@dataclass(frozen=True)
class MainTest:
    name: str  # lmms-eval name without the "tempvs_" prefix
    task_id: str  # the official task id
    family: str  # "mt1" or "ordering"
    grounding_task_id: str  # the grounding test its GT / GT_strict use (§1)
    blind_filtered: bool  # the text-only-LLM filter applies (MT1 and MT2 only)
    text: str  # "event" or "story": which texts MT2/MT3 show


MAIN_TESTS = {
    "mt1_two": MainTest("mt1_two", "paired_event_discrimination", "mt1", "single_grounding_paired", True, "event"),
    "mt1_three": MainTest("mt1_three", "triple_event_discrimination", "mt1", "single_grounding_triple", True, "event"),
    "mt2_event": MainTest("mt2_event", "ordering_texts_opt_event", "ordering", "single_grounding_all", True, "event"),
    "mt2_caption": MainTest("mt2_caption", "ordering_texts_opt_story", "ordering", "single_grounding_all_story", True, "story"),
    "mt3_event": MainTest("mt3_event", "ordering_images_opt_event", "ordering", "single_grounding_all", False, "event"),
    "mt3_caption": MainTest("mt3_caption", "ordering_images_opt_story", "ordering", "single_grounding_all_story", False, "story"),
}

GROUNDING_TESTS = {
    "gt_paired": "single_grounding_paired",
    "gt_triple": "single_grounding_triple",
    "gt_all": "single_grounding_all",
    "gt_all_story": "single_grounding_all_story",
}

# Tasks holding the two main tests that share a grounding test, which they ask once (issue 13):
# lmms-eval task ``tempvs_<name>`` -> its main tests.
SHARED_GROUNDING_TASKS = {
    "ordering_event": ("mt2_event", "mt3_event"),
    "ordering_caption": ("mt2_caption", "mt3_caption"),
}

# ``--tasks tempvs`` asks each distinct question once across the suite (issue 28): the suite's
# grounding task asks every distinct grounding question (same prompt text and images) of the four
# grounding tests once, and its main tasks (``tempvs_suite_<name>`` -> main tests) read their grounding
# answers from it. ``tempvs_protocol`` asks each grounding file's questions as the official code does.
SUITE_GROUNDING_TASK = "tempvs_suite_grounding"
SUITE_MAIN_TASKS = {"suite_mt1_two": ("mt1_two",), "suite_mt1_three": ("mt1_three",),
                    **{f"suite_{name}": tests for name, tests in SHARED_GROUNDING_TASKS.items()}}

# official task id -> our test name
TEST_NAMES = {**{spec.task_id: test for test, spec in MAIN_TESTS.items()},
              **{task_id: test for test, task_id in GROUNDING_TESTS.items()}}


def file_of(task_id: str) -> str:
    """The annotation file a task id reads (§2.2): ordering ids drop ``_opt_event``/``_opt_story``,
    ``single_grounding_all_story`` reads ``single_grounding_all``."""
    if task_id.startswith("ordering_"):
        return task_id[:-10]
    if task_id == "single_grounding_all_story":
        return "single_grounding_all"
    return task_id


def task_kind(task_id: str) -> str:
    """``grounding``, ``mt1`` or ``ordering`` (which extraction regex applies, §6.2)."""
    if "grounding" in task_id:
        return "grounding"
    if "discrimination" in task_id:
        return "mt1"
    return "ordering"


def selected_sources(sources: Optional[Tuple[str, ...]] = None) -> Tuple[str, ...]:
    """``sources`` (all four when empty) in the evaluation's order."""
    chosen = tuple(sources) if sources else SOURCES
    unknown = [s for s in chosen if s not in SOURCES]
    if unknown:
        raise ValueError(f"unknown TempVS source(s) {unknown}; choose from {SOURCES}")
    return tuple(s for s in SOURCES if s in chosen)
