"""The rows of a CaT-Bench split for this package's tasks (lmms_eval_tasks/plugin/data_routes.py), in the hub
dataset's schema (one row per step pair): from the folder ``CATBENCH_DATA_DIR`` names, in one of two layouts,

* the original release: the four ``{dependent,nondependent}_real_{before,after}.jsonl`` files of one split, or a
  root holding ``{train,val,test}_must_why/`` folders of them (one row per question, joined here into step pairs);
* the hub dataset's files: ``train.jsonl``, ``val.jsonl``, ``test.jsonl``;

else from the hub dataset ``vanyacohen/CaT-Bench``.
"""

from pathlib import Path

import datasets

from temporal_bench.lmms_eval_tasks.catbench.questions import RELATIONS, CatBenchDataError, _label, binary_question, make_question, questions_of_rows
from temporal_bench.lmms_eval_tasks.plugin.data_routes import from_hub, json_lines, local_data_dir

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


def how_to_select(split: str) -> str:
    """How a user makes a run evaluate ``split``."""
    return f'a task with test_split: {split} (lmms-eval: a YAML that includes the task and sets it) or lm-eval\'s --metadata \'{{"data_split": "{split}"}}\''


def _jsonl(path: Path) -> list[tuple]:
    rows = json_lines(path, path.read_text(encoding="utf-8"), CatBenchDataError)
    if not rows:
        raise CatBenchDataError(f"{path}: no rows (an empty file: a truncated or incomplete copy?)")
    return rows


def _step_pair(row: dict, relation: str, where: str) -> tuple:
    """The 0-based (a, b) a release row asks about, checked against its question string."""
    missing = [field for field in RELEASE_FIELDS if field not in row]
    if missing:
        raise CatBenchDataError(f"{where}: missing field(s) {missing}; found {sorted(row)}")
    pair, steps = row["step_pair_idx_asked_about"], row["steps"]
    if not (isinstance(steps, list) and steps and all(isinstance(step, str) for step in steps)):
        raise CatBenchDataError(f"{where}: steps {steps!r:.80} is not a list of step texts")
    if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(type(i) is int for i in pair)):
        raise CatBenchDataError(f"{where}: step_pair_idx_asked_about {pair!r:.80} is not a pair of step indices")
    a, b = pair
    if not (0 <= a < b < len(steps)):
        raise CatBenchDataError(f"{where}: step pair {[a, b]} is not an ordered pair of the {len(steps)} steps")
    if row["binary_question"] != binary_question(relation, a, b):
        raise CatBenchDataError(f"{where}: binary_question {row['binary_question']!r} does not ask about steps {[a, b]} ({relation})")
    for index in (a, b):
        if steps.count(steps[index]) > 1:
            raise CatBenchDataError(f"{where}: step {index + 1}'s text occurs {steps.count(steps[index])} times in the plan (the step pairs name steps by their text)")
    return a, b


def _release_questions(folder: Path) -> list[tuple]:
    """(where, title, steps, a, b, relation, dependent) of each question of a release split's four files, in file order."""
    found = []
    for (dependent, relation), name in RELEASE_FILES.items():
        for line, row in _jsonl(folder / name):
            a, b = _step_pair(row, relation, f"{folder / name}:{line}")
            found.append((f"{folder / name}:{line}", row["title"], row["steps"], a, b, relation, dependent))
    return found


def release_rows(folder: Path) -> list[dict]:
    """The step pairs of a release split's four files: each asked once before and once after, with one dependency."""
    pairs: dict[tuple, dict] = {}
    for where, title, steps, a, b, relation, dependent in _release_questions(folder):
        pair = pairs.setdefault((title, tuple(steps), a, b), {"dependent": dependent, "asked": {}})
        if relation in pair["asked"]:
            raise CatBenchDataError(f"{where}: the step pair {[a, b]} of {title!r} is asked {relation} again (first at {pair['asked'][relation]})")
        if pair["dependent"] != dependent:
            raise CatBenchDataError(f"{where}: the step pair {[a, b]} of {title!r} is Dep in one file and NonDep in another")
        pair["asked"][relation] = where
    rows = []
    for (title, steps, a, b), pair in pairs.items():
        if len(pair["asked"]) < len(RELATIONS):
            ((relation, where),) = pair["asked"].items()
            raise CatBenchDataError(f"{where}: the step pair {[a, b]} of {title!r} is asked {relation} only (the release asks each pair before and after)")
        rows.append({"title": title, "steps": list(steps), "destination_text": steps[a], "origin_text": steps[b], "label": pair["dependent"]})
    return rows


def local_rows(folder: Path, split: str, pool: bool = False) -> list[dict]:
    """The rows of ``split`` in a local copy (``pool``: the few-shot exemplars' split, another than the one evaluated);
    an error naming what is missing and the fix."""
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
        return release_rows(release)
    if (folder / HF_FILE_NAMES[split]).is_file():  # each label read as the hub's boolean, or an error naming its line
        path = folder / HF_FILE_NAMES[split]
        return [{**row, "label": _label(row.get("label"), f"{path}:{line}")} for line, row in _jsonl(path)]
    others = [other for other in SPLITS if (folder / RELEASE_DIR_NAMES[other]).is_dir() or (folder / HF_FILE_NAMES[other]).is_file()]
    held = f"; it holds the {' and '.join(others)} split: run {how_to_select('|'.join(others))} to evaluate it" if others else ""
    role = "the few-shot exemplars come from" if pool else "this task evaluates"
    raise CatBenchDataError(
        f"{DATA_DIR_ENV}={folder}: no CaT-Bench {split!r} split, which {role}: expected {folder / RELEASE_DIR_NAMES[split]}/ holding the four "
        f"*_real_{{before,after}}.jsonl files, or {folder / HF_FILE_NAMES[split]}; found {sorted(p.name for p in folder.iterdir())[:20]}{held}"
    )


def pool_questions(split: str) -> list[dict]:
    """The questions of the few-shot exemplars' split in the order of its files (BM25 ties go to the first), without
    checking that each step pair is asked both ways: a release split's questions, else those of its step pairs."""
    folder = local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if folder is not None and (folder / RELEASE_DIR_NAMES[split]).is_dir():
        return [make_question(title, steps, a, b, relation, dependent) for _, title, steps, a, b, relation, dependent in _release_questions(folder / RELEASE_DIR_NAMES[split])]
    return questions_of_rows(split_rows(split, pool=True), split)


def split_rows(split: str, pool: bool = False, **settings) -> datasets.Dataset:
    """The hub-schema rows of ``split``: ``CATBENCH_DATA_DIR``'s, else the hub dataset's (the task's ``settings`` aside)."""
    folder = local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if folder is None:
        return from_hub(lambda: datasets.load_dataset(HUB_ID, split=split), HUB_ID, DATA_DIR_ENV, LOCAL_LAYOUT)
    return datasets.Dataset.from_list(local_rows(folder, split, pool), split=datasets.Split(split))
