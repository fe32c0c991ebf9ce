"""What a browse card shows of a CaT-Bench question (temporal_bench/browse/benchmarks.py): the TC
join of a step pair's before and after questions and the OCC join of a NonDep question and its twin."""

from __future__ import annotations

from collections import defaultdict

from temporal_bench.browse.benchmarks import BenchmarkCards, Facts, Join, Link, status_mark
from temporal_bench.lmms_eval_tasks.catbench import metrics as catbench_metrics


class CatBenchCards(BenchmarkCards):
    name = "CaT-Bench"
    record_fields = catbench_metrics.RECORD_FIELDS
    headline = (
        ("f1_macro", "F1 macro", "macro F1 of the Dep / NonDep classes over the real questions"),
        ("accuracy", "accuracy", "real questions answered right"),
        ("tc", "TC", "step pairs whose before and after questions got the same answer"),
        ("occ", "OCC", "NonDep questions answered as their switched twin"),
    )

    joins_legend = "a question's before/after twin, which decides TC, and a NonDep question's switched twin, which decides OCC"

    def facts(self, record: dict) -> Facts:
        kind = f"{record['variant']} question, steps {'dependent' if record['dependency'] == 'dep' else 'independent'}"
        return Facts(record["question_id"], kind, "", record["relation"], str(record["distance"]))

    def join(self, cards: list) -> None:
        pairs, twins = defaultdict(list), defaultdict(list)
        for card in cards:
            record = card.record
            if record["variant"] == "real":
                pairs[record["pair_id"]].append(card)
            if record["dependency"] == "nondep":
                twins[record["pair_id"], record["relation"]].append(card)
        self._pair(pairs, catbench_metrics.tc, "TC", "the same step pair asked the other way round ({relation})")
        self._pair(twins, catbench_metrics.occ, "OCC", "the same question over the plan with the two steps' texts swapped ({variant})")

    @staticmethod
    def _pair(groups: dict, agreement, metric: str, what: str) -> None:
        for group in groups.values():
            for card in group:
                others = [other for other in group if other is not card]
                if len(others) != 1:
                    card.joins.append(Join(f"{metric}: not judged ({what.split(' (')[0]} was not logged)", None))
                    continue
                other = others[0]
                ok = agreement([card.record, other.record]) == 1
                title = f"{metric}: {'consistent' if ok else 'inconsistent'} with {what.format(**other.record)}"
                answered = "request failed" if other.failed else f"answered {other.record['pred']}"  # a failed request's text is no answer
                card.joins.append(Join(title, ok, [Link(f"{answered} {status_mark(other.status)}", other.id, other.status)]))
