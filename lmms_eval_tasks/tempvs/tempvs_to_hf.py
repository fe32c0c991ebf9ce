"""Read the official TempVS release into the question rows the TempVS tasks evaluate, and write them as a
hub dataset.

The release (https://huggingface.co/datasets/yingjins/TempVS, laid out as the official repository's
README describes) holds per data source the seven annotation files ``benchmark_pkl/{source}_{name}_test.pkl``
(pickled DataFrames; ``benchmark/`` holds JSON twins), the image folders and the text-only LLMs'
outputs ``predictions/blind/``. One row here is one question of one official task id, after the
invalid-event filter, with everything its docs need: the prompt of each prompt mode (built as the
official inference script builds it), the images it can show (paths relative to the release folder),
the gold answer, the question ids of its grounding partners (found as the official evaluation joins
them) and how many of the three text-only LLMs answered it correctly (the blind filter's input).

The tasks read the rows from the hub dataset this script writes, or from a local copy of the release
(``TEMPVS_DATA_DIR``) through :func:`question_rows`.

    python tempvs_to_hf.py /data/TempVS TempVS-hf    # then: huggingface-cli upload ... TempVS-hf
"""

import ast
import json
import logging
import pickle
import re
import sys
import warnings
import zipfile
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.json_lines import json_lines_after
from temporal_bench.lmms_eval_tasks.tempvs.extraction import (
    answer_letters,
    is_correct,
    official_extract,
)
from temporal_bench.lmms_eval_tasks.tempvs.spec import (
    GROUNDING_TESTS,
    MAIN_TESTS,
    SOURCES,
    TASK_IDS,
    TEST_NAMES,
    TempVSDataError,
    doc_key,
    task_kind,
)

try:  # lmms-eval's logger prints at the CLI's verbosity
    from loguru import logger as eval_logger
except ImportError:  # pragma: no cover - the converter runs without lmms-eval too
    eval_logger = logging.getLogger(__name__)

# the text-only LLMs of the blind filter, their prediction-file suffixes and official parsers
BLIND_MODELS = (("Llama-3.1-8B", "full", "llama_blind"), ("Phi-3.5-mini-instruct", "full", "generic"), ("Qwen2.5-72B-Instruct", "8bit", "generic"))
# the invalid-event filter: searched case-insensitively as substrings of every event* column
INVALID_EVENT = re.compile("NO_EVENT|No_Event|no_event|NO_Event|good time|great time|wonderful time|have fun|had fun", re.IGNORECASE)
# (module, name) of every global a pickled DataFrame of lists, strings, numbers and NaN refers to (pandas 2-3, numpy 1-2)
FRAME_GLOBALS = frozenset(
    {
        ("pandas", "DataFrame"),
        ("pandas.core.frame", "DataFrame"),
        ("pandas", "Index"),
        ("pandas.core.indexes.base", "Index"),
        ("pandas.core.indexes.base", "_new_Index"),
        ("pandas", "RangeIndex"),
        ("pandas.core.indexes.range", "RangeIndex"),
        ("pandas.core.internals.managers", "BlockManager"),
        ("pandas._libs.internals", "_unpickle_block"),
        ("pandas", "StringDtype"),
        ("pandas.arrays", "ArrowStringArray"),
        ("pyarrow.lib", "_restore_array"),
        ("pyarrow.lib", "py_buffer"),
        ("pyarrow.lib", "type_for_alias"),
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy.core.numeric", "_frombuffer"),
        ("numpy._core.numeric", "_frombuffer"),
        ("builtins", "slice"),
        ("builtins", "bytearray"),
        ("__builtin__", "slice"),
        ("__builtin__", "bytearray"),
        ("_codecs", "encode"),  # protocol 2 writes bytes as encode(text, "latin1")
    }
)


def has_invalid_event(row: Dict) -> bool:
    """The invalid-event filter: any ``event*`` column, cast to text, holds a banned marker."""
    return any(INVALID_EVENT.search(str(value if value is not None else "nan")) for key, value in row.items() if key.startswith("event"))


# ---- cells and prompts, exactly as the official inference script concatenates them -------------

