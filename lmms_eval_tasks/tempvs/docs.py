"""The docs of a TempVS task: its questions, chosen from the question rows (tempvs_to_hf.py) under the task's settings.

A main test's docs are its main questions and the grounding questions its metrics need, told apart by
``kind``; each main doc names its grounding partners (``partners``), and the metrics join on those
keys, never on doc order. Docs are ordered per source, per image sequence, grounding before main
questions, so that ``--limit`` keeps the partners of the main questions it keeps.

The rows come from the dataset lmms-eval loaded (the converted hub dataset), or, where that is the
one-row placeholder of a task folder installed as a plugin, from the release: the folder
``TEMPVS_DATA_DIR`` names, else the hub release ``yingjins/TempVS``.
"""

import inspect
import os
from collections import OrderedDict
from functools import partial
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import datasets
from loguru import logger as eval_logger

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import (
    DataNotFoundError,
    DataSource,
    from_hub,
    local_data_dir,
)
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.fail_fast import stops_run_on
from temporal_bench.lmms_eval_tasks.tempvs import tempvs_to_hf
from temporal_bench.lmms_eval_tasks.tempvs.spec import (
    GROUNDING_TESTS,
    MAIN_TESTS,
    SOURCES,
    TempVSDataError,
)

HUB_RELEASE = "yingjins/TempVS"
DATA_DIR_ENV = "TEMPVS_DATA_DIR"
LOCAL_LAYOUT = "the folder holding the release's benchmark_pkl/ (or benchmark/), the image folders of the four sources and predictions/blind/ for the text-only-LLM filter, or a folder with such a data/ subfolder"
UNGROUNDED_MODES = ("blind", "images_only")  # no text to ground, so no grounding questions
SETTINGS = {"mode": ("standard", "cot", "blind", "images_only"), "visual": ("combined", "separate", "none"), "fixes": ("extraction", "missing_grounding"), "sources": SOURCES}
BLIND_DROP_THRESHOLD = 2  # the blind filter drops a main question that >= 2 of the 3 text-only LLMs answered correctly
# paper Table 2, for the load log (the MT1 counts are probably before the blind filter)
PAPER_COUNTS = {
    "paired_event_discrimination": {"flintstones": 2104, "pororo": 864, "vwp": 850, "vist": 3742},
    "triple_event_discrimination": {"flintstones": 916, "pororo": 172, "vwp": 208, "vist": 830},
    "ordering_texts_opt_event": {"flintstones": 501, "pororo": 320, "vwp": 274, "vist": 708},
    "ordering_texts_opt_story": {"flintstones": 485, "pororo": 326, "vwp": 256, "vist": 551},
    "ordering_images_opt_event": {"flintstones": 565, "pororo": 395, "vwp": 316, "vist": 809},
    "ordering_images_opt_story": {"flintstones": 565, "pororo": 395, "vwp": 316, "vist": 809},
}


def image_root() -> Path:
    """Where the images named by the hub dataset's rows are: ``TEMPVS_DATA_DIR``, else where lmms-eval unpacked the
    dataset's ``images.zip`` (``dataset_kwargs: {video: true, cache_dir: tempvs}``)."""
    folder = local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    return folder if folder is not None else Path(os.path.expanduser(os.getenv("HF_HOME", "~/.cache/huggingface/"))) / "tempvs"


def release_folder() -> Tuple[Path, DataSource]:
    """The release's folder: ``TEMPVS_DATA_DIR``, else a (cached) snapshot of the hub release."""
    folder = local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT)
    if folder is not None:
        return tempvs_to_hf.find_root(folder, f"; set {DATA_DIR_ENV} to {LOCAL_LAYOUT}"), DataSource(DATA_DIR_ENV, f"local folder {folder}", folder=folder)
    from huggingface_hub import snapshot_download

    snapshot = Path(from_hub(lambda: snapshot_download(repo_id=HUB_RELEASE, repo_type="dataset"), HUB_RELEASE, DATA_DIR_ENV, LOCAL_LAYOUT))
    return tempvs_to_hf.find_root(snapshot, f"; set {DATA_DIR_ENV} to {LOCAL_LAYOUT}"), DataSource(DATA_DIR_ENV, f"hub {HUB_RELEASE} revision {snapshot.name}", hub=HUB_RELEASE, revision=snapshot.name)


def _check_images(rows: List[Dict], root: Path, visual: str) -> None:
    """Fail at load, not hours into a run, when images the docs show are missing (each file checked once)."""
    first = {}
    for row in rows:
        for name in {"combined": [row["image"]], "separate": row["frames"]}.get(visual, []):
            first.setdefault(name, row["doc_key"])
    missing = [(name, key) for name, key in first.items() if not (root / name).is_file()]
    if missing:
        examples = "; ".join(f"{root / name} (doc {key})" for name, key in missing[:5])
        raise TempVSDataError(f"{len(missing)} TempVS image file(s) missing, e.g. {examples} (under {root}: {DATA_DIR_ENV}, the hub snapshot or where lmms-eval unpacked the dataset's images.zip)")


