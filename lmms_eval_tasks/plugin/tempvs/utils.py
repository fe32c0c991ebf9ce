"""The functions of this package's TempVS tasks: the upstream tasks (lmms_eval_tasks/tempvs) on the data of
``TEMPVS_DATA_DIR`` or the hub release (lmms_eval_tasks/plugin/data_routes.py), and the variants this package adds:
CoT prompting (Table 6), separate images (Table 12), the text-only runs and the unfiltered questions (Tables
17-18), the images-only MT3 (Table 19), the grounding tests alone and the MT2/MT3 pairs as the official code asks
them. Every task's docs, records and joins are the upstream code's; each task's settings (its YAML's metadata):

* ``tests``, ``suite``: the tests it holds (upstream's tasks hold one main test each) and, for ``tempvs``, each
  distinct grounding question asked once for all of them (docs.py);
* ``mode``: the prompt (``standard``, ``cot``, ``blind``: the text-only LLMs' prompt, no image, ``images_only``: MT3
  without its text); blind and images_only ask no grounding question;
* ``visual``: ``combined`` (the strip), ``separate`` (one image per event) or ``none``;
* ``blind_filter``: drop the main questions two or more text-only LLMs answered correctly (paper §3.3);
* ``fixes``: ``extraction`` and ``missing_grounding``, the opt-in fixes of the official evaluation's flaws
  (extraction.py, metrics.py);
* ``sources``: the data sources evaluated.

The model's settings (``lmms_eval_specific_kwargs``) add to upstream's a ``labelled`` layout (DeepSeek-VL2's "This is
Image_a:" before each image).
"""

import os
from collections.abc import Iterable, Sequence
from functools import partial

import datasets

from temporal_bench.lmms_eval_tasks.plugin.data_routes import routed
from temporal_bench.lmms_eval_tasks.plugin.tempvs.docs import task_docs
from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import extract
from temporal_bench.lmms_eval_tasks.plugin.tempvs.metrics import UNGROUNDED_MODES
from temporal_bench.lmms_eval_tasks.plugin.tempvs.records import make_record, task_values
from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import PROMPT_MODES, release_rows
from temporal_bench.lmms_eval_tasks.tempvs import model_settings
from temporal_bench.lmms_eval_tasks.tempvs.docs import BLIND_DROP_THRESHOLD, with_image_files
from temporal_bench.lmms_eval_tasks.tempvs.extraction import FAMILIES
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES, TempVSDataError, task_kind
from temporal_bench.lmms_eval_tasks.tempvs.utils import open_image

SETTINGS = {"mode": PROMPT_MODES, "visual": ("combined", "separate", "none"), "fixes": ("extraction", "missing_grounding"), "sources": SOURCES}


def check_settings(tests: Sequence[str], **settings) -> None:
    """A setting outside its choices is an error naming it (a misspelt fix would otherwise be silently ignored)."""
    problems = [f"unknown test {t!r} (choose from {[*MAIN_TESTS, *GROUNDING_TESTS]})" for t in tests if t not in MAIN_TESTS and t not in GROUNDING_TESTS]
    for name, value in settings.items():
        problems += [f"unknown {name} {v!r} (choose from {SETTINGS[name]})" for v in ([value] if isinstance(value, str) else value) if v not in SETTINGS[name]]
    if settings.get("mode") == "images_only" and tuple(tests) != ("mt3_event",):
        problems.append("mode 'images_only' is MT3's alone (tests: [mt3_event]: the image-ordering questions without their texts)")
    if problems:
        raise TempVSDataError("TempVS task settings: " + "; ".join(problems))


def _as_tuple(value) -> tuple:
    return tuple([value] if isinstance(value, str) else value or ())  # a recorded or --set value may be one string


