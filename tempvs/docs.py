"""Build the docs of one TempVS lmms-eval task from annotation rows (docs/protocol/tempvs.md §4, §7.1-§7.2).

A main task's docs are its main questions AND the distinct grounding questions its metrics need,
told apart by ``kind`` (``main`` / ``grounding``). Each main doc lists the keys of its grounding
partners (``partners``), found in the data exactly as the official join does (§7.1 step 3); the
metrics join on those keys, never on doc order.

The rows come from a :class:`RowSource`: the release's files (tempvs/loading.py) or the rows of a
converted hub dataset (tempvs/hub_dataset.py). Nothing here reads a file.
"""

import logging
import re
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Protocol, Sequence, Tuple

from temporal_bench.tempvs import prompts
from temporal_bench.tempvs.extraction import answer_letters
from temporal_bench.tempvs.settings import UNGROUNDED_MODES, TaskSettings
from temporal_bench.tempvs.spec import (
    BLIND_DROP_THRESHOLD,
    GROUNDING_TESTS,
    INVALID_EVENT_MARKERS,
    MAIN_TESTS,
    PAPER_COUNTS,
    TEST_NAMES,
    TempVSDataError,
    selected_sources,
    task_kind,
)

try:  # lmms-eval's logger prints at the CLI's verbosity; plain logging is the fallback
    from loguru import logger as _log
except ImportError:  # pragma: no cover
    _log = logging.getLogger(__name__)

_INVALID = re.compile("|".join(INVALID_EVENT_MARKERS), re.IGNORECASE)


class RowSource(Protocol):
    """Where a task's annotation rows and the text-only LLMs' verdicts come from."""

    root: Path  # the folder stored image paths are re-rooted at (§2.4); empty for names relative to the release

    def rows(self, source: str, task_id: str) -> List[Dict]:
        """The rows of the annotation file a task id reads (§2.2), in file order, each with ``_where``."""

    def blind_correct(self, source: str, task_id: str, question_ids: Sequence[str]) -> Dict[str, int]:
        """question_id -> how many of the 3 text-only LLMs answered correctly (each with its own parser)."""


def image_fields(task_id: str) -> Tuple[str, str]:
    """The (frames, combined image) columns a row of ``task_id`` shows (§4): ordering_images shows the shuffled images."""
    if task_kind(task_id) == "ordering":
        return ("img_path_list_shuffled", "combined_img_path_shuffled") if task_id.startswith("ordering_images") else ("img_path_list_gt", "combined_img_path_gt")
    return "img_path_list", "combined_img_path"


def reroot(path, source: str, root: Path) -> str:
    """§2.4: cut a stored path from its first ``{source}/`` component and join the rest onto ``root``."""
    value = prompts.text(path)
    if not value:
        return ""
    parts = Path(value).parts
    if source in parts:
        return str(root.joinpath(*parts[parts.index(source) :]))
    return value if Path(value).is_absolute() else str(root / value)


def has_invalid_event(row: Dict) -> bool:
    """§7.2: any ``event*`` column, cast to str, contains a banned marker (substring, any case)."""
    return any(_INVALID.search(str(value if value is not None else "nan")) for key, value in row.items() if key.startswith("event"))


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


def _base_doc(row: Dict, source: str, task_id: str, kind: str, mode: str, visual: str) -> Dict:
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


def _set_images(doc: Dict, row: Dict, root: Path) -> None:
    """The doc's frames and combined image, re-rooted; the field its visual mode shows must name images."""
    frames_field, image_field = image_fields(doc["task_id"])
    frames = [reroot(p, doc["source"], root) for p in prompts.as_list(row.get(frames_field))]
    # only the images the model is shown: lmms-eval logs the image paths of each doc
    doc.update(image=reroot(row.get(image_field), doc["source"], root) if doc["visual"] == "combined" else "", frames=frames if doc["visual"] == "separate" else [])
    if doc["visual"] == "combined" and not doc["image"]:
        raise TempVSDataError(f"{image_field} is empty: no combined image to show")
    if doc["visual"] == "separate" and not (frames and all(frames)):
        raise TempVSDataError(f"{frames_field} {row.get(frames_field)!r} names no image for every frame")


