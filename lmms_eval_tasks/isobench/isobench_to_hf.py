"""Read an ISO-Bench release into the normalised records the ISO-Bench tasks evaluate, and write them as a hub dataset.

Sources: the hub dataset ``StonyBrookNLP/ISO-Bench``, or a local folder (``ISOBENCH_DATA_DIR``) holding a saved
Hugging Face dataset (``save_to_disk``) or data files (``*.json`` list of rows or ``{"data": [rows]}``, ``*.jsonl``,
``*.parquet``) with images embedded (image feature, ``{"bytes", "path"}``, bytes, data URI) or as paths relative to
the data file's folder or to the data folder; the columns are mapped as :mod:`records` describes.

The tasks read the records from the hub dataset this script writes (one image per example, embedded), or from a
release through :func:`release_records`.

    python isobench_to_hf.py /data/ISO-Bench ISO-Bench-hf
"""

import json
import re
import sys
from pathlib import Path
from typing import Dict, List, Optional

from loguru import logger

from temporal_bench.lmms_eval_tasks.isobench.records import (
    EXPECTED_COUNTS,
    SPLIT_SETTING,
    ImagePath,
    IsoBenchDataError,
    Table,
    check_statistics,
    columns_of_rows,
    normalise_table,
    table_from_hf,
)
from temporal_bench.utils.data_source import DataSource, from_hub
from temporal_bench.utils.json_lines import json_lines_after

HUB_ID = "StonyBrookNLP/ISO-Bench"
DATA_DIR_ENV = "ISOBENCH_DATA_DIR"
LOCAL_LAYOUT = "a folder holding a saved Hugging Face dataset (save_to_disk), or *.json / *.jsonl / *.parquet files of rows with embedded images or image paths relative to the data file"
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
        logger.warning(f"ISO-Bench: splits {sorted(tables)} present, evaluating {named[0]!r} (the task setting {SPLIT_SETTING} chooses)")
        return tables[named[0]]
    raise IsoBenchDataError(f"ISO-Bench: several splits {sorted(tables)} and no way to tell which is the benchmark; set the task setting {SPLIT_SETTING} (YAML metadata) to one of them")


def release_records(folder: Optional[Path], column_map: Optional[Dict[str, Optional[str]]] = None, split: Optional[str] = None) -> tuple:
    """(normalised records, the data's record) of the release in ``folder`` (None: the hub dataset): the split
    ``split`` (default: the only one, or test/train when exactly one is present) under ``column_map``."""
    tables = _tables_from_hub() if folder is None else tables_from_folder(Path(folder))
    table = choose_split(tables, split)
    if folder is None:
        source = DataSource(DATA_DIR_ENV, f"hub {table.where}", hub=HUB_ID, revision=Path(table.files[0]).parent.name if table.files else "in memory")
    else:
        source = DataSource(DATA_DIR_ENV, f"{DATA_DIR_ENV}={folder}", folder=Path(folder))
    records = normalise_table(table, column_map)
    record = source.record(list(table.files), "ISO-Bench", rows=len(records), expected_rows=EXPECTED_COUNTS["rows"])
    if not record["synthetic"]:
        check_statistics(records)
    return records, record


def convert(folder: Path, output: Path, column_map: Optional[Dict[str, Optional[str]]] = None, split: Optional[str] = None) -> int:
    """Write the normalised records of the release in ``folder`` (``data/test-*.parquet``, the image embedded)."""
    import datasets

    records, _ = release_records(Path(folder), column_map, split)
    rows = []
    for record in records:
        path, data = record.pop("image_path"), record.pop("image_bytes")
        if data is None and not Path(path).is_file():
            raise IsoBenchDataError(f"ISO-Bench example {record['id']}: image file {path} not found")
        rows.append({**record, "image": {"bytes": data or Path(path).read_bytes(), "path": Path(path).name if path else None}})
    (Path(output) / "data").mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_list(rows).cast_column("image", datasets.Image()).to_parquet(str(Path(output) / "data" / "test-00000-of-00001.parquet"))
    return len(rows)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.rsplit("\n\n", 1)[-1])
    print(convert(Path(sys.argv[1]), Path(sys.argv[2])), "examples")