def task_rows(split: str, tests=(), mode: str = "standard", blind_filter: bool = True, sources=SOURCES, **settings) -> list[dict]:
    """The rows a task with these settings needs (release.py): the blind verdicts where the filter applies or the run
    is text-only (its records mark the questions the filter keeps)."""
    tests, sources = _as_tuple(tests), _as_tuple(sources)
    check_settings(tests, mode=mode, sources=sources, **{k: _as_tuple(v) if k == "fixes" else v for k, v in settings.items() if k in SETTINGS})
    return release_rows(tests, ("standard", mode), blind_filter or mode == "blind", sources, settings.get("visual") == "separate")


def prepared_rows(rows, mode: str = "standard", blind_filter: bool = True, sources=SOURCES) -> list[dict]:
    """The question rows made ready for the settings: the mode's prompt, no grounding question where the mode asks
    none, every main question where the filter is off (``filter_kept``: whether the filter keeps it)."""
    prepared = []
    for row in rows:
        if row["source"] not in sources or (mode in UNGROUNDED_MODES and row["kind"] == "grounding"):
            continue
        kept = row["blind_correct"] < BLIND_DROP_THRESHOLD if row["blind_correct"] >= 0 else None
        if row["kind"] == "main" and mode != "standard":
            row = {**row, "prompt": row.get(f"prompt_{mode}") or ""}
            if not row["prompt"]:
                raise TempVSDataError(f"TempVS {row['doc_key']}: no {mode} prompt in the data (a converted dataset holds the standard prompts only)")
        prepared.append({**row, "filter_kept": kept, "blind_correct": row["blind_correct"] if blind_filter else -1})
    return prepared


def with_settings(doc: dict, mode: str, visual: str, fixes) -> dict:
    """What the hooks read of the settings; a doc names only the images it shows (lmms-eval logs the files a doc names)."""
    return {
        "mode": mode,
        "visual": visual,
        "fixes": list(fixes),
        "filter_kept": doc["filter_kept"] if mode == "blind" else None,
        "image": doc["image"] if visual == "combined" else "",
        "frames": doc["frames"] if visual == "separate" else [],
    }


def variant_docs(rows: Iterable[dict], tests=(), suite: bool = False, mode: str = "standard", visual: str = "combined", blind_filter: bool = True, fixes=(), sources=SOURCES) -> datasets.Dataset:
    """The upstream docs of ``tests`` on the rows made ready for the settings, each with the settings its hooks read."""
    tests, fixes, sources = _as_tuple(tests), _as_tuple(fixes), _as_tuple(sources)
    rows = prepared_rows(rows, mode, blind_filter, sources)
    if visual == "separate":
        missing: dict[str, str] = {}  # frame -> a doc showing it
        for row in rows:
            missing.update((frame, row["doc_key"]) for frame in row.get("frames") or () if frame not in missing and not os.path.isfile(frame))
        if missing or any(not row.get("frames") for row in rows):
            no_frames = "a TempVS question names no frame images (a converted dataset holds the combined images only: the separate-image tasks need the release)"
            raise TempVSDataError(f"{len(missing)} TempVS frame image file(s) missing, e.g. " + "; ".join(f"{frame} (doc {key})" for frame, key in list(missing.items())[:5]) if missing else no_frames)
    docs = task_docs(rows, list(tests), suite)
    if visual == "combined":
        docs = with_image_files(docs)
    # no combined image shown: upstream's check that its files are there does not apply (a text-only run needs no image)
    return datasets.Dataset.from_list([{**doc, "tests": list(tests), "suite": suite, **with_settings(doc, mode, visual, fixes)} for doc in docs])


process_docs = routed(variant_docs, task_rows, (TempVSDataError, ValueError))


def variant(tests: Sequence[str], **settings) -> partial:
    """The ``process_docs`` of a task holding ``tests`` with these settings (its YAML's metadata states them all); a
    value outside its choices is an error when the YAML is loaded."""
    check_settings(tests, **{key: _as_tuple(value) if key in ("fixes", "sources") else value for key, value in settings.items() if key in SETTINGS})
    return partial(process_docs, tests=list(tests), **settings)


