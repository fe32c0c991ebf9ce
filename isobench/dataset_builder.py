"""Convert an ISO-Bench release folder into the hub dataset isobench/hub_dataset.py reads:
``temporal-bench build-dataset isobench``."""

from pathlib import Path
from typing import Dict, List

import datasets

from temporal_bench import __version__
from temporal_bench.isobench.hub_dataset import DEFAULT_CONFIG, HUB_DATASET_ID
from temporal_bench.isobench.loading import HUB_ID, choose_split, tables_from_folder
from temporal_bench.isobench.records import (
    IsoBenchDataError,
    Table,
    image_ref,
    map_columns,
)
from temporal_bench.utils import converted_dataset
from temporal_bench.utils.data_fingerprint import fingerprint
from temporal_bench.utils.synthetic_data import is_synthetic, mark_synthetic

RELEASE_ERROR = IsoBenchDataError  # what build() raises for a release it cannot read (build-dataset reports it in one line)

CARD_BODY = """# ISO-Bench

ISO-Bench (Image-State Ordering Benchmark; Sadana, Lal and Zhou, arXiv 2507.23135), converted from a copy of the official release ({release_hub}) into parquet with the images embedded,
so that `datasets.load_dataset("{hub_id}")` yields the examples with their images.

The release's columns are kept as they are; only the image column (`{image}`) now holds the image itself (an image
feature) instead of the release's value ({image_kind}). Config `default` holds the split the tasks evaluate (`{default}`); each release split
is also a config of its name (the task setting `data_split` chooses it).

## Licence

The licence of the original release applies ({release_hub}); this conversion adds no terms.
"""


def _embedded(table: Table, image_column: str) -> List[Dict]:
    """The table's rows without the loader's bookkeeping, the image column as ``{"bytes", "path"}``."""
    rows = []
    for index, row in enumerate(table.rows):
        where = row.get("__where__") or f"{table.where} row {index}"
        ref = image_ref(row.get(image_column), table.image_path, where)
        path = ref["image_path"]
        if ref["image_bytes"] is None and not Path(path).is_file():
            raise IsoBenchDataError(f"{where}: image file {path} not found")
        image = {"bytes": ref["image_bytes"] or Path(path).read_bytes(), "path": Path(path).name if path else None}
        rows.append({**{key: value for key, value in row.items() if key != "__where__"}, image_column: image})
    return rows


def build(release: Path, output: Path, command: str) -> Dict[str, int]:
    """Write the converted dataset of the release folder ``release`` under ``output``; config -> rows."""
    tables = tables_from_folder(Path(release))
    default = choose_split(tables)
    counts, kinds = {}, set()
    for split, table in tables.items():
        image_column = map_columns(table.columns, where=table.where)["image"]
        kinds.add(table.columns[image_column])
        dataset = datasets.Dataset.from_list(_embedded(table, image_column)).cast_column(image_column, datasets.Image())
        converted_dataset.write_config(dataset, output, split)
        counts[split] = len(dataset)
    default_split = next(split for split, table in tables.items() if table is default)
    files = sorted({Path(path) for table in tables.values() for path in table.files})
    provenance = {
        "source release": f"local folder {Path(release).resolve()}",
        "release fingerprint": f"{fingerprint(files)} (SHA-256 of the {len(files)} data files read, temporal_bench/utils/data_fingerprint.py)",
        "command": command,
        "converter": f"lmms-eval-temporal-bench {__version__}, isobench/dataset_builder.py",
        "synthetic": "yes (generated test data, not the release)" if is_synthetic(release) else "no",
    }
    descriptions = {DEFAULT_CONFIG: f"the split `{default_split}` ({counts[default_split]} rows)", **{split: f"{rows} rows" for split, rows in counts.items()}}
    body = CARD_BODY.format(release_hub=f"https://huggingface.co/datasets/{HUB_ID}", hub_id=HUB_DATASET_ID, image=image_column, image_kind=" or ".join(sorted(kinds)), default=default_split)
    header = {"license": "other", "pretty_name": "ISO-Bench", "task_categories": ["visual-question-answering"], "language": ["en"]}
    converted_dataset.write_card(output, header, descriptions, body + "\n" + converted_dataset.provenance_section(provenance), folders={DEFAULT_CONFIG: default_split})
    if is_synthetic(release):
        mark_synthetic(output, "ISO-Bench")
    return {DEFAULT_CONFIG: counts[default_split], **counts}
