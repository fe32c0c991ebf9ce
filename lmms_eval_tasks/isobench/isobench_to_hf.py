"""Read an ISO-Bench release into the normalised records the ISO-Bench tasks evaluate, and write them as a hub dataset.

The release's layout is not documented, so the columns found are mapped to the normalised fields by name (case-,
space- and underscore-insensitive); a field that cannot be found is an error listing the columns found and how to
name them with the task setting ``column_map`` (field -> column). Columns holding a caption of the image step are
never mapped, so their text can never reach the prompt. Sources: the hub dataset ``StonyBrookNLP/ISO-Bench``, or a
local folder (``ISOBENCH_DATA_DIR``) holding a saved Hugging Face dataset (``save_to_disk``) or data files
(``*.json`` list of rows or ``{"data": [rows]}``, ``*.jsonl``, ``*.parquet``) with images embedded (image feature,
``{"bytes", "path"}``, bytes, data URI) or as paths relative to the data file's folder or to the data folder.

The tasks read the records from the hub dataset this script writes (one image per example, embedded), or from a
release through :func:`release_records`.

    python isobench_to_hf.py /data/ISO-Bench ISO-Bench-hf
"""

import base64
import io
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence

from loguru import logger

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import (
    DataSource,
    from_hub,
)
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.json_lines import json_lines_after

# The task settings that choose the rows.
COLUMN_MAP_SETTING = "column_map"
SPLIT_SETTING = "data_split"

REQUIRED_FIELDS = ("image", "goal", "snippet", "relation", "label")
OPTIONAL_FIELDS = ("id", "anchor", "question", "source", "plan_id", "image_step_idx", "snippet_step_idxs")
FIELDS = REQUIRED_FIELDS + OPTIONAL_FIELDS

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

_LABELS = {
    "yes": "yes",
    "dep": "yes",
    "dependent": "yes",
    "pos": "yes",
    "positive": "yes",
    "true": "yes",
    "1": "yes",
    "no": "no",
    "nondep": "no",
    "nondependent": "no",
    "independent": "no",
    "neg": "no",
    "negative": "no",
    "false": "no",
    "0": "no",
}
_RELATIONS = {"before": "before", "after": "after", "b": "before", "a": "after", "prev": "before", "previous": "before", "preceding": "before", "next": "after", "following": "after"}
_ANCHORS = {"first": "first", "last": "last"}
_ANCHOR_OF = {"before": "first", "after": "last"}
_SOURCES = {"youcook2": "youcook2", "youcook": "youcook2", "yc2": "youcook2", "crosstask": "crosstask", "ct": "crosstask"}
CLOSE_MAX_DISTANCE = 2  # close iff |j - i| < 3

# Table 2 of the paper: the full release.
EXPECTED_COUNTS = {"rows": 764, "dep": 383, "nondep": 381, "before": 372, "after": 392, "before_dep": 187, "before_nondep": 185, "after_dep": 196, "after_nondep": 196}
EXPECTED_SOURCE_COUNTS = {"crosstask": 139, "youcook2": 625}
SNIPPET_LENGTHS = (2, 3, 4)


class IsoBenchDataError(ValueError):
    """ISO-Bench data that cannot be read or mapped to the normalised record."""


ImagePath = Callable[[str], str]  # an image value that is a path -> the image_path to record


class Table(NamedTuple):
    """Raw rows of one split with a description of their columns."""

    where: str
    columns: Dict[str, str]
    rows: List[Dict]
    image_path: Optional[ImagePath] = None  # resolves an image given as a path (None: images must be embedded)
    files: Sequence = ()  # the files the rows were read from (fingerprinted)


def _describe(value) -> str:
    if isinstance(value, list):
        inner = sorted({_describe(v) for v in value[:5]})
        return f"list[{'|'.join(inner) or '?'}]"
    if isinstance(value, dict):
        return "{" + ", ".join(sorted(value)) + "}"
    return type(value).__name__