def _doc(row: Dict, mode: str, visual: str, root: Path) -> Dict:
    doc = {key: row[key] for key in ("doc_key", "kind", "task_id", "source", "img_seq_id", "question_id", "gt_option", "option_text", "expected_partners", "event_index", "statement_type", "event_distance", "answer", "choices")}
    return {
        **doc,
        "mode": mode,
        "visual": visual,
        "prompt": row[f"prompt_{mode}"],
        "partners": [],
        "image": str(root / row["image"]) if visual == "combined" else "",
        "frames": [str(root / name) for name in row["frames"]] if visual == "separate" else [],
    }


def shown_images(doc: Dict) -> List[str]:
    """The images the doc shows, in order: none (blind), one per frame (separate) or the combined strip."""
    return {"combined": [doc["image"]], "separate": doc["frames"]}.get(doc["visual"], [])


def _distinct(grounding: List[Dict], visual: str, root: Path) -> List[Dict]:
    """One doc per distinct grounding request (prompt text and images) of a source: the paired, triple and
    all-events files ask many of the same questions. Each lists in ``serves`` the questions it answers, as
    ``[test, question_id, gt_option, img_seq_id]``."""
    asked: Dict[Tuple, Dict] = {}
    for row in grounding:
        doc = _doc(row, "standard", visual, root)
        served = [row["test"], doc["question_id"], doc["gt_option"], doc["img_seq_id"]]
        asked.setdefault((doc["prompt"], tuple(shown_images(doc))), {**doc, "serves": []})["serves"].append(served)
    return list(asked.values())


def task_docs(rows: List[Dict], root: Path, tests: Sequence[str], mode: str, visual: str, blind_filter: bool, sources: Sequence[str], suite: bool) -> Tuple[List[Dict], Dict]:
    """The docs of a task holding ``tests`` and the number of main questions each (task id, source) kept.
    ``suite``: the grounding questions of all the main tests' grounding tests, each distinct one asked once."""
    if tests[0] in GROUNDING_TESTS:
        docs = [_doc(row, "standard", visual, root) for row in rows]
        return docs, {}
    grounded = mode not in UNGROUNDED_MODES
    grounding_tests = list(dict.fromkeys(MAIN_TESTS[test].grounding_test for test in tests)) if grounded else []
    docs, kept = [], {}
    for source in (s for s in SOURCES if s in sources):
        sequences: "OrderedDict[str, Dict[str, List]]" = OrderedDict()
        for test in tests:
            for row in (r for r in rows if r["source"] == source and r["test"] == test):
                keep = row["blind_correct"] < BLIND_DROP_THRESHOLD if row["blind_correct"] >= 0 else None
                kept.setdefault((row["task_id"], source), 0)
                if blind_filter and keep is False:
                    continue
                kept[row["task_id"], source] += 1
                doc = _doc(row, mode, visual, root)
                doc["partners"] = row["partners"] if grounded else []
                if mode == "blind" and keep is not None:
                    doc["filter_kept"] = keep  # Table 17's "after": the questions the filter keeps
                sequences.setdefault(doc["img_seq_id"], {"grounding": [], "main": []})["main"].append(doc)
        grounding = [r for test in grounding_tests for r in rows if r["source"] == source and r["test"] == test]
        for doc in _distinct(grounding, visual, root) if suite else (_doc(r, "standard", visual, root) for r in grounding):
            sequences.setdefault(doc["img_seq_id"], {"grounding": [], "main": []})["grounding"].append(doc)
        for members in sequences.values():
            docs += members["grounding"] + members["main"]
    return docs, kept


def stage_counts(counts: Dict, kept: Dict, blind_filter: bool) -> Dict:
    """(task id, source) -> rows at each stage: before and after the invalid-event filter and, where the text-only-LLM
    filter applies, after it."""
    filtered = {spec.task_id for spec in MAIN_TESTS.values() if spec.blind_filtered}
    return {key: {**stages, **({"after_blind_filter": kept[key]} if blind_filter and key in kept and key[0] in filtered else {})} for key, stages in counts.items()}


def _log_counts(task: str, stages: Dict) -> None:
    for (task_id, source), counts in stages.items():
        paper = PAPER_COUNTS.get(task_id, {}).get(source)
        eval_logger.info(f"TempVS {task}: {source} {task_id}: " + ", ".join(f"{k}={v}" for k, v in counts.items()) + (f" (paper Table 2: {paper})" if paper is not None else ""))


