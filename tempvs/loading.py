"""Read the released TempVS layout (docs/protocol/tempvs.md §2-§3) and build a task's docs from it
(tempvs/docs.py builds them from the rows; a converted hub dataset goes through tempvs/hub_dataset.py).

Data source: ``TEMPVS_DATA_DIR`` (the folder holding ``benchmark_pkl/`` or ``benchmark/`` and the
image folders, or a folder with a ``data/`` subfolder like that), else a snapshot of the Hugging Face
dataset ``yingjins/TempVS``. Image paths stored in the rows are re-rooted at that folder.
"""

import json
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from temporal_bench.tempvs import hub_dataset
from temporal_bench.tempvs.docs import (
    LoadReport,
    distinct_grounding_docs,
    grounding_docs,
    has_invalid_event,
    main_docs,
    shown_images,
    task_docs,
)
from temporal_bench.tempvs.extraction import is_correct, official_extract
from temporal_bench.tempvs.pickled_frames import RefusedPickleGlobal, load_pickled_frame
from temporal_bench.tempvs.settings import TaskSettings
from temporal_bench.tempvs.spec import (
    BLIND_MODELS,
    MAIN_TESTS,
    TempVSDataError,
    file_of,
    selected_sources,
    task_kind,
)
from temporal_bench.utils import converted_dataset
from temporal_bench.utils.data_dir import from_hub, local_data_dir
from temporal_bench.utils.data_fingerprint import DataSource
from temporal_bench.utils.json_lines import json_lines_after

HUB_ID = "yingjins/TempVS"
DATA_DIR_ENV = "TEMPVS_DATA_DIR"
LOCAL_LAYOUT = "the folder holding the release's benchmark_pkl/ (or benchmark/), the image folders of the four sources and predictions/blind/ for the text-only-LLM filter, or a folder with such a data/ subfolder"


# ---- locating and reading the files -------------------------------------------------------------


def find_layout_root(folder: Path, named_by: str = "") -> Path:
    """The folder holding ``benchmark_pkl/`` or ``benchmark/`` (the folder itself or its ``data/``);
    ``named_by``: the variable that named ``folder``, for the error's fix."""
    for candidate in (folder, folder / "data"):
        if (candidate / "benchmark_pkl").is_dir() or (candidate / "benchmark").is_dir():
            return candidate
    found = sorted(p.name for p in folder.iterdir())[:20] if folder.is_dir() else []
    fix = f"; set {named_by} to {LOCAL_LAYOUT}" if named_by else ""
    raise TempVSDataError(f"{folder}: no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/); found {found}{fix}")


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
            raise TempVSDataError(f"{path}: cannot be unpickled ({type(error).__name__}: {error}); a truncated or corrupt file?") from error
        if not isinstance(frame, pandas.DataFrame):
            raise TempVSDataError(f"{path}: holds a {type(frame).__name__}, not a pandas DataFrame of rows")
        return _frame_rows(frame)
    return [{key: _clean(value) for key, value in row.items()} for row in _json_rows(path)]


def annotation_path(root: Path, source: str, file_name: str) -> Path:
    """``benchmark_pkl/{source}_{file}_test.pkl`` (what the code reads), else the JSON twin in ``benchmark/``."""
    stem = f"{source}_{file_name}_test"
    for candidate in (root / "benchmark_pkl" / f"{stem}.pkl", root / "benchmark" / f"{stem}.json", root / "benchmark" / f"{stem}.pkl", root / "benchmark" / f"{stem}.jsonl"):
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
    raise TempVSDataError(f"blind prediction file {folder / stem}.pkl is missing: the text-only-LLM filter needs it (use the *_unfiltered task to evaluate without that filter)")


def blind_correctness(root: Path, source: str, task_id: str, question_ids: Sequence[str] = (), read: Optional[List[Path]] = None) -> Dict[str, List[bool]]:
    """question_id -> whether each text-only LLM (``BLIND_MODELS`` order) answered it correctly, each with its own parser;
    a row with an invalid event (§7.2) counts as wrong.

    Each model's file must hold a prediction for every id in ``question_ids``: a question one file
    lacks would silently count as that model's wrong answer and change the filter. ``read``
    collects the files read."""
    kind = task_kind(task_id)
    verdicts: Dict[str, List[bool]] = {}
    for index, (model, suffix) in enumerate(BLIND_MODELS):
        family = "llama_blind" if model == "Llama-3.1-8B" else "generic"
        path = blind_prediction_path(root, model, suffix, source, task_id)
        if read is not None:
            read.append(path)
        seen = set()
        for i, row in enumerate(read_table(path)):
            if row.get("question_id") is None or row.get("gt_option") is None or "preds" not in row:
                raise TempVSDataError(f"{path} row {i}: a blind prediction row needs question_id, gt_option and preds; found {sorted(row)}")
            question_id = str(row["question_id"])
            seen.add(question_id)
            correct = not has_invalid_event(row) and is_correct(official_extract(row["preds"], kind, family), row["gt_option"])
            verdicts.setdefault(question_id, [False] * len(BLIND_MODELS))[index] = correct
        if not seen:
            raise TempVSDataError(f"{path}: blind predictions of {model} for {source}/{task_id} are empty")
        missing = [question_id for question_id in question_ids if question_id not in seen]
        if missing:
            raise TempVSDataError(f"{path}: no prediction for {len(missing)} question(s) of {source}/{task_id}, e.g. question_id {missing[:3]}")
    return verdicts


