"""The question rows of TempVS for this package's tasks (lmms_eval_tasks/plugin/data_routes.py), in the converted
dataset's schema (lmms_eval_tasks/tempvs/tempvs_to_hf.py) with each image's absolute path: from the folder
``TEMPVS_DATA_DIR`` names, else the hub release ``yingjins/TempVS``.

The folder holds the release (``benchmark_pkl/``, or its JSON twins ``benchmark/``, the image folders and
``predictions/blind/``), here or under ``data/``, or a converted dataset (``data/test-*.parquet`` and ``images.zip``,
unpacked once into a cache folder). Besides the converter's columns a release's rows have the prompts of the prompt
modes this package's variants ask (``prompt_cot``, ``prompt_blind``, ``prompt_images_only``, where the mode applies)
and ``frames``, one image per event (the separate-images variants).
"""

import hashlib
import json
import zipfile
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import datasets

from temporal_bench.lmms_eval_tasks.plugin.data_routes import from_hub, json_lines_after, local_data_dir, nonempty
from temporal_bench.lmms_eval_tasks.tempvs import tempvs_to_hf
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES, TempVSDataError, task_kind
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import ANS, IMGIDX, as_list, checked_question, has_invalid_event, options_tail, prompt, required, reroot, shuffled_block

HUB_RELEASE = "yingjins/TempVS"
DATA_DIR_ENV = "TEMPVS_DATA_DIR"
LOCAL_LAYOUT = "the folder holding the release's benchmark_pkl/ (or benchmark/), the image folders of the four sources and predictions/blind/ for the text-only-LLM filter, or a folder with such a data/ subfolder, or a converted dataset (data/test-*.parquet and images.zip)"
# Table 19's "image only" column: the paper describes it (Appendix D.3), the official code has no prompt for it.
# The MT3 prompt without the story's text, and an instruction asking for the order the images themselves show.
IMAGES_ONLY_INSTRUCTION = (
    "The images show a story or event sequence. Use your visual reasoning to reorder the images into the order in which the events they show happen. Focus on the events, actions, and details in the images to reorder them logically."
)
PROMPT_MODES = ("standard", "cot", "blind", "images_only")


def mode_prompt(row: dict, task_id: str, mode: str) -> str:
    """The prompt of a main test's ``row`` in a prompt mode besides the standard one: cot, blind (the text-only LLMs'),
    images_only."""
    story = task_id.endswith("_story")
    if mode == "cot":
        return prompt({**row, "task_instruction": required(row, "task_instruction_cot" if task_kind(task_id) == "mt1" else "task_instruction_cot_opt")}, task_id)
    if mode == "blind":
        if task_id.endswith("event_discrimination"):
            return "\nThe statement is: " + required(row, "statement_text") + "\n" + required(row, "blind_instruction") + "\nOptions are: " + required(row, "option_text") + ANS
        if task_id.startswith("ordering_texts"):
            return "\n" + required(row, "blind_instruction_opt") + shuffled_block(row, story) + options_tail(row)
        raise ValueError(f"TempVS {task_id} has no text-only (blind) prompt")
    if not task_id.startswith("ordering_images"):
        raise ValueError(f"TempVS {task_id} has no images-only prompt (image ordering, MT3, has)")
    return "\n" + IMAGES_ONLY_INSTRUCTION + IMGIDX + options_tail(row)


def _json_rows(path: Path) -> list[dict]:
    """The rows of a JSON twin of a pickled DataFrame (any of pandas' orients) or of JSON lines."""
    raw = path.read_text(encoding="utf-8")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        data = [row for _, row in json_lines_after(error, path, raw, TempVSDataError)]
    if isinstance(data, dict) and "data" in data and "columns" in data:  # orient="split"
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


def read_table(path: Path) -> list[dict]:
    """The rows of a pickled DataFrame, or of its JSON / JSON-lines twin."""
    nonempty(path, TempVSDataError)
    if path.suffix == ".pkl":
        return tempvs_to_hf.read_table(path)
    return [{key: tempvs_to_hf._clean(value) for key, value in row.items()} for row in _json_rows(path)]