def release_docs(root: Path, tests: Sequence[str], mode: str = "standard", visual: str = "combined", blind_filter: bool = True, sources: Sequence[str] = SOURCES, suite: bool = False, read=None) -> Tuple[List[Dict], Dict, Dict, List[Path]]:
    """The docs of a task built from the release in ``root`` (``read``: another reader of a task id's rows, see
    tempvs_to_hf.Release), the main questions each (task id, source) kept, the rows before and after the
    invalid-event filter, and the files read."""
    grounded = mode not in UNGROUNDED_MODES
    visuals = (visual,) if visual != "none" else ()
    questions = tempvs_to_hf.question_rows(tempvs_to_hf.Release(root, read), tests, ("standard", mode), visuals, blind_filter or mode == "blind", grounded, sources)
    _check_images(questions.rows, root, visual)
    docs, kept = task_docs(questions.rows, root, tests, mode, visual, blind_filter, sources, suite)
    return docs, kept, questions.counts, questions.files


def check_settings(tests: Sequence[str], **settings) -> None:
    """A setting outside its choices is an error naming it (a misspelt fix would otherwise be silently ignored)."""
    problems = [f"unknown test {t!r} (choose from {[*MAIN_TESTS, *GROUNDING_TESTS]})" for t in tests if t not in MAIN_TESTS and t not in GROUNDING_TESTS]
    for name, value in settings.items():
        problems += [f"unknown {name} {v!r} (choose from {SETTINGS[name]})" for v in ([value] if isinstance(value, str) else value) if v not in SETTINGS[name]]
    if settings.get("mode") == "images_only" and tuple(tests) != ("mt3_event",):
        problems.append("mode 'images_only' is MT3's alone (tests: [mt3_event]: the image-ordering questions without their texts)")
    if problems:
        raise TempVSDataError("TempVS task settings: " + "; ".join(problems))


@stops_run_on((TempVSDataError, DataNotFoundError))
def process_docs(
    dataset: datasets.Dataset, task: str, tests: Tuple[str, ...], mode: str = "standard", visual: str = "combined", blind_filter: bool = True, fixes: Tuple[str, ...] = (), sources: Tuple[str, ...] = SOURCES, suite: bool = False
) -> datasets.Dataset:
    """The docs of the task ``task`` with these settings (which its YAML's metadata states), each carrying what
    its hooks read: the task and its settings, the smallest ``--limit`` that asks a main question (0 for a
    grounding test) and the data's record. The questions come from the converted hub dataset lmms-eval loaded,
    or, for the placeholder of a task folder installed as a plugin (or no dataset), from the release."""
    tests, fixes, sources = (tuple([value] if isinstance(value, str) else value or ()) for value in (tests, fixes, sources))  # a recorded or --set value may be one string
    check_settings(tests, mode=mode, visual=visual, fixes=fixes, sources=sources)
    if dataset is not None and "doc_key" in dataset.column_names:
        needed = {t for test in tests for t in ((test, MAIN_TESTS[test].grounding_test) if test in MAIN_TESTS and mode not in UNGROUNDED_MODES else (test,))}
        rows, root = [row for row in dataset if row["test"] in needed and row["source"] in sources], image_root()
        _check_images(rows, root, visual)
        docs, kept = task_docs(rows, root, tests, mode, visual, blind_filter, sources, suite)
        hub = DataSource(DATA_DIR_ENV, f"hub dataset {dataset.info.dataset_name}", hub=dataset.info.dataset_name)
        source, counts = hub.record([Path(f["filename"]) for f in dataset.cache_files], f"TempVS {task}"), {}
    else:
        root, where = release_folder()
        docs, kept, counts, files = release_docs(root, tests, mode, visual, blind_filter, sources, suite)
        source = where.record(files, f"TempVS {task}")
    _log_counts(task, stage_counts(counts, kept, blind_filter))
    first_main = next((i for i, doc in enumerate(docs) if doc["kind"] == "main"), -1)
    seen = set()
    for doc in docs:
        if doc["doc_key"] in seen:
            raise TempVSDataError(f"duplicate TempVS question {doc['doc_key']} (question_id must be unique per source and file)")
        seen.add(doc["doc_key"])
        doc.update(task=task, tests=list(tests), suite=suite, fixes=list(fixes), main_limit=first_main + 1, data=source["fingerprint"], data_source=source)
    return datasets.Dataset.from_list(docs)


def variant(name: str, *tests: str, **settings) -> partial:
    """The ``process_docs`` of the task ``name`` holding ``tests`` with these settings (which its YAML's metadata states);
    a setting it does not take, or a value outside its choices, is an error when the task's YAML is loaded."""
    inspect.signature(process_docs).bind(None, task=name, tests=tests, **settings)
    check_settings(tests, **{key: value for key, value in settings.items() if key in SETTINGS})
    return partial(process_docs, task=name, tests=tests, **settings)