def grounding_doc(row: Dict, source: str, task_id: str, mode: str, visual: str, root: Path) -> Dict:
    doc = _base_doc(row, source, task_id, "grounding", mode, visual)
    _set_images(doc, row, root)
    number = re.search(r"(\d+)\s*$", doc["gt_option"])
    if number is None or int(number.group(1)) < 1:
        raise TempVSDataError(f"gt_option {doc['gt_option']!r} is not 'image N' (N from 1)")
    doc.update(event_index=int(number.group(1)) - 1, answer=number.group(1), choices=[str(k) for k in range(1, max(len(prompts.as_list(row.get("img_path_list"))), int(number.group(1))) + 1)])
    return doc


def main_doc(row: Dict, source: str, task_id: str, mode: str, visual: str, root: Path) -> Dict:
    doc = _base_doc(row, source, task_id, "main", mode, visual)
    kind = task_kind(task_id)
    if kind == "mt1":
        statement = prompts.text(row.get("statement_type"))
        distance = row.get("event_distance")
        doc.update(
            option_text=prompts.text(row.get("option_text")),
            statement_type=statement,
            event_distance=int(distance) if distance is not None else -1,
            choices=["A", "B"],
            expected_partners=len(_event_tuple(row)),
        )
    else:
        doc.update(choices=_option_letters(prompts.text(row.get("options"))), expected_partners=len(prompts.as_list(row.get("img_path_list_gt"))))
    _set_images(doc, row, root)
    letters = answer_letters(kind)
    doc["answer"] = doc["gt_option"][-1:]
    if doc["answer"] not in letters:
        raise TempVSDataError(f"gt_option {doc['gt_option']!r} does not end in an option letter {'/'.join(letters)}: no answer could ever be scored right")
    return doc


def from_row(make: Callable[..., Dict], row: Dict, *args) -> Dict:
    """``make(row, *args)``; any error in the row is raised again naming its file, row and question_id."""
    try:
        return make(row, *args)
    except (KeyError, IndexError, TypeError, ValueError, SyntaxError) as error:
        detail = f"missing field {error.args[0]!r}" if isinstance(error, KeyError) else (str(error) if isinstance(error, TempVSDataError) else f"{type(error).__name__}: {error}")
        raise TempVSDataError(f"{row.get('_where', 'TempVS row')}: {detail}") from error


@dataclass
class LoadReport:
    """Row counts per (source, file) before and after each filter, for the log and the tests."""

    counts: Dict[str, Dict[str, Dict[str, int]]] = field(default_factory=dict)
    files: List[Path] = field(default_factory=list)  # every annotation and blind-prediction file read (the release route)
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


def _grounding_rows(rows_from: RowSource, source: str, task_id: str, report: LoadReport) -> List[Dict]:
    rows = rows_from.rows(source, task_id)
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


def main_docs(
    rows_from: RowSource,
    tests,
    mode: str = "standard",
    visual: str = "combined",
    blind_filter: bool = True,
    with_grounding: bool = True,
    ask_grounding: bool = True,
    sources: Optional[Tuple[str, ...]] = None,
) -> Tuple[List[Dict], LoadReport]:
    """Docs of one main test (``mt1_two`` ... ``mt3_caption``), or of several sharing a grounding
    test (MT2 and MT3 of one text kind): main questions after the filters and, with
    ``with_grounding``, every grounding question of the grounding file (after the invalid-event
    filter), each once. Order: per source, per image sequence, grounding then main docs (so
    ``--limit`` keeps the partners of every main question it keeps; the metrics never rely on it).
    ``ask_grounding`` False (``--tasks tempvs``, whose suite grounding task asks them): the main docs
    still name their partners, but no grounding doc is made.
    A text-only run (``mode="blind"``) reads the blind verdicts even without the filter and marks
    each MT1/MT2 main doc ``filter_kept``: whether the filter keeps it."""
    specs = [MAIN_TESTS[test] for test in ((tests,) if isinstance(tests, str) else tests)]
    grounding_task_id = specs[0].grounding_task_id
    if any(spec.grounding_task_id != grounding_task_id for spec in specs):
        raise ValueError(f"TempVS tests {[spec.name for spec in specs]} do not share one grounding test")
    report = LoadReport(root=rows_from.root)
    docs: List[Dict] = []
    for source in selected_sources(sources):
        sequences: "OrderedDict[str, Dict[str, List]]" = OrderedDict()
        for spec in specs:
            rows = rows_from.rows(source, spec.task_id)
            valid = [row for row in rows if not has_invalid_event(row)]
            stages = {"rows": len(rows), "after_invalid_event_filter": len(valid)}
            kept: Dict[str, bool] = {}
            if spec.blind_filtered and (blind_filter or mode == "blind"):
                counts = rows_from.blind_correct(source, spec.task_id, [str(row["question_id"]) for row in valid])
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
            for row in _grounding_rows(rows_from, source, grounding_task_id, report):
                sequence = str(row["img_seq_id"])
                sequences.setdefault(sequence, {"grounding": [], "main": []})["grounding"].append(row)
                by_sequence[sequence].append((str(row["gt_option"]), str(row["question_id"])))
        for members in sequences.values():
            for row in members["grounding"] if ask_grounding else ():
                docs.append(from_row(grounding_doc, row, source, grounding_task_id, "standard", visual, rows_from.root))
            for spec, row, filter_kept in members["main"]:
                doc = from_row(main_doc, row, source, spec.task_id, mode, visual, rows_from.root)
                if filter_kept is not None:
                    doc["filter_kept"] = filter_kept
                if with_grounding:
                    doc["partners"] = _partners(row, by_sequence, spec.family, source, spec.task_id)
                docs.append(doc)
    _check_unique(docs)
    return docs, report


