"""The aggregations of this package's TempVS tasks: the upstream ones (lmms_eval_tasks/tempvs/metrics.py), each
record judged under the run's branch of the official parser (a text-only run's by the text-only LLMs' rows), a value
being a record, a list of records (a grounding question of ``tempvs`` answering several) or None; with the fix
``missing_grounding``, a main question whose grounding rows are missing from the data fails GT_strict (officially it
is judged on the rows found; none found is a pass); and ``tempvs``'s ``asked_count``."""

from collections.abc import Sequence

from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import run_family_of
from temporal_bench.lmms_eval_tasks.tempvs.metrics import accuracy, complete_mains, ratio, unique_records

UNGROUNDED_MODES = ("blind", "images_only")  # no text to ground, so no grounding questions


def _records(values: Sequence, args) -> list[dict]:
    """The task's records judged under its branch: the text-only rule where the records are of a blind run."""
    blind = any(isinstance(value, dict) and value.get("mode") == "blind" for value in values)
    return unique_records(flat(values), run_family_of(f"{getattr(args, 'model', '')} {getattr(args, 'model_args', '')}", blind))


def flat(values: Sequence) -> list:
    """The records of the values, a list of records spread out."""
    return [record for value in values for record in (value if isinstance(value, list) else [value])]


def asked_count(values):
    """The distinct grounding questions the task ``tempvs`` asked (each once for all six main tests)."""
    return sum(r["kind"] == "grounding" for r in unique_records(flat(values)))


def strict_mains(records: list[dict]) -> list[dict]:
    """The complete main questions, GT_strict failed for an unmatched one where the records ask so (the fix)."""
    return [{**r, "strict": r["strict"] and not (r.get("missing_fails") and r["unmatched"])} for r in complete_mains(records)]


def gt_acc(values, args=None):
    return accuracy([r for r in _records(values, args) if r["kind"] == "grounding"])


def mt_acc(values, args=None):
    return accuracy([r for r in _records(values, args) if r["kind"] == "main"])


def gtstrict_rate(values, args=None):
    complete = strict_mains(_records(values, args))
    return ratio(sum(r["strict"] for r in complete), len(complete))


def mt_given_gtstrict(values, args=None):
    return accuracy([r for r in strict_mains(_records(values, args)) if r["strict"]])
