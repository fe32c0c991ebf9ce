"""Convert the ISO-Bench release (``StonyBrookNLP/ISO-Bench``, paper App. B-C) into the rows the ISO-Bench tasks
evaluate: one row per example with its image embedded, written as ``data/test-00000-of-00001.parquet``.

The release's files (``*.json`` lists of rows, ``*.jsonl``, ``*.parquet``) hold an example's fields under the names the
paper describes them by: ``image`` (embedded, or a path relative to the data file), ``goal``, ``snippet`` (the plan
snippet: a list of steps or one step per line), ``relation`` (before/after), ``label`` (DEP/NONDEP, yes/no, POS/NEG or
a boolean) and, where present, ``id``, ``anchor`` (first/last), ``question``, ``source`` (YouCook2/CrossTask),
``plan_id``, ``image_step_idx`` and ``snippet_step_idxs``. The paper does not publish the column names: a release
that names a field otherwise fails, naming the row and the fields found. A column holding a caption of the image step
is never read: the model must see the step in the image only.

It then prints the examples read per relation and label (the paper's Table 2) and per source and relation (App. C
gives CrossTask's; YouCook2 has the rest) next to the paper's counts, and exits with status 1 naming each count that
differs (the counts per source only where the rows name their source).

    python isobench_to_hf.py RELEASE_FOLDER OUTPUT_FOLDER
"""

import base64
import io
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

REQUIRED_FIELDS = ("image", "goal", "snippet", "relation", "label")
# the paper's names of the two classes, DEP/NONDEP (Table 2), the answers yes/no, POS/NEG (App. B's annotation), and a
# boolean written as text
_LABELS = {"dep": "yes", "yes": "yes", "pos": "yes", "true": "yes", "1": "yes", "nondep": "no", "no": "no", "neg": "no", "false": "no", "0": "no"}
_ANCHOR_OF = {"before": "first", "after": "last"}
# Table 2 (relation and label) and App. C (CrossTask's 139 examples per relation; YouCook2 the other 625)
PAPER_COUNTS = {"before, DEP": 187, "before, NONDEP": 185, "after, DEP": 196, "after, NONDEP": 196}
PAPER_COUNTS.update({"crosstask, before": 72, "crosstask, after": 67, "youcook2, before": 300, "youcook2, after": 325})


class IsoBenchDataError(ValueError):
    """ISO-Bench data that cannot be read as the release describes."""


def _key(value) -> str:
    return re.sub(r"[^a-z0-9]", "", str(value).lower())


def _label(value, where: str) -> str:
    if isinstance(value, bool) or (isinstance(value, (int, float)) and value in (0, 1)):
        return "yes" if value else "no"
    if _key(value) in _LABELS:
        return _LABELS[_key(value)]
    raise IsoBenchDataError(f"{where}: label {value!r} is not one of DEP/NONDEP, yes/no, POS/NEG, a boolean or 1/0")


def _relation(value, where: str) -> str:
    words = set(re.findall(r"\b(before|after)\b", str(value).strip().lower()))
    if len(words) != 1:
        raise IsoBenchDataError(f"{where}: relation {value!r} is neither 'before' nor 'after'")
    return words.pop()


def _anchor(value, relation: str, where: str) -> str:
    if value is None or str(value).strip() == "":
        return _ANCHOR_OF[relation]
    words = set(re.findall(r"\b(first|last)\b", str(value).strip().lower()))
    if len(words) != 1:
        raise IsoBenchDataError(f"{where}: anchor {value!r} is neither 'first' nor 'last'")
    return words.pop()


def _steps(value, where: str) -> list[str]:
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


def _int(value, where: str, name: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise IsoBenchDataError(f"{where}: {name} {value!r} is not an integer") from None


def _ints(value, where: str) -> list[int | None] | None:
    if value is None or value == "":
        return None
    parts = [part for part in re.split(r"[,\s\[\]]+", value) if part] if isinstance(value, str) else value
    return [_int(part, where, "snippet step index") for part in parts]


def image_of(value, where: str, base: Path) -> dict:
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


def example(row: dict, index: int, where: str, base: Path) -> dict:
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
        "source": _key(row["source"]) if row.get("source") not in (None, "") else None,
        "plan_id": None if row.get("plan_id") is None else str(row["plan_id"]),
        "image_step_idx": image_step_idx,
        "snippet_step_idxs": snippet_step_idxs,
        "image": image_of(row["image"], where, base),
    }


def examples(rows: Sequence[tuple[str, dict, Path]]) -> list[dict]:
    """The task rows of ``(where, row, base folder of its image paths)``; ids that repeat are replaced by row numbers
    (and said so)."""
    converted = [example(row, index, where, base) for index, (where, row, base) in enumerate(rows)]
    if len({row["id"] for row in converted}) != len(converted):
        print(f"ISO-Bench: {len(converted) - len({row['id'] for row in converted})} id(s) repeat; the rows are numbered instead", file=sys.stderr)
        for index, row in enumerate(converted):
            row["id"] = str(index)
    return converted


def release_rows(folder: Path) -> list[tuple[str, dict, Path]]:
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


def write(rows: list[dict], output: Path) -> int:
    """Write the task rows as the dataset's one parquet file, each image embedded (its file's name kept)."""
    import datasets

    embedded = [{**row, "image": row["image"] if row["image"]["bytes"] else {"bytes": Path(row["image"]["path"]).read_bytes(), "path": Path(row["image"]["path"]).name}} for row in rows]
    (Path(output) / "data").mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_list(embedded).cast_column("image", datasets.Image()).to_parquet(str(Path(output) / "data" / "test-00000-of-00001.parquet"))
    return len(rows)


def convert(folder: Path, output: Path) -> list[dict]:
    """Write the task rows of the release in ``folder`` under ``output``; the rows."""
    rows = examples(release_rows(Path(folder)))
    write(rows, output)
    return rows


def release_counts(rows: list[dict]) -> dict[str, int]:
    """The examples per relation and label, and, where the rows name their source, per source and relation."""
    sources = any(row["source"] for row in rows)
    counts = Counter(f"{row['relation']}, {'DEP' if row['label'] == 'yes' else 'NONDEP'}" for row in rows)
    counts.update(f"{row['source']}, {row['relation']}" for row in rows if sources)
    return {key: counts[key] for key in PAPER_COUNTS if sources or key.startswith(("before", "after"))}


def counts_table(counts: dict[str, int]) -> str:
    """The counts read next to the paper's, a Markdown table."""
    return "\n".join(["ISO-Bench examples read:", "| examples | read | paper |", "|---|--:|--:|", *(f"| {key} | {n} | {PAPER_COUNTS[key]} |" for key, n in counts.items())])


def differences(counts: dict[str, int]) -> list[str]:
    """Each count that is not the paper's."""
    return [f"{key}: {n} read, the paper has {PAPER_COUNTS[key]}" for key, n in counts.items() if n != PAPER_COUNTS[key]]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.rsplit("\n\n", 1)[-1])
    counts = release_counts(convert(Path(sys.argv[1]), Path(sys.argv[2])))
    print(counts_table(counts))
    if differences(counts):
        raise SystemExit("not the release the paper evaluated: " + "; ".join(differences(counts)))
