"""Read the released TempVS layout (docs/protocol/tempvs.md §2-§3), apply the evaluation's filters (§7.1-§7.2)
and build the docs of one lmms-eval task.

A main task's docs are its main questions AND the distinct grounding questions its metrics need,
told apart by ``kind`` (``main`` / ``grounding``). Each main doc lists the keys of its grounding
partners (``partners``), found in the data exactly as the official join does (§7.1 step 3); the
metrics join on those keys, never on doc order.

Data source: ``TEMPVS_DATA_DIR`` (the folder holding ``benchmark_pkl/`` or ``benchmark/`` and the
image folders, or a folder with a ``data/`` subfolder like that), else a snapshot of the Hugging Face
dataset ``yingjins/TempVS``. Image paths stored in the rows are re-rooted at that folder.
"""

import json
import logging
import re
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from temporal_bench.tempvs import prompts
from temporal_bench.tempvs.extraction import UNK, answer_letters, is_correct, official_extract
from temporal_bench.tempvs.pickled_frames import RefusedPickleGlobal, load_pickled_frame
from temporal_bench.tempvs.spec import (
    BLIND_DROP_THRESHOLD, BLIND_MODELS, GROUNDING_TESTS, INVALID_EVENT_MARKERS, MAIN_TESTS, PAPER_COUNTS, TEST_NAMES, TempVSDataError, file_of,
    selected_sources, task_kind,
)
from temporal_bench.utils.data_dir import from_hub, local_data_dir
from temporal_bench.utils.data_fingerprint import DataSource
from temporal_bench.utils.json_lines import json_lines_after

try:  # lmms-eval's logger prints at the CLI's verbosity; plain logging is the fallback
    from loguru import logger as _log
except ImportError:  # pragma: no cover
    _log = logging.getLogger(__name__)

HUB_ID = "yingjins/TempVS"
DATA_DIR_ENV = "TEMPVS_DATA_DIR"
LOCAL_LAYOUT = ("the folder holding the release's benchmark_pkl/ (or benchmark/), the image folders of the four "
                "sources and predictions/blind/ for the text-only-LLM filter, or a folder with such a data/ subfolder")
_INVALID = re.compile("|".join(INVALID_EVENT_MARKERS), re.IGNORECASE)


# ---- locating and reading the files -------------------------------------------------------------

def find_layout_root(folder: Path, named_by: str = "") -> Path:
    """The folder holding ``benchmark_pkl/`` or ``benchmark/`` (the folder itself or its ``data/``);
    ``named_by``: the variable that named ``folder``, for the error's fix."""
    for candidate in (folder, folder / "data"):
        if (candidate / "benchmark_pkl").is_dir() or (candidate / "benchmark").is_dir():
            return candidate
    found = sorted(p.name for p in folder.iterdir())[:20] if folder.is_dir() else []
    fix = f"; set {named_by} to {LOCAL_LAYOUT}" if named_by else ""
    raise TempVSDataError(f"{folder}: no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/); "
                          f"found {found}{fix}")


def data_root(data_dir: Optional[Path] = None) -> Path:
    """``data_dir``, else ``TEMPVS_DATA_DIR``, else a (cached) snapshot of the hub release."""
    if data_dir:
        return find_layout_root(Path(data_dir))
    folder = local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if folder is None:
        from huggingface_hub import snapshot_download

        folder = Path(from_hub(lambda: snapshot_download(repo_id=HUB_ID, repo_type="dataset"), HUB_ID, DATA_DIR_ENV, LOCAL_LAYOUT))
    return find_layout_root(folder, DATA_DIR_ENV)


def describe_source(root: Path) -> DataSource:
    """Where the data came from: the local folder, or the hub revision whose snapshot ``root`` is."""
    parts = Path(root).parts
    if "snapshots" in parts and HUB_ID.replace("/", "--") in str(root):
        revision = parts[parts.index("snapshots") + 1]
        return DataSource(DATA_DIR_ENV, f"hub {HUB_ID} revision {revision}", hub=HUB_ID, revision=revision)
    return DataSource(DATA_DIR_ENV, f"local folder {root}", folder=Path(root))


def _clean(value):
    if isinstance(value, float) and value != value:
        return None
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    return value


