"""Where a CaT-Bench split's questions come from: the hub dataset ``vanyacohen/CaT-Bench`` (read as it is: one row per
step pair, two questions each), or a local copy named by ``CATBENCH_DATA_DIR``, in one of two layouts:

* the original release: the four ``{dependent,nondependent}_real_{before,after}.jsonl`` files of one split, or a
  root holding ``{train,val,test}_must_why/`` folders of them;
* the hub dataset's files: ``train.jsonl``, ``val.jsonl``, ``test.jsonl``.
"""

from pathlib import Path
from typing import Dict, List, Tuple

from loguru import logger as eval_logger

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import (
    DataSource,
    from_hub,
    local_data_dir,
)
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.json_lines import json_lines
from temporal_bench.lmms_eval_tasks.catbench.questions import (
    RELATIONS,
    CatBenchDataError,
    binary_question,
    expand_hf_rows,
    make_question,
    require_fields,
    steps_of,
)

HUB_ID = "vanyacohen/CaT-Bench"
DATA_DIR_ENV = "CATBENCH_DATA_DIR"
LOCAL_LAYOUT = (
    "a folder holding the original release's four {dependent,nondependent}_real_{before,after}.jsonl files of a split, or a root with "
    "{train,val,test}_must_why/ folders of them, or the Hugging Face files train.jsonl / val.jsonl / test.jsonl"
)
SPLITS = ("train", "validation", "test")
RELEASE_DIR_NAMES = {"train": "train_must_why", "validation": "val_must_why", "test": "test_must_why"}
HF_FILE_NAMES = {"train": "train.jsonl", "validation": "val.jsonl", "test": "test.jsonl"}
RELEASE_FILES = {(dependent, relation): f"{'dependent' if dependent else 'nondependent'}_real_{relation}.jsonl" for dependent in (True, False) for relation in RELATIONS}
RELEASE_FIELDS = ("title", "steps", "question_idx", "step_pair_idx_asked_about", "binary_question")
# (questions, Dep, before, close at distance <= 3) of the released splits (paper §3)
EXPECTED_COUNTS = {"test": (2840, 1420, 1420, 1256), "validation": (1616, 808, 808, 746)}


def how_to_select(split: str) -> str:
    """How a user makes a run evaluate ``split``."""
    return f'a task with test_split: {split} (lmms-eval: a YAML that includes the task and sets it) or lm-eval\'s --metadata \'{{"data_split": "{split}"}}\''


def _release_question(row: Dict, dependent: bool, relation: str, where: str) -> Dict:
    require_fields(row, RELEASE_FIELDS, where)
    pair = row["step_pair_idx_asked_about"]
    if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(type(i) is int for i in pair)):
        raise CatBenchDataError(f"{where}: step_pair_idx_asked_about {pair!r:.80} is not a pair of step indices")
    (a, b), steps = pair, steps_of(row["steps"], where)
    if not (0 <= a < b < len(steps)):
        raise CatBenchDataError(f"{where}: step pair {[a, b]} is not an ordered pair of the {len(steps)} steps")
    if row["binary_question"] != binary_question(relation, a, b):
        raise CatBenchDataError(f"{where}: binary_question {row['binary_question']!r} does not ask about steps {[a, b]} ({relation})")
    return make_question(row["title"], steps, a, b, relation, dependent, row["binary_question"])


def _jsonl(path: Path) -> List[Tuple[int, Dict]]:
    return json_lines(path, path.read_text(encoding="utf-8"), CatBenchDataError)


