"""The functions the TempVS task YAMLs name: one ``process_docs`` per task, with that task's settings (which its
YAML's ``metadata`` states for the results file), and the hooks and aggregations all TempVS tasks share."""

from pathlib import Path
from typing import Dict, List

from temporal_bench.lmms_eval_tasks.tempvs import model_settings
from temporal_bench.lmms_eval_tasks.tempvs.docs import shown_images, variant
from temporal_bench.lmms_eval_tasks.tempvs.metrics import make_record, values_of
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, TempVSDataError

process_docs_tempvs_mt1_two = variant("tempvs_mt1_two", "mt1_two")
process_docs_tempvs_mt1_three = variant("tempvs_mt1_three", "mt1_three")
process_docs_tempvs_mt2_event = variant("tempvs_mt2_event", "mt2_event")
process_docs_tempvs_mt2_caption = variant("tempvs_mt2_caption", "mt2_caption")
process_docs_tempvs_mt3_event = variant("tempvs_mt3_event", "mt3_event")
process_docs_tempvs_mt3_caption = variant("tempvs_mt3_caption", "mt3_caption")
process_docs_tempvs_ordering_event = variant("tempvs_ordering_event", "mt2_event", "mt3_event")
process_docs_tempvs_ordering_caption = variant("tempvs_ordering_caption", "mt2_caption", "mt3_caption")
# every main test, each distinct grounding question asked once for all of them
process_docs_tempvs = variant("tempvs", *MAIN_TESTS, suite=True)


def open_image(path: str, doc: Dict):
    from PIL import Image

    if not path or not Path(path).is_file():
        raise FileNotFoundError(f"TempVS image {path!r} of doc {doc.get('doc_key')} not found")
    try:
        with Image.open(path) as opened:
            return opened.convert("RGB")
    except Exception as error:  # noqa: BLE001 - any decoding failure is reported with its file and doc
        raise TempVSDataError(f"TempVS image {path!r} of doc {doc.get('doc_key')} cannot be read ({type(error).__name__}: {error}); a corrupt or truncated file?") from error


def doc_to_visual(doc: Dict) -> List:
    return [open_image(path, doc) for path in shown_images(doc)]


def doc_to_text(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    """The prompt, with image tokens where the model class takes them from the text (model_settings.py); keeps
    the model's settings for ``process_results``, which lmms-eval does not give them."""
    settings = model_settings.stash(doc["task"], lmms_eval_specific_kwargs)
    return model_settings.with_image_tokens(doc["prompt"], len(shown_images(doc)), settings)


def doc_to_messages(doc: Dict, lmms_eval_specific_kwargs=None) -> List[Dict]:
    """The user turn for chat model classes: one image part per image, placed around the prompt (and sized) as the
    model family's official wrapper placed them."""
    settings = model_settings.stash(doc["task"], lmms_eval_specific_kwargs)
    images = model_settings.as_sent(doc_to_visual(doc), settings)
    return [{"role": "user", "content": model_settings.message_content(images, doc["prompt"], settings["layout"])}]


def doc_to_target(doc: Dict) -> str:
    return doc["answer"]


def process_results(doc: Dict, results: List[str]) -> Dict:
    record = make_record(doc, results[0] if results else None, family=model_settings.stashed(doc["task"])["extractor"], fixes=frozenset(doc["fixes"]))
    return {**values_of(record, tuple(doc["tests"]), doc["suite"]), "data_source": doc["data_source"]}