def _frame_rows(frame) -> List[Dict]:
    rows = []
    for index, record in zip(frame.index, frame.to_dict(orient="records")):
        row = {key: _clean(value) for key, value in record.items()}
        row["_index"] = _clean(index)
        rows.append(row)
    return rows


def _json_rows(path: Path) -> List[Dict]:
    with open(path, encoding="utf-8") as handle:
        raw = handle.read()
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
    """Rows of a pickled DataFrame (``.pkl``, unpickled from pandas and numpy classes only) or a JSON/JSON-lines
    twin, with ``_index`` labels."""
    if path.suffix == ".pkl":
        import pandas

        try:
            frame = load_pickled_frame(path)
        except RefusedPickleGlobal as error:
            raise TempVSDataError(f"{path}: refused to unpickle: {error}") from error
        except Exception as error:  # noqa: BLE001 - unpickling fails in many ways; each names the file
            raise TempVSDataError(f"{path}: cannot be unpickled ({type(error).__name__}: {error}); "
                                  "a truncated or corrupt file?") from error
        if not isinstance(frame, pandas.DataFrame):
            raise TempVSDataError(f"{path}: holds a {type(frame).__name__}, not a pandas DataFrame of rows")
        return _frame_rows(frame)
    return [{key: _clean(value) for key, value in row.items()} for row in _json_rows(path)]


def annotation_path(root: Path, source: str, file_name: str) -> Path:
    """``benchmark_pkl/{source}_{file}_test.pkl`` (what the code reads), else the JSON twin in ``benchmark/``."""
    stem = f"{source}_{file_name}_test"
    for candidate in (root / "benchmark_pkl" / f"{stem}.pkl", root / "benchmark" / f"{stem}.json",
                      root / "benchmark" / f"{stem}.pkl", root / "benchmark" / f"{stem}.jsonl"):
        if candidate.is_file():
            return candidate
    raise TempVSDataError(f"TempVS annotation file {stem}.pkl/.json is missing under {root}/benchmark_pkl or {root}/benchmark")


def read_annotations(root: Path, source: str, file_name: str) -> List[Dict]:
    """The rows of one annotation file; each carries ``_where`` (file and row) for error messages."""
    return read_rows(annotation_path(root, source, file_name), source)


def annotation_rows(root: Path, source: str, task_id: str) -> List[Dict]:
    """The rows a task id reads from the annotations (§2.2); the default ``rows_of`` of the builders."""
    return read_annotations(root, source, file_of(task_id))


RowsOf = Callable[[Path, str, str], List[Dict]]  # (data root, source, task id) -> rows


def read_rows(path: Path, source: str) -> List[Dict]:
    """The rows of an annotation file, or of a prediction file (the annotation rows plus ``preds``, §2.5)."""
    rows = read_table(path)
    for i, row in enumerate(rows):
        for needed in ("question_id", "img_seq_id", "gt_option"):
            if row.get(needed) is None:
                raise TempVSDataError(f"{path} row {i}: missing field {needed!r}; found {sorted(row)}")
        row["_where"] = f"{path} row {i} (question_id {row['question_id']!r})"
        row.setdefault("data_source", source)
        if row["data_source"] is None:
            row["data_source"] = source
    return rows


def blind_prediction_path(root: Path, model: str, suffix: str, source: str, task_id: str) -> Path:
    folder = root / "predictions" / "blind" / model
    stem = f"{source}_{task_id}_preds_{suffix}"
    for candidate in (folder / f"{stem}.pkl", folder / f"{stem}.json"):
        if candidate.is_file():
            return candidate
    raise TempVSDataError(
        f"blind prediction file {folder / stem}.pkl is missing: the text-only-LLM filter needs it "
        f"(use the *_unfiltered task to evaluate without that filter)")


def reroot(path, source: str, root: Path) -> str:
    """§2.4: cut a stored path from its first ``{source}/`` component and join the rest onto ``root``."""
    value = prompts.text(path)
    if not value:
        return ""
    parts = Path(value).parts
    if source in parts:
        return str(root.joinpath(*parts[parts.index(source):]))
    return value if Path(value).is_absolute() else str(root / value)


# ---- filters ------------------------------------------------------------------------------------

