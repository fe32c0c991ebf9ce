"""A small synthetic TempVS in the released layout (docs/protocol/tempvs.md §2-§5), for tests and the demo.

``write_fixture(root)`` writes, for all four sources: tiny generated frames under each source's raw
image folder, the combined strips (``combined/``, numeric labels) and shuffled strips
(``combined_shuffled/``, letter labels) with the §5 geometry, the 7 annotation files per source
as pandas pickles (``benchmark_pkl/``) and JSON twins (``benchmark/``), and the blind predictions of
the three text-only LLMs (``predictions/blind/``). Stored image paths start with ``/data/`` as the
generator wrote them, so loading exercises the re-rooting.

Instruction strings follow the generator's rules (§4.6) over the official prompt templates that
ship with this package (``templates/``, see its PROVENANCE.md; ``templates_dir`` overrides). Gold letters cycle over every option (MT1 A/B per pair, MT2/MT3 A-E by row
index), so a random model lands near chance.

Built in to exercise the filters: with ``invalid_events`` a PororoSV event "behave funny" (the
substring quirk: it contains "have fun") and a VIST event "had fun" at event index 3 of sequence 1 /
2; the blind predictions make 0-3 of the LLMs right per question (drop at >= 2).
``missing_grounding`` removes FlintstonesSV sequence 0's grounding rows for event 0 (quirk §7.4.1).

Released-style model outputs for such a fixture: fixture_predictions.py.
"""

import itertools
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import mode_prompt
from temporal_bench.lmms_eval_tasks.tempvs.extraction import answer_letters
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, SOURCES, task_kind
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import BLIND_MODELS, file_of
from temporal_bench.synthetic_data import mark_synthetic
from temporal_bench.tempvs import fixture_strings as strings
from temporal_bench.tempvs.breakdowns import PAIRED_TYPES, TRIPLE_TYPES

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
FRAME_SIZE = (64, 64)
PAIRS = ((0, 1), (1, 3), (1, 4), (0, 4))  # distances 1, 2, 3, 4
TRIPLES = ((0, 1, 2), (1, 3, 4))
MT1_OPTIONS = ("A. True; B. False.", "A. True; B. False.", "A. False; B. True.", "A. False; B. True.")
VWP_LENGTHS = (5, 6, 7, 5, 8)
VWP_SUBSETS = ("alpha4a", "beta0", "beta1", "beta2a", "beta2b", "beta2c")
CHARACTERS = {
    "flintstones": ("Fred", "Wilma", "Barney", "Betty", "Dino"),
    "pororo": ("Pororo", "Eddy", "Loopy", "Crong", "Harry"),
    "vist": ("The family", "My friend", "Pororo", "The dog", "Our guide"),  # "pororo" fills VIST's (unused) character_info
    "vwp": ("John", "Ken", "The sheriff", "Mary", "The stranger"),
}
ACTIONS = ("opens the door", "walks to the car", "picks up a ball", "sits on the bench", "waves goodbye", "climbs the hill", "reads a letter", "cooks dinner", "jumps into the lake")
# an event as only this generator writes one (a character of its lists, one of its nine actions), in every question of
# its data: a run that read it is told by its questions, whatever marker file is deleted (tempvs/record_reader.py)
GENERATED_EVENT = re.compile(rf"\b(?:{'|'.join(name for names in CHARACTERS.values() for name in names)}) (?:{'|'.join(ACTIONS)})\b", re.IGNORECASE)
INVALID_EVENTS = {("pororo", 1, 3): "Pororo and Eddy behave funny", ("vist", 2, 3): "We had fun at the beach"}


def templates_path(templates_dir: Path | None = None) -> Path:
    folder = Path(templates_dir) if templates_dir else TEMPLATES_DIR
    if not (folder / "prompt_templates" / "task_instructions.json").is_file():
        raise FileNotFoundError(f"no TempVS prompt templates in {folder} (expected prompt_templates/ and characters_*.json)")
    return folder


def _load(folder: Path, name: str):
    return json.loads((folder / name).read_text(encoding="utf-8"))