def columns_of_rows(rows: List[Dict]) -> Dict[str, str]:
    kinds: Dict[str, set] = {}
    for row in rows[:50]:
        for key, value in row.items():
            if not key.startswith("__"):
                kinds.setdefault(key, set()).add(_describe(value))
    return {key: "|".join(sorted(kind - {"NoneType"} or kind)) for key, kind in kinds.items()}


def table_from_hf(dataset, where: str, image_path: Optional[ImagePath] = None) -> Table:
    import datasets

    for name, feature in dataset.features.items():
        if isinstance(feature, datasets.Image) and feature.decode:
            dataset = dataset.cast_column(name, datasets.Image(decode=False))
    columns = {name: f"Value({feature.dtype})" if isinstance(feature, datasets.Value) else type(feature).__name__ for name, feature in dataset.features.items()}
    files = [Path(entry["filename"]) for entry in dataset.cache_files]
    return Table(where, columns, dataset.to_list(), image_path, files)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


def mapping_help(columns: Dict[str, str]) -> str:
    found = ", ".join(f"{name} ({kind})" for name, kind in columns.items()) or "none"
    example = json.dumps({"image": "<column>", "goal": "<column>", "snippet": "<column>", "relation": "<column>", "label": "<column>"})
    return (
        f"Columns found: {found}. Name the columns explicitly with the task setting {COLUMN_MAP_SETTING} "
        "(the task YAML's metadata; a variant YAML includes isobench.yaml), a mapping from field to column "
        f"(only the fields you name change), e.g. {COLUMN_MAP_SETTING}: {example}. "
        "Fields: image (image feature, {bytes, path}, bytes or a file path), goal (plan name), snippet "
        "(list of steps or newline-separated text), relation (before/after), label (DEP/NONDEP, yes/no, "
        "true/false, 1/0); optional: " + ", ".join(OPTIONAL_FIELDS) + " (map an optional field to null to ignore a column)."
    )


def map_columns(columns: Dict[str, str], explicit: Optional[Dict[str, Optional[str]]] = None, where: str = "ISO-Bench") -> Dict[str, str]:
    """field -> column: the explicit entries, then the first candidate name found for each other field."""
    explicit = dict(explicit or {})
    unknown = sorted(set(explicit) - set(FIELDS))
    if unknown:
        raise IsoBenchDataError(f"{where}: unknown field(s) {unknown} in the column map; fields are {list(FIELDS)}")
    absent = {field: column for field, column in explicit.items() if column is not None and column not in columns}
    if absent:
        raise IsoBenchDataError(f"{where}: the column map names column(s) not in the data: {absent}. {mapping_help(columns)}")
    mapping = {field: column for field, column in explicit.items() if column is not None}
    used = set(mapping.values())
    caption_keys = {_key(name) for name in CAPTION_COLUMNS}
    by_key = {}
    for column in columns:
        by_key.setdefault(_key(column), column)
    for field in FIELDS:
        if field in explicit:
            continue
        for candidate in CANDIDATES[field]:
            column = by_key.get(_key(candidate))
            if column is not None and column not in used and _key(column) not in caption_keys:
                mapping[field] = column
                used.add(column)
                break
    missing = [field for field in REQUIRED_FIELDS if field not in mapping]
    if missing:
        raise IsoBenchDataError(f"{where}: cannot find the column(s) for {missing}. {mapping_help(columns)}")
    return mapping


def _norm_label(value, where: str) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)) and value in (0, 1):
        return "yes" if value == 1 else "no"
    key = _key(value)
    if key in _LABELS:
        return _LABELS[key]
    raise IsoBenchDataError(f"{where}: label {value!r} is not one of DEP/NONDEP, yes/no, true/false, 1/0, POS/NEG")


def _norm_relation(value, where: str) -> str:
    text = str(value).strip().lower()
    if text in _RELATIONS:
        return _RELATIONS[text]
    words = set(re.findall(r"\b(before|after)\b", text))
    if len(words) == 1:
        return words.pop()
    raise IsoBenchDataError(f"{where}: relation {value!r} is neither 'before' nor 'after'")


