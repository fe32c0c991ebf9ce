"""Convert the TempVS release (benchmark_pkl/ or benchmark/, the image folders, predictions/blind/) into the
hub dataset tempvs/hub_dataset.py reads: ``temporal-bench build-dataset tempvs``."""

import json
from pathlib import Path
from typing import Dict, List

import datasets

from temporal_bench import __version__
from temporal_bench.tempvs import prompts
from temporal_bench.tempvs.docs import from_row, has_invalid_event, image_fields, reroot
from temporal_bench.tempvs.hub_dataset import FEATURES, HUB_DATASET_ID, config_task_ids
from temporal_bench.tempvs.loading import (
    HUB_ID,
    ReleaseRows,
    blind_correctness,
    data_root,
    describe_source,
)
from temporal_bench.tempvs.spec import (
    BLIND_MODELS,
    MAIN_TESTS,
    SOURCES,
    TempVSDataError,
)
from temporal_bench.utils import converted_dataset
from temporal_bench.utils.data_fingerprint import fingerprint
from temporal_bench.utils.synthetic_data import is_synthetic, mark_synthetic

RELEASE_ERROR = TempVSDataError  # what build() raises for a release it cannot read (build-dataset reports it in one line)

BLIND_FILTERED = frozenset(spec.task_id for spec in MAIN_TESTS.values() if spec.blind_filtered)
CARD_BODY = """# TempVS

TempVS (Song et al., "Burn After Reading: Do Multimodal Large Language Models Truly Capture Order of Events in Image
Sequences?", Findings of ACL 2025), converted from the official release ({release_hub}) into parquet with the images
embedded, so that `datasets.load_dataset("{hub_id}", CONFIG)` yields everything a task needs.

One config per data need of an lmms-eval task: each main test with its grounding test's rows, the MT2 + MT3 pairs that
share a grounding test, each grounding test, and `suite_grounding` (all four grounding tests). Images therefore repeat
across configs (and across rows of one config): each config is complete on its own.

Columns: `source` (flintstones, pororo, vwp, vist), `task_id` (the official task id), `question_id`, `fields` (every
column of the release's annotation row, as JSON), `blind_correct` (whether {blind} answered the question correctly,
as the official evaluation parses their released outputs; the text-only-LLM filter drops a question that two or more
answered correctly; empty where no filter applies), `image_names` (the stored image paths, relative to the release
folder) and `images` (those images).

## Licence

The licence of the original release applies ({release_hub}); this conversion adds no terms.
"""


def _row(row: Dict, rows: ReleaseRows, source: str, task_id: str, verdicts: Dict[str, List[bool]], images: Dict[str, bytes]) -> Dict:
    frames_field, image_field = image_fields(task_id)
    stored = [row.get(image_field)] + prompts.as_list(row.get(frames_field))  # the combined image, then the frames
    names = [name for name in dict.fromkeys(reroot(path, source, Path("")) for path in stored) if name]
    missing = [name for name in names if not (rows.root / name).is_file()]
    if missing:
        raise TempVSDataError(f"image file(s) {missing[:3]} missing under {rows.root}")
    for name in names:
        images.setdefault(name, (rows.root / name).read_bytes())
    fields = {key: value for key, value in row.items() if key != "_where"}
    return {
        "source": source,
        "task_id": task_id,
        "question_id": str(row["question_id"]),
        "fields": json.dumps(fields, ensure_ascii=False),
        "blind_correct": verdicts.get(str(row["question_id"]), []),
        "image_names": names,
        "images": [{"bytes": images[name], "path": name} for name in names],
    }


def config_rows(rows: ReleaseRows, task_ids) -> List[Dict]:
    """The rows of one config: per source, per task id, the annotation rows in file order."""
    out, images = [], {}
    for source in SOURCES:
        for task_id in task_ids:
            annotation = rows.rows(source, task_id)
            verdicts = {}
            if task_id in BLIND_FILTERED:
                valid = [str(row["question_id"]) for row in annotation if not has_invalid_event(row)]
                verdicts = blind_correctness(rows.root, source, task_id, valid, rows.files)
            out += [from_row(_row, row, rows, source, task_id, verdicts, images) for row in annotation]
    return out


def build(release: Path, output: Path, command: str) -> Dict[str, int]:
    """Write the converted dataset of the release in ``release`` under ``output``; config -> rows."""
    root = data_root(Path(release))
    rows = ReleaseRows(root)
    counts = {}
    for config, task_ids in config_task_ids().items():
        dataset = datasets.Dataset.from_list(config_rows(rows, task_ids), features=FEATURES)
        converted_dataset.write_config(dataset, output, config)
        counts[config] = len(dataset)
    source = describe_source(root)
    provenance = {
        "source release": source.description,
        "release fingerprint": f"{fingerprint(set(rows.files))} (SHA-256 of the {len(set(rows.files))} annotation and blind-prediction files read, temporal_bench/utils/data_fingerprint.py)",
        "command": command,
        "converter": f"lmms-eval-temporal-bench {__version__}, tempvs/dataset_builder.py",
        "synthetic": "yes (generated test data, not the release)" if is_synthetic(root) else "no",
    }
    descriptions = {config: f"{counts[config]} rows of {', '.join(task_ids)}" for config, task_ids in config_task_ids().items()}
    blind = ", ".join(model for model, _ in BLIND_MODELS)
    body = CARD_BODY.format(release_hub=f"https://huggingface.co/datasets/{HUB_ID}", hub_id=HUB_DATASET_ID, blind=blind)
    header = {"license": "other", "pretty_name": "TempVS", "task_categories": ["visual-question-answering"], "language": ["en"]}
    converted_dataset.write_card(output, header, descriptions, body + "\n" + converted_dataset.provenance_section(provenance))
    if is_synthetic(root):
        mark_synthetic(output, "TempVS")
    return counts
