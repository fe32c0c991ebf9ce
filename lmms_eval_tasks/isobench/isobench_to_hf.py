"""Convert the ISO-Bench release (``StonyBrookNLP/ISO-Bench``, paper App. B-C) into the rows the ISO-Bench tasks
evaluate: one row per example with its image embedded, written as ``data/test-00000-of-00001.parquet``.

The release's rows name the fields the paper describes: ``image`` (embedded, or a path relative to the data file),
``goal``, ``snippet`` (the plan snippet: a list of steps or one step per line), ``relation`` (before/after), ``label``
(DEP/NONDEP, yes/no, true/false or 1/0) and, where present, ``id``, ``anchor``, ``question``, ``source``, ``plan_id``,
``image_step_idx`` and ``snippet_step_idxs`` (the positions that give the close/distant class). A column holding a
caption of the image step is never read: the model must see the step in the image only.

    python isobench_to_hf.py RELEASE_FOLDER OUTPUT_FOLDER   # the *.json, *.jsonl and *.parquet files of the folder
"""

import base64
import io
import json
import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

REQUIRED_FIELDS = ("image", "goal", "snippet", "relation", "label")
_LABELS = {"yes": "yes", "dep": "yes", "dependent": "yes", "pos": "yes", "positive": "yes", "true": "yes", "1": "yes"}
_LABELS.update({"no": "no", "nondep": "no", "nondependent": "no", "independent": "no", "neg": "no", "negative": "no", "false": "no", "0": "no"})
_RELATIONS = {"before": "before", "after": "after", "b": "before", "a": "after", "prev": "before", "previous": "before", "preceding": "before", "next": "after", "following": "after"}
_ANCHOR_OF = {"before": "first", "after": "last"}
_SOURCES = {"youcook2": "youcook2", "youcook": "youcook2", "yc2": "youcook2", "crosstask": "crosstask", "ct": "crosstask"}
CLOSE_MAX_DISTANCE = 2  # paper §4: close iff the image step is fewer than 3 steps from the nearest snippet step


class IsoBenchDataError(ValueError):
    """ISO-Bench data that cannot be read as the release describes."""


def _key(value) -> str:
    return re.sub(r"[^a-z0-9]", "", str(value).lower())


def _label(value, where: str) -> str:
    if isinstance(value, bool) or (isinstance(value, (int, float)) and value in (0, 1)):
        return "yes" if value else "no"
    if _key(value) in _LABELS:
        return _LABELS[_key(value)]
    raise IsoBenchDataError(f"{where}: label {value!r} is not one of DEP/NONDEP, yes/no, true/false, 1/0, POS/NEG")


def _relation(value, where: str) -> str:
    text = str(value).strip().lower()
    words = set(re.findall(r"\b(before|after)\b", text))
    if text in _RELATIONS or len(words) == 1:
        return _RELATIONS.get(text) or words.pop()
    raise IsoBenchDataError(f"{where}: relation {value!r} is neither 'before' nor 'after'")


def _anchor(value, relation: str, where: str) -> str:
    if value is None or str(value).strip() == "":
        return _ANCHOR_OF[relation]
    words = set(re.findall(r"\b(first|last)\b", str(value).strip().lower()))
    if len(words) != 1:
        raise IsoBenchDataError(f"{where}: anchor {value!r} is neither 'first' nor 'last'")
    return words.pop()


def _steps(value, where: str) -> List[str]:
    if isinstance(value, str):
        text = value.strip()
        try:
            value = json.loads(text) if text.startswith("[") else text.splitlines()
        except json.JSONDecodeError:
            value = text.splitlines()
    if not isinstance(value, (list, tuple)):
        raise IsoBenchDataError(f"{where}: snippet {value!r} is neither a list of steps nor text")
    steps = [str(step).strip() for step in value if str(step).strip()]
    if not steps:
        raise IsoBenchDataError(f"{where}: empty snippet")
    return steps


def _int(value, where: str, name: str) -> Optional[int]:
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise IsoBenchDataError(f"{where}: {name} {value!r} is not an integer") from None


def _ints(value, where: str) -> Optional[List[int]]:
    if value is None or value == "":
        return None
    parts = [part for part in re.split(r"[,\s\[\]]+", value) if part] if isinstance(value, str) else value
    return [_int(part, where, "snippet step index") for part in parts]


def distance_class(image_step_idx: Optional[int], snippet_step_idxs: Optional[Sequence[int]]) -> Optional[str]:
    """close iff |j - i| <= 2 with j the nearest snippet step; None without positions."""
    if image_step_idx is None or not snippet_step_idxs:
        return None
    return "close" if min(abs(j - image_step_idx) for j in snippet_step_idxs) <= CLOSE_MAX_DISTANCE else "distant"


