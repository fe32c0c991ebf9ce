"""Read ISO-Bench from the hub, a local copy of the release or a converted dataset (docs/protocol/isobench.md §2).

Sources:

* hub (default): ``datasets.load_dataset("StonyBrookNLP/ISO-Bench")``;
* ``ISOBENCH_DATA_DIR``: a folder holding a saved Hugging Face dataset (``save_to_disk``), or
  data files (``*.json`` list of rows or ``{"data": [rows]}``, ``*.jsonl``, ``*.parquet``) anywhere
  under it, with images embedded (image feature, ``{"bytes", "path"}``, bytes, data URI) or as file
  paths relative to the data file's folder or to the data folder; or a dataset converted by
  the build-dataset command (isobench/dataset_builder.py; recognised by its card, read through isobench/hub_dataset.py).

The rows are mapped to normalised records by isobench/records.py, under the task settings
``column_map`` and ``data_split``. The resolved source and a fingerprint of the files read are logged,
and every record carries the fingerprint (``data``), so a run's samples say what they were computed on.
"""

import json
import logging
import os
import re
from pathlib import Path
from typing import Dict, List, Optional

from temporal_bench.isobench import hub_dataset
from temporal_bench.isobench.records import (
    COLUMN_MAP_SETTING,
    SPLIT_SETTING,
    ImagePath,
    IsoBenchDataError,
    Table,
    check_statistics,
    columns_of_rows,
    normalise_table,
    table_from_hf,
)
from temporal_bench.utils import converted_dataset
from temporal_bench.utils.data_dir import from_hub, local_data_dir
from temporal_bench.utils.data_fingerprint import DataSource, log_source
from temporal_bench.utils.json_lines import json_lines_after
from temporal_bench.utils.synthetic_data import is_synthetic

logger = logging.getLogger(__name__)

HUB_ID = "StonyBrookNLP/ISO-Bench"
DATA_DIR_ENV = "ISOBENCH_DATA_DIR"
LOCAL_LAYOUT = "a folder holding a saved Hugging Face dataset (save_to_disk), or *.json / *.jsonl / *.parquet files of rows with embedded images or image paths relative to the data file"
# The environment variables the task settings replaced.
COLUMN_MAP_ENV = "ISOBENCH_COLUMN_MAP"
SPLIT_ENV = "ISOBENCH_SPLIT"
REMOVED_ENV = {COLUMN_MAP_ENV: COLUMN_MAP_SETTING, SPLIT_ENV: SPLIT_SETTING}
HUB_IMAGE_PREFIX = "hf-hub-dataset-file://"
_META_FILES = {"dataset_info.json", "state.json", "dataset_dict.json", "dataset_infos.json"}
_DATA_SUFFIXES = {".json", ".jsonl", ".parquet"}


def _under(bases: List[Path]) -> ImagePath:
    """An image path relative to one of ``bases`` (the first that holds it), or absolute."""

    def resolve(text: str) -> str:
        path = Path(text).expanduser()
        candidates = [path] if path.is_absolute() else [base / path for base in bases]
        return str(next((c for c in candidates if c.is_file()), candidates[0]).resolve())

    return resolve


def _in_hub_repository(text: str) -> str:
    """A path inside the hub repository, fetched when opened."""
    return HUB_IMAGE_PREFIX + text.lstrip("/")


def _rows_from_json(path: Path) -> Optional[List[Dict]]:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        data = [{**row, "__where__": f"{path}:{number}"} for number, row in json_lines_after(error, path, text, IsoBenchDataError)]
    if isinstance(data, dict):
        lists = [value for value in data.values() if isinstance(value, list) and value and all(isinstance(v, dict) for v in value)]
        if len(lists) == 1:
            data = lists[0]
        elif data and all(isinstance(value, dict) for value in data.values()):
            data = [{"id": key, **value} if "id" not in value else value for key, value in data.items()]
        else:
            return None
    if isinstance(data, list) and any(isinstance(row, dict) for row in data):
        for index, row in enumerate(data):
            if not isinstance(row, dict):
                raise IsoBenchDataError(f"{path} row {index}: not an object of fields but {row!r:.80}")
        return [row if "__where__" in row else {**row, "__where__": f"{path} row {index}"} for index, row in enumerate(data)]
    return None


def _source_from_name(path: Path) -> Optional[str]:
    name = path.stem.lower()
    if "youcook" in name:
        return "youcook2"
    if "crosstask" in name or "cross_task" in name:
        return "crosstask"
    return None


def _split_from_name(path: Path) -> str:
    match = re.match(r"^(train|test|validation|val|dev)(?:$|[-_.])", path.stem.lower())
    return match.group(1) if match else "data"


