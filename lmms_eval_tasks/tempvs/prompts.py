"""The TempVS prompts, built from an annotation row exactly as the official inference script concatenates them."""

import ast
from typing import Dict, List

from temporal_bench.lmms_eval_tasks.tempvs.spec import TempVSDataError

CHARACTER_SOURCES = ("flintstones", "pororo")  # character descriptions are shown for these only
PROMPT_MODES = ("standard", "cot", "blind", "images_only")
CHAR_PREFIX = "This is a description of the possible appearance of character(s) in the image(s): "
ANS = "\nThe answer is: "
IMGIDX = "The images I provide are labeled in order as Image a, Image b, Image c, Image d, and Image e, and so on if there are more photos."
# Table 19's "image only" column: the paper describes it (Appendix D.3), the official code has no prompt for it.
# The MT3 prompt without the story's text, and an instruction asking for the order the images themselves show.
IMAGES_ONLY_INSTRUCTION = ("The images show a story or event sequence. Use your visual reasoning to reorder the images into the order "
                           "in which the events they show happen. Focus on the events, actions, and details in the images to reorder them logically.")


# ---- cells --------------------------------------------------------------------------------------


def text(value) -> str:
    """A row's string cell; a missing value (None / NaN) reads as empty."""
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def _present(row: Dict, field: str):
    """A cell a prompt is built from: missing is an error, as in the official script (``str + NaN`` fails there)."""
    value = row.get(field)
    if value is None or (isinstance(value, float) and value != value):
        raise TempVSDataError(f"no value in field(s) [{field!r}], which the prompt needs")
    return value


def required(row: Dict, field: str) -> str:
    return str(_present(row, field))


def as_list(value) -> List:
    if value is None or (isinstance(value, float) and value != value):
        return []
    return list(ast.literal_eval(value)) if isinstance(value, str) else list(value)


# ---- prompts, exactly as the official inference script concatenates them ------------------------


def _character_prefix(row: Dict) -> str:
    return CHAR_PREFIX + text(row.get("character_info")) if row["data_source"] in CHARACTER_SOURCES else ""


def _lines(sentences: List[str]) -> str:
    return "\n".join(f"Sentence {chr(ord('a') + i)}: {s}" for i, s in enumerate(sentences))


def _shuffled_block(row: Dict, story: bool) -> str:
    if story:
        return "\nThe shuffled sentences are:\n" + _lines(as_list(_present(row, "texts_shuffled")))
    return "\nThe shuffled events are:\n" + _lines(as_list(_present(row, "events_shuffled")))


def _options_tail(row: Dict) -> str:
    return "\n" + required(row, "answer_format_opt") + "\n" + required(row, "options") + "." + ANS


def prompt(row: Dict, task_id: str, mode: str = "standard") -> str:
    """The prompt of ``row`` for an official task id in a prompt mode (standard, cot, blind: the text-only
    LLMs', images_only)."""
    story, cot = task_id.endswith("_story"), mode == "cot"
    if mode == "blind":
        if task_id.endswith("event_discrimination"):
            return "\nThe statement is: " + required(row, "statement_text") + "\n" + required(row, "blind_instruction") + "\nOptions are: " + required(row, "option_text") + ANS
        if task_id.startswith("ordering_texts"):
            return "\n" + required(row, "blind_instruction_opt") + _shuffled_block(row, story) + _options_tail(row)
        raise ValueError(f"TempVS {task_id} has no text-only (blind) prompt")
    if mode == "images_only":
        if not task_id.startswith("ordering_images"):
            raise ValueError(f"TempVS {task_id} has no images-only prompt (image ordering, MT3, has)")
        return "\n" + IMAGES_ONLY_INSTRUCTION + IMGIDX + _options_tail(row)
    if "grounding" in task_id:
        if cot:
            raise ValueError("TempVS grounding tests have no CoT variant")
        field = "text_to_test" if task_id == "single_grounding_all_story" else "event_to_test"
        return _character_prefix(row) + "\nThe event is: " + required(row, field) + "\n" + required(row, "task_instruction") + ANS
    if task_id.endswith("event_discrimination"):
        instruction = required(row, "task_instruction_cot" if cot else "task_instruction")
        return _character_prefix(row) + "\nThe statement is: " + required(row, "statement_text") + "\n" + instruction + "\nOptions are: " + required(row, "option_text") + ANS
    instruction = required(row, "task_instruction_cot_opt" if cot else "task_instruction")
    if task_id.startswith("ordering_texts"):
        return _character_prefix(row) + _shuffled_block(row, story) + "\n" + instruction + _options_tail(row)
    shown = "\nThe story is: " + required(row, "texts_gt") if story else "\nThe events are: " + required(row, "events_gt")
    return _character_prefix(row) + shown + "\n" + instruction + IMGIDX + _options_tail(row)
