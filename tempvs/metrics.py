"""Per-doc records and the aggregations of TempVS's metrics (docs/protocol/tempvs.md §7).

Per main test, pooled over the data sources (micro average, §7.3), the headline metrics (each
task's ``metric_list``):

* ``gt_acc`` (paper: GT): share of the task's grounding questions answered correctly;
* ``gtstrict_rate`` (GT_strict): share of main questions whose grounding questions all passed;
* ``mt_acc`` (MT): main-question accuracy;
* ``mt_given_gtstrict`` (MT|GT_strict): MT among the GT_strict passes (None without passes);
* ``invalid_rate`` and ``failed_count``.

A task holding two main tests that share a grounding test (``tempvs_ordering_event``: MT2 and MT3)
reports each test's metrics under its prefix (``mt2_mt_acc``, ``mt3_mt_acc``, ...), each computed on
that test's main questions and the shared grounding questions, so each equals the single task's.

The per-doc values: lmms-eval logs every metric value of a doc in its sample line, so the first
metric key carries the doc's whole compact record (what :func:`breakdown_metrics`, the report and
the browser read back) and every other key only the fields its aggregation needs, or None for a
doc it does not count. Each aggregation computes its figure from the whole list (all ranks
gathered), joining main questions to their grounding questions by key, so neither doc order nor
sharding matters. The breakdowns (per source, Table 5, Figure 3, counts) are
:func:`breakdown_metrics`, computed from the logged records.

Missing partners: a main question some of whose grounding partners are not among the evaluated
docs (``--limit``) is left out of GT_strict and MT|GT_strict, counted in ``gt_missing_count`` and
warned about. Grounding rows absent from the DATA are the official quirk of §7.4.1: the question is
judged on the rows found (none found: a pass); the task setting ``fixes: [missing_grounding]``
makes it a failure. ``gt_unmatched_count`` counts those questions.

A failed request or no response (utils/failed_requests.py) is never parsed: it is ``UNK`` (wrong, and
in ``invalid_rate``) and counted by ``failed_count``.
"""

import logging
from collections import defaultdict
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from temporal_bench.tempvs.extraction import UNK, extract, is_correct
from temporal_bench.tempvs.docs import doc_key
from temporal_bench.tempvs.settings import UNGROUNDED_MODES
from temporal_bench.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES, SUITE_GROUNDING_TASK, TEST_NAMES, task_kind
from temporal_bench.tempvs.task_tests import metric_prefix, records_of_test, tests_in
from temporal_bench.utils.failed_requests import count_failed, is_failed_response

try:
    from loguru import logger as _log
except ImportError:  # pragma: no cover
    _log = logging.getLogger(__name__)

PAIRED_TYPES = ("after", "before", "then", "earlier", "implictpair")
TRIPLE_TYPES = ("beforeafter", "laterfinally", "firstsecondthird", "implicttriple")
DISTANCES = (1, 2, 3, 4)
# the official script's "at least k grounding passes" figures, k per family (run_evaluation.py,
# analyze_task_performance: k <= 1 of the two events, k <= 2 of three, k <= 4 of a sequence's images)
AT_LEAST_K = {"mt1_two": (1,), "mt1_three": (1, 2), "ordering": (1, 2, 3, 4)}