def _norm_anchor(value, relation: str, where: str) -> str:
    if value is None or str(value).strip() == "":
        return _ANCHOR_OF[relation]
    text = str(value).strip().lower()
    words = set(re.findall(r"\b(first|last)\b", text))
    if text in _ANCHORS or len(words) == 1:
        return _ANCHORS.get(text) or words.pop()
    raise IsoBenchDataError(f"{where}: anchor {value!r} is neither 'first' nor 'last'")


def _norm_steps(value, where: str) -> List[str]:
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                pass
        if isinstance(value, str):
            value = text.splitlines()
    if not isinstance(value, (list, tuple)):
        raise IsoBenchDataError(f"{where}: snippet {value!r} is neither a list of steps nor text")
    steps = [str(step).strip() for step in value if str(step).strip()]
    if not steps:
        raise IsoBenchDataError(f"{where}: empty snippet")
    return steps


def _norm_source(value) -> Optional[str]:
    if value is None or str(value).strip() == "":
        return None
    return _SOURCES.get(_key(value), str(value).strip().lower())


def _opt_int(value, where: str, name: str) -> Optional[int]:
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise IsoBenchDataError(f"{where}: {name} {value!r} is not an integer") from None


def _int_list(value, where: str) -> Optional[List[int]]:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = [part for part in re.split(r"[,\s\[\]]+", value) if part]
    return [_opt_int(v, where, "snippet step index") for v in value]


def _norm_question(value) -> Optional[str]:
    if value is None or not str(value).strip():
        return None
    return re.sub(r"^\s*QUESTION:\s*", "", str(value).strip())


def default_question(relation: str, anchor: str) -> str:
    return f"Does this image show a step that must come {relation} the {anchor} step in the plan?"


def image_ref(value, image_path: Optional[ImagePath], where: str) -> Dict[str, Optional[object]]:
    """{"image_path", "image_bytes"} of one image value, without decoding it."""
    if isinstance(value, (list, tuple)):
        if len(value) != 1:
            raise IsoBenchDataError(f"{where}: {len(value)} images, ISO-Bench has exactly one per example")
        value = value[0]
    if isinstance(value, dict):
        if value.get("bytes"):
            return {"image_path": None, "image_bytes": bytes(value["bytes"])}
        value = value.get("path")
    if isinstance(value, (bytes, bytearray)):
        return {"image_path": None, "image_bytes": bytes(value)}
    if hasattr(value, "save"):  # an already decoded PIL image
        buffer = io.BytesIO()
        value.save(buffer, format="PNG")
        return {"image_path": None, "image_bytes": buffer.getvalue()}
    if not isinstance(value, str) or not value.strip():
        raise IsoBenchDataError(f"{where}: no image (value {value!r})")
    text = value.strip()
    if text.startswith("data:image"):
        return {"image_path": None, "image_bytes": base64.b64decode(text.split(",", 1)[1])}
    if len(text) > 512 and re.fullmatch(r"[A-Za-z0-9+/=\s]+", text):
        return {"image_path": None, "image_bytes": base64.b64decode(text)}
    if image_path is None:
        raise IsoBenchDataError(f"{where}: image {text!r} is a path, and this dataset embeds its images (a converted dataset holds the images themselves)")
    return {"image_path": image_path(text), "image_bytes": None}


def distance_class(image_step_idx: Optional[int], snippet_step_idxs: Optional[Sequence[int]]) -> Optional[str]:
    """close iff |j - i| < 3 with j the nearest snippet step; None without positions."""
    if image_step_idx is None or not snippet_step_idxs:
        return None
    distance = min(abs(j - image_step_idx) for j in snippet_step_idxs)
    return "close" if distance <= CLOSE_MAX_DISTANCE else "distant"


