"""What a browse card shows of an ISO-Bench question (temporal_bench/browse/benchmarks.py): its
facts and the one image the model saw."""

from __future__ import annotations

from temporal_bench.browse.benchmarks import BenchmarkCards, Facts
from temporal_bench.isobench.rules import TABLE1_RULE
from temporal_bench.lmms_eval_tasks.plugin.isobench.utils import RECORD_FIELDS


class IsoBenchCards(BenchmarkCards):
    name = "ISO-Bench"
    record_fields = RECORD_FIELDS
    headline = (  # as the report's headline table (isobench/headline.py): Table 1's rule
        (f"{TABLE1_RULE}f1_weighted", "F1 weighted", "weighted F1 under Table 1's rule, an answer without a clear yes/no a third label (the paper's score)"),
        (f"{TABLE1_RULE}f1_macro", "F1 macro", "macro F1 under Table 1's rule"),
        ("coverage", "coverage", "answers with a clear yes/no"),
    )
    has_images = True

    def facts(self, record: dict) -> Facts:
        return Facts(str(record["id"]), "", record["source"] or "", record["relation"], record["distance_class"] or "")

    def images(self, sources: list[str], config: dict) -> list[tuple[str, str, str]]:
        return [(source, "image", "the image the model saw") for source in sources[:1]]
