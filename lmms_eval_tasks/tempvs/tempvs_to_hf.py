"""Convert the TempVS release (https://huggingface.co/datasets/yingjins/TempVS) into the question rows the TempVS tasks
evaluate: ``data/test-00000-of-00001.parquet``, one row per question, and ``images.zip``, every image the rows show
once (lmms-eval unpacks it under ``$HF_HOME/tempvs``).

The release holds per data source the annotation files ``benchmark_pkl/{source}_{name}_test.pkl`` (pickled
DataFrames), the image folders and the text-only LLMs' outputs ``predictions/blind/``. A row is one question of one
official task id, after the invalid-event filter, with its prompt as the official inference script builds it, its
combined image (a path relative to the release folder), its gold answer, the question ids of its grounding partners
(joined as the official evaluation joins them) and how many of the three text-only LLMs answered it correctly (the
blind filter's input; -1 where the filter does not apply).

It then prints the questions per test and source it read next to the paper's Table 2 and exits with status 1 naming
each count that differs: the release converted is not the one the paper evaluated.

    python tempvs_to_hf.py RELEASE_FOLDER OUTPUT_FOLDER
"""

import ast
import pickle
import re
import sys
import warnings
import zipfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

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
# Table 2: the questions per main test and source. MT1 counts two statements per event group before the text-only-LLM
# filter (every count is even), MT2 the questions the filter keeps (odd counts, unequal for events and captions),
# MT3 the image sequences (no filter), once for both of its tests.
TABLE2 = {
    "mt1_two": {"flintstones": 2104, "pororo": 864, "vwp": 850, "vist": 3742},
    "mt1_three": {"flintstones": 916, "pororo": 172, "vwp": 208, "vist": 830},
    "mt2_event": {"flintstones": 501, "pororo": 320, "vwp": 274, "vist": 708},
    "mt2_caption": {"flintstones": 485, "pororo": 326, "vwp": 256, "vist": 551},
    **{test: {"flintstones": 565, "pororo": 395, "vwp": 316, "vist": 809} for test in ("mt3_event", "mt3_caption")},
}


def has_invalid_event(row: dict) -> bool:
    """The invalid-event filter: any ``event*`` column, cast to text, holds a banned marker."""
    return any(INVALID_EVENT.search(str(value if value is not None else "nan")) for key, value in row.items() if key.startswith("event"))


def text(value) -> str:
    """A row's string cell; a missing value (None / NaN) reads as empty."""
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def present(row: dict, field: str):
    """A cell a prompt is built from: missing is an error, as in the official script (``str + NaN`` fails there)."""
    value = row.get(field)
    if value is None or (isinstance(value, float) and value != value):
        raise TempVSDataError(f"no value in field(s) [{field!r}], which the prompt needs")
    return value


def required(row: dict, field: str) -> str:
    return str(present(row, field))


def as_list(value) -> list:
    if value is None or (isinstance(value, float) and value != value):
        return []
    return list(ast.literal_eval(value)) if isinstance(value, str) else list(value)


# ---- the prompts, exactly as the official inference script concatenates them ---------------------


def character_prefix(row: dict) -> str:
    return CHAR_PREFIX + text(row.get("character_info")) if row["data_source"] in CHARACTER_SOURCES else ""


def shuffled_block(row: dict, story: bool) -> str:
    sentences = as_list(present(row, "texts_shuffled" if story else "events_shuffled"))
    return ("\nThe shuffled sentences are:\n" if story else "\nThe shuffled events are:\n") + "\n".join(f"Sentence {chr(ord('a') + i)}: {s}" for i, s in enumerate(sentences))


def options_tail(row: dict) -> str:
    return "\n" + required(row, "answer_format_opt") + "\n" + required(row, "options") + "." + ANS


def prompt(row: dict, task_id: str) -> str:
    """The prompt of ``row`` for an official task id."""
    story = task_id.endswith("_story")
    if "grounding" in task_id:
        field = "text_to_test" if task_id == "single_grounding_all_story" else "event_to_test"
        return character_prefix(row) + "\nThe event is: " + required(row, field) + "\n" + required(row, "task_instruction") + ANS
    if task_id.endswith("event_discrimination"):
        return character_prefix(row) + "\nThe statement is: " + required(row, "statement_text") + "\n" + required(row, "task_instruction") + "\nOptions are: " + required(row, "option_text") + ANS
    if task_id.startswith("ordering_texts"):
        return character_prefix(row) + shuffled_block(row, story) + "\n" + required(row, "task_instruction") + options_tail(row)
    shown = "\nThe story is: " + required(row, "texts_gt") if story else "\nThe events are: " + required(row, "events_gt")
    return character_prefix(row) + shown + "\n" + required(row, "task_instruction") + IMGIDX + options_tail(row)


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