def normalise_row(row: Dict, mapping: Dict[str, str], index: int, table: Table) -> Dict:
    get = lambda field: row.get(mapping[field]) if field in mapping else None  # noqa: E731
    where = row.get("__where__") or f"{table.where} row {index}"
    if get("id") is not None:
        where += f" (id {get('id')!r})"
    goal = str(get("goal") or "").strip()
    if not goal:
        raise IsoBenchDataError(f"{where}: empty goal (column {mapping['goal']!r})")
    relation = _norm_relation(get("relation"), where)
    anchor = _norm_anchor(get("anchor"), relation, where)
    label = _norm_label(get("label"), where)
    image_step_idx = _opt_int(get("image_step_idx"), where, "image step index")
    snippet_step_idxs = _int_list(get("snippet_step_idxs"), where)
    row_id = get("id")
    plan_id = get("plan_id")
    return {
        "id": str(row_id) if row_id is not None and str(row_id) != "" else str(index),
        "goal": goal,
        "snippet_steps": _norm_steps(get("snippet"), where),
        "relation": relation,
        "anchor": anchor,
        "question": _norm_question(get("question")) or default_question(relation, anchor),
        "label": label,
        "answer": label,
        "choices": ["yes", "no"],
        "source": _norm_source(get("source") if "source" in mapping else row.get("__file_source__")),
        "plan_id": None if plan_id is None else str(plan_id),
        "image_step_idx": image_step_idx,
        "snippet_step_idxs": snippet_step_idxs,
        "distance_class": distance_class(image_step_idx, snippet_step_idxs),
        **image_ref(get("image"), table.image_path, where),
    }


def normalise_table(table: Table, column_map: Optional[Dict[str, Optional[str]]] = None) -> List[Dict]:
    mapping = map_columns(table.columns, column_map, table.where)
    ignored = [c for c in table.columns if _key(c) in {_key(n) for n in CAPTION_COLUMNS} and c not in mapping.values()]
    logger.info(f"ISO-Bench {table.where}: column mapping {mapping}" + (f"; never shown: {ignored}" if ignored else ""))
    records = [normalise_row(row, mapping, index, table) for index, row in enumerate(table.rows)]
    if len({r["id"] for r in records}) != len(records):
        logger.warning(f"ISO-Bench {table.where}: ids in column {mapping.get('id')!r} are not unique; using row numbers")
        for index, record in enumerate(records):
            record["id"] = str(index)
    return records


def statistics(records: Iterable[Dict]) -> Dict[str, int]:
    records = list(records)
    counts = Counter()
    for record in records:
        dependency = "dep" if record["label"] == "yes" else "nondep"
        counts[dependency] += 1
        counts[record["relation"]] += 1
        counts[f"{record['relation']}_{dependency}"] += 1
    return {"rows": len(records), **{key: counts[key] for key in EXPECTED_COUNTS if key != "rows"}}


def check_statistics(records: List[Dict]) -> List[str]:
    """Warnings for every way the loaded set differs from the paper's Table 2 (empty when it agrees)."""
    problems = []
    found = statistics(records)
    if found != EXPECTED_COUNTS:
        diffs = {key: (found[key], expected) for key, expected in EXPECTED_COUNTS.items() if found[key] != expected}
        problems.append(f"ISO-Bench: the loaded data differs from the paper's Table 2 (found, paper): {diffs}. A partial copy, another release, or a wrong column mapping / label polarity; check the mapping.")
    sources = Counter(record["source"] for record in records if record["source"])
    if sources and len(records) == EXPECTED_COUNTS["rows"] and dict(sources) != EXPECTED_SOURCE_COUNTS:
        problems.append(f"ISO-Bench: per-source counts {dict(sources)} differ from the paper's {EXPECTED_SOURCE_COUNTS}")
    odd = sum(len(record["snippet_steps"]) not in SNIPPET_LENGTHS for record in records)
    if odd:
        problems.append(f"ISO-Bench: {odd} snippet(s) have a step count outside 2-4; is the snippet column the full plan? Name the snippet column with the task setting {COLUMN_MAP_SETTING}.")
    for problem in problems:
        logger.warning(problem)
    return problems


# ---- the release's files ----------------------------------------------------------------------

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
