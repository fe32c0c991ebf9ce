"""The rows of ISO-Bench for this package's tasks (lmms_eval_tasks/plugin/data_routes.py), in the converted dataset's
schema (lmms_eval_tasks/isobench/isobench_to_hf.py), each with ``image_path``, the image file the model is shown
(so that a run's samples name it): from the folder ``ISOBENCH_DATA_DIR`` names, else the hub release.

The release's column names are not documented, so the columns found are mapped to the converter's fields by name
(case-, space- and underscore-insensitive); a field that cannot be found is an error listing the columns found and
how to name them with the task setting ``column_map`` (field -> column). Columns holding a caption of the image step
are never mapped. A local folder holds a saved Hugging Face dataset (``save_to_disk``) or data files (``*.json`` list
of rows or ``{"data": [rows]}``, ``*.jsonl``, ``*.parquet``) with images embedded or as paths relative to the data
file's folder or to the data folder; embedded images are written once to a cache folder, named by their content.
"""

import hashlib
import io
import json
import re
from pathlib import Path
from typing import NamedTuple

import datasets
from loguru import logger

from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import REQUIRED_FIELDS, IsoBenchDataError, examples
from temporal_bench.lmms_eval_tasks.plugin.data_routes import from_hub, json_lines_after, local_data_dir, nonempty
from temporal_bench.synthetic_data import is_synthetic, mark_synthetic

HUB_ID = "StonyBrookNLP/ISO-Bench"
DATA_DIR_ENV = "ISOBENCH_DATA_DIR"
LOCAL_LAYOUT = "a folder holding a saved Hugging Face dataset (save_to_disk), or *.json / *.jsonl / *.parquet files of rows with embedded images or image paths relative to the data file"
COLUMN_MAP_SETTING = "column_map"
SPLIT_SETTING = "data_split"
SNIPPET_LENGTHS = (2, 3, 4)  # the steps of a plan snippet in the release
FIELDS_OPTIONAL = ("id", "anchor", "question", "source", "plan_id", "image_step_idx", "snippet_step_idxs")  # the converter reads them where present
FIELDS = REQUIRED_FIELDS + FIELDS_OPTIONAL
# Candidate column names per field, best first (the release's files and their copies name the fields differently).
CANDIDATES = {
    "id": ("id", "idx", "uid", "example_id", "instance_id", "item_id", "qid", "question_id", "sample_id"),
    "image": ("image", "frame", "img", "image_path", "frame_path", "image_file", "img_path", "frame_file", "image_bytes", "frame_image", "keyframe", "picture"),
    "goal": ("goal", "title", "task", "recipe", "recipe_name", "task_name", "goal_name", "plan_goal", "plan_title"),
    "snippet": ("snippet", "snippet_steps", "plan_snippet", "snippet_text", "excerpt", "plan_excerpt", "plan", "steps", "context", "text"),
    "relation": ("relation", "direction", "temporal_relation", "question_type", "relation_type", "order"),
    "label": ("label", "gold", "gold_label", "answer", "dependency", "dependency_label", "type", "is_dependent", "dependent", "target"),
    "anchor": ("anchor", "anchor_step", "anchor_position"),
    "question": ("question", "query"),
    "source": ("source", "source_dataset", "dataset", "origin", "domain"),
    "plan_id": ("plan_id", "video_id", "vid", "youtube_id", "video", "recipe_id"),
    "image_step_idx": ("image_step_idx", "image_step_index", "image_idx", "image_index", "frame_step_idx", "image_step_position", "image_position", "candidate_step_idx", "step_idx"),
    "snippet_step_idxs": ("snippet_step_idxs", "snippet_step_indices", "snippet_idxs", "snippet_indices", "snippet_positions", "snippet_step_positions"),
}
# Columns that would describe the image step in words: never mapped, never shown (the model must read the step from the image).
CAPTION_COLUMNS = ("caption", "image_caption", "image_description", "description", "image_step", "image_step_text", "image_text", "frame_caption", "step_caption", "candidate_step", "candidate_text")
_META_FILES = {"dataset_info.json", "state.json", "dataset_dict.json", "dataset_infos.json"}
_DATA_SUFFIXES = {".json", ".jsonl", ".parquet"}


