"""ISO-Bench's three scoring rules, each named by the prefix of its keys (the task folder's headline scores use
Table 1's, ``paper_``: lmms_eval_tasks/isobench/metrics.py):

* no prefix: on the answers with an unambiguous YES/NO only, the rest discarded; ``coverage`` is the share kept.
* ``strict_``: every answer, an unparsed one counted as the wrong class, so refusing never pays.
* ``paper_``: every answer, an unparsed one kept as a third predicted label while P/R/F1 are reported
  for ``labels=[yes, no]``: it lowers the recall of its gold class and nobody's precision (the rule that fits
  the published Table 1).
"""

from collections.abc import Callable

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.classification import yes_no_report
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, NO, YES
from temporal_bench.lmms_eval_tasks.isobench.metrics import CLASS_NAMES


def _discarded(records: list[dict]) -> list[tuple[str, str]]:
    return [(r["gold"], r["pred"]) for r in records if r["pred"] != INVALID]


def _strict(records: list[dict]) -> list[tuple[str, str]]:
    return [(r["gold"], (NO if r["gold"] == YES else YES) if r["pred"] == INVALID else r["pred"]) for r in records]


def _third_label(records: list[dict]) -> list[tuple[str, str]]:
    return [(r["gold"], r["pred"]) for r in records]


# prefix of the keys -> (gold, scored prediction) pairs the rule scores
RULES: dict[str, Callable[[list[dict]], list[tuple[str, str]]]] = {"": _discarded, "strict_": _strict, "paper_": _third_label}
TABLE1_RULE = "paper_"  # the rule the paper's Table 1 fits: the headline scores, Table 1, compare and the figures use it


def scores(records: list[dict], rule: str = "") -> dict[str, float] | None:
    """Every score of the classification report of ``records`` under the rule with key prefix ``rule``; None without
    answers to score."""
    pairs = RULES[rule](records)
    return yes_no_report([g for g, _ in pairs], [p for _, p in pairs], CLASS_NAMES)


def score_metric(score: str, rule: str = "", keep: Callable[[dict], bool] = lambda r: True) -> Callable:
    def aggregate(records: list[dict]) -> float | None:
        report = scores([r for r in records if keep(r)], rule)
        return None if report is None else report[score]

    return aggregate


def coverage(records: list[dict]) -> float:
    """Share of answers with an unambiguous YES/NO (the default rule's scores use only these)."""
    return sum(r["pred"] != INVALID for r in records) / len(records)