def make_record(doc: Dict, response: Optional[str], family: str = "generic", fixes: FrozenSet[str] = frozenset()) -> Dict:
    """The doc's compact record. ``family``: the official extraction branch; ``fixes``: the task's
    ``fixes`` setting; ``response`` None: no response. ``partners`` (main questions): the question
    ids of the grounding partners, None when the task asks no grounding question (blind, images only)."""
    kind = task_kind(doc["task_id"])
    failed = is_failed_response(response)
    parsed = UNK if failed else extract(response, kind, option_text=doc.get("option_text", ""),
                                        cot=doc.get("mode") == "cot", family=family, fixes=fixes)
    record = {"key": doc["doc_key"], "kind": doc["kind"], "test": TEST_NAMES[doc["task_id"]], "source": doc["source"],
              "img_seq_id": doc["img_seq_id"], "question_id": doc["question_id"], "mode": doc["mode"]}
    if doc["kind"] == "main":
        partners = list(doc["partners"]) if kind == "mt1" else len(doc["partners"])
        record.update(partners=None if doc["mode"] in UNGROUNDED_MODES else partners,
                      unmatched=len(doc["partners"]) < doc["expected_partners"])
        if "missing_grounding" in fixes:
            record["missing_fails"] = True
        if kind == "mt1":
            record.update(statement_type=doc["statement_type"], event_distance=doc["event_distance"])
        if "filter_kept" in doc:
            record["filter_kept"] = doc["filter_kept"]
    if doc.get("serves"):  # a distinct grounding question of --tasks tempvs: the questions it answers
        record["serves"] = [list(served) for served in doc["serves"]]
    record.update(gold=doc["gt_option"], pred=parsed, correct=is_correct(parsed, doc["gt_option"]), failed=failed,
                  # set by the lmms-eval hooks (hooks.docs_of), absent when docs are built directly
                  task=doc.get("task", ""), main_limit=doc.get("main_limit", 0), data=doc.get("data", ""))
    return record


# ---- the join -----------------------------------------------------------------------------------

def unique_records(records: Sequence[Optional[Dict]]) -> List[Dict]:
    """One record per doc key (multi-process padding can repeat a doc); the Nones of docs a metric
    does not count are dropped."""
    seen = {}
    for record in records:
        if record is not None:
            seen.setdefault(record["key"], record)
    return list(seen.values())


def judge(records: Sequence[Optional[Dict]]) -> List[Dict]:
    """Each main record with ``partners`` as grounding keys ("" for one not evaluated), ``complete``
    (grounding was asked and every partner evaluated), ``strict`` (GT_strict pass; with
    ``missing_fails``, set by the ``missing_grounding`` fix, a question with fewer grounding rows in
    the data than events fails) and ``gt_passes`` (its evaluated partners answered right)."""
    records = unique_records(records)
    grounding = {r["key"]: r for r in records if r["kind"] == "grounding"}
    by_sequence = defaultdict(list)
    for record in grounding.values():
        if "img_seq_id" in record:
            by_sequence[record["source"], record["img_seq_id"]].append(record["key"])
    judged = []
    for record in records:
        if record["kind"] != "main":
            continue
        if record["partners"] is None:  # blind or images only: no grounding asked
            judged.append({**record, "partners": [], "complete": False, "strict": False, "gt_passes": 0})
            continue
        if isinstance(record["partners"], int):  # MT2/MT3: every grounding row of the sequence
            found = by_sequence[record["source"], record["img_seq_id"]]
            partners = found + [""] * (record["partners"] - len(found))
        else:
            grounding_task_id = MAIN_TESTS[record["test"]].grounding_task_id
            partners = [doc_key(record["source"], grounding_task_id, question_id) for question_id in record["partners"]]
        present = [grounding[key] for key in partners if key in grounding]
        complete = len(present) == len(partners)
        strict = complete and all(r["correct"] for r in present) and not (record.get("missing_fails") and record["unmatched"])
        judged.append({**record, "partners": partners, "complete": complete, "strict": strict,
                       "gt_passes": sum(r["correct"] for r in present)})
    return judged


def _ratio(numerator: int, denominator: int) -> Optional[float]:
    return numerator / denominator if denominator else None


def _accuracy(records: List[Dict]) -> Optional[float]:
    """Share of ``records`` answered right (None for none)."""
    return _ratio(sum(r["correct"] for r in records), len(records))


def _gt(records, source: Optional[str] = None) -> Optional[float]:
    kept = [r for r in unique_records(records) if r["kind"] == "grounding" and (source is None or r["source"] == source)]
    return _accuracy(kept)