CHARACTER_SOURCES = ("flintstones", "pororo")  # character descriptions are shown for these only
PROMPT_MODES = ("standard", "cot", "blind", "images_only")
CHAR_PREFIX = "This is a description of the possible appearance of character(s) in the image(s): "
ANS = "\nThe answer is: "
IMGIDX = "The images I provide are labeled in order as Image a, Image b, Image c, Image d, and Image e, and so on if there are more photos."
# Table 19's "image only" column: the paper describes it (Appendix D.3), the official code has no prompt for it.
# The MT3 prompt without the story's text, and an instruction asking for the order the images themselves show.
IMAGES_ONLY_INSTRUCTION = (
    "The images show a story or event sequence. Use your visual reasoning to reorder the images into the order in which the events they show happen. Focus on the events, actions, and details in the images to reorder them logically."
)


# ---- cells --------------------------------------------------------------------------------------


def text(value) -> str:
    """A row's string cell; a missing value (None / NaN) reads as empty."""
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def _present(row: Dict, field: str):
    """A cell a prompt is built from: missing is an error, as in the official script (``str + NaN`` fails there)."""
    value = row.get(field)
    if value is None or (isinstance(value, float) and value != value):
        raise TempVSDataError(f"no value in field(s) [{field!r}], which the prompt needs")
    return value


def required(row: Dict, field: str) -> str:
    return str(_present(row, field))


def as_list(value) -> List:
    if value is None or (isinstance(value, float) and value != value):
        return []
    return list(ast.literal_eval(value)) if isinstance(value, str) else list(value)


# ---- prompts, exactly as the official inference script concatenates them ------------------------


def _character_prefix(row: Dict) -> str:
    return CHAR_PREFIX + text(row.get("character_info")) if row["data_source"] in CHARACTER_SOURCES else ""


def _lines(sentences: List[str]) -> str:
    return "\n".join(f"Sentence {chr(ord('a') + i)}: {s}" for i, s in enumerate(sentences))


def _shuffled_block(row: Dict, story: bool) -> str:
    if story:
        return "\nThe shuffled sentences are:\n" + _lines(as_list(_present(row, "texts_shuffled")))
    return "\nThe shuffled events are:\n" + _lines(as_list(_present(row, "events_shuffled")))


def _options_tail(row: Dict) -> str:
    return "\n" + required(row, "answer_format_opt") + "\n" + required(row, "options") + "." + ANS


def prompt(row: Dict, task_id: str, mode: str = "standard") -> str:
    """The prompt of ``row`` for an official task id in a prompt mode (standard, cot, blind: the text-only
    LLMs', images_only)."""
    story, cot = task_id.endswith("_story"), mode == "cot"
    if mode == "blind":
        if task_id.endswith("event_discrimination"):
            return "\nThe statement is: " + required(row, "statement_text") + "\n" + required(row, "blind_instruction") + "\nOptions are: " + required(row, "option_text") + ANS
        if task_id.startswith("ordering_texts"):
            return "\n" + required(row, "blind_instruction_opt") + _shuffled_block(row, story) + _options_tail(row)
        raise ValueError(f"TempVS {task_id} has no text-only (blind) prompt")
    if mode == "images_only":
        if not task_id.startswith("ordering_images"):
            raise ValueError(f"TempVS {task_id} has no images-only prompt (image ordering, MT3, has)")
        return "\n" + IMAGES_ONLY_INSTRUCTION + IMGIDX + _options_tail(row)
    if "grounding" in task_id:
        if cot:
            raise ValueError("TempVS grounding tests have no CoT variant")
        field = "text_to_test" if task_id == "single_grounding_all_story" else "event_to_test"
        return _character_prefix(row) + "\nThe event is: " + required(row, field) + "\n" + required(row, "task_instruction") + ANS
    if task_id.endswith("event_discrimination"):
        instruction = required(row, "task_instruction_cot" if cot else "task_instruction")
        return _character_prefix(row) + "\nThe statement is: " + required(row, "statement_text") + "\n" + instruction + "\nOptions are: " + required(row, "option_text") + ANS
    instruction = required(row, "task_instruction_cot_opt" if cot else "task_instruction")
    if task_id.startswith("ordering_texts"):
        return _character_prefix(row) + _shuffled_block(row, story) + "\n" + instruction + _options_tail(row)
    shown = "\nThe story is: " + required(row, "texts_gt") if story else "\nThe events are: " + required(row, "events_gt")
    return _character_prefix(row) + shown + "\n" + instruction + IMGIDX + _options_tail(row)


