"""Load a CaT-Bench split from the hub or a local copy into normalised questions.

The hub dataset's rows are step pairs (:func:`expand_hf_rows`); lmms-eval loads them itself and
the tasks' ``process_docs`` expand them (catbench/hooks.py). Local layouts (``CATBENCH_DATA_DIR``),
detected from the folder's content:

* release (A): a folder holding the four ``{dependent,nondependent}_real_{before,after}.jsonl``
  files of one split, or a root holding ``{train,val,test}_must_why/`` folders of them;
* Hugging Face files: ``train.jsonl``, ``val.jsonl``, ``test.jsonl`` (one row = one step pair,
  expanded into a before and an after question).
"""

import logging
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

from temporal_bench.catbench.questions import (
    RELATIONS,
    CatBenchDataError,
    binary_question,
    expand_hf_rows,
    make_question,
    require_fields,
    steps_of,
)
from temporal_bench.utils.data_dir import from_hub, local_data_dir
from temporal_bench.utils.data_fingerprint import DataSource, log_source
from temporal_bench.utils.json_lines import json_lines
from temporal_bench.utils.synthetic_data import is_synthetic
from temporal_bench.utils.warn_once import warn_once

logger = logging.getLogger(__name__)

HUB_ID = "vanyacohen/CaT-Bench"
DATA_DIR_ENV = "CATBENCH_DATA_DIR"
LOCAL_LAYOUT = (
    "a folder holding the original release's four {dependent,nondependent}_real_{before,after}.jsonl "
    "files of a split, or a root with {train,val,test}_must_why/ folders of them, or the Hugging Face "
    "files train.jsonl / val.jsonl / test.jsonl"
)
SPLITS = ("train", "validation", "test")
RELEASE_DIR_NAMES = {"train": "train_must_why", "validation": "val_must_why", "test": "test_must_why"}
HF_FILE_NAMES = {"train": "train.jsonl", "validation": "val.jsonl", "test": "test.jsonl"}
RELEASE_FILES = {(dependent, relation): f"{'dependent' if dependent else 'nondependent'}_real_{relation}.jsonl" for dependent in (True, False) for relation in RELATIONS}
RELEASE_FIELDS = ("title", "steps", "question_idx", "step_pair_idx_asked_about", "binary_question")

# (questions, dep, before, close at d <= 3) of the full splits: paper §3 and the released files
# (docs/protocol/catbench.md §3).
EXPECTED_COUNTS = {"test": (2840, 1420, 1420, 1256), "validation": (1616, 808, 808, 746)}


def how_to_select(split: str) -> str:
    """How a user makes a run evaluate ``split`` (the one place that says it; docs/catbench.md "Data")."""
    return f"a task with test_split: {split} (lmms-eval: a YAML that includes the task and sets it) or " f'lm-eval\'s --metadata \'{{"data_split": "{split}"}}\''


def _read_jsonl(path: Path) -> List[tuple]:
    return json_lines(path, path.read_text(encoding="utf-8"), CatBenchDataError)


def _step_pair(value, where: str) -> tuple:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(type(i) is int for i in value)):
        raise CatBenchDataError(f"{where}: step_pair_idx_asked_about {value!r:.80} is not a pair of step indices")
    return tuple(value)


def _release_question(row: Dict, dependent: bool, relation: str, where: str) -> Dict:
    require_fields(row, RELEASE_FIELDS, where)
    a, b = _step_pair(row["step_pair_idx_asked_about"], where)
    steps = steps_of(row["steps"], where)
    if not (0 <= a < b < len(steps)):
        raise CatBenchDataError(f"{where}: step pair {[a, b]} is not an ordered pair of the {len(steps)} steps")
    if row["binary_question"] != binary_question(relation, a, b):
        raise CatBenchDataError(f"{where}: binary_question {row['binary_question']!r} does not ask about steps {[a, b]} ({relation})")
    return make_question(row["title"], steps, a, b, relation, dependent, row["binary_question"])


def load_release_split(folder: Path) -> List[Dict]:
    """The four files of one release (A) split, Dep before NonDep, before-file before after-file."""
    questions = []
    for (dependent, relation), name in RELEASE_FILES.items():
        path = folder / name
        if not path.is_file():
            raise CatBenchDataError(f"{folder}: release file {name} is missing (found {sorted(p.name for p in folder.iterdir())})")
        questions += [_release_question(row, dependent, relation, f"{path}:{line_no}") for line_no, row in _read_jsonl(path)]
    return questions