def _complete_mains(records, source: Optional[str] = None) -> List[Dict]:
    return [r for r in judge(records) if r["complete"] and (source is None or r["source"] == source)]


def _gtstrict(records, source: Optional[str] = None) -> Optional[float]:
    complete = _complete_mains(records, source)
    return _ratio(sum(r["strict"] for r in complete), len(complete))


def _mt(records, source: Optional[str] = None, keep: Callable[[Dict], bool] = lambda r: True) -> Optional[float]:
    mains = [r for r in unique_records(records) if r["kind"] == "main" and (source is None or r["source"] == source) and keep(r)]
    return _accuracy(mains)


def _mt_given(records, source: Optional[str] = None, strict: bool = True) -> Optional[float]:
    chosen = [r for r in _complete_mains(records, source) if r["strict"] == strict]
    return _accuracy(chosen)


def _with_gt_passes(records, k: int) -> List[Dict]:
    return [r for r in _complete_mains(records) if r["gt_passes"] >= k]


# ---- the headline aggregations (metric_list) -----------------------------------------------------

def gt_acc(records):
    """GT; also the aggregation of each task's first metric key, whose values are the whole
    records: it warns about a limit that asks no main question or cuts grounding partners."""
    warn_incomplete(records)
    return _gt(records)


def gtstrict_rate(records):
    return _gtstrict(records)


def mt_acc(records):
    return _mt(records)


def mt_given_gtstrict(records):
    return _mt_given(records, strict=True)


def invalid_rate(records):
    """Share of evaluated questions (main and grounding) whose answer could not be parsed (UNK)."""
    records = unique_records(records)
    return _ratio(sum(r["pred"] == UNK for r in records), len(records))


def failed_count(records):
    return count_failed(unique_records(records))


def served_count(records):
    """Grounding questions of the grounding tests answered by the distinct questions asked (``--tasks tempvs``)."""
    return sum(len(r.get("serves") or ()) for r in unique_records(records))


def warn_incomplete(records) -> None:
    """Warn (from whole records only) when the evaluated docs ask no main question of a task that has
    some (a --limit that stops before the first, naming the smallest limit that asks one), and when
    main questions lack evaluated grounding partners."""
    records = unique_records(records)
    if not records or "main_limit" not in records[0]:
        return
    first = records[0]
    if first["main_limit"] and not any(r["kind"] == "main" for r in records):
        _log.warning(f"TempVS {first['task']}: no main question was asked: the {len(records)} evaluated docs are "
                     "all grounding questions (the docs list each image sequence's grounding questions before its "
                     f"main questions); --limit {first['main_limit']} is the smallest that asks one")
    missing = gt_missing_count(records)
    if missing:
        _log.warning(f"TempVS {first['task']}: {missing} main question(s) lack evaluated grounding partners (e.g. --limit); "
                     "they are left out of gtstrict_rate and mt_given_gtstrict")


# ---- breakdowns (computed from the logged records) ------------------------------------------------

def mt_given_gtfail(records):
    return _mt_given(records, strict=False)


def mt_acc_filtered(records):
    """Text-only runs: MT on the main questions the text-only-LLM filter keeps (paper Table 17's
    "after"); None when the records carry no filter mark."""
    mains = [r for r in unique_records(records) if r["kind"] == "main"]
    if not mains or any("filter_kept" not in r for r in mains):
        return None
    return _mt(mains, keep=lambda r: r["filter_kept"])


def main_count(records):
    """Main questions evaluated."""
    return sum(r["kind"] == "main" for r in unique_records(records))


def grounding_count(records):
    return sum(r["kind"] == "grounding" for r in unique_records(records))


def gt_missing_count(records):
    """Main questions left out of GT_strict because grounding partners were not evaluated."""
    return sum(r["partners"] is not None and not r["complete"] for r in judge(records))