def has_invalid_event(row: Dict) -> bool:
    """§7.2: any ``event*`` column, cast to str, contains a banned marker (substring, any case)."""
    return any(_INVALID.search(str(value if value is not None else "nan")) for key, value in row.items() if key.startswith("event"))


def blind_correct_counts(root: Path, source: str, task_id: str, question_ids: Sequence[str] = (),
                         read: Optional[List[Path]] = None) -> Dict[str, int]:
    """question_id -> how many of the 3 text-only LLMs answered correctly (each with its own parser).

    Each model's file must hold a prediction for every id in ``question_ids``: a question one file
    lacks would silently count as that model's wrong answer and change the filter. ``read``
    collects the files read."""
    kind = task_kind(task_id)
    counts: Dict[str, int] = defaultdict(int)
    for model, suffix in BLIND_MODELS:
        family = "llama_blind" if model == "Llama-3.1-8B" else "generic"
        path = blind_prediction_path(root, model, suffix, source, task_id)
        if read is not None:
            read.append(path)
        seen = set()
        for i, row in enumerate(read_table(path)):
            if row.get("question_id") is None or row.get("gt_option") is None or "preds" not in row:
                raise TempVSDataError(f"{path} row {i}: a blind prediction row needs question_id, gt_option and preds; "
                                      f"found {sorted(row)}")
            question_id = str(row["question_id"])
            seen.add(question_id)
            if has_invalid_event(row):
                continue
            if is_correct(official_extract(row["preds"], kind, family), row["gt_option"]):
                counts[question_id] += 1
            else:
                counts.setdefault(question_id, 0)
        if not seen:
            raise TempVSDataError(f"{path}: blind predictions of {model} for {source}/{task_id} are empty")
        missing = [question_id for question_id in question_ids if question_id not in seen]
        if missing:
            raise TempVSDataError(f"{path}: no prediction for {len(missing)} question(s) of {source}/{task_id}, "
                                  f"e.g. question_id {missing[:3]}")
    return counts


# ---- docs ---------------------------------------------------------------------------------------

def doc_key(source: str, task_id: str, question_id) -> str:
    """``<source>/<test>/<question_id>`` (``test``: our short name of the official task id)."""
    return f"{source}/{TEST_NAMES[task_id]}/{question_id}"


def _event_tuple(row: Dict) -> Tuple[int, ...]:
    value = row.get("event_pair_tuple")
    if value is None:
        value = row.get("event_triple_tuple")
    return tuple(int(e) for e in prompts.as_list(value))


def _option_letters(options: str) -> List[str]:
    return re.findall(r"(?m)^([A-Z])\. ", options or "") or list("ABCDE")


def _base_doc(row: Dict, source: str, task_id: str, kind: str, mode: str, visual: str, root: Path) -> Dict:
    return {
        "doc_key": doc_key(source, task_id, row["question_id"]),
        "kind": kind,
        "task_id": task_id,
        "source": source,
        "img_seq_id": str(row["img_seq_id"]),
        "question_id": str(row["question_id"]),
        "mode": mode,
        "visual": visual,
        "prompt": prompts.prompt(row, task_id, mode),
        "gt_option": str(row["gt_option"]),
        "option_text": "",
        "partners": [],
        "expected_partners": 0,
        "event_index": -1,
        "statement_type": "",
        "event_distance": -1,
        "image": "",
        "frames": [],
        "answer": "",
        "choices": [],
    }


def _set_images(doc: Dict, row: Dict, frames_field: str, image_field: str, root: Path) -> None:
    """The doc's frames and combined image, re-rooted; the field its visual mode shows must name images."""
    frames = [reroot(p, doc["source"], root) for p in prompts.as_list(row.get(frames_field))]
    # only the images the model is shown: lmms-eval logs the image paths of each doc
    doc.update(image=reroot(row.get(image_field), doc["source"], root) if doc["visual"] == "combined" else "",
               frames=frames if doc["visual"] == "separate" else [])
    if doc["visual"] == "combined" and not doc["image"]:
        raise TempVSDataError(f"{image_field} is empty: no combined image to show")
    if doc["visual"] == "separate" and not (frames and all(frames)):
        raise TempVSDataError(f"{frames_field} {row.get(frames_field)!r} names no image for every frame")


