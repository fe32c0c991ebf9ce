"""The functions the TempVS task YAMLs name: one ``process_docs`` per task, with that task's main test, and the hooks
all TempVS tasks share."""

from functools import partial

from temporal_bench.lmms_eval_tasks.tempvs import model_settings
from temporal_bench.lmms_eval_tasks.tempvs.docs import process_docs
from temporal_bench.lmms_eval_tasks.tempvs.metrics import make_record, values_of
from temporal_bench.lmms_eval_tasks.tempvs.spec import TempVSDataError

process_docs_tempvs_mt1_two = partial(process_docs, test="mt1_two")
process_docs_tempvs_mt1_three = partial(process_docs, test="mt1_three")
process_docs_tempvs_mt2_event = partial(process_docs, test="mt2_event")
process_docs_tempvs_mt2_caption = partial(process_docs, test="mt2_caption")
process_docs_tempvs_mt3_event = partial(process_docs, test="mt3_event")
process_docs_tempvs_mt3_caption = partial(process_docs, test="mt3_caption")


def open_image(path: str, doc: dict):
    from PIL import Image

    try:
        with Image.open(path) as opened:
            return opened.convert("RGB")
    except Exception as error:  # noqa: BLE001 - any decoding failure is reported with its file and doc
        raise TempVSDataError(f"TempVS image {path!r} of doc {doc['doc_key']} cannot be read ({type(error).__name__}: {error}); a corrupt or truncated file?") from error


def doc_to_visual(doc: dict) -> list:
    return [open_image(doc["image"], doc)]


def doc_to_text(doc: dict, lmms_eval_specific_kwargs=None) -> str:
    """The prompt, with image tokens where the model class takes them from the text (model_settings.py)."""
    return model_settings.with_image_tokens(doc["prompt"], 1, model_settings.resolve(lmms_eval_specific_kwargs))


def doc_to_messages(doc: dict, lmms_eval_specific_kwargs=None) -> list[dict]:
    """The user turn for chat model classes: the image placed around the prompt as the model family's official
    wrapper placed it."""
    settings = model_settings.resolve(lmms_eval_specific_kwargs)
    return [{"role": "user", "content": model_settings.message_content(doc_to_visual(doc), doc["prompt"], settings["layout"])}]


def doc_to_target(doc: dict) -> str:
    return doc["answer"]


def process_results(doc: dict, results: list[str]) -> dict:
    return values_of(make_record(doc, results[0] if results else None))