process_docs_tempvs = variant(["mt1_two", "mt1_three", "mt2_event", "mt2_caption", "mt3_event", "mt3_caption"], suite=True)
process_docs_tempvs_gt_all = variant(["gt_all"])
process_docs_tempvs_gt_all_separate = variant(["gt_all"], visual="separate")
process_docs_tempvs_gt_all_story = variant(["gt_all_story"])
process_docs_tempvs_gt_all_story_separate = variant(["gt_all_story"], visual="separate")
process_docs_tempvs_gt_paired = variant(["gt_paired"])
process_docs_tempvs_gt_paired_separate = variant(["gt_paired"], visual="separate")
process_docs_tempvs_gt_triple = variant(["gt_triple"])
process_docs_tempvs_gt_triple_separate = variant(["gt_triple"], visual="separate")
process_docs_tempvs_mt1_three = variant(["mt1_three"])
process_docs_tempvs_mt1_three_blind = variant(["mt1_three"], mode="blind", visual="none", blind_filter=False)
process_docs_tempvs_mt1_three_cot = variant(["mt1_three"], mode="cot")
process_docs_tempvs_mt1_three_separate = variant(["mt1_three"], visual="separate")
process_docs_tempvs_mt1_three_unfiltered = variant(["mt1_three"], blind_filter=False)
process_docs_tempvs_mt1_two = variant(["mt1_two"])
process_docs_tempvs_mt1_two_blind = variant(["mt1_two"], mode="blind", visual="none", blind_filter=False)
process_docs_tempvs_mt1_two_cot = variant(["mt1_two"], mode="cot")
process_docs_tempvs_mt1_two_separate = variant(["mt1_two"], visual="separate")
process_docs_tempvs_mt1_two_unfiltered = variant(["mt1_two"], blind_filter=False)
process_docs_tempvs_mt2_caption = variant(["mt2_caption"])
process_docs_tempvs_mt2_caption_blind = variant(["mt2_caption"], mode="blind", visual="none", blind_filter=False)
process_docs_tempvs_mt2_caption_cot = variant(["mt2_caption"], mode="cot")
process_docs_tempvs_mt2_caption_separate = variant(["mt2_caption"], visual="separate")
process_docs_tempvs_mt2_caption_unfiltered = variant(["mt2_caption"], blind_filter=False)
process_docs_tempvs_mt2_event = variant(["mt2_event"])
process_docs_tempvs_mt2_event_blind = variant(["mt2_event"], mode="blind", visual="none", blind_filter=False)
process_docs_tempvs_mt2_event_cot = variant(["mt2_event"], mode="cot")
process_docs_tempvs_mt2_event_separate = variant(["mt2_event"], visual="separate")
process_docs_tempvs_mt2_event_unfiltered = variant(["mt2_event"], blind_filter=False)
process_docs_tempvs_mt3_caption = variant(["mt3_caption"])
process_docs_tempvs_mt3_caption_cot = variant(["mt3_caption"], mode="cot")
process_docs_tempvs_mt3_caption_separate = variant(["mt3_caption"], visual="separate")
process_docs_tempvs_mt3_event = variant(["mt3_event"])
process_docs_tempvs_mt3_event_cot = variant(["mt3_event"], mode="cot")
process_docs_tempvs_mt3_event_separate = variant(["mt3_event"], visual="separate")
process_docs_tempvs_mt3_images_only = variant(["mt3_event"], mode="images_only")
process_docs_tempvs_ordering_caption = variant(["mt2_caption", "mt3_caption"])
process_docs_tempvs_ordering_event = variant(["mt2_event", "mt3_event"])


def shown_images(doc: dict) -> list[str]:
    """The images the doc shows, in order: none (blind), one per frame (separate) or the combined strip."""
    return {"combined": [doc["image"]], "separate": doc["frames"]}.get(doc["visual"], [])


def doc_to_visual(doc: dict) -> list:
    return [open_image(path, doc) for path in shown_images(doc)]


