"""What a card shows of each benchmark, read from the per-doc record its metrics logged.

Each benchmark says which logged records are its own (the fields of its record), whether an answer
was right, wrong or invalid, the facts the page filters on (source, relation, distance), the images
its doc showed the model in the order the model saw them, the joins its metrics make between
questions (TempVS: a main question and its grounding questions, GT_strict; CaT-Bench: the before
and after questions of a step pair, TC, and a NonDep question and its switched twin, OCC) and the
run's headline metrics.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from temporal_bench.browse.thumbnails import Thumb, Thumbnails
from temporal_bench.catbench import metrics as catbench_metrics
from temporal_bench.isobench import metrics as isobench_metrics
from temporal_bench.tempvs.extraction import UNK
from temporal_bench.tempvs.metrics import judge
from temporal_bench.tempvs.suite import grounding_test_of, served_records
from temporal_bench.utils.yes_no import INVALID

RIGHT, WRONG, INVALID_ANSWER = "right", "wrong", "invalid"


@dataclass(frozen=True)
class Facts:
    question: str  # the question's id in the benchmark
    kind: str = ""
    source: str = ""
    relation: str = ""
    distance: str = ""


@dataclass(frozen=True)
class Link:
    """Another question a join pairs this one with: its card (empty when it was not logged)."""

    label: str
    card: str
    status: str


@dataclass
class Join:
    """One join the metrics make: its verdict (True passed, False failed, None not judged)."""

    title: str
    ok: bool | None
    links: list[Link] = field(default_factory=list)
    note: str = ""


class Benchmark:
    name = ""
    record_fields: Sequence[str] = ()
    headline: Sequence[tuple[str, str, str]] = ()  # (metric, short name, what it measures)
    has_images = False

    def owns(self, record: Any) -> bool:
        return isinstance(record, dict) and {*self.record_fields, "gold", "pred"} <= record.keys()

    def status(self, record: dict) -> str:
        if record["pred"] == INVALID:
            return INVALID_ANSWER
        return RIGHT if record["pred"] == record["gold"] else WRONG

    def facts(self, record: dict) -> Facts:
        raise NotImplementedError

    def order(self, record: dict) -> int:
        """Cards of a task are shown by this key (stable: then in logged order)."""
        return 0

    def images(self, doc: dict, thumbnails: Thumbnails) -> list[Thumb]:
        return []

    def served(self, record: dict) -> Join | None:
        """A join the record shows by itself (None: none)."""
        return None

    def join(self, cards: list) -> None:
        """Add the joins of the cards of one task (and filter): each card has ``record``, ``id``,
        ``status`` and a list ``joins``."""


def _status_mark(status: str) -> str:
    return {RIGHT: "✓", WRONG: "✗", INVALID_ANSWER: "?"}.get(status, "–")


def _statement(statement_type: str) -> str:
    """An MT1 statement type as the metrics name it (``after_gt`` -> ``after, positive``; see ``two_after_pos``)."""
    kind, _, polarity = statement_type.rpartition("_")
    names = {"gt": "positive", "nc": "negative"}
    return f"{kind}, {names[polarity]}" if polarity in names else statement_type


class TempVS(Benchmark):
    name = "TempVS"
    record_fields = ("key", "kind", "test", "correct", "pred", "gold")
    headline = (
        ("mt_acc", "MT", "main questions answered right"),
        ("gt_acc", "GT", "grounding questions answered right"),
        ("gtstrict_rate", "GT_strict", "main questions whose grounding questions were all answered right"),
        ("mt_given_gtstrict", "MT | GT_strict", "main-question accuracy among the GT_strict passes"),
        ("invalid_rate", "invalid", "answers that could not be parsed"),
    )
    has_images = True

    def status(self, record: dict) -> str:
        if record["correct"]:
            return RIGHT
        return INVALID_ANSWER if record["pred"] == UNK else WRONG

    def order(self, record: dict) -> int:
        return 0 if record["kind"] == "main" else 1  # the main questions first, their grounding questions after

    def facts(self, record: dict) -> Facts:
        distance = record.get("event_distance", -1)
        return Facts(record["key"], f"{record['kind']} question", record["source"], _statement(record.get("statement_type") or ""),
                     str(distance) if isinstance(distance, int) and distance >= 0 else "")

    def images(self, doc: dict, thumbnails: Thumbnails) -> list[Thumb]:
        from temporal_bench.tempvs.hooks import open_image

        def add(path, role, caption):
            return thumbnails.add(path, role, caption, lambda: open_image(path, doc), path)

        if doc["visual"] == "separate":
            return [add(path, "frame", f"image {i} of {len(doc['frames'])}") for i, path in enumerate(doc["frames"], 1)]
        if doc["visual"] == "combined":
            return [add(doc["image"], "strip", "the one combined image the model saw (frames left to right)")]
        return []  # the blind variants show no image

    def served(self, record: dict) -> Join | None:
        """A distinct grounding question of ``--tasks tempvs``: the grounding questions it answers."""
        if not record.get("serves"):
            return None
        asked = [f"{test} {question_id}" for test, question_id, _, _ in record["serves"]]
        return Join(f"Asked once for {len(asked)} grounding question(s) of the suite: {', '.join(asked)}", None)

    def join(self, cards: list) -> None:
        """The GT_strict joins; a distinct question of ``--tasks tempvs`` stands for every grounding
        question it answers (its card is given with the main cards of each suite task, cards.py): the
        questions of the grounding test the main questions join, as the suite's metrics take them
        (suite.with_served_grounding; MT2/MT3 join every grounding question of their image sequence)."""
        by_key, records = {}, []
        test = grounding_test_of([card.record for card in cards])
        for card in cards:
            served = [r for r in served_records(card.record) if r["test"] == test] if card.record.get("serves") else [card.record]
            for record in served:
                by_key[record["key"]] = card
                records.append(record)
        used_by: dict[str, dict[str, Link]] = defaultdict(dict)  # grounding card id -> main card id -> link
        for judged in judge(records):
            card = by_key[judged["key"]]
            if not judged["partners"]:
                continue  # the blind variants ask no grounding questions
            links = []
            for number, key in enumerate(judged["partners"], 1):
                partner = by_key.get(key)
                status = partner.status if partner else "missing"
                links.append(Link(f"event {number} {_status_mark(status)}", partner.id if partner else "", status))
                if partner:  # once per card: a distinct question of the suite is several grounding questions' partner
                    used_by[partner.id].setdefault(card.id, Link(f"{judged['question_id']} {_status_mark(card.status)}", card.id, card.status))
            if not judged["complete"]:
                title, ok = "GT_strict: not judged (grounding questions missing from the run)", None
            else:
                ok = judged["strict"]
                title = ("GT_strict passed: its grounding questions (one per event) were all answered right" if ok else
                         "GT_strict failed: not all of its grounding questions (one per event) were answered right")
            note = ("the data holds fewer grounding questions than the statement has events; "
                    "judged on those found") if judged["unmatched"] else ""
            card.joins.append(Join(title, ok, links, note))
        by_id = {card.id: card for card in cards}
        for card_id, links in used_by.items():
            by_id[card_id].joins.append(Join("Grounding question of the main question(s)", None, list(links.values())))


class CatBench(Benchmark):
    name = "CaT-Bench"
    record_fields = catbench_metrics.RECORD_FIELDS
    headline = (
        ("f1_macro", "F1 macro", "macro F1 of the Dep / NonDep classes over the real questions"),
        ("accuracy", "accuracy", "real questions answered right"),
        ("tc", "TC", "step pairs whose before and after questions got the same answer"),
        ("occ", "OCC", "NonDep questions answered as their switched twin"),
        ("invalid_rate", "invalid", "answers without a clear yes/no"),
    )

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
        self._pair(pairs, catbench_metrics.tc, "TC",
                   "the same step pair asked the other way round ({relation})")
        self._pair(twins, catbench_metrics.occ, "OCC",
                   "the same question over the plan with the two steps' texts swapped ({variant})")

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
                card.joins.append(Join(title, ok, [Link(f"answered {other.record['pred']} {_status_mark(other.status)}",
                                                        other.id, other.status)]))


class IsoBench(Benchmark):
    name = "ISO-Bench"
    record_fields = isobench_metrics.RECORD_FIELDS
    headline = (
        ("f1_weighted", "F1 weighted", "weighted F1 over the answers with a clear yes/no (the paper's score)"),
        ("coverage", "coverage", "answers with a clear yes/no"),
        ("strict_f1_weighted", "strict F1", "weighted F1 with unclear answers counted wrong"),
    )
    has_images = True

    def facts(self, record: dict) -> Facts:
        return Facts(str(record["id"]), "", record["source"] or "", record["relation"], record["distance_class"] or "")

    def images(self, doc: dict, thumbnails: Thumbnails) -> list[Thumb]:
        from temporal_bench.isobench.loading import open_image

        if doc.get("image_bytes"):
            key, name = hashlib.sha1(doc["image_bytes"]).hexdigest(), f"the embedded image of {doc.get('id')}"
        else:
            key = name = str(doc.get("image_path"))
        return [thumbnails.add(key, "image", "the image the model saw", lambda: open_image(doc), name)]


BENCHMARKS = (TempVS(), CatBench(), IsoBench())


def benchmark_of(record: Any) -> Benchmark | None:
    return next((benchmark for benchmark in BENCHMARKS if benchmark.owns(record)), None)