def _local_split(folder: Path, split: str, pool: bool) -> Tuple[List[Dict], List[Path], str]:
    """(questions, files, layout) of ``split`` in a local copy (``pool``: the few-shot pool, another split than the one
    evaluated); an error naming what is missing and the fix."""
    present = [name for name in RELEASE_FILES.values() if (folder / name).is_file()]
    if present and len(present) < len(RELEASE_FILES):
        raise CatBenchDataError(f"{DATA_DIR_ENV}={folder}: an incomplete release split, {sorted(set(RELEASE_FILES.values()) - set(present))} missing (found {sorted(present)})")
    if present and pool:
        raise CatBenchDataError(
            f"{DATA_DIR_ENV}={folder} holds the files of the evaluated split itself, not the {split} split the few-shot exemplars come from: "
            f"point it at a root holding {RELEASE_DIR_NAMES[split]}/ beside the evaluated split's folder (or {HF_FILE_NAMES[split]})"
        )
    release = folder if present else folder / RELEASE_DIR_NAMES[split]
    if release.is_dir():
        for name in RELEASE_FILES.values():
            if not (release / name).is_file():
                raise CatBenchDataError(f"{release}: release file {name} is missing (found {sorted(p.name for p in release.iterdir())})")
        questions = [_release_question(row, dependent, relation, f"{release / name}:{line}") for (dependent, relation), name in RELEASE_FILES.items() for line, row in _jsonl(release / name)]
        return questions, [release / name for name in RELEASE_FILES.values()], "release"
    if (folder / HF_FILE_NAMES[split]).is_file():
        path = folder / HF_FILE_NAMES[split]
        return expand_hf_rows((f"{path}:{line}", row) for line, row in _jsonl(path)), [path], "hf"
    others = [other for other in SPLITS if (folder / RELEASE_DIR_NAMES[other]).is_dir() or (folder / HF_FILE_NAMES[other]).is_file()]
    held = f"; it holds the {' and '.join(others)} split: run {how_to_select('|'.join(others))} to evaluate it" if others else ""
    role = "the few-shot exemplars come from" if pool else "this task evaluates"
    raise CatBenchDataError(
        f"{DATA_DIR_ENV}={folder}: no CaT-Bench {split!r} split, which {role}: expected {folder / RELEASE_DIR_NAMES[split]}/ holding the four "
        f"*_real_{{before,after}}.jsonl files, or {folder / HF_FILE_NAMES[split]}; found {sorted(p.name for p in folder.iterdir())[:20]}{held}"
    )


def split_questions(split: str, hub_rows=None, pool: bool = False) -> Tuple[List[Dict], Dict]:
    """(questions of ``split``, the data's record): from ``CATBENCH_DATA_DIR`` when set, else from ``hub_rows`` (the
    split lmms-eval loaded), else from the hub dataset. ``pool``: the split of the few-shot exemplars."""
    folder = local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if folder is not None:
        questions, files, layout = _local_split(folder, split, pool)
        source = DataSource(DATA_DIR_ENV, f"{DATA_DIR_ENV}={folder} ({split}, {layout} layout)", folder=folder)
    else:
        if hub_rows is None:
            import datasets

            hub_rows = from_hub(lambda: datasets.load_dataset(HUB_ID, split=split), HUB_ID, DATA_DIR_ENV, LOCAL_LAYOUT)
        questions = expand_hf_rows((f"{HUB_ID}[{split}] row {i}", row) for i, row in enumerate(hub_rows))
        files = [Path(entry["filename"]) for entry in hub_rows.cache_files]
        revision = files[0].parent.name if files else "in memory"
        source = DataSource(DATA_DIR_ENV, f"hub {HUB_ID} ({split}, cached revision {revision})", hub=HUB_ID, revision=revision)
    duplicates = len(questions) - len({q["question_id"] for q in questions})
    if duplicates:
        raise CatBenchDataError(f"CaT-Bench {split}: {duplicates} duplicate questions (same plan, step pair and relation)")
    expected = EXPECTED_COUNTS.get(split)
    record = source.record(files, "CaT-Bench", split=split, rows=len(questions), expected_rows=expected[0] if expected else None)
    found = (len(questions), sum(q["dependency"] == "dep" for q in questions), sum(q["relation"] == "before" for q in questions), sum(q["distance"] <= 3 for q in questions))
    if expected and found != expected and not record["synthetic"]:
        matches = [other for other, counts in EXPECTED_COUNTS.items() if counts == found]
        hint = f"; these files match the released {matches[0]} split ({found[0]:,} questions): run {how_to_select(matches[0])} to evaluate it as such" if matches else ""
        eval_logger.warning(f"CaT-Bench {split} split: (questions, Dep, before, close) = {found}, the released {split} split has {expected}{hint}")
    return questions, record
