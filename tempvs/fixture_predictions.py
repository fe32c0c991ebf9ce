"""Released-style model outputs for a synthetic TempVS (tempvs/fixtures.py): ``write_model_predictions(root,
model)`` writes ``predictions/{combined,separate,cot}/{model}/`` as the release holds them (docs/protocol/tempvs.md
§2.5), with each model family's wrapper artefacts (§4.5, §6.2), for the tests of ``score-predictions``."""

import random
from collections.abc import Sequence
from pathlib import Path

from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import blind_family_of
from temporal_bench.lmms_eval_tasks.tempvs.extraction import answer_letters
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES, task_kind
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import as_list, file_of
from temporal_bench.tempvs.released_predictions import file_suffix

RELEASED_TASK_IDS = tuple(spec.task_id for spec in MAIN_TESTS.values()) + tuple(GROUNDING_TESTS.values())
_INTERLEAVE_ECHO = "user\nThe statement is: A dog runs. Options are: A. True; B. False.\nassistant\n"


def released_output(model: str, task_id: str, row: dict, rng: random.Random, cot: bool = False) -> str:
    """A raw output in a style real models produce (right 90% of the time for grounding, 60% for
    the main tests), one time in five with a trap of the official parser (a leading article "A",
    lowercase "option b", a number before the image number, a number word, no answer), plus the
    model family's wrapper artefacts (§4.5, §6.2)."""
    kind = task_kind(task_id)
    gold = str(row["gt_option"])[-1]
    right = rng.random() < (0.9 if kind == "grounding" else 0.6)
    if kind == "grounding":
        numbers = [str(k) for k in range(1, len(as_list(row.get("img_path_list"))) + 1)]
        answer = gold if right else rng.choice([n for n in numbers if n != gold] or numbers)
        styles = ([f"image {answer}", answer, f"Image {answer}."], [f"The 2 people appear in image {answer}.", "The third image.", ""])
    else:
        letters = answer_letters(kind)
        answer = gold if right else rng.choice([letter for letter in letters if letter != gold])
        styles = ([f"Option {answer}", answer, f"{answer}. True", f"The answer is {answer}.", f"I would say {answer}"], [f"A man walks in. Option {answer}", f"option {answer.lower()}", "I cannot decide."])
    text = rng.choice(styles[rng.random() < 0.2])
    if cot:
        text = f"<think>Image 1 shows A scene; then the next.</think>\n<answer>{text}</answer>"
    family = blind_family_of(model)
    if family == "deepseek":
        text += " <｜end▁of▁sentence｜>"
    elif family == "interleave":
        text = _INTERLEAVE_ECHO + text
    return text


def write_model_predictions(root: Path, model: str, input_kind: str = "combined", task_ids: Sequence[str] = RELEASED_TASK_IDS) -> list[Path]:
    """One prediction file per source and task id (the annotation rows plus ``preds``), seeded by
    the model name, from the fixture's pickles under ``root``."""
    import pandas

    written = []
    for source in SOURCES:
        for task_id in task_ids:
            frame = pandas.read_pickle(Path(root) / "benchmark_pkl" / f"{source}_{file_of(task_id)}_test.pkl")
            rng = random.Random(f"{model}|{input_kind}|{source}|{task_id}")
            frame["preds"] = [released_output(model, task_id, row, rng, cot=input_kind == "cot") for row in frame.to_dict(orient="records")]
            path = Path(root) / "predictions" / input_kind / model / f"{source}_{task_id}_preds_{file_suffix(model)}.pkl"
            path.parent.mkdir(parents=True, exist_ok=True)
            frame.to_pickle(path)
            written.append(path)
    return written
