"""The aggregations of this package's TempVS tasks: the upstream ones (lmms_eval_tasks/tempvs/metrics.py), each
record judged under the run's branch of the official parser (a text-only run's by the text-only LLMs' rows), a value
being a record, a list of records (a grounding question of ``tempvs`` answering several) or None; with the fix
``missing_grounding``, a main question whose grounding rows are missing from the data fails GT_strict (officially it
is judged on the rows found; none found is a pass); and ``tempvs``'s ``asked_count``.

Each metric is a formula of a :class:`Judged` scope (the records once each, joined once), which the aggregations build
from the logged values and the report's breakdowns (temporal_bench/tempvs/breakdowns.py) share over subsets of it."""

from collections.abc import Callable, Sequence
from functools import cached_property

from temporal_bench.lmms_eval_tasks.plugin.tempvs.extraction import run_family_of
from temporal_bench.lmms_eval_tasks.tempvs.metrics import accuracy, judge, ratio, unique_records

UNGROUNDED_MODES = ("blind", "images_only")  # no text to ground, so no grounding questions


def flat(values: Sequence) -> list:
    """The records of the values, a list of records spread out."""
    return [record for value in values for record in (value if isinstance(value, list) else [value])]


class Judged:
    """A task's records, one per doc key and judged under the run's branch, and its main questions joined to their
    grounding partners (``judge``), each computed once: what every TempVS metric reads."""

    def __init__(self, records: list[dict], joined: list[dict] | None = None):
        self.records = records
        if joined is not None:
            self.__dict__["joined"] = joined

    @classmethod
    def of(cls, values: Sequence, args=None) -> "Judged":
        """The scope of an aggregation's values (``args``: the harness's command line, whose model picks the branch)."""
        values = flat(values)
        blind = any(isinstance(value, dict) and value.get("mode") == "blind" for value in values)
        return cls(unique_records(values, run_family_of(f"{getattr(args, 'model', '')} {getattr(args, 'model_args', '')}", blind)))

    @cached_property
    def joined(self) -> list[dict]:
        return judge(self.records)

    @cached_property
    def grounding(self) -> list[dict]:
        return [r for r in self.records if r["kind"] == "grounding"]

    @cached_property
    def mains(self) -> list[dict]:
        return [r for r in self.records if r["kind"] == "main"]

    @cached_property
    def strict_mains(self) -> list[dict]:
        """The complete main questions, GT_strict failed for an unmatched one where the records ask so (the fix)."""
        return [{**r, "strict": r["strict"] and not (r.get("missing_fails") and r["unmatched"])} for r in self.joined if r["complete"]]

    def where(self, keep: Callable[[dict], bool]) -> "Judged":
        """The scope of the records ``keep`` selects (a main question keeps its join: a source's questions and their
        partners are of one source)."""
        return Judged([r for r in self.records if keep(r)], [r for r in self.joined if keep(r)])


def gt_acc_of(scope: Judged) -> float | None:
    return accuracy(scope.grounding)


def mt_acc_of(scope: Judged) -> float | None:
    return accuracy(scope.mains)


def gtstrict_rate_of(scope: Judged) -> float | None:
    return ratio(sum(r["strict"] for r in scope.strict_mains), len(scope.strict_mains))


def mt_given_gtstrict_of(scope: Judged) -> float | None:
    return accuracy([r for r in scope.strict_mains if r["strict"]])


def asked_count(values):
    """The distinct grounding questions the task ``tempvs`` asked (each once for all six main tests)."""
    return sum(r["kind"] == "grounding" for r in unique_records(flat(values)))


def gt_acc(values, args=None):
    return gt_acc_of(Judged.of(values, args))


def mt_acc(values, args=None):
    return mt_acc_of(Judged.of(values, args))


def gtstrict_rate(values, args=None):
    return gtstrict_rate_of(Judged.of(values, args))


def mt_given_gtstrict(values, args=None):
    return mt_given_gtstrict_of(Judged.of(values, args))