class Table(NamedTuple):
    """Raw rows of one split: ``(where, row, the folders its image paths may be relative to)``, and their columns."""

    where: str
    columns: dict[str, str]
    rows: list[tuple[str, dict, tuple[Path, ...]]]


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


def _describe(value) -> str:
    if isinstance(value, list):
        return f"list[{'|'.join(sorted({_describe(v) for v in value[:5]})) or '?'}]"
    return "{" + ", ".join(sorted(value)) + "}" if isinstance(value, dict) else type(value).__name__


def _columns(rows: list[dict]) -> dict[str, str]:
    kinds: dict[str, set] = {}
    for row in rows[:50]:
        for key, value in row.items():
            kinds.setdefault(key, set()).add(_describe(value))
    return {key: "|".join(sorted(kind - {"NoneType"} or kind)) for key, kind in kinds.items()}


def mapping_help(columns: dict[str, str]) -> str:
    found = ", ".join(f"{name} ({kind})" for name, kind in columns.items()) or "none"
    example = json.dumps({"image": "<column>", "goal": "<column>", "snippet": "<column>", "relation": "<column>", "label": "<column>"})
    return (
        f"Columns found: {found}. Name the columns explicitly with the task setting {COLUMN_MAP_SETTING} "
        "(the task YAML's metadata; a variant YAML includes isobench.yaml), a mapping from field to column "
        f"(only the fields you name change), e.g. {COLUMN_MAP_SETTING}: {example}. "
        "Fields: image (image feature, {bytes, path}, bytes or a file path), goal (plan name), snippet "
        "(list of steps or newline-separated text), relation (before/after), label (DEP/NONDEP, yes/no, "
        "true/false, 1/0); optional: " + ", ".join(FIELDS_OPTIONAL) + " (map an optional field to null to ignore a column)."
    )


def map_columns(columns: dict[str, str], explicit: dict[str, str | None] | None = None, where: str = "ISO-Bench") -> dict[str, str]:
    """field -> column: the explicit entries, then the first candidate name found for each other field."""
    explicit = dict(explicit or {})
    unknown = sorted(set(explicit) - set(FIELDS))
    if unknown:
        raise IsoBenchDataError(f"{where}: unknown field(s) {unknown} in the column map; fields are {list(FIELDS)}")
    absent = {field: column for field, column in explicit.items() if column is not None and column not in columns}
    if absent:
        raise IsoBenchDataError(f"{where}: the column map names column(s) not in the data: {absent}. {mapping_help(columns)}")
    mapping = {field: column for field, column in explicit.items() if column is not None}
    used, captions = set(mapping.values()), {_key(name) for name in CAPTION_COLUMNS}
    by_key: dict[str, str] = {}
    for column in columns:
        by_key.setdefault(_key(column), column)
    for field in (f for f in FIELDS if f not in explicit):
        found = next((by_key[_key(c)] for c in CANDIDATES[field] if _key(c) in by_key and by_key[_key(c)] not in used and _key(c) not in captions), None)
        if found is not None:
            mapping[field] = found
            used.add(found)
    missing = [field for field in REQUIRED_FIELDS if field not in mapping]
    if missing:
        raise IsoBenchDataError(f"{where}: cannot find the column(s) for {missing}. {mapping_help(columns)}")
    return mapping


def _hf_table(dataset: datasets.Dataset, where: str, base: Path) -> Table:
    for name, feature in dataset.features.items():
        if isinstance(feature, datasets.Image) and feature.decode:
            dataset = dataset.cast_column(name, datasets.Image(decode=False))
    columns = {name: f"Value({feature.dtype})" if isinstance(feature, datasets.Value) else type(feature).__name__ for name, feature in dataset.features.items()}
    return Table(where, columns, [(f"{where} row {i}", row, (base,)) for i, row in enumerate(dataset.to_list())])