def image_of(value, where: str, base: Path) -> Dict:
    """The example's image as ``{"bytes", "path"}``: embedded (bytes, ``{"bytes"}``, a data URI, a PIL image), or a file
    (a path absolute or relative to ``base``), its bytes not read."""
    if isinstance(value, (list, tuple)):
        if len(value) != 1:
            raise IsoBenchDataError(f"{where}: {len(value)} images, ISO-Bench has exactly one per example")
        value = value[0]
    if isinstance(value, dict):
        value = value.get("bytes") or value.get("path")
    if hasattr(value, "save"):
        buffer = io.BytesIO()
        value.save(buffer, format="PNG")
        value = buffer.getvalue()
    if isinstance(value, str) and value.strip().startswith("data:image"):
        value = base64.b64decode(value.split(",", 1)[1])
    if isinstance(value, (bytes, bytearray)) and value:
        return {"bytes": bytes(value), "path": None}
    if not isinstance(value, str) or not value.strip():
        raise IsoBenchDataError(f"{where}: no image (value {value!r:.80})")
    path = base / value.strip()
    if not path.is_file():
        raise IsoBenchDataError(f"{where}: image file {path} not found")
    if path.stat().st_size == 0:
        raise IsoBenchDataError(f"{where}: image file {path} is empty (a truncated copy?)")
    return {"bytes": None, "path": str(path.resolve())}


def example(row: Dict, index: int, where: str, base: Path) -> Dict:
    """The task row of one release row (its fields named as the module's note says)."""
    where += f" (id {row['id']!r})" if row.get("id") not in (None, "") else ""
    missing = [field for field in REQUIRED_FIELDS if row.get(field) is None]
    if missing:
        raise IsoBenchDataError(f"{where}: no value for {missing} (fields found: {sorted(row)})")
    goal = str(row["goal"]).strip()
    if not goal:
        raise IsoBenchDataError(f"{where}: empty goal")
    relation = _relation(row["relation"], where)
    anchor = _anchor(row.get("anchor"), relation, where)
    label = _label(row["label"], where)
    image_step_idx, snippet_step_idxs = _int(row.get("image_step_idx"), where, "image step index"), _ints(row.get("snippet_step_idxs"), where)
    question = re.sub(r"^\s*QUESTION:\s*", "", str(row.get("question") or "").strip())
    source = str(row.get("source") or "").strip()
    return {
        "id": str(row["id"]) if row.get("id") not in (None, "") else str(index),
        "goal": goal,
        "snippet_steps": _steps(row["snippet"], where),
        "relation": relation,
        "anchor": anchor,
        "question": question or f"Does this image show a step that must come {relation} the {anchor} step in the plan?",
        "label": label,
        "answer": label,
        "choices": ["yes", "no"],
        "source": _SOURCES.get(_key(source), source.lower()) or None,
        "plan_id": None if row.get("plan_id") is None else str(row["plan_id"]),
        "image_step_idx": image_step_idx,
        "snippet_step_idxs": snippet_step_idxs,
        "distance_class": distance_class(image_step_idx, snippet_step_idxs),
        "image": image_of(row["image"], where, base),
    }


def examples(rows: Sequence[Tuple[str, Dict, Path]]) -> List[Dict]:
    """The task rows of ``(where, row, base folder of its image paths)``; ids that repeat are replaced by row numbers
    (and said so)."""
    converted = [example(row, index, where, base) for index, (where, row, base) in enumerate(rows)]
    if len({row["id"] for row in converted}) != len(converted):
        print(f"ISO-Bench: {len(converted) - len({row['id'] for row in converted})} id(s) repeat; the rows are numbered instead", file=sys.stderr)
        for index, row in enumerate(converted):
            row["id"] = str(index)
    return converted


def release_rows(folder: Path) -> List[Tuple[str, Dict, Path]]:
    """``(where, row, its file's folder)`` of every row of the folder's ``*.json`` (a list of rows), ``*.jsonl`` and
    ``*.parquet`` files."""
    rows = []
    for path in sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".jsonl", ".parquet") and not p.name.startswith(".")):
        if path.suffix == ".parquet":
            import pyarrow.parquet

            rows += [(f"{path} row {i}", row, path.parent) for i, row in enumerate(pyarrow.parquet.read_table(path).to_pylist())]
        elif path.suffix == ".jsonl":
            rows += [(f"{path}:{i}", json.loads(line), path.parent) for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.strip()]
        else:
            rows += [(f"{path} row {i}", row, path.parent) for i, row in enumerate(json.loads(path.read_text(encoding="utf-8")))]
    if not rows:
        raise IsoBenchDataError(f"{folder}: no rows in *.json, *.jsonl or *.parquet files")
    return rows


def write(rows: List[Dict], output: Path) -> int:
    """Write the task rows as the dataset's one parquet file, each image embedded (its file's name kept)."""
    import datasets

    embedded = [{**row, "image": row["image"] if row["image"]["bytes"] else {"bytes": Path(row["image"]["path"]).read_bytes(), "path": Path(row["image"]["path"]).name}} for row in rows]
    (Path(output) / "data").mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_list(embedded).cast_column("image", datasets.Image()).to_parquet(str(Path(output) / "data" / "test-00000-of-00001.parquet"))
    return len(rows)


def convert(folder: Path, output: Path) -> int:
    """Write the task rows of the release in ``folder`` under ``output``."""
    return write(examples(release_rows(Path(folder))), output)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.rsplit("\n\n", 1)[-1])
    print(convert(Path(sys.argv[1]), Path(sys.argv[2])), "examples")