# ---- the release's files ------------------------------------------------------------------------


class RefusedPickleGlobal(pickle.UnpicklingError):
    """The pickle names a callable or class that no pickled DataFrame of the release holds."""


class _FrameUnpickler(pickle.Unpickler):
    """Unpickling calls whatever a file names: only the names a pickled DataFrame holds are resolved."""

    def find_class(self, module: str, name: str):
        if (module, name) not in FRAME_GLOBALS:
            raise RefusedPickleGlobal(f"it names {module}.{name}, which is not among the pandas/numpy classes a pickled DataFrame of the TempVS release holds; unpickling it could run arbitrary code (a tampered file?), so it was not loaded")
        return super().find_class(module, name)


def _clean(value):
    if isinstance(value, float) and value != value:
        return None
    return value.tolist() if hasattr(value, "tolist") and not isinstance(value, (str, bytes)) else value


def _json_rows(path: Path) -> List[Dict]:
    raw = path.read_text(encoding="utf-8")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        data = [row for _, row in json_lines_after(error, path, raw, TempVSDataError)]
    if isinstance(data, dict) and "data" in data and "columns" in data:  # pandas orient="split"
        index = data.get("index") or range(len(data["data"]))
        return [{**dict(zip(data["columns"], values)), "_index": i} for i, values in zip(index, data["data"])]
    if isinstance(data, dict):
        values = list(data.values())
        if values and all(isinstance(v, dict) for v in values):
            first = next(iter(values))
            if "data_source" in first or "question_id" in first:  # orient="index"
                return [{**row, "_index": key} for key, row in data.items()]
            labels = list(first)  # orient="columns": {column: {index: value}}
            return [{**{column: cells.get(label) for column, cells in data.items()}, "_index": label} for label in labels]
        raise TempVSDataError(f"{path}: unrecognised JSON layout")
    if not isinstance(data, list):
        raise TempVSDataError(f"{path}: unrecognised JSON layout (a {type(data).__name__}, not rows)")
    for i, row in enumerate(data):
        if not isinstance(row, dict):
            raise TempVSDataError(f"{path} row {i}: not an object of fields but {row!r:.80}")
    return [{**row, "_index": row.get("_index", i)} for i, row in enumerate(data)]


def read_table(path: Path) -> List[Dict]:
    """The rows of a pickled DataFrame (unpickled from pandas and numpy classes only) or of its JSON / JSON-lines twin."""
    if path.suffix != ".pkl":
        return [{key: _clean(value) for key, value in row.items()} for row in _json_rows(path)]
    import pandas

    try:
        with open(path, "rb") as handle, warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # numpy 2 resolving numpy 1's numpy.core names
            frame = _FrameUnpickler(handle).load()
    except RefusedPickleGlobal as error:
        raise TempVSDataError(f"{path}: refused to unpickle: {error}") from error
    except Exception as error:  # noqa: BLE001 - unpickling fails in many ways; each names the file
        raise TempVSDataError(f"{path}: cannot be unpickled ({type(error).__name__}: {error}); a truncated or corrupt file?") from error
    if not isinstance(frame, pandas.DataFrame):
        raise TempVSDataError(f"{path}: holds a {type(frame).__name__}, not a pandas DataFrame of rows")
    return [{**{key: _clean(value) for key, value in record.items()}, "_index": _clean(index)} for index, record in zip(frame.index, frame.to_dict(orient="records"))]


def read_rows(path: Path, source: str) -> List[Dict]:
    """The rows of an annotation file, or of a prediction file (the annotation rows plus ``preds``), each naming where it is."""
    rows = read_table(path)
    for i, row in enumerate(rows):
        for needed in ("question_id", "img_seq_id", "gt_option"):
            if row.get(needed) is None:
                raise TempVSDataError(f"{path} row {i}: missing field {needed!r}; found {sorted(row)}")
        row["_where"] = f"{path} row {i} (question_id {row['question_id']!r})"
        if row.get("data_source") is None:
            row["data_source"] = source
    return rows