def detect_layout(folder: Path, split: str) -> tuple:
    """(layout, path) for ``split`` under ``folder``; a clear error when nothing fits."""
    present = [name for name in RELEASE_FILES.values() if (folder / name).is_file()]
    if len(present) == len(RELEASE_FILES):
        return "release", folder
    if present:
        missing = sorted(set(RELEASE_FILES.values()) - set(present))
        raise CatBenchDataError(f"{DATA_DIR_ENV}={folder}: an incomplete release split, {missing} missing (found {sorted(present)})")
    if (folder / RELEASE_DIR_NAMES[split]).is_dir():
        return "release", folder / RELEASE_DIR_NAMES[split]
    if (folder / HF_FILE_NAMES[split]).is_file():
        return "hf", folder / HF_FILE_NAMES[split]
    found = sorted(p.name for p in folder.iterdir())[:20]
    others = [other for other in SPLITS if (folder / RELEASE_DIR_NAMES[other]).is_dir() or (folder / HF_FILE_NAMES[other]).is_file()]
    raise CatBenchDataError(
        f"{DATA_DIR_ENV}={folder}: no CaT-Bench {split!r} split found. Expected the four "
        f"*_real_{{before,after}}.jsonl files, a {RELEASE_DIR_NAMES[split]}/ folder of them, or "
        f"{HF_FILE_NAMES[split]} (Hugging Face layout). Found: {found}" + (f"; it holds the {' and '.join(others)} split: run {how_to_select('|'.join(others))} to evaluate it" if others else "")
    )


def load_split(split: str, data_dir: Optional[Path] = None) -> List[Dict]:
    """Questions of ``split`` from ``data_dir`` (or ``CATBENCH_DATA_DIR``, else the hub)."""
    return read_split(split, data_dir)[0]


def read_split(split: str, data_dir: Optional[Path] = None) -> Tuple[List[Dict], str]:
    """(questions of ``split``, fingerprint of the files read) from ``data_dir`` (or
    ``CATBENCH_DATA_DIR``, else the hub); the source is logged (utils/data_fingerprint.py)."""
    if split not in SPLITS:
        raise ValueError(f"unknown CaT-Bench split {split!r}; choose one of {SPLITS}")
    data_dir = data_dir or local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if data_dir is None:
        import datasets

        rows = from_hub(lambda: datasets.load_dataset(HUB_ID, split=split), HUB_ID, DATA_DIR_ENV, LOCAL_LAYOUT)
        return hub_questions(rows)
    layout, path = detect_layout(Path(data_dir), split)
    if layout == "release":
        questions = load_release_split(path)
        paths = [path / name for name in RELEASE_FILES.values()]
    else:
        questions = expand_hf_rows(_read_jsonl_where(path))
        paths = [path]
    _check_counts(split, questions, synthetic=is_synthetic(data_dir))
    return questions, log_source("CaT-Bench", DataSource(DATA_DIR_ENV, f"{DATA_DIR_ENV}={data_dir} ({split}, {layout} layout)", folder=Path(data_dir)), paths)


def hub_questions(rows) -> Tuple[List[Dict], str]:
    """(questions, fingerprint) of one split of the hub dataset as ``datasets`` loaded it; the source
    names the cached revision, the fingerprint covers the split's cached Arrow files."""
    split = str(rows.split)
    questions = expand_hf_rows((f"{HUB_ID}[{split}] row {i}", row) for i, row in enumerate(rows))
    _check_counts(split, questions)
    paths = [Path(entry["filename"]) for entry in rows.cache_files]
    revision = paths[0].parent.name if paths else "in memory"
    return questions, log_source("CaT-Bench", DataSource(DATA_DIR_ENV, f"hub {HUB_ID} ({split}, cached revision {revision})", hub=HUB_ID, revision=revision), paths)


def _read_jsonl_where(path: Path) -> Iterable[tuple]:
    return ((f"{path}:{line_no}", row) for line_no, row in _read_jsonl(path))


def _check_counts(split: str, questions: List[Dict], synthetic: bool = False) -> None:
    duplicates = len(questions) - len({q["question_id"] for q in questions})
    if duplicates:
        raise CatBenchDataError(f"CaT-Bench {split}: {duplicates} duplicate questions (same plan, step pair and relation)")
    expected = EXPECTED_COUNTS.get(split)
    if synthetic:
        logger.info("CaT-Bench %s split: synthetic data (utils/synthetic_data.py), not compared with the release's counts", split)
        return
    if expected is None:
        return
    found = (
        len(questions),
        sum(q["dependency"] == "dep" for q in questions),
        sum(q["relation"] == "before" for q in questions),
        sum(q["distance"] <= 3 for q in questions),
    )
    if found != expected:
        matches = [other for other, counts in EXPECTED_COUNTS.items() if counts == found]
        hint = f"; these files match the released {matches[0]} split ({found[0]:,} questions): run {how_to_select(matches[0])} to evaluate it as such" if matches else ""
        warn_once(logger, f"CaT-Bench {split} split: (questions, Dep, before, close) = {found}, the released {split} split has {expected}{hint}")
