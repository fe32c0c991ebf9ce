"""A small synthetic ISO-Bench in two plausible release layouts, for the demo, tests and benchmarks.

``write_fixture(root, layout)`` writes ``n`` examples covering both relations, both labels and both
sources, with generated images (a coloured shape and the example id), step positions and an
``image_caption`` column (the image step's text, which the loader must never show):

* ``json``: ``isobench.json`` (a list of rows named as the converter reads them, lmms_eval_tasks/isobench/isobench_to_hf.py:
  ``snippet`` a list of steps, ``label`` DEP/NONDEP, ``source`` YouCook2/CrossTask, ``image`` a path, ``plan_id``
  the video) and ``images/<id>.jpg``;
* ``hf``: a Hugging Face ``DatasetDict`` with one ``test`` split saved with ``save_to_disk``: an
  ``Image`` column with the same JPEG bytes embedded, ``snippet`` newline-joined text, ``label`` 1/0, ``video_id``
  (this package's loader maps it to ``plan_id``; the converter reads a release's files only).

Both layouts load to the same normalised records. ``n=764`` reproduces the paper's Table 2 counts.
"""

import io
import json
import random
import re
from pathlib import Path

from temporal_bench.synthetic_data import mark_synthetic

LAYOUTS = ("json", "hf")
_COLOURS = ["#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#f1c40f"]
_GOALS = {
    "youcook2": ["croque monsieur", "pad thai", "caesar salad", "beef tacos", "miso soup", "banana bread"],
    "crosstask": ["jack up a car", "make a latte", "build a simple floating shelf", "change a tire", "make kimchi fried rice"],
}
_VERBS = ["slice", "add", "mix", "heat", "pour", "place", "remove", "tighten", "spread", "cover", "bake", "attach"]
_OBJECTS = ["the bread", "the cheese", "the sauce", "the oil", "the noodles", "the bolts", "the board", "the milk", "the onions", "the jack", "the eggs", "the wheel"]
_MANNERS = ["carefully", "until done"]
# a plan step as only this generator writes one ("<verb> <object> <manner>" of its closed vocabulary, 288 texts): a run
# that read its data is told by its questions, whatever marker file is deleted (isobench/record_reader.py)
GENERATED_STEP = re.compile(rf"^(?:{'|'.join(_VERBS)}) (?:{'|'.join(_OBJECTS)}) (?:{'|'.join(_MANNERS)})$", re.MULTILINE)
# (source, relation, label) -> rows in the paper's release (Table 2 and App. C; the joint cells of
# CrossTask are our split of its marginals 72/67 and 73/66).
PAPER_CELLS = {
    ("crosstask", "before", "yes"): 37,
    ("crosstask", "before", "no"): 35,
    ("crosstask", "after", "yes"): 36,
    ("crosstask", "after", "no"): 31,
    ("youcook2", "before", "yes"): 150,
    ("youcook2", "before", "no"): 150,
    ("youcook2", "after", "yes"): 160,
    ("youcook2", "after", "no"): 165,
}
_SOURCE_NAMES = {"youcook2": "YouCook2", "crosstask": "CrossTask"}


def _cells(n: int) -> list[tuple[str, str, str]]:
    if n == sum(PAPER_CELLS.values()):
        return [cell for cell, count in PAPER_CELLS.items() for _ in range(count)]
    order = list(PAPER_CELLS)
    return [order[i % len(order)] for i in range(n)]


def _image_bytes(example_id: str, index: int) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (96, 72), _COLOURS[index % len(_COLOURS)])
    draw = ImageDraw.Draw(image)
    box = (12 + index % 20, 10, 60 + index % 30, 50)
    (draw.ellipse if index % 2 else draw.rectangle)(box, fill="white", outline="black")
    draw.text((4, 56), example_id, fill="black")
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=85)
    return buffer.getvalue()


def examples(n: int = 16, seed: int = 0) -> list[dict]:
    """The synthetic examples, layout-independent (label ``yes``/``no``, source lower-case)."""
    rng = random.Random(seed)
    rows = []
    for index, (source, relation, label) in enumerate(_cells(n)):
        k = 2 + index % 3
        n_steps = k + 5
        plan = [f"{rng.choice(_VERBS)} {rng.choice(_OBJECTS)} {_MANNERS[s % 2]}" for s in range(n_steps)]
        distance = 1 + index % 3 if label == "yes" else 1 + index % 5
        if relation == "before":
            snippet_idxs = list(range(n_steps - k, n_steps))
            image_idx = n_steps - k - distance
        else:
            snippet_idxs = list(range(k))
            image_idx = k - 1 + distance
        example_id = f"iso-{index:04d}"
        rows.append(
            {
                "id": example_id,
                "goal": rng.choice(_GOALS[source]),
                "snippet_steps": [plan[i] for i in snippet_idxs],
                "relation": relation,
                "label": label,
                "source": source,
                "video_id": f"{source}-video-{index // 2:03d}",
                "image_step_idx": image_idx,
                "snippet_step_idxs": snippet_idxs,
                "image_caption": plan[image_idx],
                "image_bytes": _image_bytes(example_id, index),
            }
        )
    return rows


def _json_row(example: dict, with_positions: bool, with_source: bool) -> dict:
    row = {
        "id": example["id"],
        "goal": example["goal"],
        "snippet": example["snippet_steps"],
        "relation": example["relation"],
        "label": "DEP" if example["label"] == "yes" else "NONDEP",
        "image": f"images/{example['id']}.jpg",
        "plan_id": example["video_id"],
        "image_caption": example["image_caption"],
    }
    if with_source:
        row["source"] = _SOURCE_NAMES[example["source"]]
    if with_positions:
        row.update(image_step_idx=example["image_step_idx"], snippet_step_idxs=example["snippet_step_idxs"])
    return row


def _hf_row(example: dict, with_positions: bool, with_source: bool) -> dict:
    row = {
        "id": example["id"],
        "image": {"bytes": example["image_bytes"], "path": f"{example['id']}.jpg"},
        "goal": example["goal"],
        "snippet": "\n".join(example["snippet_steps"]),
        "relation": example["relation"],
        "label": 1 if example["label"] == "yes" else 0,
        "video_id": example["video_id"],
        "image_caption": example["image_caption"],
    }
    if with_source:
        row["source"] = example["source"]
    if with_positions:
        row.update(image_step_idx=example["image_step_idx"], snippet_step_idxs=example["snippet_step_idxs"])
    return row


def write_fixture(root: Path, layout: str = "json", n: int = 16, seed: int = 0, with_positions: bool = True, with_source: bool = True) -> Path:
    """Write ``n`` synthetic examples under ``root`` in ``layout`` (``json`` or ``hf``); returns ``root``."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown ISO-Bench fixture layout {layout!r}; choose one of {LAYOUTS}")
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    data = examples(n, seed)
    if layout == "json":
        (root / "images").mkdir(exist_ok=True)
        for example in data:
            (root / "images" / f"{example['id']}.jpg").write_bytes(example["image_bytes"])
        rows = [_json_row(example, with_positions, with_source) for example in data]
        (root / "isobench.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    else:
        import datasets

        rows = [_hf_row(example, with_positions, with_source) for example in data]
        dataset = datasets.Dataset.from_list(rows).cast_column("image", datasets.Image())
        datasets.DatasetDict({"test": dataset}).save_to_disk(str(root))
    mark_synthetic(root, "ISO-Bench")
    return root
