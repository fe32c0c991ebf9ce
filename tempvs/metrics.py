"""Per-doc records and the aggregations of TempVS's metrics (docs/protocol/tempvs.md §7).

Every doc returns the same record under every metric key. Each aggregation computes its figure
from the whole list (all ranks gathered), joining main questions to their grounding questions by
key, so neither doc order nor sharding matters.

Per main test, pooled over the data sources (micro average, §7.3):

* ``gt_acc`` (paper: GT): share of the task's grounding questions answered correctly;
* ``gtstrict_rate`` (GT_strict): share of main questions whose grounding questions all passed;
* ``mt_acc`` (MT): main-question accuracy;
* ``mt_given_gtstrict`` (MT|GT_strict): MT among the GT_strict passes (None without passes).

Missing partners: a main question some of whose grounding partners are not among the evaluated
docs (``--limit``) is left out of GT_strict and MT|GT_strict and counted in ``gt_missing_count``.
Grounding rows absent from the DATA are the official quirk of §7.4.1: the question is judged on
the rows found (none found: a pass); ``TEMPVS_FIXES=missing_grounding`` makes it a failure.
``gt_unmatched_count`` counts those questions.

A failed request or no response (utils/failed_requests.py) is never parsed: it is ``UNK`` (wrong, and
in ``invalid_rate``) and counted by ``failed_count``.
"""

import logging
from typing import Callable, Dict, List, Optional

from temporal_bench.tempvs.extraction import UNK, active_fixes, extract, is_correct
from temporal_bench.tempvs.spec import SOURCES, task_kind
from temporal_bench.utils.failed_requests import count_failed, is_failed_response

try:
    from loguru import logger as _log
except ImportError:  # pragma: no cover
    _log = logging.getLogger(__name__)

PAIRED_TYPES = ("after", "before", "then", "earlier", "implictpair")
TRIPLE_TYPES = ("beforeafter", "laterfinally", "firstsecondthird", "implicttriple")
DISTANCES = (1, 2, 3, 4)


def make_record(doc: Dict, response: Optional[str], family: Optional[str] = None) -> Dict:
    """``family``: the official extraction branch (default: ``TEMPVS_EXTRACTOR``); ``response`` None: no response."""
    kind = task_kind(doc["task_id"])
    failed = is_failed_response(response)
    parsed = UNK if failed else extract(response, kind, option_text=doc.get("option_text", ""),
                                        cot=doc.get("mode") == "cot", family=family)
    return {
        "key": doc["doc_key"],
        "kind": doc["kind"],
        "mode": doc["mode"],
        "task_id": doc["task_id"],
        "source": doc["source"],
        "img_seq_id": doc["img_seq_id"],
        "question_id": doc["question_id"],
        "event_index": doc["event_index"],
        "partners": list(doc["partners"]),
        "expected_partners": doc["expected_partners"],
        "statement_type": doc["statement_type"],
        "event_distance": doc["event_distance"],
        "gold": doc["gt_option"],
        "pred": parsed,
        "correct": is_correct(parsed, doc["gt_option"]),
        "failed": failed,
        # set by the lmms-eval hooks (hooks.docs_of), absent when docs are built directly
        "task": doc.get("task", ""),
        "main_limit": doc.get("main_limit", 0),
    }


def make_process_results(metric_names: List[str]) -> Callable:
    def process_results(doc: Dict, results: List[str]) -> Dict:
        record = make_record(doc, results[0] if results else None)
        return {name: record for name in metric_names}

    return process_results


# ---- the join -----------------------------------------------------------------------------------

def _unique(records: List[Dict]) -> List[Dict]:
    """One record per doc key (multi-process padding can repeat a doc)."""
    seen = {}
    for record in records:
        seen.setdefault(record["key"], record)
    return list(seen.values())


def judge(records: List[Dict], fix_missing: Optional[bool] = None) -> List[Dict]:
    """Each main record with ``complete`` (all partners evaluated), ``strict`` (GT_strict pass) and
    ``unmatched`` (fewer grounding rows in the data than events)."""
    if fix_missing is None:
        fix_missing = "missing_grounding" in active_fixes()
    records = _unique(records)
    grounding = {r["key"]: r for r in records if r["kind"] == "grounding"}
    judged = []
    for record in records:
        if record["kind"] != "main":
            continue
        present = [grounding[p] for p in record["partners"] if p in grounding]
        complete = len(present) == len(record["partners"])
        unmatched = len(record["partners"]) < record["expected_partners"]
        strict = complete and all(r["correct"] for r in present) and not (fix_missing and unmatched)
        judged.append({**record, "complete": complete, "strict": strict, "unmatched": unmatched})
    return judged


def _ratio(numerator: int, denominator: int) -> Optional[float]:
    return numerator / denominator if denominator else None


def _gt(records: List[Dict], source: Optional[str] = None) -> Optional[float]:
    kept = [r for r in _unique(records) if r["kind"] == "grounding" and source in (None, r["source"])]
    return _ratio(sum(r["correct"] for r in kept), len(kept))


def _mains(records: List[Dict], source: Optional[str] = None) -> List[Dict]:
    return [r for r in judge(records) if source in (None, r["source"])]


def _has_grounding(records: List[Dict]) -> bool:
    """False for the blind (text-only) variants, which ask no grounding questions."""
    return any(r["mode"] != "blind" for r in records)


def _gtstrict(records: List[Dict], source: Optional[str] = None) -> Optional[float]:
    if not _has_grounding(records):
        return None
    complete = [r for r in _mains(records, source) if r["complete"]]
    return _ratio(sum(r["strict"] for r in complete), len(complete))


