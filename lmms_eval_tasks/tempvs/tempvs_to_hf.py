"""Convert the TempVS release (https://huggingface.co/datasets/yingjins/TempVS) into the question rows the TempVS tasks
evaluate: ``data/test-00000-of-00001.parquet``, one row per question, and ``images.zip``, every image the rows show
once (lmms-eval unpacks it under ``$HF_HOME/tempvs``).

The release holds per data source the annotation files ``benchmark_pkl/{source}_{name}_test.pkl`` (pickled
DataFrames), the image folders and the text-only LLMs' outputs ``predictions/blind/``. A row is one question of one
official task id, after the invalid-event filter, with its prompt as the official inference script builds it, its
combined image (a path relative to the release folder), its gold answer, the question ids of its grounding partners
(joined as the official evaluation joins them) and how many of the three text-only LLMs answered it correctly (the
blind filter's input; -1 where the filter does not apply).

    python tempvs_to_hf.py RELEASE_FOLDER OUTPUT_FOLDER
"""

import ast
import pickle
import re
import sys
import warnings
import zipfile
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from loguru import logger as eval_logger

from temporal_bench.lmms_eval_tasks.tempvs import extraction, spec
from temporal_bench.lmms_eval_tasks.tempvs.spec import TempVSDataError

# the text-only LLMs of the blind filter, their prediction-file suffixes and official parsers
BLIND_MODELS = (("Llama-3.1-8B", "full", "llama_blind"), ("Phi-3.5-mini-instruct", "full", "generic"), ("Qwen2.5-72B-Instruct", "8bit", "generic"))
# the invalid-event filter: searched case-insensitively as substrings of every event* column
INVALID_EVENT = re.compile("NO_EVENT|No_Event|no_event|NO_Event|good time|great time|wonderful time|have fun|had fun", re.IGNORECASE)
# (module, name) of every global a pickled DataFrame of lists, strings, numbers and NaN refers to (pandas 2-3, numpy 1-2)
FRAME_GLOBALS = {("pandas", "DataFrame"), ("pandas.core.frame", "DataFrame"), ("pandas", "Index"), ("pandas.core.indexes.base", "Index"), ("pandas.core.indexes.base", "_new_Index")}
FRAME_GLOBALS |= {("pandas", "RangeIndex"), ("pandas.core.indexes.range", "RangeIndex"), ("pandas.core.internals.managers", "BlockManager"), ("pandas._libs.internals", "_unpickle_block")}
FRAME_GLOBALS |= {("pandas", "StringDtype"), ("pandas.arrays", "ArrowStringArray"), ("pyarrow.lib", "_restore_array"), ("pyarrow.lib", "py_buffer"), ("pyarrow.lib", "type_for_alias")}
FRAME_GLOBALS |= {("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.numeric", "_frombuffer")}
FRAME_GLOBALS |= {("numpy._core.numeric", "_frombuffer"), ("builtins", "slice"), ("builtins", "bytearray"), ("__builtin__", "slice"), ("__builtin__", "bytearray"), ("_codecs", "encode")}
CHARACTER_SOURCES = ("flintstones", "pororo")  # character descriptions are shown for these only
CHAR_PREFIX = "This is a description of the possible appearance of character(s) in the image(s): "
ANS = "\nThe answer is: "
IMGIDX = "The images I provide are labeled in order as Image a, Image b, Image c, Image d, and Image e, and so on if there are more photos."


def has_invalid_event(row: Dict) -> bool:
    """The invalid-event filter: any ``event*`` column, cast to text, holds a banned marker."""
    return any(INVALID_EVENT.search(str(value if value is not None else "nan")) for key, value in row.items() if key.startswith("event"))


def text(value) -> str:
    """A row's string cell; a missing value (None / NaN) reads as empty."""
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def present(row: Dict, field: str):
    """A cell a prompt is built from: missing is an error, as in the official script (``str + NaN`` fails there)."""
    value = row.get(field)
    if value is None or (isinstance(value, float) and value != value):
        raise TempVSDataError(f"no value in field(s) [{field!r}], which the prompt needs")
    return value


def required(row: Dict, field: str) -> str:
    return str(present(row, field))


def as_list(value) -> List:
    if value is None or (isinstance(value, float) and value != value):
        return []
    return list(ast.literal_eval(value)) if isinstance(value, str) else list(value)