class LocalRelease(tempvs_to_hf.Release):
    """A release folder whose files may be the pickles or their JSON twins (``benchmark/``), read for a task of this
    package: its data sources ``sources``, the text-only LLMs' verdicts only where ``blind``; ``read``: another reader of
    a task id's rows (the released model outputs are scored on the rows of their prediction files). It keeps the files
    it read (``files``), and each annotation row read by (source, task id, question id) with the rows per (task id,
    source) before the invalid-event filter (``annotations``, ``read_counts``)."""

    def __init__(self, root: Path, read: Callable[[Path, str, str], list[dict]] | None = None, sources: Sequence[str] = SOURCES, blind: bool = True):
        super().__init__(root)
        self.read, self.sources, self.blind = read, tuple(sources), blind
        self.files: list[Path] = []
        self.annotations: dict[tuple[str, str, str], dict] = {}
        self.read_counts: dict[tuple[str, str], int] = {}

    def file(self, folder: Path, stem: str) -> Path:
        twins = self.root / "benchmark" if folder.name == "benchmark_pkl" else folder
        path = next((p for p in (folder / f"{stem}.pkl", twins / f"{stem}.json", twins / f"{stem}.pkl", twins / f"{stem}.jsonl") if p.is_file()), None)
        if path is None:
            what = "annotation file" if folder.name == "benchmark_pkl" else "blind prediction file"
            hint = f" under {self.root}/benchmark_pkl or {self.root}/benchmark" if folder.name == "benchmark_pkl" else ": the text-only-LLM filter needs it (use the *_unfiltered task to evaluate without that filter)"
            raise TempVSDataError(f"TempVS {what} {stem if folder.name == 'benchmark_pkl' else folder / stem}.pkl/.json is missing{hint}")
        self.files.append(path)
        return path

    def table(self, path: Path) -> list[dict]:
        return read_table(path)

    def rows(self, source: str, task_id: str) -> list[dict]:
        if source not in self.sources:
            return []
        rows = super().rows(source, task_id) if self.read is None else self.read(self.root, source, task_id)
        self.read_counts[task_id, source] = len(rows)
        self.annotations.update(((source, task_id, str(row["question_id"])), row) for row in rows)
        return rows

    def blind_correct(self, source: str, task_id: str, question_ids: Sequence[str]) -> dict[str, int]:
        return super().blind_correct(source, task_id, question_ids) if self.blind else {}

    def rows_of(self, path: Path, source: str) -> list[dict]:
        """The rows of a file of the release's layout (a prediction file: the annotation rows plus ``preds``)."""
        return self.checked(path, source)


class Questions(NamedTuple):
    rows: list[dict]  # per source (evaluation order), per test, in file order
    counts: dict[tuple[str, str], dict[str, int]]  # (official task id, source) -> rows before and after the invalid-event filter


def find_root(folder: Path, fix: str = "") -> Path:
    """The folder holding ``benchmark_pkl/`` or ``benchmark/``: ``folder`` or its ``data/``."""
    for candidate in (folder, folder / "data"):
        if (candidate / "benchmark_pkl").is_dir() or (candidate / "benchmark").is_dir():
            return candidate
    found = sorted(p.name for p in folder.iterdir())[:20] if folder.is_dir() else []
    raise TempVSDataError(f"{folder}: no TempVS layout (expected benchmark_pkl/ or benchmark/ here or under data/); found {found}{fix}")


def _columns(root: Path, row: dict, task_id: str, modes: Sequence[str], frames: bool) -> dict:
    """The columns the converter's rows lack, from the annotation ``row``: the prompts of ``modes`` (main tests), the
    frames where the task shows them (``frames``; absolute, none: an error naming the row)."""
    extra: dict = {"frames": []}
    if frames:
        frames_field = tempvs_to_hf.image_fields(task_id)[0]
        extra["frames"] = [str(root / reroot(path, row["data_source"])) for path in as_list(row.get(frames_field))]
        if not extra["frames"]:
            raise TempVSDataError(f"{row['_where']}: {frames_field} is empty: no frame images to show")
    return {**extra, **{f"prompt_{mode}": "" if "grounding" in task_id else mode_prompt(row, task_id, mode) for mode in modes if mode != "standard"}}