def model_settings_of(kwargs: dict | None) -> dict:
    """Upstream's model settings (lmms_eval_tasks/tempvs/model_settings.py) and two of this package's: the ``labelled``
    layout (DeepSeek-VL2's "This is Image_a:" before each image) and ``frame_size``, the side each of several images is
    resized to (LANCZOS), as LLaVA-NeXT-Video's wrapper did (models/model_hf_llava_video.py)."""
    kwargs = dict(kwargs or {})
    labelled, size = kwargs.get("layout") == "labelled", kwargs.pop("frame_size", None)
    if size is not None and (not isinstance(size, int) or size <= 0):
        raise ValueError(f"TempVS frame_size {size!r}: the side in pixels each of several images is resized to, a whole number")
    settings = model_settings.resolve({**kwargs, "layout": "images_first"} if labelled else kwargs)
    return {**settings, **({"layout": "labelled"} if labelled else {}), **({"frame_size": size} if size is not None else {})}


def as_sent(images: list, settings: dict) -> list:
    """The images as the family's wrapper sent them: with several, each resized to ``frame_size`` square where the
    section names one, else as they are."""
    size = settings.get("frame_size")
    if not size or len(images) < 2:
        return images
    from PIL import Image

    return [image.resize((size, size), Image.Resampling.LANCZOS) for image in images]


def doc_to_text(doc: dict, lmms_eval_specific_kwargs=None) -> str:
    return model_settings.with_image_tokens(doc["prompt"], len(shown_images(doc)), model_settings_of(lmms_eval_specific_kwargs))


def _label(index: int, count: int) -> str:
    """DeepSeek-VL2's wrapper: "This is the First/Second image:" for two images, else "This is Image_a:" ..."""
    return f"This is the {('First', 'Second')[index]} image: " if count == 2 else f"This is Image_{chr(97 + index)}: "


def doc_to_messages(doc: dict, lmms_eval_specific_kwargs=None) -> list[dict]:
    """The user turn: the images (sized) where the model family's wrapper put them, around the prompt."""
    settings = model_settings_of(lmms_eval_specific_kwargs)
    images = as_sent(doc_to_visual(doc), settings)
    if settings["layout"] != "labelled" or len(images) < 2:
        return [{"role": "user", "content": model_settings.message_content(images, doc["prompt"], "images_first" if settings["layout"] == "labelled" else settings["layout"])}]
    parts = []
    for index, image in enumerate(images):
        parts += [{"type": "text", "text": ("\n" if index else "") + _label(index, len(images))}, {"type": "image", "url": image}]
    return [{"role": "user", "content": [*parts, {"type": "text", "text": "\n" + doc["prompt"]}]}]


def _parse(doc: dict, response: str, family: str) -> str:
    return extract(response, task_kind(doc["task_id"]), doc["option_text"], cot=doc["mode"] == "cot", family=family, fixes=frozenset(doc["fixes"]))


def process_results(doc: dict, results: list[str]) -> dict:
    """The upstream values, each record parsed with the task's mode and fixes, marked with the mode (and, in a text-only
    run, whether the text-only-LLM filter keeps its question; with ``missing_grounding``, which main questions fail
    GT_strict for lack of grounding rows)."""
    families = (*FAMILIES, "llama_blind") if doc["mode"] == "blind" else FAMILIES
    record = make_record(doc, results[0] if results else None, _parse, families)
    record.update(mode=doc["mode"], **({"filter_kept": doc["filter_kept"]} if doc["filter_kept"] is not None else {}))
    if doc["mode"] in UNGROUNDED_MODES:
        return {"mt_acc": record}
    values = task_values(record, tuple(doc["tests"]), doc["suite"])
    if "missing_grounding" in doc["fixes"]:
        for value in values.values():
            for part in value if isinstance(value, list) else [value]:
                if part and part.get("kind") == "main" and "partners" in part:
                    part.update(unmatched=record["unmatched"], missing_fails=True)
    return values