# ---- the prompts, exactly as the official inference script concatenates them ---------------------


def character_prefix(row: Dict) -> str:
    return CHAR_PREFIX + text(row.get("character_info")) if row["data_source"] in CHARACTER_SOURCES else ""


def shuffled_block(row: Dict, story: bool) -> str:
    sentences = as_list(present(row, "texts_shuffled" if story else "events_shuffled"))
    return ("\nThe shuffled sentences are:\n" if story else "\nThe shuffled events are:\n") + "\n".join(f"Sentence {chr(ord('a') + i)}: {s}" for i, s in enumerate(sentences))


def options_tail(row: Dict) -> str:
    return "\n" + required(row, "answer_format_opt") + "\n" + required(row, "options") + "." + ANS


def prompt(row: Dict, task_id: str, instruction_field: str = "task_instruction") -> str:
    """The prompt of ``row`` for an official task id (``instruction_field``: the main tests' instruction column)."""
    story = task_id.endswith("_story")
    if "grounding" in task_id:
        field = "text_to_test" if task_id == "single_grounding_all_story" else "event_to_test"
        return character_prefix(row) + "\nThe event is: " + required(row, field) + "\n" + required(row, "task_instruction") + ANS
    if task_id.endswith("event_discrimination"):
        return character_prefix(row) + "\nThe statement is: " + required(row, "statement_text") + "\n" + required(row, instruction_field) + "\nOptions are: " + required(row, "option_text") + ANS
    if task_id.startswith("ordering_texts"):
        return character_prefix(row) + shuffled_block(row, story) + "\n" + required(row, instruction_field) + options_tail(row)
    shown = "\nThe story is: " + required(row, "texts_gt") if story else "\nThe events are: " + required(row, "events_gt")
    return character_prefix(row) + shown + "\n" + required(row, instruction_field) + IMGIDX + options_tail(row)


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


def read_table(path: Path) -> List[Dict]:
    """The rows of a pickled DataFrame, unpickled from pandas and numpy classes only."""
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
    names, columns = list(frame.columns), [frame.iloc[:, i].tolist() for i in range(frame.shape[1])]  # column-wise: DataFrame.to_dict boxes cell by cell, slower
    return [{**{key: _clean(value) for key, value in zip(names, values)}, "_index": _clean(index)} for index, *values in zip(frame.index, *columns)]


def file_of(task_id: str) -> str:
    """The annotation file a task id reads: ordering ids drop ``_opt_event``/``_opt_story``; both all-events grounding tests read one."""
    if task_id.startswith("ordering_"):
        return task_id[:-10]
    return "single_grounding_all" if task_id == "single_grounding_all_story" else task_id


class Release:
    """The files of a release folder (``files``: every file read); ``read_table`` reads one file's rows."""

    def __init__(self, root: Path, read_table: Callable[[Path], List[Dict]] = read_table):
        self.root, self.read_table, self.files = Path(root), read_table, []

    def file(self, folder: Path, stem: str) -> Path:
        path = folder / f"{stem}.pkl"
        if not path.is_file():
            raise TempVSDataError(f"TempVS file {path} is missing")
        self.files.append(path)
        return path

    def rows(self, source: str, task_id: str) -> List[Dict]:
        return self.checked(self.file(self.root / "benchmark_pkl", f"{source}_{file_of(task_id)}_test"), source)

    def checked(self, path: Path, source: str) -> List[Dict]:
        """The rows of an annotation file (or a prediction file: the same rows and ``preds``), each naming where it is."""
        rows = self.read_table(path)
        for i, row in enumerate(rows):
            for needed in ("question_id", "img_seq_id", "gt_option"):
                if row.get(needed) is None:
                    raise TempVSDataError(f"{path} row {i}: missing field {needed!r}; found {sorted(row)}")
            row.update(_where=f"{path} row {i} (question_id {row['question_id']!r})", data_source=row.get("data_source") or source)
        return rows

    def blind_correct(self, source: str, task_id: str, question_ids: Sequence[str]) -> Dict[str, int]:
        """question_id -> how many of the text-only LLMs answered it correctly (each with its own parser; a row with
        an invalid event counts as wrong); each model's file must hold every question."""
        counts = dict.fromkeys(question_ids, 0)
        for model, suffix, family in BLIND_MODELS:
            path = self.file(self.root / "predictions" / "blind" / model, f"{source}_{task_id}_preds_{suffix}")
            rows = self.read_table(path)
            if not rows:
                raise TempVSDataError(f"{path}: blind predictions of {model} for {source}/{task_id} are empty")
            for i, row in enumerate(rows):
                if row.get("question_id") is None or row.get("gt_option") is None or "preds" not in row:
                    raise TempVSDataError(f"{path} row {i}: a blind prediction row needs question_id, gt_option and preds; found {sorted(row)}")
                if str(row["question_id"]) in counts and not has_invalid_event(row) and extraction.is_correct(extraction.official_extract(row["preds"], spec.task_kind(task_id), family), row["gt_option"]):
                    counts[str(row["question_id"])] += 1
            missing = sorted(set(question_ids) - {str(row["question_id"]) for row in rows})
            if missing:
                raise TempVSDataError(f"{path}: no prediction for {len(missing)} question(s) of {source}/{task_id}, e.g. question_id {missing[:3]}")
        return counts