def grounding_doc(row: Dict, source: str, task_id: str, mode: str, visual: str, root: Path) -> Dict:
    doc = _base_doc(row, source, task_id, "grounding", mode, visual, root)
    _set_images(doc, row, "img_path_list", "combined_img_path", root)
    number = re.search(r"(\d+)\s*$", doc["gt_option"])
    if number is None or int(number.group(1)) < 1:
        raise TempVSDataError(f"gt_option {doc['gt_option']!r} is not 'image N' (N from 1)")
    doc.update(event_index=int(number.group(1)) - 1, answer=number.group(1),
               choices=[str(k) for k in range(1, max(len(prompts.as_list(row.get("img_path_list"))), int(number.group(1))) + 1)])
    return doc


def main_doc(row: Dict, source: str, task_id: str, mode: str, visual: str, root: Path) -> Dict:
    doc = _base_doc(row, source, task_id, "main", mode, visual, root)
    kind = task_kind(task_id)
    if kind == "mt1":
        fields = ("img_path_list", "combined_img_path")
        statement = prompts.text(row.get("statement_type"))
        distance = row.get("event_distance")
        doc.update(option_text=prompts.text(row.get("option_text")), statement_type=statement,
                   event_distance=int(distance) if distance is not None else -1, choices=["A", "B"],
                   expected_partners=len(_event_tuple(row)))
    else:
        fields = ("img_path_list_shuffled", "combined_img_path_shuffled") if task_id.startswith("ordering_images") else (
            "img_path_list_gt", "combined_img_path_gt")
        doc.update(choices=_option_letters(prompts.text(row.get("options"))),
                   expected_partners=len(prompts.as_list(row.get("img_path_list_gt"))))
    _set_images(doc, row, *fields, root)
    letters = answer_letters(kind)
    doc["answer"] = doc["gt_option"][-1:]
    if doc["answer"] not in letters:
        raise TempVSDataError(f"gt_option {doc['gt_option']!r} does not end in an option letter {'/'.join(letters)}: "
                              "no answer could ever be scored right")
    return doc


def _doc(make: Callable[..., Dict], row: Dict, *args) -> Dict:
    """``make(row, *args)``; any error in the row is raised again naming its file, row and question_id."""
    try:
        return make(row, *args)
    except (KeyError, IndexError, TypeError, ValueError, SyntaxError) as error:
        detail = f"missing field {error.args[0]!r}" if isinstance(error, KeyError) else (
            str(error) if isinstance(error, TempVSDataError) else f"{type(error).__name__}: {error}")
        raise TempVSDataError(f"{row.get('_where', 'TempVS row')}: {detail}") from error


@dataclass
class LoadReport:
    """Row counts per (source, file) before and after each filter, for the log and the tests."""

    counts: Dict[str, Dict[str, Dict[str, int]]] = field(default_factory=dict)
    files: List[Path] = field(default_factory=list)  # every annotation and blind-prediction file read
    root: Optional[Path] = None  # the data folder they were read from

    def add(self, label: str, source: str, **stages: int) -> None:
        self.counts.setdefault(label, {})[source] = dict(stages)

    def total(self, label: str, stage: str) -> int:
        return sum(stages[stage] for stages in self.counts.get(label, {}).values())

    def log(self, task: str) -> None:
        for label, per_source in self.counts.items():
            for source, stages in per_source.items():
                paper = PAPER_COUNTS.get(label, {}).get(source)
                note = f" (paper Table 2: {paper})" if paper is not None else ""
                _log.info(f"TempVS {task}: {source} {label}: " + ", ".join(f"{k}={v}" for k, v in stages.items()) + note)


def _grounding_rows(root: Path, source: str, task_id: str, report: LoadReport, rows_of: RowsOf) -> List[Dict]:
    report.files.append(annotation_path(root, source, file_of(task_id)))
    rows = rows_of(root, source, task_id)
    kept = [row for row in rows if not has_invalid_event(row)]
    report.add(task_id, source, rows=len(rows), after_invalid_event_filter=len(kept))
    return kept