def read_table(path: Path) -> list[dict]:
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
    """The files of a release folder."""

    def __init__(self, root: Path):
        self.root = Path(root)

    def file(self, folder: Path, stem: str) -> Path:
        path = folder / f"{stem}.pkl"
        if not path.is_file():
            raise TempVSDataError(f"TempVS file {path} is missing")
        return path

    def table(self, path: Path) -> list[dict]:
        """The rows of one of its files."""
        return read_table(path)

    def rows(self, source: str, task_id: str) -> list[dict]:
        return self.checked(self.file(self.root / "benchmark_pkl", f"{source}_{file_of(task_id)}_test"), source)

    def checked(self, path: Path, source: str) -> list[dict]:
        """The rows of an annotation file (or a prediction file: the same rows and ``preds``), each naming where it is."""
        rows = self.table(path)
        for i, row in enumerate(rows):
            for needed in ("question_id", "img_seq_id", "gt_option"):
                if row.get(needed) is None:
                    raise TempVSDataError(f"{path} row {i}: missing field {needed!r}; found {sorted(row)}")
            row.update(_where=f"{path} row {i} (question_id {row['question_id']!r})", data_source=row.get("data_source") or source)
        return rows

    def blind_correct(self, source: str, task_id: str, question_ids: Sequence[str]) -> dict[str, int]:
        """question_id -> how many of the text-only LLMs answered it correctly (each with its own parser; a row with
        an invalid event counts as wrong); each model's file must hold every question."""
        counts = dict.fromkeys(question_ids, 0)
        for model, suffix, family in BLIND_MODELS:
            path = self.file(self.root / "predictions" / "blind" / model, f"{source}_{task_id}_preds_{suffix}")
            rows = self.table(path)
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


def image_fields(task_id: str) -> tuple[str, str]:
    """The (frames, combined image) columns a row shows: image ordering shows the shuffled images."""
    if spec.task_kind(task_id) != "ordering":
        return "img_path_list", "combined_img_path"
    return ("img_path_list_shuffled", "combined_img_path_shuffled") if task_id.startswith("ordering_images") else ("img_path_list_gt", "combined_img_path_gt")


def reroot(path, source: str) -> str:
    """A stored image path relative to the release folder: cut from its first ``{source}/`` component."""
    parts = [part for part in text(path).split("/") if part not in ("", ".")]  # as pathlib splits a POSIX path
    return "/".join(parts[parts.index(source) :]) if source in parts else text(path)


def event_tuple(row: dict) -> tuple[int, ...]:
    value = row.get("event_pair_tuple")
    return tuple(int(e) for e in as_list(value if value is not None else row.get("event_triple_tuple")))


def question(row: dict, source: str, task_id: str) -> dict:
    """The question row of an annotation row (see the module's note)."""
    kind, gt_option = spec.task_kind(task_id), str(row["gt_option"])
    image = reroot(row.get(image_fields(task_id)[1]), source)
    if not image:
        raise TempVSDataError(f"{row['_where']}: {image_fields(task_id)[1]} is empty: no combined image to show")
    entry: dict[str, object] = {"doc_key": spec.doc_key(source, spec.TEST_NAMES[task_id], row["question_id"]), "kind": "grounding" if kind == "grounding" else "main", "test": spec.TEST_NAMES[task_id], "task_id": task_id}
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


def checked_question(row: dict, source: str, task_id: str) -> dict:
    """:func:`question`; any error in the row raised again naming its file, row and question_id."""
    try:
        return question(row, source, task_id)
    except (KeyError, IndexError, TypeError, ValueError, SyntaxError) as error:
        if isinstance(error, TempVSDataError) and str(error).startswith(row["_where"]):
            raise
        detail = f"missing field {error.args[0]!r}" if isinstance(error, KeyError) else (str(error) if isinstance(error, TempVSDataError) else f"{type(error).__name__}: {error}")
        raise TempVSDataError(f"{row['_where']}: {detail}") from error


