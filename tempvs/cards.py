"""What a browse card shows of a TempVS question (temporal_bench/browse/benchmarks.py): the GT_strict
joins of a main question and its grounding questions, and the images the model saw (as the run logged them)."""

from __future__ import annotations

from collections import defaultdict

from temporal_bench.browse.benchmarks import BenchmarkCards, Facts, Join, Link, status_mark
from temporal_bench.lmms_eval_tasks.plugin.tempvs.records import served_records
from temporal_bench.lmms_eval_tasks.tempvs.metrics import judge
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS


def _statement(statement_type: str) -> str:
    """An MT1 statement type as the metrics name it (``after_gt`` -> ``after, positive``; see ``two_after_pos``)."""
    kind, _, polarity = statement_type.rpartition("_")
    names = {"gt": "positive", "nc": "negative"}
    return f"{kind}, {names[polarity]}" if polarity in names else statement_type


class TempVSCards(BenchmarkCards):
    name = "TempVS"
    record_fields = ("key", "kind", "test", "correct", "pred", "gold")
    headline = (
        ("mt_acc", "MT", "main questions answered right"),
        ("gt_acc", "GT", "grounding questions answered right"),
        ("gtstrict_rate", "GT_strict", "main questions whose grounding questions were all answered right"),
        ("mt_given_gtstrict", "MT | GT_strict", "main-question accuracy among the GT_strict passes"),
    )
    has_images = True
    joins_legend = "a main question's grounding questions, which decide GT_strict"

    def right(self, record: dict) -> bool:
        return record["correct"]

    def order(self, record: dict) -> int:
        return 0 if record["kind"] == "main" else 1  # the main questions first, their grounding questions after

    def facts(self, record: dict) -> Facts:
        distance = record.get("event_distance", -1)
        return Facts(record["key"], f"{record['kind']} question", record["source"], _statement(record.get("statement_type") or ""), str(distance) if isinstance(distance, int) and distance >= 0 else "")

    def shows_images(self, config: dict, record: dict) -> bool:
        """Not the blind variants' questions, nor those of a release's scored blind (text-only) outputs."""
        return (config.get("metadata") or {}).get("visual", "combined") != "none" and record.get("mode") != "blind"

    def images(self, sources: list[str], config: dict) -> list[tuple[str, str, str]]:
        """The combined strip, or (the ``_separate`` tasks) each frame of those the run logged."""
        if (config.get("metadata") or {}).get("visual", "combined") == "separate":
            return [(source, "frame", f"image {i} of the {len(sources)} the run logged") for i, source in enumerate(sources, 1)]
        return [(source, "strip", "the one combined image the model saw (frames left to right)") for source in sources[:1]]

    def served(self, record: dict) -> Join | None:
        """A distinct grounding question of the task ``tempvs``: the grounding questions it answers."""
        if not record.get("serves"):
            return None
        asked = [f"{test} {question_id}" for test, question_id, _, _ in record["serves"]]
        return Join(f"Asked once for {len(asked)} grounding question(s) of the suite: {', '.join(asked)}", None)

    def join(self, cards: list) -> None:
        """The GT_strict joins; a distinct grounding question of the task ``tempvs`` stands for every grounding
        question it answers, as that task's metrics take them (MT2/MT3 join every grounding question of their
        image sequence)."""
        by_key, records = {}, []
        for card in cards:
            served = served_records(card.record) if card.record.get("serves") else [card.record]
            for record in served:
                by_key[record["key"]] = card
                records.append(record)
        # each main test joins the questions of its own grounding test (the task tempvs holds all four)
        tests = {r["test"] for r in records if r["kind"] == "main"}
        mains = [j for test in sorted(tests) for j in judge([r for r in records if r["test"] in (test, MAIN_TESTS[test].grounding_test)])]
        used_by: dict[str, dict[str, Link]] = defaultdict(dict)  # grounding card id -> main card id -> link
        for judged in mains:
            card = by_key[judged["key"]]
            if not judged["partners"]:
                continue  # the blind variants ask no grounding questions
            links = []
            for number, key in enumerate(judged["partners"], 1):
                partner = by_key.get(key)
                status = partner.status if partner else "missing"
                links.append(Link(f"event {number} {status_mark(status)}", partner.id if partner else "", status))
                if partner:  # once per card: a distinct question of the suite is several grounding questions' partner
                    used_by[partner.id].setdefault(card.id, Link(f"{judged['question_id']} {status_mark(card.status)}", card.id, card.status))
            if not judged["complete"]:
                title, ok = "GT_strict: not judged (grounding questions missing from the run)", None
            else:
                ok = judged["strict"]
                title = "GT_strict passed: its grounding questions (one per event) were all answered right" if ok else "GT_strict failed: not all of its grounding questions (one per event) were answered right"
            note = ("the data holds fewer grounding questions than the statement has events; judged on those found") if judged.get("unmatched") else ""
            card.joins.append(Join(title, ok, links, note))
        by_id = {card.id: card for card in cards}
        for card_id, by_main in used_by.items():
            by_id[card_id].joins.append(Join("Grounding question of the main question(s)", None, list(by_main.values())))