def grounding_docs(rows_from: RowSource, task_id: str, visual: str = "combined", sources: Optional[Tuple[str, ...]] = None) -> Tuple[List[Dict], LoadReport]:
    """Docs of a standalone grounding test (``single_grounding_*``), after the invalid-event filter."""
    report = LoadReport(root=rows_from.root)
    docs = []
    for source in selected_sources(sources):
        docs += [from_row(grounding_doc, row, source, task_id, "standard", visual, rows_from.root) for row in _grounding_rows(rows_from, source, task_id, report)]
    _check_unique(docs)
    return docs, report


def distinct_grounding_docs(rows_from: RowSource, tests: Sequence[str], visual: str = "combined", sources: Optional[Tuple[str, ...]] = None) -> Tuple[List[Dict], LoadReport]:
    """One doc per distinct grounding request (prompt text and the images shown, in order) of the
    grounding tests ``tests`` (our names, ``gt_paired`` ...), after the invalid-event filter: the
    paired, triple and all-events files ask many of the same questions (issue 28). Each doc is the
    first row asking it and lists in ``serves`` every question it answers, as
    ``[test, question_id, gt_option, img_seq_id]`` (the gold answer is each question's own)."""
    report = LoadReport(root=rows_from.root)
    docs: List[Dict] = []
    for source in selected_sources(sources):
        asked: Dict[Tuple, Dict] = {}
        for test in tests:
            task_id = GROUNDING_TESTS[test]
            for row in _grounding_rows(rows_from, source, task_id, report):
                doc = from_row(grounding_doc, row, source, task_id, "standard", visual, rows_from.root)
                served = [test, doc["question_id"], doc["gt_option"], doc["img_seq_id"]]
                request = (doc["prompt"], tuple(shown_images(doc)))
                if request in asked:
                    asked[request]["serves"].append(served)
                else:
                    asked[request] = {**doc, "serves": [served]}
                    docs.append(asked[request])
    _check_unique(docs)
    return docs, report


def task_docs(rows_from: RowSource, settings: TaskSettings) -> Tuple[List[Dict], LoadReport]:
    """The docs of a task with these settings."""
    if settings.is_main:
        return main_docs(
            rows_from,
            settings.tests,
            mode=settings.mode,
            visual=settings.visual,
            blind_filter=settings.blind_filter,
            with_grounding=settings.mode not in UNGROUNDED_MODES,
            ask_grounding=not settings.shared_grounding,
            sources=settings.sources,
        )
    if settings.shared_grounding:
        return distinct_grounding_docs(rows_from, settings.tests, visual=settings.visual, sources=settings.sources)
    return grounding_docs(rows_from, GROUNDING_TESTS[settings.tests[0]], visual=settings.visual, sources=settings.sources)


def shown_images(doc: Dict) -> List[str]:
    """The images the doc shows, in order: none (blind), one per frame (separate) or the combined strip."""
    return {"combined": [doc["image"]], "separate": doc["frames"]}.get(doc["visual"], [])


def _check_unique(docs: List[Dict]) -> None:
    seen = set()
    for doc in docs:
        if doc["doc_key"] in seen:
            raise TempVSDataError(f"duplicate TempVS question {doc['doc_key']} (question_id must be unique per source and file)")
        seen.add(doc["doc_key"])