def file_of(task_id: str) -> str:
    """The annotation file a task id reads: ordering ids drop ``_opt_event``/``_opt_story``; both all-events grounding tests read one."""
    if task_id.startswith("ordering_"):
        return task_id[:-10]
    return "single_grounding_all" if task_id == "single_grounding_all_story" else task_id


def find_root(folder: Path, fix: str = "") -> Path:
    """The folder holding ``benchmark_pkl/`` or ``benchmark/``: ``folder`` or its ``data/``."""
    for candidate in (folder, folder / "data"):
        if (candidate / "benchmark_pkl").is_dir() or (candidate / "benchmark").is_dir():
            return candidate
    found = sorted(p.name for p in folder.iterdir())[:20] if folder.is_dir() else []
    raise TempVSDataError(f"{folder}: no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/); found {found}{fix}")


def _first_file(candidates: Iterable[Path]) -> Optional[Path]:
    return next((path for path in candidates if path.is_file()), None)


class Release:
    """The files of a release folder; ``files`` lists every file read (for the data's fingerprint). ``read``
    replaces the reading of a task id's annotation rows (the released model outputs are scored on the rows of
    their prediction files)."""

    def __init__(self, root: Path, read: Optional[Callable[[Path, str, str], List[Dict]]] = None):
        self.root = root
        self.read = read or self.annotation_rows
        self.files: List[Path] = []

    def annotation_path(self, source: str, task_id: str) -> Path:
        stem = f"{source}_{file_of(task_id)}_test"
        folder = self.root / "benchmark"
        path = _first_file((self.root / "benchmark_pkl" / f"{stem}.pkl", folder / f"{stem}.json", folder / f"{stem}.pkl", folder / f"{stem}.jsonl"))
        if path is None:
            raise TempVSDataError(f"TempVS annotation file {stem}.pkl/.json is missing under {self.root}/benchmark_pkl or {self.root}/benchmark")
        return path

    def annotation_rows(self, root: Path, source: str, task_id: str) -> List[Dict]:
        return read_rows(self.annotation_path(source, task_id), source)

    def rows(self, source: str, task_id: str) -> List[Dict]:
        self.files.append(self.annotation_path(source, task_id))
        return self.read(self.root, source, task_id)

    def blind_correct(self, source: str, task_id: str, question_ids: Sequence[str]) -> Dict[str, int]:
        """question_id -> how many of the text-only LLMs answered it correctly (each with its own parser; a row
        with an invalid event counts as wrong). Each model's file must hold every question: one it lacked would
        silently count as that model's wrong answer."""
        counts = dict.fromkeys(question_ids, 0)
        for model, suffix, family in BLIND_MODELS:
            folder, stem = self.root / "predictions" / "blind" / model, f"{source}_{task_id}_preds_{suffix}"
            path = _first_file((folder / f"{stem}.pkl", folder / f"{stem}.json"))
            if path is None:
                raise TempVSDataError(f"blind prediction file {folder / stem}.pkl is missing: the text-only-LLM filter needs it (use the *_unfiltered task to evaluate without that filter)")
            self.files.append(path)
            seen = set()
            for i, row in enumerate(read_table(path)):
                if row.get("question_id") is None or row.get("gt_option") is None or "preds" not in row:
                    raise TempVSDataError(f"{path} row {i}: a blind prediction row needs question_id, gt_option and preds; found {sorted(row)}")
                question_id = str(row["question_id"])
                seen.add(question_id)
                if question_id in counts and not has_invalid_event(row) and is_correct(official_extract(row["preds"], task_kind(task_id), family), row["gt_option"]):
                    counts[question_id] += 1
            if not seen:
                raise TempVSDataError(f"{path}: blind predictions of {model} for {source}/{task_id} are empty")
            missing = [question_id for question_id in question_ids if question_id not in seen]
            if missing:
                raise TempVSDataError(f"{path}: no prediction for {len(missing)} question(s) of {source}/{task_id}, e.g. question_id {missing[:3]}")
        return counts


# ---- question rows ------------------------------------------------------------------------------