class Templates:
    def __init__(self, folder: Path):
        t = folder / "prompt_templates"
        self.instructions = _load(t, "task_instructions.json")
        self.requirements = _load(t, "requirement_templates.json")
        self.formats = _load(t, "answer_format_templates.json")
        self.characters = {s: _load(folder, f"characters_{s}.json") for s in SOURCES}

    def joined(self, g: int, *lists: list[str]) -> str:
        combos = list(itertools.product(*lists))
        return " ".join(combos[g % len(combos)])

    def mt1(self, g):
        key = "paired_event_discrimination"
        return self.joined(g, self.instructions[key], self.requirements[key], self.formats[key])

    def grounding(self, g):
        return self.joined(g, self.instructions["single_grounding"], self.requirements["paired_event_discrimination"], self.formats["single_grounding"])

    def ordering(self, g, name):
        return self.joined(g, self.instructions[name], self.requirements[name])

    def character_info(self, source: str, texts: Sequence[str], joined: bool = False) -> str:
        """§4.1: dictionary keys found (case-insensitive substring) in the texts; sorted here for determinism."""
        haystack = ("".join(texts) if joined else " ".join(texts)).lower()
        return " ".join(self.characters[source][key] for key in sorted(self.characters[source]) if key.lower() in haystack)


# ---- sequences and images -----------------------------------------------------------------------


def sequence_record(source: str, q: int, invalid_events: bool, vwp_lengths: Sequence[int] = VWP_LENGTHS) -> dict:
    """Sequence ``q`` of a source: its events, captions and raw image paths (VWP lengths cycle)."""
    length = vwp_lengths[q % len(vwp_lengths)] if source == "vwp" else 5
    chars = CHARACTERS[source]
    events, texts = [], []
    for i in range(length):
        event = f"{chars[(q + i) % len(chars)]} {ACTIONS[(q + i) % len(ACTIONS)]}"
        if invalid_events and (source, q, i) in INVALID_EVENTS:
            event = INVALID_EVENTS[source, q, i]
        events.append(event)
        texts.append(f"In scene {i + 1}, {event[0].lower() + event[1:] if not event.startswith(chars) else event}.")
    if source == "flintstones":
        seq_id, raw = f"test_{q:04d}", [f"flintstones/video_frames_sampled_jpg/s_0{q}_e_01_shot_0{q}{i}0{i}_0{q}{i}9{i}.jpg" for i in range(length)]
    elif source == "pororo":
        seq_id, raw = f"full_{q}", [f"pororo/original_color/PororoSV/full/images/Pororo_ep{q}_{i}.png" for i in range(length)]
    elif source == "vist":
        seq_id, raw = f"72157{q:04d}", [f"vist/images/test/{q + 1}{i:03d}.jpg" for i in range(length)]
    else:
        subset = VWP_SUBSETS[q % len(VWP_SUBSETS)]
        seq_id, raw = f"tt00{q}_scene{q}", [f"vwp/{subset}/tt00{q}_scene{q}/shot_{q}{i}_img_0.jpg" for i in range(length)]
    story = f"4500{q}" if source == "vist" else seq_id  # VIST question ids use the story id
    return {"source": source, "q": q, "id": seq_id, "story": story, "events": events, "texts": texts, "raw": raw}


def _combined_name(source: str, raw: list[str]) -> str:
    """§2.3: combined file names from the component image names, in their order in the strip."""
    names = [Path(p).name for p in raw]
    if source == "vwp":
        parts = Path(raw[0]).parts
        return f"{parts[-3]}-{parts[-2]}-shot_" + "_".join(n.split("_")[1] for n in names) + ".jpg"
    if source == "pororo":
        return "images_" + "_".join(Path(n).stem for n in names) + ".png"
    if source == "flintstones":
        episode = names[0].split("_shot_")[0]
        return f"{episode}_shot_" + "_".join(n.split("_shot_")[1].split("_")[0] for n in names) + ".jpg"
    return "images_" + "_".join(Path(n).stem for n in names) + ".jpg"