def _mt(records: List[Dict], source: Optional[str] = None, keep: Callable[[Dict], bool] = lambda r: True) -> Optional[float]:
    mains = [r for r in _unique(records) if r["kind"] == "main" and source in (None, r["source"]) and keep(r)]
    return _ratio(sum(r["correct"] for r in mains), len(mains))


def _mt_given(records: List[Dict], source: Optional[str] = None, strict: bool = True) -> Optional[float]:
    if not _has_grounding(records):
        return None
    chosen = [r for r in _mains(records, source) if r["complete"] and r["strict"] == strict]
    return _ratio(sum(r["correct"] for r in chosen), len(chosen))


def gt_acc(records):
    return _gt(records)


def gtstrict_rate(records):
    return _gtstrict(records)


def mt_acc(records):
    return _mt(records)


def mt_given_gtstrict(records):
    return _mt_given(records, strict=True)


def mt_given_gtfail(records):
    return _mt_given(records, strict=False)


def invalid_rate(records):
    """Share of evaluated questions (main and grounding) whose answer could not be parsed (UNK)."""
    records = _unique(records)
    return _ratio(sum(r["pred"] == UNK for r in records), len(records))


def failed_count(records):
    return count_failed(_unique(records))


def main_count(records):
    """Main questions evaluated. None while the task has some (a --limit that stops before its first
    main question) is warned about, naming the smallest limit that asks one."""
    records = _unique(records)
    count = sum(r["kind"] == "main" for r in records)
    if not count and records and records[0]["main_limit"]:
        _log.warning(f"TempVS {records[0]['task']}: no main question was asked: the {len(records)} evaluated docs are "
                     "all grounding questions (the docs list each image sequence's grounding questions before its "
                     f"main questions); --limit {records[0]['main_limit']} is the smallest that asks one")
    return count


def grounding_count(records):
    return sum(r["kind"] == "grounding" for r in _unique(records))


def gt_missing_count(records):
    """Main questions left out of GT_strict because grounding partners were not evaluated."""
    missing = sum(not r["complete"] for r in judge(records))
    if missing:
        _log.warning(f"TempVS: {missing} main question(s) lack evaluated grounding partners (e.g. --limit); "
                     "they are left out of gtstrict_rate and mt_given_gtstrict")
    return missing


def gt_unmatched_count(records):
    return sum(r["unmatched"] for r in judge(records))


# ---- per-source and fine-grained keys (names chosen so no metric name contains another) ---------

def _per_source(source: str) -> Dict[str, Callable]:
    return {
        f"gt_{source}": lambda records: _gt(records, source),
        f"gtstrict_{source}": lambda records: _gtstrict(records, source),
        f"mt_{source}": lambda records: _mt(records, source),
        f"mtgts_{source}": lambda records: _mt_given(records, source),
    }


def _statement(kind: str, polarity: str) -> Callable:
    suffix = "_gt" if polarity == "pos" else "_nc"
    return lambda records: _mt(records, keep=lambda r: r["statement_type"] == kind + suffix)


def _distance(distance: int) -> Callable:
    return lambda records: _mt(records, keep=lambda r: r["event_distance"] == distance)


AGGREGATIONS: Dict[str, Callable] = {
    "gt_acc": gt_acc, "gtstrict_rate": gtstrict_rate, "mt_acc": mt_acc, "mt_given_gtstrict": mt_given_gtstrict,
    "mt_given_gtfail": mt_given_gtfail, "invalid_rate": invalid_rate, "failed_count": failed_count, "main_count": main_count,
    "grounding_count": grounding_count, "gt_missing_count": gt_missing_count, "gt_unmatched_count": gt_unmatched_count,
}
for _source in SOURCES:
    AGGREGATIONS.update(_per_source(_source))
for _kind in PAIRED_TYPES:
    for _polarity in ("pos", "neg"):
        AGGREGATIONS[f"two_{_kind}_{_polarity}"] = _statement(_kind, _polarity)
for _kind in TRIPLE_TYPES:
    for _polarity in ("pos", "neg"):
        AGGREGATIONS[f"three_{_kind}_{_polarity}"] = _statement(_kind, _polarity)
for _d in DISTANCES:
    AGGREGATIONS[f"dist{_d}"] = _distance(_d)
globals().update(AGGREGATIONS)

MAIN_CORE = ["gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict", "mt_given_gtfail", "invalid_rate",
             "failed_count", "main_count", "grounding_count", "gt_missing_count", "gt_unmatched_count"]
PER_SOURCE = [name for source in SOURCES for name in (f"gt_{source}", f"gtstrict_{source}", f"mt_{source}", f"mtgts_{source}")]
HIGHER_IS_BETTER = {"invalid_rate": False, "failed_count": False, "gt_missing_count": False, "gt_unmatched_count": False}


def metric_names(family: str) -> List[str]:
    """Metric keys of a task family: ``mt1_two``, ``mt1_three``, ``ordering`` or ``grounding``."""
    if family == "grounding":
        return ["gt_acc", "invalid_rate", "failed_count", "grounding_count"] + [f"gt_{source}" for source in SOURCES]
    names = MAIN_CORE + PER_SOURCE
    if family == "mt1_two":
        names += [f"two_{k}_{p}" for k in PAIRED_TYPES for p in ("pos", "neg")] + [f"dist{d}" for d in DISTANCES]
    elif family == "mt1_three":
        names += [f"three_{k}_{p}" for k in TRIPLE_TYPES for p in ("pos", "neg")]
    return names


def metric_family(test: str) -> str:
    return test if test.startswith("mt1_") else ("grounding" if test.startswith("gt_") else "ordering")


__all__ = list(AGGREGATIONS)
