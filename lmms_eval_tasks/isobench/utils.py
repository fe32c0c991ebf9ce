"""The functions the ISO-Bench task YAMLs name: ``process_docs`` with each task's data settings (which its YAML's
``metadata`` states for the results file), the image, the prompts and parsers of the two prompt modes, and the
metrics' aggregations."""

import io
from functools import partial
from typing import Dict, List, Optional

import datasets

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import (
    DataNotFoundError,
    DataSource,
    local_data_dir,
)
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.fail_fast import stops_run_on
from temporal_bench.lmms_eval_tasks.isobench import prompts
from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import (
    DATA_DIR_ENV,
    HUB_ID,
    HUB_IMAGE_PREFIX,
    LOCAL_LAYOUT,
    IsoBenchDataError,
    release_records,
)
from temporal_bench.lmms_eval_tasks.isobench.metrics import values_of
from temporal_bench.lmms_eval_tasks.isobench.parsing import PARSERS


@stops_run_on((IsoBenchDataError, DataNotFoundError))
def process_docs(dataset: datasets.Dataset, task: str, data_split: Optional[str] = None, column_map: Optional[Dict] = None) -> datasets.Dataset:
    """The task's examples: the converted hub dataset lmms-eval loaded, or, where it loaded a task folder's one-row
    placeholder (or no dataset), the release (``ISOBENCH_DATA_DIR``, else the hub release) read under ``column_map`` and
    ``data_split``."""
    if dataset is not None and "snippet_steps" in dataset.column_names:
        source = DataSource(DATA_DIR_ENV, f"hub dataset {dataset.info.dataset_name}", hub=dataset.info.dataset_name)
        record = source.record([f["filename"] for f in dataset.cache_files], "ISO-Bench", rows=len(dataset))
        rows = dataset.cast_column("image", datasets.Image(decode=False))
        records = [{**{k: v for k, v in row.items() if k != "image"}, "image_path": None, "image_bytes": row["image"]["bytes"]} for row in rows]
    else:
        records, record = release_records(local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT), column_map, data_split)
    return datasets.Dataset.from_list([{**r, "task": task, "data": record["fingerprint"], "data_source": record} for r in records])


process_docs_isobench = partial(process_docs, task="isobench")
process_docs_isobench_cot = partial(process_docs, task="isobench_cot")


def doc_to_visual(doc: Dict) -> List:
    """The doc's image as an RGB PIL image; an error naming the file and the doc id when it cannot be read."""
    from PIL import Image

    path = doc.get("image_path")
    source = "embedded image bytes" if doc.get("image_bytes") else str(path)
    try:
        if doc.get("image_bytes"):
            image = Image.open(io.BytesIO(doc["image_bytes"]))
        else:
            if path and path.startswith(HUB_IMAGE_PREFIX):
                from huggingface_hub import hf_hub_download

                path = hf_hub_download(HUB_ID, path[len(HUB_IMAGE_PREFIX) :], repo_type="dataset")
            image = Image.open(path)
        image.load()
        return [image.convert("RGB")]
    except Exception as error:  # noqa: BLE001 - any decoding failure is reported with its doc
        raise IsoBenchDataError(f"ISO-Bench doc {doc.get('id')!r}: cannot read image {source}: {error}") from error


def doc_to_target(doc: Dict) -> str:
    return doc["answer"]


def doc_to_text_answer_only(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.answer_only(doc)


def doc_to_text_explain_then_answer(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.explain_then_answer(doc)


def process_results_answer_only(doc: Dict, results: List[str]) -> Dict:
    return {**values_of(doc, results[0] if results else None, PARSERS["answer_only"]), "data_source": doc["data_source"]}


def process_results_explain_then_answer(doc: Dict, results: List[str]) -> Dict:
    return {**values_of(doc, results[0] if results else None, PARSERS["explain_then_answer"]), "data_source": doc["data_source"]}