def gt_unmatched_count(records):
    return sum(r["unmatched"] for r in judge(records))


# per-source and fine-grained keys (names chosen so no metric name contains another)

def _per_source(source: str) -> Dict[str, Callable]:
    return {
        f"gt_{source}": lambda records: _gt(records, source),
        f"gtstrict_{source}": lambda records: _gtstrict(records, source),
        f"mt_{source}": lambda records: _mt(records, source),
        f"mtgts_{source}": lambda records: _mt_given(records, source),
    }


def _statement(kind: str, polarity: str) -> Callable:
    suffix = "_gt" if polarity == "pos" else "_nc"
    return lambda records: _mt(records, keep=lambda r: r.get("statement_type") == kind + suffix)


def _distance(distance: int) -> Callable:
    return lambda records: _mt(records, keep=lambda r: r.get("event_distance") == distance)


def _at_least(k: int) -> Dict[str, Callable]:
    """MT among the main questions with at least ``k`` grounding passes, and their number (the
    script's ``main_acc_given_{k}_pass``, ``{k}_pass_count``)."""
    return {f"mt_given_gt_atleast{k}": lambda records: _accuracy(_with_gt_passes(records, k)),
            f"gt_atleast{k}_count": lambda records: len(_with_gt_passes(records, k))}


HEADLINE = ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict", "invalid_rate", "failed_count")
GROUNDING_HEADLINE = ("gt_acc", "invalid_rate", "failed_count")
# the suite grounding task of --tasks tempvs: its first key's aggregation (suite.asked_count) also
# hands the answers to the suite's main tasks; each test's GT is reported by its main task
SUITE_GROUNDING_HEADLINE = ("asked_count", "served_count", "invalid_rate", "failed_count")
AGGREGATIONS: Dict[str, Callable] = {
    "gt_acc": _gt, "gtstrict_rate": gtstrict_rate, "mt_acc": mt_acc, "mt_given_gtstrict": mt_given_gtstrict,
    "mt_given_gtfail": mt_given_gtfail, "mt_acc_filtered": mt_acc_filtered, "invalid_rate": invalid_rate, "failed_count": failed_count, "main_count": main_count,
    "grounding_count": grounding_count, "gt_missing_count": gt_missing_count, "gt_unmatched_count": gt_unmatched_count,
    "served_count": served_count,
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
for _k in AT_LEAST_K["ordering"]:
    AGGREGATIONS.update(_at_least(_k))

MAIN_CORE = ["gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict", "mt_given_gtfail", "invalid_rate",
             "failed_count", "main_count", "grounding_count", "gt_missing_count", "gt_unmatched_count"]
PER_SOURCE = [name for source in SOURCES for name in (f"gt_{source}", f"gtstrict_{source}", f"mt_{source}", f"mtgts_{source}")]
HIGHER_IS_BETTER = {"invalid_rate": False, "failed_count": False, "gt_missing_count": False, "gt_unmatched_count": False}


def metric_names(family: str, mode: str = "standard") -> List[str]:
    """Every metric key (headline and breakdown) of a task family: ``mt1_two``, ``mt1_three``,
    ``ordering`` or ``grounding``; text-only (``blind``) tasks add ``mt_acc_filtered``."""
    if family == "grounding":
        return ["gt_acc", "invalid_rate", "failed_count", "grounding_count"] + [f"gt_{source}" for source in SOURCES]
    names = MAIN_CORE + PER_SOURCE + (["mt_acc_filtered"] if mode == "blind" else [])
    names += [name for k in AT_LEAST_K[family] for name in (f"mt_given_gt_atleast{k}", f"gt_atleast{k}_count")]
    if family == "mt1_two":
        names += [f"two_{k}_{p}" for k in PAIRED_TYPES for p in ("pos", "neg")] + [f"dist{d}" for d in DISTANCES]
    elif family == "mt1_three":
        names += [f"three_{k}_{p}" for k in TRIPLE_TYPES for p in ("pos", "neg")]
    return names


def metric_family(test: str) -> str:
    return test if test.startswith("mt1_") else ("grounding" if test.startswith("gt_") else "ordering")


# ---- the metric keys of a task and each doc's value under them ----------------------------------

# the fields each headline aggregation reads, per kind of doc it counts
_BASE = ("key", "kind")
_FIELDS = {
    "gt_acc": {"grounding": _BASE + ("correct",)},
    "mt_acc": {"main": _BASE + ("correct",)},
    "gtstrict_rate": {"main": _BASE + ("test", "source", "img_seq_id", "partners", "unmatched", "missing_fails", "correct"),
                      "grounding": _BASE + ("source", "img_seq_id", "correct")},
    "invalid_rate": {"main": _BASE + ("pred",), "grounding": _BASE + ("pred",)},
    "failed_count": {"main": _BASE + ("failed",), "grounding": _BASE + ("failed",)},
    "served_count": {"grounding": _BASE + ("serves",)},
}
_FIELDS["mt_given_gtstrict"] = _FIELDS["gtstrict_rate"]


def headline_keys(tests: Sequence[str]) -> List[Tuple[str, str, Optional[str]]]:
    """``(metric key, headline aggregation, main test it scores or None)`` of a task holding ``tests``."""
    if tests[0] in GROUNDING_TESTS:
        return [(name, name, None) for name in (GROUNDING_HEADLINE if len(tests) == 1 else SUITE_GROUNDING_HEADLINE)]
    if len(tests) == 1:
        return [(name, name, None) for name in HEADLINE]
    return [(f"{metric_prefix(test)}_{name}", name, test) for test in tests for name in HEADLINE]


def values_of(record: Dict, keys: Sequence[Tuple[str, str, Optional[str]]], joins_suite: bool = False) -> Dict[str, Optional[Dict]]:
    """The doc's value under each metric key: the first key the whole record, the others the fields
    their aggregation reads, None where it does not count the doc (another kind, or a main question
    of the other test). ``joins_suite`` (a main task of --tasks tempvs): a main question's key and
    kind where the aggregation reads nothing of it, from which the aggregation tells the grounding
    test to join (suite.py)."""
    values = {}
    for position, (name, aggregation, test) in enumerate(keys):
        fields = _FIELDS.get(aggregation, {}).get(record["kind"])
        scores_test = test is None or record["kind"] == "grounding" or record["test"] == test
        if position == 0:
            values[name] = record
        elif fields and scores_test:
            values[name] = {field: record[field] for field in fields if field in record}
        elif joins_suite and scores_test:
            values[name] = {field: record[field] for field in _BASE}
        else:
            values[name] = None
    return values


def breakdown_metrics(task: str, records: List[Dict]) -> Dict[str, Optional[float]]:
    """Every metric key the task reported before its breakdowns left the metric_list (headline and
    breakdown, the same names and values), from its logged records (as the report reads them back from the samples files)."""
    records = unique_records(records)
    if task == SUITE_GROUNDING_TASK:
        return {"asked_count": grounding_count(records), "served_count": served_count(records), "invalid_rate": invalid_rate(records),
                "failed_count": failed_count(records)}
    tests = tests_in(task, records)
    if not tests:
        return {}
    if len(tests) == 1:
        mode = "blind" if any(r.get("mode") == "blind" for r in records) else "standard"
        return {name: AGGREGATIONS[name](records) for name in metric_names(metric_family(tests[0]), mode)}
    values = {}
    for test in tests:
        scoped = records_of_test(test, records)
        values.update({f"{metric_prefix(test)}_{name}": AGGREGATIONS[name](scoped) for name in metric_names(metric_family(test))})
    return values


__all__ = ["gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict", "invalid_rate", "failed_count", "served_count"]