def partners(row: dict, grounding: list[dict], family: str) -> list[str]:
    """The question ids of a main row's grounding partners, as the official evaluation joins them: MT1, per event
    index e the FIRST grounding row of the sequence whose gt_option ends with e + 1 (none: nothing); ordering, every
    grounding row of the sequence."""
    if family != "mt1":
        return [str(g["question_id"]) for g in grounding]
    found = [next((str(g["question_id"]) for g in grounding if str(g["gt_option"]).endswith(str(event + 1))), None) for event in event_tuple(row)]
    for event in (e for e, match in zip(event_tuple(row), found) if match is None):
        eval_logger.warning(f"TempVS {row['_where']}: no grounding row for event {event}")
    return [match for match in found if match is not None]


def question_rows(release: Release, tests: Sequence[str]) -> list[dict]:
    """The question rows of the main tests ``tests`` and of their grounding tests, each once, with the text-only LLMs'
    verdicts where the blind filter applies."""
    wanted = list(dict.fromkeys(t for test in tests for t in (test, spec.MAIN_TESTS[test].grounding_test)))
    rows = []
    for source in spec.SOURCES:
        read = {test: [row for row in release.rows(source, spec.TASK_IDS[test]) if not has_invalid_event(row)] for test in wanted}
        by_sequence = defaultdict(list)
        for test in (t for t in wanted if t in spec.GROUNDING_TESTS):
            for row in read[test]:
                by_sequence[test, str(row["img_seq_id"])].append(row)
        for test in wanted:
            main = spec.MAIN_TESTS.get(test)
            verdicts = release.blind_correct(source, main.task_id, [str(r["question_id"]) for r in read[test]]) if main and main.blind_filtered else {}
            for row in read[test]:
                entry = checked_question(row, source, spec.TASK_IDS[test])
                if main:
                    entry["partners"] = partners(row, by_sequence[main.grounding_test, str(row["img_seq_id"])], main.family)
                rows.append({**entry, "blind_correct": verdicts.get(entry["question_id"], -1)})
    return rows


def write(rows: list[dict], folder: Path, output: Path) -> int:
    """Write the question rows (``data/test-00000-of-00001.parquet``, images by name) and the images they show, each once
    from the release in ``folder`` (``images.zip``, under the names the rows use) into ``output``; the images' count."""
    import datasets

    (Path(output) / "data").mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_list(rows).to_parquet(str(Path(output) / "data" / "test-00000-of-00001.parquet"))
    images = sorted({row["image"] for row in rows})
    with zipfile.ZipFile(Path(output) / "images.zip", "w", zipfile.ZIP_STORED) as archive:
        for name in images:
            archive.write(Path(folder) / name, name)
    return len(images)


def convert(folder: Path, output: Path) -> list[dict]:
    """Write the question rows of every test of the release in ``folder`` and its images into ``output``; the rows."""
    rows = question_rows(Release(folder), list(spec.MAIN_TESTS))
    write(rows, folder, output)
    return rows


# ---- the release's counts -----------------------------------------------------------------------


def table2_counts(rows: list[dict]) -> dict[str, dict[str, int]]:
    """The questions per main test and source as Table 2 counts them (see :data:`TABLE2`)."""
    counts = {test: dict.fromkeys(spec.SOURCES, 0) for test in TABLE2}
    for row in (r for r in rows if r["kind"] == "main"):
        counts[row["test"]][row["source"]] += not row["test"].startswith("mt2") or row["blind_correct"] < 2
    return counts


def counts_table(counts: dict[str, dict[str, int]]) -> str:
    """The counts read next to Table 2's, a Markdown table."""
    lines = ["| test | " + " | ".join(spec.SOURCES) + " | total |", "|---" * (len(spec.SOURCES) + 2) + "|"]
    for test, paper in TABLE2.items():
        cells = [f"{counts[test][source]} ({paper[source]})" for source in spec.SOURCES]
        lines.append(f"| {test} | " + " | ".join(cells) + f" | {sum(counts[test].values())} ({sum(paper.values())}) |")
    return "TempVS questions read (Table 2 in brackets):\n" + "\n".join(lines)


def differences(counts: dict[str, dict[str, int]]) -> list[str]:
    """Each count that is not Table 2's."""
    return [f"{test} {source}: {counts[test][source]} read, Table 2 gives {n}" for test, paper in TABLE2.items() for source, n in paper.items() if counts[test][source] != n]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.rsplit("\n\n", 1)[-1])
    counts = table2_counts(convert(Path(sys.argv[1]), Path(sys.argv[2])))
    print(counts_table(counts))
    if differences(counts):
        raise SystemExit("not the release the paper evaluated: " + "; ".join(differences(counts)))