class ReleaseRows:
    """The rows of the release's files (docs.RowSource); ``files`` collects every file read, for the fingerprint."""

    def __init__(self, root: Path, rows_of: RowsOf = annotation_rows):
        self.root = root
        self.rows_of = rows_of  # the released-predictions scorer reads the prediction files instead
        self.files: List[Path] = []

    def rows(self, source: str, task_id: str) -> List[Dict]:
        self.files.append(annotation_path(self.root, source, file_of(task_id)))
        return self.rows_of(self.root, source, task_id)

    def blind_correct(self, source: str, task_id: str, question_ids: Sequence[str]) -> Dict[str, int]:
        return {question_id: sum(verdicts) for question_id, verdicts in blind_correctness(self.root, source, task_id, question_ids, self.files).items()}


def _from_release(build: Callable[..., Tuple[List[Dict], LoadReport]], data_dir: Optional[Path], rows_of: RowsOf, *args, **kwargs) -> Tuple[List[Dict], LoadReport]:
    """``build(rows, *args, **kwargs)`` over the release's files, with the images the docs show checked and the files read in the report."""
    rows = ReleaseRows(data_root(data_dir), rows_of)
    docs, report = build(rows, *args, **kwargs)
    _check_images(docs)
    report.files = rows.files
    return docs, report


def build_main_docs(
    tests,
    mode: str = "standard",
    visual: str = "combined",
    blind_filter: bool = True,
    with_grounding: bool = True,
    ask_grounding: bool = True,
    data_dir: Optional[Path] = None,
    sources: Optional[Tuple[str, ...]] = None,
    rows_of: RowsOf = annotation_rows,
) -> Tuple[List[Dict], LoadReport]:
    """docs.main_docs over the release; ``rows_of`` reads the rows of a task id (the released-predictions scorer reads the prediction files)."""
    return _from_release(main_docs, data_dir, rows_of, tests, mode=mode, visual=visual, blind_filter=blind_filter, with_grounding=with_grounding, ask_grounding=ask_grounding, sources=sources)


def build_grounding_docs(task_id: str, visual: str = "combined", data_dir: Optional[Path] = None, sources: Optional[Tuple[str, ...]] = None) -> Tuple[List[Dict], LoadReport]:
    """docs.grounding_docs over the release."""
    return _from_release(grounding_docs, data_dir, annotation_rows, task_id, visual=visual, sources=sources)


def build_distinct_grounding_docs(tests: Sequence[str], visual: str = "combined", data_dir: Optional[Path] = None, sources: Optional[Tuple[str, ...]] = None) -> Tuple[List[Dict], LoadReport]:
    """docs.distinct_grounding_docs over the release."""
    return _from_release(distinct_grounding_docs, data_dir, annotation_rows, tests, visual=visual, sources=sources)


def load_task_docs(settings: TaskSettings, data_dir: Optional[Path] = None) -> Tuple[List[Dict], LoadReport, DataSource]:
    """The docs of a task with ``settings``, their load report and where they came from: ``data_dir`` (else
    ``TEMPVS_DATA_DIR``, else the hub release) holding the release, or a dataset converted by
    the build-dataset command (tempvs/dataset_builder.py; detected by its card), whose config for the task goes through
    hub_dataset.docs_from_dataset."""
    folder = Path(data_dir) if data_dir else local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if folder is not None and converted_dataset.is_converted(folder):
        config = hub_dataset.config_of(settings)
        dataset, files = converted_dataset.load_config(folder, config, TempVSDataError)
        docs, report = hub_dataset.docs_and_report(dataset, settings)
        report.files, report.root = files, folder
        return docs, report, DataSource(DATA_DIR_ENV, f"converted dataset {folder} (config {config})", folder=folder)
    docs, report = _from_release(task_docs, data_dir, annotation_rows, settings)  # the release names TEMPVS_DATA_DIR in its errors
    return docs, report, describe_source(report.root)


def _check_images(docs: List[Dict]) -> None:
    """Fail at load, not hours into a run, when images the docs show are missing (each file is
    checked once; ``doc_to_visual`` still names a file that disappears or cannot be decoded later)."""
    first_doc: Dict[str, str] = {}
    for doc in docs:
        for path in shown_images(doc):
            first_doc.setdefault(path, doc["doc_key"])
    missing = [(path, key) for path, key in first_doc.items() if not Path(path).is_file()]
    if missing:
        examples = "; ".join(f"{path} (doc {key})" for path, key in missing[:5])
        raise TempVSDataError(f"{len(missing)} TempVS image file(s) missing, e.g. {examples} (image paths are re-rooted at {DATA_DIR_ENV} / the hub snapshot)")


def official_request_count(test: str, data_dir: Optional[Path] = None, sources: Optional[Tuple[str, ...]] = None) -> int:
    """Requests the official per-task protocol makes for one main test's four numbers: inference on
    every row of the main file and of its grounding file (the filters act at evaluation time)."""
    spec = MAIN_TESTS[test]
    root = data_root(data_dir)
    return sum(len(read_annotations(root, source, file_of(spec.task_id))) + len(read_annotations(root, source, file_of(spec.grounding_task_id))) for source in selected_sources(sources))