def _partners(row: Dict, by_sequence: Dict[str, List[Tuple[str, str]]], kind: str, source: str, task_id: str) -> List[str]:
    """The question ids of the main row's grounding partners (§7.1 step 3). MT1: per event index e,
    the FIRST grounding row of the sequence whose gt_option ends with str(e + 1) (none: nothing
    appended). Ordering: every grounding row of the sequence."""
    rows = by_sequence.get(str(row["img_seq_id"]), [])
    if kind != "mt1":
        return [key for _, key in rows]
    partners = []
    for event in _event_tuple(row):
        match = next((key for gt_option, key in rows if gt_option.endswith(str(event + 1))), None)
        if match is None:
            _log.warning(f"TempVS {task_id}: {source} {row['question_id']}: no grounding row for event {event}")
        else:
            partners.append(match)
    return partners


def build_main_docs(tests, mode: str = "standard", visual: str = "combined", blind_filter: bool = True,
                    with_grounding: bool = True, ask_grounding: bool = True, data_dir: Optional[Path] = None,
                    sources: Optional[Tuple[str, ...]] = None,
                    rows_of: RowsOf = annotation_rows) -> Tuple[List[Dict], LoadReport]:
    """Docs of one main test (``mt1_two`` ... ``mt3_caption``), or of several sharing a grounding
    test (MT2 and MT3 of one text kind): main questions after the filters and, with
    ``with_grounding``, every grounding question of the grounding file (after the invalid-event
    filter), each once. Order: per source, per image sequence, grounding then main docs (so
    ``--limit`` keeps the partners of every main question it keeps; the metrics never rely on it).
    ``ask_grounding`` False (``--tasks tempvs``, whose suite grounding task asks them): the main docs
    still name their partners, but no grounding doc is made.
    ``rows_of`` reads the rows of a task id (the released-predictions scorer reads the prediction files).
    A text-only run (``mode="blind"``) reads the blind predictions even without the filter and marks
    each MT1/MT2 main doc ``filter_kept``: whether the filter keeps it."""
    specs = [MAIN_TESTS[test] for test in ((tests,) if isinstance(tests, str) else tests)]
    grounding_task_id = specs[0].grounding_task_id
    if any(spec.grounding_task_id != grounding_task_id for spec in specs):
        raise ValueError(f"TempVS tests {[spec.name for spec in specs]} do not share one grounding test")
    root = data_root(data_dir)
    report = LoadReport(root=root)
    docs: List[Dict] = []
    for source in selected_sources(sources):
        sequences: "OrderedDict[str, Dict[str, List]]" = OrderedDict()
        for spec in specs:
            path = annotation_path(root, source, file_of(spec.task_id))
            rows = rows_of(root, source, spec.task_id)
            report.files.append(path)
            valid = [row for row in rows if not has_invalid_event(row)]
            stages = {"rows": len(rows), "after_invalid_event_filter": len(valid)}
            kept: Dict[str, bool] = {}
            if spec.blind_filtered and (blind_filter or mode == "blind"):
                counts = blind_correct_counts(root, source, spec.task_id, [str(row["question_id"]) for row in valid], report.files)
                kept = {str(row["question_id"]): counts[str(row["question_id"])] < BLIND_DROP_THRESHOLD for row in valid}
            if blind_filter and kept:
                valid = [row for row in valid if kept[str(row["question_id"])]]
                stages["after_blind_filter"] = len(valid)
            report.add(spec.task_id, source, **stages)
            for row in valid:
                # a text-only run marks the questions the filter keeps (Table 17's "after")
                filter_kept = kept.get(str(row["question_id"])) if mode == "blind" else None
                sequences.setdefault(str(row["img_seq_id"]), {"grounding": [], "main": []})["main"].append((spec, row, filter_kept))
        by_sequence: Dict[str, List[Tuple[str, str]]] = defaultdict(list)
        if with_grounding:
            for row in _grounding_rows(root, source, grounding_task_id, report, rows_of):
                sequence = str(row["img_seq_id"])
                sequences.setdefault(sequence, {"grounding": [], "main": []})["grounding"].append(row)
                by_sequence[sequence].append((str(row["gt_option"]), str(row["question_id"])))
        for members in sequences.values():
            for row in members["grounding"] if ask_grounding else ():
                docs.append(_doc(grounding_doc, row, source, grounding_task_id, "standard", visual, root))
            for spec, row, filter_kept in members["main"]:
                doc = _doc(main_doc, row, source, spec.task_id, mode, visual, root)
                if filter_kept is not None:
                    doc["filter_kept"] = filter_kept
                if with_grounding:
                    doc["partners"] = _partners(row, by_sequence, spec.family, source, spec.task_id)
                docs.append(doc)
    _check_unique(docs)
    _check_images(docs)
    return docs, report