def _rows_from_json(path: Path) -> list[tuple[str, dict]] | None:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return [(f"{path}:{number}", row) for number, row in json_lines_after(error, path, text, IsoBenchDataError)]
    if isinstance(data, dict):
        lists = [value for value in data.values() if isinstance(value, list) and value and all(isinstance(v, dict) for v in value)]
        if len(lists) == 1:
            data = lists[0]
        elif data and all(isinstance(value, dict) for value in data.values()):
            data = [{"id": key, **value} if "id" not in value else value for key, value in data.items()]
        else:
            return None
    if data == []:
        raise IsoBenchDataError(f"{path}: no rows (an empty list: a truncated or incomplete copy?)")
    if not (isinstance(data, list) and any(isinstance(row, dict) for row in data)):
        return None
    for index, row in enumerate(data):
        if not isinstance(row, dict):
            raise IsoBenchDataError(f"{path} row {index}: not an object of fields but {row!r:.80}")
    return [(f"{path} row {index}", row) for index, row in enumerate(data)]


def _source_from_name(path: Path) -> str | None:
    name = path.stem.lower()
    return "youcook2" if "youcook" in name else "crosstask" if "crosstask" in name or "cross_task" in name else None


def _split_from_name(path: Path) -> str:
    match = re.match(r"^(train|test|validation|val|dev)(?:$|[-_.])", path.stem.lower())
    return match.group(1) if match else "data"


def tables_from_folder(folder: Path) -> dict[str, Table]:
    if (folder / "dataset_dict.json").is_file() or (folder / "state.json").is_file():
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".json", ".arrow"):
                nonempty(path, IsoBenchDataError)
        loaded = datasets.load_from_disk(str(folder))
        if isinstance(loaded, datasets.DatasetDict):
            return {split: _hf_table(ds, f"{folder}[{split}]", folder) for split, ds in loaded.items()}
        return {"data": _hf_table(loaded, str(folder), folder)}
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in _DATA_SUFFIXES and p.name not in _META_FILES and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    grouped: dict[str, list] = {}
    empty = []
    for path in files:
        nonempty(path, IsoBenchDataError)
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet

            rows: list[tuple[str, dict]] | None = [(f"{path} row {index}", row) for index, row in enumerate(pyarrow.parquet.read_table(path).to_pylist())]
        else:
            rows = _rows_from_json(path)
        if not rows:
            empty.append(path.name)
            continue
        source = _source_from_name(path)
        grouped.setdefault(_split_from_name(path), []).append((path, [(where, {"source": source, **row} if source and "source" not in row else row) for where, row in rows]))
    if not grouped:
        found = sorted(p.name for p in folder.iterdir())[:20]
        raise IsoBenchDataError(f"{DATA_DIR_ENV}={folder}: no ISO-Bench data found; {DATA_DIR_ENV} must name {LOCAL_LAYOUT}. Found: {found}" + (f"; files without rows: {empty}" if empty else ""))
    tables = {}
    for split, parts in grouped.items():
        split_rows: list[tuple[str, dict, tuple[Path, ...]]] = [(where, row, (path.parent, folder)) for path, part in parts for where, row in part]
        tables[split] = Table(", ".join(str(path) for path, _ in parts), _columns([row for _, row, _ in split_rows]), split_rows)
    return tables


def _base(image, bases: tuple[Path, ...]) -> Path:
    """The first of ``bases`` holding the image a row names by a path (any of them for an embedded image)."""
    return next((base for base in bases if isinstance(image, str) and (base / image).is_file()), bases[0])