def _image_fields(task_id: str) -> Tuple[str, str]:
    """The (frames, combined image) columns a row shows: image ordering shows the shuffled images."""
    if task_kind(task_id) != "ordering":
        return "img_path_list", "combined_img_path"
    return ("img_path_list_shuffled", "combined_img_path_shuffled") if task_id.startswith("ordering_images") else ("img_path_list_gt", "combined_img_path_gt")


def reroot(path, source: str) -> str:
    """A stored image path relative to the release folder: cut from its first ``{source}/`` component (the
    generator wrote paths under the authors' ``/data/``)."""
    value = text(path)
    parts = Path(value).parts
    return str(Path(*parts[parts.index(source) :])) if value and source in parts else value


def _event_tuple(row: Dict) -> Tuple[int, ...]:
    value = row.get("event_pair_tuple")
    return tuple(int(e) for e in as_list(value if value is not None else row.get("event_triple_tuple")))


def _question(row: Dict, source: str, task_id: str, modes: Sequence[str], visuals: Sequence[str]) -> Dict:
    """The question row of an annotation row (see the module's note)."""
    kind = task_kind(task_id)
    frames_field, image_field = _image_fields(task_id)
    question = {
        "doc_key": doc_key(source, TEST_NAMES[task_id], row["question_id"]),
        "kind": "grounding" if kind == "grounding" else "main",
        "test": TEST_NAMES[task_id],
        "task_id": task_id,
        "source": source,
        "img_seq_id": str(row["img_seq_id"]),
        "question_id": str(row["question_id"]),
        "gt_option": str(row["gt_option"]),
        "option_text": "",
        "statement_type": "",
        "event_distance": -1,
        "event_index": -1,
        "expected_partners": 0,
        "partners": [],
        "blind_correct": -1,
        "image": reroot(row.get(image_field), source),
        "frames": [reroot(path, source) for path in as_list(row.get(frames_field))],
    }
    question.update({f"prompt_{mode}": prompt(row, task_id, mode) if mode in modes else "" for mode in PROMPT_MODES})
    if "combined" in visuals and not question["image"]:
        raise TempVSDataError(f"{image_field} is empty: no combined image to show")
    if "separate" in visuals and not (question["frames"] and all(question["frames"])):
        raise TempVSDataError(f"{frames_field} {row.get(frames_field)!r} names no image for every frame")
    if kind == "grounding":
        number = re.search(r"(\d+)\s*$", question["gt_option"])
        if number is None or int(number.group(1)) < 1:
            raise TempVSDataError(f"gt_option {question['gt_option']!r} is not 'image N' (N from 1)")
        count = max(len(as_list(row.get("img_path_list"))), int(number.group(1)))
        return {**question, "event_index": int(number.group(1)) - 1, "answer": number.group(1), "choices": [str(k) for k in range(1, count + 1)]}
    if kind == "mt1":
        distance = row.get("event_distance")
        question.update(option_text=text(row.get("option_text")), statement_type=text(row.get("statement_type")), event_distance=int(distance) if distance is not None else -1, choices=["A", "B"], expected_partners=len(_event_tuple(row)))
    else:
        question.update(choices=re.findall(r"(?m)^([A-Z])\. ", text(row.get("options"))) or list("ABCDE"), expected_partners=len(as_list(row.get("img_path_list_gt"))))
    question["answer"] = question["gt_option"][-1:]
    if question["answer"] not in answer_letters(kind):
        raise TempVSDataError(f"gt_option {question['gt_option']!r} does not end in an option letter {'/'.join(answer_letters(kind))}: no answer could ever be scored right")
    return question


def _from_row(row: Dict, *args) -> Dict:
    """:func:`_question`; any error in the row raised again naming its file, row and question_id."""
    try:
        return _question(row, *args)
    except (KeyError, IndexError, TypeError, ValueError, SyntaxError) as error:
        detail = f"missing field {error.args[0]!r}" if isinstance(error, KeyError) else (str(error) if isinstance(error, TempVSDataError) else f"{type(error).__name__}: {error}")
        raise TempVSDataError(f"{row.get('_where', 'TempVS row')}: {detail}") from error