def _frame(seed: str, index: int, size: tuple[int, int]):
    from PIL import Image, ImageDraw

    rng = random.Random(seed)
    image = Image.new("RGB", size, tuple(rng.randrange(40, 216) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    draw.rectangle([4 + 6 * index, 40, 10 + 6 * index, 58], fill=(255, 255, 255))
    return image


def combined_strip(source: str, images: list, labels: list[str]):
    """§5: one row, white canvas, 10 px margins and separators, height max h + 50, images
    top-aligned at y = 10 + (30 for vwp, else 15), labels centred at y = 5 (Pillow's default font);
    VIST images resized to 443 x 240 first."""
    from PIL import Image, ImageDraw, ImageFont

    if source == "vist":
        images = [image.resize((443, 240), Image.Resampling.LANCZOS) for image in images]
    padding, y_padding = 10, 30 if source == "vwp" else 15
    width = sum(image.width for image in images) + padding * (len(images) + 1)
    height = max(image.height for image in images) + 2 * padding + 30
    canvas = Image.new("RGB", (width, height), (255, 255, 255))
    draw, font = ImageDraw.Draw(canvas), ImageFont.load_default()
    x = padding
    for image, label in zip(images, labels):
        canvas.paste(image, (x, padding + y_padding))
        text_width = draw.textlength(label, font=font)
        draw.text((x + (image.width - text_width) // 2, 5), label, fill=(0, 0, 0), font=font)
        x += image.width + padding
    return canvas


def shuffled_order(length: int, seed: int) -> list[int]:
    """A frame permutation other than the identity (the order of the MT3 strip)."""
    order, rng = list(range(length)), random.Random(seed)
    while order == sorted(order):
        rng.shuffle(order)
    return order


def write_images(root: Path, sequence: dict, shuffled: list[int], frame_size: tuple[int, int] = FRAME_SIZE) -> dict[str, object]:
    """The raw frames, the ordered strip and the shuffled strip; returns their stored (/data/) paths."""
    frames = [_frame(f"{sequence['source']}/{sequence['q']}/{i}", i, frame_size) for i in range(len(sequence["raw"]))]
    for path, frame in zip(sequence["raw"], frames):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        frame.save(root / path)
    source = sequence["source"]
    ordered = f"{source}/combined/{_combined_name(source, sequence['raw'])}"
    shuffled_raw = [sequence["raw"][i] for i in shuffled]
    mixed = f"{source}/combined_shuffled/{_combined_name(source, shuffled_raw)}"
    for path, images, labels in ((ordered, frames, [f"Image {i + 1}" for i in range(len(frames))]), (mixed, [frames[i] for i in shuffled], [f"Image {chr(97 + i)}" for i in range(len(frames))])):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        combined_strip(source, images, labels).save(root / path)
    stored = lambda p: f"/data/{p}"  # noqa: E731  (§2.4: the generator's absolute /data/ paths)
    return {"raw": [stored(p) for p in sequence["raw"]], "combined": stored(ordered), "shuffled_raw": [stored(p) for p in shuffled_raw], "combined_shuffled": stored(mixed)}


# ---- statements (§4.6) --------------------------------------------------------------------------


def _names(source):
    return tuple(c for c in CHARACTERS[source] if not c.startswith(("The ", "My ", "Our ")))


def _clause(event: str, source: str, first: bool) -> str:
    event = event.rstrip(".,;!?")
    if first:
        return event.capitalize()
    return event if event.startswith(_names(source)) else event[0].lower() + event[1:]


def statement(kind: str, order: Sequence[int], events: list[str], source: str) -> str:
    a, b = (_clause(events[order[0]], source, True), _clause(events[order[1]], source, False))
    if kind == "after":  # "Ej after ei." for the true order (i, j): the later event first
        return f"{_clause(events[order[1]], source, True)} after {_clause(events[order[0]], source, False)}."
    if kind == "before":
        return f"{a} before {b}."
    if kind == "then":
        return f"{a}. Then, {b}."
    if kind == "earlier":
        return f"{_clause(events[order[1]], source, True)}. Earlier, {_clause(events[order[0]], source, False)}."
    if kind == "implictpair":
        return f"{a}. {b[0].upper() + b[1:]}."
    c = _clause(events[order[2]], source, False)
    if kind == "beforeafter":
        return f"{a} before {b} and after that, {c}."
    if kind == "laterfinally":
        return f"{a}. Later, {b}. Thereafter, {c}."
    if kind == "firstsecondthird":
        return f"First, {a[0].lower() + a[1:] if not a.startswith(_names(source)) else a}. Second, {b}. Third, {c}."
    return f"{a}. {b[0].upper() + b[1:]}. {c[0].upper() + c[1:]}."


# ---- rows ---------------------------------------------------------------------------------------


def _common(sequence, g, task_name, character_info):
    return {"data_source": sequence["source"], "img_seq_id": sequence["id"], "question_id": f"{sequence['story']}_q{g}", "task_name": task_name, "input_image_type": "combined", "character_info": character_info}


def mt1_rows(sequences, paths, t: Templates, triple: bool) -> list[dict]:
    rows: list[dict] = []
    k = 0
    groups: tuple[tuple[int, ...], ...] = TRIPLES if triple else PAIRS
    for sequence, images in zip(sequences, paths):
        events, texts, source = sequence["events"], sequence["texts"], sequence["source"]
        for group in groups:
            kind = TRIPLE_TYPES[k % 4] if triple else PAIRED_TYPES[k % 5]
            for polarity in ("gt", "nc"):
                g = len(rows)
                if polarity == "gt":
                    order = group
                elif triple:
                    i, j, m = group
                    order = random.Random(g).choice([(j, i, m), (j, m, i), (i, m, j), (m, i, j), (m, j, i)])
                else:
                    order = group[::-1]
                option_text = MT1_OPTIONS[g % 4]
                true_letter = "A" if option_text.startswith("A. True") else "B"
                row = _common(sequence, g, "triple_event_discrimination" if triple else "paired_event_discrimination", t.character_info(source, [events[e] for e in group]))
                names = ("pre", "mid", "post") if triple else ("pre", "post")
                for name, e in zip(names, group):
                    row.update({f"event_{name}": events[e], f"text_{name}": texts[e], f"img_{name}": images["raw"][e]})
                row.update({("event_triple_tuple" if triple else "event_pair_tuple"): str(tuple(group)), "img_path_list": images["raw"], "combined_img_path": images["combined"], "statement_type": f"{kind}_{polarity}"})
                row.update({"statement_text": statement(kind, order, events, source), "task_instruction": t.mt1(g), "task_instruction_cot": strings.COT_MT1[g % 2], "option_text": option_text})
                row.update({"gt_option": true_letter if polarity == "gt" else "AB".replace(true_letter, ""), "blind_instruction": strings.BLIND_MT1[g % 3]})
                if not triple:
                    row["event_distance"] = group[1] - group[0]
                rows.append(row)
            k += 1
    return rows


def grounding_rows(sequences, paths, t: Templates, which: str, drop: Sequence[tuple[int, int]]) -> list[dict]:
    rows: list[dict] = []
    for sequence, images in zip(sequences, paths):
        groups = {"paired": PAIRS, "triple": TRIPLES}.get(which)  # the events MT1's pairs or triples name, else all
        indices = sorted({e for group in groups for e in group}) if groups else range(len(sequence["events"]))
        for e in indices:
            if (sequence["q"], e) in drop:
                continue
            g = len(rows)
            row = _common(sequence, g, f"single_grounding_{which}", t.character_info(sequence["source"], sequence["events"], joined=True))
            row.update({"event_to_test": sequence["events"][e], "text_to_test": sequence["texts"][e], "img_to_test": images["raw"][e], "img_path_list": images["raw"], "combined_img_path": images["combined"]})
            row.update({"task_instruction": t.grounding(g), "gt_option": f"image {e + 1}"})
            rows.append(row)
    return rows


def _options(rng: random.Random, gold: list[str], g: int) -> tuple[str, str]:
    """4 distinct wrong orders plus the gold one at position g mod 5 (§4.6)."""
    distractors: list[list[str]] = []
    while len(distractors) < 4:
        candidate = list(gold)
        rng.shuffle(candidate)
        if candidate != gold and candidate not in distractors:
            distractors.append(candidate)
    ordered = distractors[:]
    ordered.insert(g % 5, gold)
    text = ";\n".join(f"{letter}. " + " -> ".join(option) for letter, option in zip("ABCDE", ordered))
    return text, "ABCDE"[g % 5]


def ordering_rows(sequences, paths, shuffles, t: Templates, images_task: bool) -> list[dict]:
    rows = []
    for g, (sequence, images, shuffled) in enumerate(zip(sequences, paths, shuffles)):
        events, texts, source = sequence["events"], sequence["texts"], sequence["source"]
        label = "Image" if images_task else "Sentence"
        gold = [f"{label} {chr(97 + shuffled.index(position))}" for position in range(len(events))]
        options, letter = _options(random.Random(g), gold, g)
        name = "ordering_images" if images_task else "ordering_texts"
        row = _common(sequence, g, name, t.character_info(source, texts))
        row.update({"img_path_list_gt": images["raw"], "combined_img_path_gt": images["combined"], "events_gt": " ".join(events), "texts_gt": " ".join(texts), "gt_answer": gold, "gt_answer_text": gold, "options": options})
        row.update({"gt_option": letter, "task_instruction": t.ordering(g, name), "answer_format_opt": t.formats[f"{name}_opt"][g % 3]})
        if images_task:
            row.update({"img_path_list_shuffled": images["shuffled_raw"], "combined_img_path_shuffled": images["combined_shuffled"], "task_instruction_cot_opt": strings.COT_MT3[g % 3]})
        else:
            row.update({"events_shuffled": [events[i] for i in shuffled], "texts_shuffled": [texts[i] for i in shuffled], "task_instruction_cot_opt": strings.COT_MT2[g % 3], "blind_instruction_opt": strings.BLIND_MT2[g % 3]})
        rows.append(row)
    return rows


# ---- blind predictions --------------------------------------------------------------------------


def blind_outcomes(source: str, task_id: str, question_id: str) -> tuple[bool, bool, bool]:
    """Which of the 3 text-only LLMs answer a question correctly: 0, 1, 2 or 3 of them, evenly."""
    rng = random.Random(f"{source}|{task_id}|{question_id}")
    right = set(rng.sample(range(3), rng.randrange(4)))
    return 0 in right, 1 in right, 2 in right


def blind_pred(row: dict, task_id: str, model_index: int, correct: bool) -> str:
    letters = answer_letters(task_kind(task_id))
    gold = row["gt_option"][-1]
    letter = gold if correct else letters[(letters.index(gold) + 1) % len(letters)]
    if model_index == 0:  # Llama-3.1-8B base: the pipeline returns the prompt and the continuation
        return mode_prompt(row, task_id, "blind") + f"Option {letter}\n\nThe statement is: something else."
    if model_index == 1:
        return "I cannot tell." if not correct and row["question_id"].endswith("1") else f"Option {letter}"
    return f"Option {letter}."


def write_table(rows: list[dict], pkl: Path | None, json_path: Path | None, extra: list[str] | None = None) -> None:
    import pandas

    if pkl is not None:
        pkl.parent.mkdir(parents=True, exist_ok=True)
        frame = pandas.DataFrame(rows)
        if extra is not None:
            frame["preds"] = extra
        frame.to_pickle(pkl)
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(rows, ensure_ascii=False, indent=0), encoding="utf-8")


def write_fixture(root: Path, n_sequences: int = 5, templates_dir: Path | None = None, invalid_events: bool = True, missing_grounding: bool = False, formats: Sequence[str] = ("pkl", "json")) -> Path:
    """Write the fixture under ``root`` (the folder to point ``TEMPVS_DATA_DIR`` at) and return it."""
    root = Path(root)
    t = Templates(templates_path(templates_dir))
    for source in SOURCES:
        sequences = [sequence_record(source, q, invalid_events) for q in range(n_sequences)]
        shuffles = [shuffled_order(len(sequence["events"]), seed=g) for g, sequence in enumerate(sequences)]
        paths = [write_images(root, sequence, shuffled) for sequence, shuffled in zip(sequences, shuffles)]
        drop = [(0, 0)] if missing_grounding and source == "flintstones" else []
        files = {
            "paired_event_discrimination": mt1_rows(sequences, paths, t, triple=False),
            "triple_event_discrimination": mt1_rows(sequences, paths, t, triple=True),
            "ordering_texts": ordering_rows(sequences, paths, shuffles, t, images_task=False),
            "ordering_images": ordering_rows(sequences, paths, shuffles, t, images_task=True),
            "single_grounding_paired": grounding_rows(sequences, paths, t, "paired", drop),
            "single_grounding_triple": grounding_rows(sequences, paths, t, "triple", []),
            "single_grounding_all": grounding_rows(sequences, paths, t, "all", drop),
        }
        for name, rows in files.items():
            write_table(rows, root / "benchmark_pkl" / f"{source}_{name}_test.pkl" if "pkl" in formats else None, root / "benchmark" / f"{source}_{name}_test.json" if "json" in formats else None)
        for task_id in (spec.task_id for spec in MAIN_TESTS.values() if spec.blind_filtered):
            rows = files[file_of(task_id)]
            for index, (model, suffix, _) in enumerate(BLIND_MODELS):
                preds = [blind_pred(row, task_id, index, blind_outcomes(source, task_id, row["question_id"])[index]) for row in rows]
                write_table(rows, root / "predictions" / "blind" / model / f"{source}_{task_id}_preds_{suffix}.pkl", None, preds)
    mark_synthetic(root, "TempVS")
    return root
