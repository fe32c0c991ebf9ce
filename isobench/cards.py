"""What a browse card shows of an ISO-Bench question (temporal_bench/browse/benchmarks.py): its
facts and the one image the model saw."""

from __future__ import annotations

from temporal_bench.browse.benchmarks import BenchmarkCards, Facts
from temporal_bench.browse.thumbnails import Thumb, Thumbnails
from temporal_bench.lmms_eval_tasks.isobench import metrics as isobench_metrics


class IsoBenchCards(BenchmarkCards):
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

    def images(self, paths: list, config: dict, thumbnails: Thumbnails) -> list[Thumb]:
        from PIL import Image

        def opened(path):
            with Image.open(path) as image:
                return image.convert("RGB")

        return [thumbnails.add(path, "image", "the image the model saw", lambda path=path: opened(path), path) for path in paths[:1]]