def build_grounding_docs(task_id: str, visual: str = "combined", data_dir: Optional[Path] = None,
                         sources: Optional[Tuple[str, ...]] = None) -> Tuple[List[Dict], LoadReport]:
    """Docs of a standalone grounding test (``single_grounding_*``), after the invalid-event filter."""
    root = data_root(data_dir)
    report = LoadReport(root=root)
    docs = []
    for source in selected_sources(sources):
        docs += [_doc(grounding_doc, row, source, task_id, "standard", visual, root)
                 for row in _grounding_rows(root, source, task_id, report, annotation_rows)]
    _check_unique(docs)
    _check_images(docs)
    return docs, report


def build_distinct_grounding_docs(tests: Sequence[str], visual: str = "combined", data_dir: Optional[Path] = None,
                                  sources: Optional[Tuple[str, ...]] = None) -> Tuple[List[Dict], LoadReport]:
    """One doc per distinct grounding request (prompt text and the images shown, in order) of the
    grounding tests ``tests`` (our names, ``gt_paired`` ...), after the invalid-event filter: the
    paired, triple and all-events files ask many of the same questions (issue 28). Each doc is the
    first row asking it and lists in ``serves`` every question it answers, as
    ``[test, question_id, gt_option, img_seq_id]`` (the gold answer is each question's own)."""
    root = data_root(data_dir)
    report = LoadReport(root=root)
    docs: List[Dict] = []
    for source in selected_sources(sources):
        asked: Dict[Tuple, Dict] = {}
        for test in tests:
            task_id = GROUNDING_TESTS[test]
            for row in _grounding_rows(root, source, task_id, report, annotation_rows):
                doc = _doc(grounding_doc, row, source, task_id, "standard", visual, root)
                served = [test, doc["question_id"], doc["gt_option"], doc["img_seq_id"]]
                request = (doc["prompt"], tuple(_shown_images(doc)))
                if request in asked:
                    asked[request]["serves"].append(served)
                else:
                    asked[request] = {**doc, "serves": [served]}
                    docs.append(asked[request])
    _check_unique(docs)
    _check_images(docs)
    return docs, report


def _shown_images(doc: Dict) -> List[str]:
    return {"combined": [doc["image"]], "separate": doc["frames"]}.get(doc["visual"], [])


def _check_images(docs: List[Dict]) -> None:
    """Fail at load, not hours into a run, when images the docs show are missing (each file is
    checked once; ``doc_to_visual`` still names a file that disappears or cannot be decoded later)."""
    first_doc: Dict[str, str] = {}
    for doc in docs:
        for path in _shown_images(doc):
            first_doc.setdefault(path, doc["doc_key"])
    missing = [(path, key) for path, key in first_doc.items() if not Path(path).is_file()]
    if missing:
        examples = "; ".join(f"{path} (doc {key})" for path, key in missing[:5])
        raise TempVSDataError(f"{len(missing)} TempVS image file(s) missing, e.g. {examples} "
                              f"(image paths are re-rooted at {DATA_DIR_ENV} / the hub snapshot)")


def _check_unique(docs: List[Dict]) -> None:
    seen = set()
    for doc in docs:
        if doc["doc_key"] in seen:
            raise TempVSDataError(f"duplicate TempVS question {doc['doc_key']} (question_id must be unique per source and file)")
        seen.add(doc["doc_key"])


def official_request_count(test: str, data_dir: Optional[Path] = None, sources: Optional[Tuple[str, ...]] = None) -> int:
    """Requests the official per-task protocol makes for one main test's four numbers: inference on
    every row of the main file and of its grounding file (the filters act at evaluation time)."""
    spec = MAIN_TESTS[test]
    root = data_root(data_dir)
    return sum(len(read_annotations(root, source, file_of(spec.task_id))) + len(read_annotations(root, source, file_of(spec.grounding_task_id)))
               for source in selected_sources(sources))


__all__ = ["build_main_docs", "build_grounding_docs", "build_distinct_grounding_docs", "data_root", "official_request_count", "LoadReport", "TempVSDataError", "UNK"]