def _tables_from_hub() -> dict[str, Table]:
    from huggingface_hub import snapshot_download

    loaded = from_hub(lambda: datasets.load_dataset(HUB_ID), HUB_ID, DATA_DIR_ENV, LOCAL_LAYOUT)
    snapshot = None
    tables = {}
    for split, dataset in loaded.items():
        if not any(isinstance(feature, datasets.Image) for feature in dataset.features.values()) and snapshot is None:  # images named by path in the repository
            snapshot = Path(from_hub(lambda: snapshot_download(HUB_ID, repo_type="dataset"), HUB_ID, DATA_DIR_ENV, LOCAL_LAYOUT))
        tables[split] = _hf_table(dataset, f"{HUB_ID}[{split}]", snapshot or Path("."))
    return tables


def choose_split(tables: dict[str, Table], requested: str | None = None) -> Table:
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


def _image_file(image: dict, synthetic: bool) -> str:
    """The file of an image: its path, or, for an embedded one, a file named by its content in a cache folder, with
    its format's extension (lmms-eval logs a doc's image files by their extension); the images of generated data in a
    folder of their own that carries its marker (temporal_bench/synthetic_data.py), as their data folder does."""
    from PIL import Image

    if image["path"]:
        return image["path"]
    try:
        with Image.open(io.BytesIO(image["bytes"])) as opened:
            suffix = str(opened.format).lower()
    except Exception:  # noqa: BLE001 - not an image: release_rows names the example
        suffix = "img"
    folder = Path(datasets.config.HF_DATASETS_CACHE) / "temporal_bench" / "isobench_images" / ("synthetic" if synthetic else "release")
    path = folder / f"{hashlib.sha256(image['bytes']).hexdigest()[:32]}.{suffix}"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(image["bytes"])
    if synthetic and not is_synthetic(folder):
        mark_synthetic(folder, "ISO-Bench")
    return str(path)


def release_examples(folder: Path | None, data_split: str | None = None, column_map: dict[str, str | None] | None = None) -> list[dict]:
    """The converter's rows (its ``image``: ``{"bytes", "path"}``) of the release in ``folder`` (None: the hub's): its
    split ``data_split`` (default: the only one, or test/train when exactly one is present), read under ``column_map``."""
    table = choose_split(_tables_from_hub() if folder is None else tables_from_folder(folder), data_split)
    mapping = map_columns(table.columns, column_map, table.where)
    ignored = [c for c in table.columns if _key(c) in {_key(n) for n in CAPTION_COLUMNS} and c not in mapping.values()]
    logger.info(f"ISO-Bench {table.where}: column mapping {mapping}" + (f"; never shown: {ignored}" if ignored else ""))
    rows = examples([(where, {field: row.get(column) for field, column in mapping.items()}, _base(row.get(mapping["image"]), bases)) for where, row, bases in table.rows])
    odd = sum(len(row["snippet_steps"]) not in SNIPPET_LENGTHS for row in rows)
    if odd:
        logger.warning(f"ISO-Bench {table.where}: {odd} snippet(s) have a step count outside 2-4 (the paper's); is the snippet column the full plan? Name the snippet column with the task setting column_map")
    return rows


def release_rows(data_split: str | None = None, column_map: dict[str, str | None] | None = None) -> datasets.Dataset:
    """The converted rows of the release (``ISOBENCH_DATA_DIR``'s, else the hub's), each image checked to open and named
    by its file (``image_path``)."""
    from PIL import Image

    folder = local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    rows = release_examples(folder, data_split, column_map)
    for row in rows:
        row["image_path"] = row["image"] = _image_file(row.pop("image"), is_synthetic(folder))
        try:
            with Image.open(row["image_path"]) as opened:
                opened.verify()
        except Exception as error:  # noqa: BLE001 - any decoding failure is reported with its file and example
            raise IsoBenchDataError(f"ISO-Bench example {row['id']!r}: cannot read image {row['image_path']}: {error}") from error
    return datasets.Dataset.from_list(rows).cast_column("image", datasets.Image())