def tables_from_folder(folder: Path) -> Dict[str, Table]:
    if (folder / "dataset_dict.json").is_file() or (folder / "state.json").is_file():
        import datasets

        loaded = datasets.load_from_disk(str(folder))
        if isinstance(loaded, datasets.DatasetDict):
            return {split: table_from_hf(ds, f"{folder}[{split}]", _under([folder])) for split, ds in loaded.items()}
        return {"data": table_from_hf(loaded, str(folder), _under([folder]))}
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in _DATA_SUFFIXES and p.name not in _META_FILES and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    grouped: Dict[str, List] = {}
    skipped = []
    for path in files:
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet

            rows = [{**row, "__where__": f"{path} row {index}"} for index, row in enumerate(pyarrow.parquet.read_table(path).to_pylist())]
        else:
            rows = _rows_from_json(path)
        if not rows:
            skipped.append(path.name)
            continue
        source = _source_from_name(path)
        if source:
            rows = [{**row, "__file_source__": source} for row in rows]
        grouped.setdefault(_split_from_name(path), []).append((path, rows))
    if not grouped:
        found = sorted(p.name for p in folder.iterdir())[:20]
        raise IsoBenchDataError(f"{DATA_DIR_ENV}={folder}: no ISO-Bench data found; {DATA_DIR_ENV} must name {LOCAL_LAYOUT}. Found: {found}" + (f"; files without rows: {skipped}" if skipped else ""))
    tables = {}
    for split, parts in grouped.items():
        rows = [row for _, part in parts for row in part]
        where = ", ".join(str(path) for path, _ in parts)
        bases = list(dict.fromkeys([path.parent for path, _ in parts] + [folder]))
        tables[split] = Table(where, columns_of_rows(rows), rows, _under(bases), [path for path, _ in parts])
    return tables


def _tables_from_hub() -> Dict[str, Table]:
    import datasets

    loaded = from_hub(lambda: datasets.load_dataset(HUB_ID), HUB_ID, DATA_DIR_ENV, LOCAL_LAYOUT)
    return {split: table_from_hf(ds, f"{HUB_ID}[{split}]", _in_hub_repository) for split, ds in loaded.items()}


def choose_split(tables: Dict[str, Table], requested: Optional[str] = None) -> Table:
    """The requested split, the only one, or ``test``/``train`` when exactly one of them is present."""
    if requested:
        if requested not in tables:
            raise IsoBenchDataError(f"ISO-Bench: split {requested!r} not found; splits present: {sorted(tables)}")
        return tables[requested]
    if len(tables) == 1:
        return next(iter(tables.values()))
    named = [split for split in ("test", "train") if split in tables]
    if len(named) == 1:
        logger.warning("ISO-Bench: splits %s present, evaluating %r (the task setting %s chooses)", sorted(tables), named[0], SPLIT_SETTING)
        return tables[named[0]]
    raise IsoBenchDataError(f"ISO-Bench: several splits {sorted(tables)} and no way to tell which is the benchmark; set the task setting {SPLIT_SETTING} (YAML metadata) to one of them")


def refuse_removed_env() -> None:
    """The settings that choose the rows are task settings now: an old variable still set is an error."""
    for name, setting in REMOVED_ENV.items():
        if os.environ.get(name, "").strip():
            raise IsoBenchDataError(f"{name} is no longer read: set the task setting {setting!r} in the task YAML's metadata instead (a variant YAML that includes isobench.yaml, docs/isobench.md), then unset {name}")


def load_records(data_dir: Optional[Path] = None, column_map: Optional[Dict[str, Optional[str]]] = None, split: Optional[str] = None) -> List[Dict]:
    """Normalised records from ``data_dir`` (or ``ISOBENCH_DATA_DIR``, else the hub), each carrying the
    fingerprint of the files read (``data``). ``column_map`` (field -> column) and ``split`` are the
    task settings ``column_map`` and ``data_split``."""
    refuse_removed_env()
    data_dir = data_dir or local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if data_dir is not None and converted_dataset.is_converted(Path(data_dir)):
        config = hub_dataset.config_name({SPLIT_SETTING: split} if split else {})
        dataset, files = converted_dataset.load_config(Path(data_dir), config, IsoBenchDataError)
        source = DataSource(DATA_DIR_ENV, f"converted dataset {data_dir} (config {config})", folder=Path(data_dir))
        records = hub_dataset.docs_from_dataset(dataset, {COLUMN_MAP_SETTING: column_map} if column_map else {})
    else:
        tables = _tables_from_hub() if data_dir is None else tables_from_folder(Path(data_dir))
        table = choose_split(tables, split)
        files = table.files
        if data_dir is None:
            revision = Path(table.files[0]).parent.name if table.files else "in memory"
            source = DataSource(DATA_DIR_ENV, f"hub {table.where}", hub=HUB_ID, revision=revision)
        else:
            source = DataSource(DATA_DIR_ENV, f"{DATA_DIR_ENV}={data_dir}", folder=Path(data_dir))
        records = normalise_table(table, column_map)
    fingerprint = log_source("ISO-Bench", source, files)
    records = [{**record, "data": fingerprint} for record in records]
    if is_synthetic(data_dir):
        logger.info("ISO-Bench: %s holds synthetic data (utils/synthetic_data.py): not compared with the paper's Table 2", data_dir)
    else:
        check_statistics(records)
    return records


def open_image(doc: Dict):
    """The doc's image as an RGB PIL image; an error naming the file and the doc id when it cannot be read."""
    import io

    from PIL import Image

    path = doc.get("image_path")
    try:
        if doc.get("image_bytes"):
            source = "embedded image bytes"
            image = Image.open(io.BytesIO(doc["image_bytes"]))
        else:
            source = str(path)
            if path and path.startswith(HUB_IMAGE_PREFIX):
                from huggingface_hub import hf_hub_download

                path = hf_hub_download(HUB_ID, path[len(HUB_IMAGE_PREFIX) :], repo_type="dataset")
            image = Image.open(path)
        image.load()
        return image.convert("RGB")
    except Exception as error:  # noqa: BLE001 - any decoding failure is reported with its doc
        raise IsoBenchDataError(f"ISO-Bench doc {doc.get('id')!r}: cannot read image {source}: {error}") from error