def _partners(row: Dict, grounding: List[Dict], family: str) -> List[str]:
    """The question ids of a main row's grounding partners, as the official evaluation joins them: MT1, per
    event index e the FIRST grounding row of the sequence whose gt_option ends with e + 1 (none: nothing);
    ordering, every grounding row of the sequence."""
    if family != "mt1":
        return [str(g["question_id"]) for g in grounding]
    partners = []
    for event in _event_tuple(row):
        match = next((str(g["question_id"]) for g in grounding if str(g["gt_option"]).endswith(str(event + 1))), None)
        if match is None:
            eval_logger.warning(f"TempVS {row.get('_where')}: no grounding row for event {event}")
        else:
            partners.append(match)
    return partners


class Questions(NamedTuple):
    rows: List[Dict]  # per source (evaluation order), per test asked, in file order
    counts: Dict[Tuple[str, str], Dict[str, int]]  # (official task id, source) -> rows before and after the invalid-event filter
    files: List[Path]  # every file read


def question_rows(release: Release, tests: Sequence[str], modes: Sequence[str] = ("standard",), visuals: Sequence[str] = ("combined",), blind: bool = True, grounded: bool = True, sources: Sequence[str] = SOURCES) -> Questions:
    """The question rows of ``tests`` (main tests, with their grounding test's rows when ``grounded``, or
    grounding tests) with the prompts of ``modes`` (grounding rows: the standard one), the images of
    ``visuals`` checked, and the text-only LLMs' verdicts where the blind filter applies and ``blind``."""
    wanted = list(dict.fromkeys(t for test in tests for t in ((test, MAIN_TESTS[test].grounding_test) if test in MAIN_TESTS and grounded else (test,))))
    rows, counts = [], {}
    for source in (s for s in SOURCES if s in sources):
        read: Dict[str, List[Dict]] = {}
        for test in wanted:
            annotation = release.rows(source, TASK_IDS[test])
            read[test] = [row for row in annotation if not has_invalid_event(row)]
            counts[TASK_IDS[test], source] = {"rows": len(annotation), "after_invalid_event_filter": len(read[test])}
        by_sequence = {test: defaultdict(list) for test in GROUNDING_TESTS}
        for test in (t for t in wanted if t in GROUNDING_TESTS):
            for row in read[test]:
                by_sequence[test][str(row["img_seq_id"])].append(row)
        for test in wanted:
            spec = MAIN_TESTS.get(test)
            verdicts = release.blind_correct(source, spec.task_id, [str(r["question_id"]) for r in read[test]]) if spec and spec.blind_filtered and blind else {}
            for row in read[test]:
                question = _from_row(row, source, TASK_IDS[test], [m for m in modes if test in MAIN_TESTS or m == "standard"], visuals)
                if spec and grounded:
                    question["partners"] = _partners(row, by_sequence[spec.grounding_test][str(row["img_seq_id"])], spec.family)
                question["blind_correct"] = verdicts.get(str(row["question_id"]), -1)
                rows.append(question)
    return Questions(rows, counts, release.files)


# ---- the hub dataset ----------------------------------------------------------------------------


# the prompt modes of each main test's family (grounding questions have the standard prompt only)
HUB_MODES = {"mt1": ("standard", "cot", "blind"), "mt2": ("standard", "cot", "blind"), "mt3": ("standard", "cot", "images_only")}


def convert(folder: Path, output: Path) -> Dict[str, int]:
    """Write the question rows of every test of the release in ``folder`` (``data/test-*.parquet``, images by
    name) and its images once (``images.zip``, under the names the rows use) into ``output``."""
    import datasets

    release = Release(find_root(Path(folder)))
    rows: Dict[str, Dict] = {}
    for test in MAIN_TESTS:
        for row in question_rows(release, [test], HUB_MODES[test[:3]], ("combined", "separate")).rows:
            rows.setdefault(row["doc_key"], row)
    (Path(output) / "data").mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_list(list(rows.values())).to_parquet(str(Path(output) / "data" / "test-00000-of-00001.parquet"))
    images = sorted({name for row in rows.values() for name in (row["image"], *row["frames"]) if name})
    with zipfile.ZipFile(Path(output) / "images.zip", "w", zipfile.ZIP_STORED) as archive:
        for name in images:
            archive.write(release.root / name, name)
    return {"rows": len(rows), "images": len(images)}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.rsplit("\n\n", 1)[-1])
    print(convert(Path(sys.argv[1]), Path(sys.argv[2])))