def question_rows(release: LocalRelease, tests: Sequence[str]) -> list[dict]:
    """The converter's question rows of ``tests``: main tests with their grounding tests, or a grounding test alone."""
    main = [test for test in tests if test in MAIN_TESTS]
    rows = tempvs_to_hf.question_rows(release, main) if main else []
    for task_id in (GROUNDING_TESTS[test] for test in tests if test in GROUNDING_TESTS):
        rows += [{**checked_question(row, source, task_id), "blind_correct": -1} for source in SOURCES for row in release.rows(source, task_id) if not has_invalid_event(row)]
    return rows


def release_question_rows(root: Path, tests: Sequence[str], modes: Sequence[str] = ("standard",), blind: bool = True, sources: Sequence[str] = SOURCES, read=None, frames: bool = False) -> Questions:
    """The question rows of a release folder for ``tests``, each image an absolute path, with the columns the package's
    tasks read besides (``read``: :class:`LocalRelease`; ``frames``: the task shows the frames, which every row must
    name)."""
    release = LocalRelease(root, read, sources, blind)
    rows = question_rows(release, tests)
    rows = [{**row, **_columns(root, release.annotations[row["source"], row["task_id"], row["question_id"]], row["task_id"], modes, frames), "image": str(root / row["image"])} for row in rows]
    kept = Counter((row["task_id"], row["source"]) for row in rows)
    return Questions(rows, {key: {"rows": n, "after_invalid_event_filter": kept[key]} for key, n in release.read_counts.items()})


def _converted_rows(folder: Path) -> list[dict]:
    """The rows of a converted dataset, its images unpacked once (by the archive's content) into a cache folder. The
    parquet files are named to ``datasets`` (by the folder and its card's configs, ``datasets`` 5.2 would serve a
    dataset rebuilt in the same folder from its cache)."""
    archive = folder / "images.zip"
    digest = hashlib.sha256(nonempty(archive, TempVSDataError).read_bytes()).hexdigest()[:16] if archive.is_file() else ""
    images = Path(datasets.config.HF_DATASETS_CACHE) / "temporal_bench" / f"tempvs_images_{digest}"
    if digest and not images.is_dir():
        try:
            with zipfile.ZipFile(archive) as opened:
                opened.extractall(images.with_suffix(".partial"))
        except zipfile.BadZipFile as error:
            raise TempVSDataError(f"{archive}: not a readable zip archive ({error}); a truncated or corrupt copy?") from error
        images.with_suffix(".partial").rename(images)
    rows = datasets.load_dataset("parquet", data_files={"test": sorted(str(nonempty(path, TempVSDataError)) for path in (folder / "data").glob("test-*.parquet"))}, split="test")
    return [{**row, "image": str(images / row["image"])} for row in rows]


def release_rows(tests: Sequence[str], modes: Sequence[str] = ("standard",), blind: bool = True, sources: Sequence[str] = SOURCES, frames: bool = False) -> list[dict]:
    """The rows of ``tests`` from ``TEMPVS_DATA_DIR`` (a release or a converted dataset), else the hub release."""
    folder = local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if folder is not None and list((folder / "data").glob("test-*.parquet")) and not (folder / "data" / "benchmark_pkl").is_dir():
        if set(modes) - {"standard"}:
            raise TempVSDataError(f"{DATA_DIR_ENV}={folder} is a converted dataset, which holds the standard prompts only: the prompt mode(s) {sorted(set(modes) - {'standard'})} need the release")
        return _converted_rows(folder)
    if folder is None:
        from huggingface_hub import snapshot_download

        folder = Path(from_hub(lambda: snapshot_download(repo_id=HUB_RELEASE, repo_type="dataset"), HUB_RELEASE, DATA_DIR_ENV, LOCAL_LAYOUT))
    root = find_root(folder, f"; set {DATA_DIR_ENV} to {LOCAL_LAYOUT}")
    return release_question_rows(root, tests, modes, blind, sources, frames=frames).rows