# ---- question rows ------------------------------------------------------------------------------


def image_fields(task_id: str) -> Tuple[str, str]:
    """The (frames, combined image) columns a row shows: image ordering shows the shuffled images."""
    if spec.task_kind(task_id) != "ordering":
        return "img_path_list", "combined_img_path"
    return ("img_path_list_shuffled", "combined_img_path_shuffled") if task_id.startswith("ordering_images") else ("img_path_list_gt", "combined_img_path_gt")


def reroot(path, source: str) -> str:
    """A stored image path relative to the release folder: cut from its first ``{source}/`` component."""
    parts = [part for part in text(path).split("/") if part not in ("", ".")]  # as pathlib splits a POSIX path
    return "/".join(parts[parts.index(source) :]) if source in parts else text(path)


def event_tuple(row: Dict) -> Tuple[int, ...]:
    value = row.get("event_pair_tuple")
    return tuple(int(e) for e in as_list(value if value is not None else row.get("event_triple_tuple")))


def question(row: Dict, source: str, task_id: str) -> Dict:
    """The question row of an annotation row (see the module's note)."""
    kind, gt_option = spec.task_kind(task_id), str(row["gt_option"])
    image = reroot(row.get(image_fields(task_id)[1]), source)
    if not image:
        raise TempVSDataError(f"{row['_where']}: {image_fields(task_id)[1]} is empty: no combined image to show")
    entry = {"doc_key": spec.doc_key(source, spec.TEST_NAMES[task_id], row["question_id"]), "kind": "grounding" if kind == "grounding" else "main", "test": spec.TEST_NAMES[task_id], "task_id": task_id}
    entry.update(source=source, img_seq_id=str(row["img_seq_id"]), question_id=str(row["question_id"]), gt_option=gt_option, option_text="", statement_type="", event_distance=-1, event_index=-1)
    entry.update(expected_partners=0, partners=[], blind_correct=-1, image=image, prompt=prompt(row, task_id))
    if kind == "grounding":
        number = re.search(r"(\d+)\s*$", gt_option)
        if number is None or int(number.group(1)) < 1:
            raise TempVSDataError(f"{row['_where']}: gt_option {gt_option!r} is not 'image N' (N from 1)")
        count = max(len(as_list(row.get("img_path_list"))), int(number.group(1)))
        return {**entry, "event_index": int(number.group(1)) - 1, "answer": number.group(1), "choices": [str(k) for k in range(1, count + 1)]}
    if kind == "mt1":
        distance = row.get("event_distance")
        entry.update(option_text=text(row.get("option_text")), statement_type=text(row.get("statement_type")), event_distance=int(distance) if distance is not None else -1, choices=["A", "B"], expected_partners=len(event_tuple(row)))
    else:
        entry.update(choices=re.findall(r"(?m)^([A-Z])\. ", text(row.get("options"))) or list("ABCDE"), expected_partners=len(as_list(row.get("img_path_list_gt"))))
    if gt_option[-1:] not in extraction.answer_letters(kind):
        raise TempVSDataError(f"{row['_where']}: gt_option {gt_option!r} does not end in an option letter {'/'.join(extraction.answer_letters(kind))}: no answer could ever be scored right")
    return {**entry, "answer": gt_option[-1:]}


def checked_question(row: Dict, source: str, task_id: str) -> Dict:
    """:func:`question`; any error in the row raised again naming its file, row and question_id."""
    try:
        return question(row, source, task_id)
    except (KeyError, IndexError, TypeError, ValueError, SyntaxError) as error:
        if isinstance(error, TempVSDataError) and str(error).startswith(row["_where"]):
            raise
        detail = f"missing field {error.args[0]!r}" if isinstance(error, KeyError) else (str(error) if isinstance(error, TempVSDataError) else f"{type(error).__name__}: {error}")
        raise TempVSDataError(f"{row['_where']}: {detail}") from error


def partners(row: Dict, grounding: List[Dict], family: str) -> List[str]:
    """The question ids of a main row's grounding partners, as the official evaluation joins them: MT1, per event
    index e the FIRST grounding row of the sequence whose gt_option ends with e + 1 (none: nothing); ordering, every
    grounding row of the sequence."""
    if family != "mt1":
        return [str(g["question_id"]) for g in grounding]
    found = [next((str(g["question_id"]) for g in grounding if str(g["gt_option"]).endswith(str(event + 1))), None) for event in event_tuple(row)]
    for event in (e for e, match in zip(event_tuple(row), found) if match is None):
        eval_logger.warning(f"TempVS {row['_where']}: no grounding row for event {event}")
    return [match for match in found if match is not None]


class Questions(NamedTuple):
    rows: List[Dict]  # per source (evaluation order), per test, in file order
    counts: Dict[Tuple[str, str], Dict[str, int]]  # (official task id, source) -> rows before and after the invalid-event filter


def question_rows(release: Release, tests: Sequence[str], sources: Sequence[str] = spec.SOURCES, blind: bool = True, columns: Optional[Callable[[Dict, str], Dict]] = None) -> Questions:
    """The question rows of ``tests`` (main tests with their grounding test's, or grounding tests alone), with the text-only
    LLMs' verdicts where the blind filter applies and ``blind``; ``columns(annotation row, task id)``: more columns."""
    wanted = list(dict.fromkeys(t for test in tests for t in ((test, spec.MAIN_TESTS[test].grounding_test) if test in spec.MAIN_TESTS else (test,))))
    rows, counts = [], {}
    for source in (s for s in spec.SOURCES if s in sources):
        read = {}
        for test in wanted:
            annotation = release.rows(source, spec.TASK_IDS[test])
            read[test] = [row for row in annotation if not has_invalid_event(row)]
            counts[spec.TASK_IDS[test], source] = {"rows": len(annotation), "after_invalid_event_filter": len(read[test])}
        by_sequence = defaultdict(list)
        for test in (t for t in wanted if t in spec.GROUNDING_TESTS):
            for row in read[test]:
                by_sequence[test, str(row["img_seq_id"])].append(row)
        for test in wanted:
            main = spec.MAIN_TESTS.get(test)
            verdicts = release.blind_correct(source, main.task_id, [str(r["question_id"]) for r in read[test]]) if main and main.blind_filtered and blind else {}
            for row in read[test]:
                entry = {**checked_question(row, source, spec.TASK_IDS[test]), **(columns(row, spec.TASK_IDS[test]) if columns else {})}
                if main:
                    entry["partners"] = partners(row, by_sequence[main.grounding_test, str(row["img_seq_id"])], main.family)
                rows.append({**entry, "blind_correct": verdicts.get(entry["question_id"], -1)})
    return Questions(rows, counts)


def convert(folder: Path, output: Path, release: Optional[Release] = None) -> Dict[str, int]:
    """Write the question rows of every test of the release in ``folder`` (``data/test-*.parquet``, images by name) and
    its images once (``images.zip``, under the names the rows use) into ``output`` (``release``: another reader of it)."""
    import datasets

    rows: Dict[str, Dict] = {}
    for test in spec.MAIN_TESTS:
        for row in question_rows(release or Release(folder), [test]).rows:
            rows.setdefault(row["doc_key"], row)
    (Path(output) / "data").mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_list(list(rows.values())).to_parquet(str(Path(output) / "data" / "test-00000-of-00001.parquet"))
    images = sorted({row["image"] for row in rows.values()})
    with zipfile.ZipFile(Path(output) / "images.zip", "w", zipfile.ZIP_STORED) as archive:
        for name in images:
            archive.write(Path(folder) / name, name)
    return {"rows": len(rows), "images": len(images)}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.rsplit("\n\n", 1)[-1])
    print(convert(Path(sys.argv[1]), Path(sys.argv[2])))
