"""The functions of this package's ISO-Bench tasks: the upstream tasks (lmms_eval_tasks/isobench) on the data of
``ISOBENCH_DATA_DIR`` or the hub release (lmms_eval_tasks/plugin/data_routes.py), read under the task settings
``data_split`` and ``column_map`` (its YAML's metadata states them), their scores under the names this package reports
them by (``paper_``: Table 1's rule, beside the others its report computes) with the records its breakdowns read."""

from collections.abc import Sequence
from functools import partial

import datasets

from temporal_bench.lmms_eval_tasks.isobench import utils as upstream
from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import IsoBenchDataError
from temporal_bench.lmms_eval_tasks.isobench.metrics import METRIC_NAMES
from temporal_bench.lmms_eval_tasks.plugin.data_routes import DataNotFoundError, stops_run_on
from temporal_bench.lmms_eval_tasks.plugin.isobench.release import release_rows


@stops_run_on((IsoBenchDataError, DataNotFoundError))
def process_docs(placeholder: datasets.Dataset, data_split: str | None = None, column_map: dict[str, str | None] | None = None) -> datasets.Dataset:
    """The upstream tasks' rows (they have no ``process_docs`` of their own): the split ``data_split`` of the release
    read under ``column_map``."""
    return release_rows(data_split, column_map)


process_docs_isobench = partial(process_docs)


CLOSE_MAX_DISTANCE = 2  # paper §4: close iff the image step is fewer than 3 steps from the nearest snippet step
METRIC_KEYS = [f"paper_{name}" for name in METRIC_NAMES]  # upstream's scores under this package's names (the metric_list's)
RECORD_FIELDS = ("id", "goal", "plan_id", "relation", "source", "distance_class")  # a record's fields besides gold and pred


def distance_class(image_step_idx: int | None, snippet_step_idxs: Sequence[int] | None) -> str | None:
    """close iff |j - i| <= 2 with j the nearest snippet step; None without positions."""
    if image_step_idx is None or not snippet_step_idxs:
        return None
    return "close" if min(abs(j - image_step_idx) for j in snippet_step_idxs) <= CLOSE_MAX_DISTANCE else "distant"


def package_values(doc: dict, values: dict) -> dict:
    """Upstream's values under this package's keys (``paper_f1_weighted`` ...), the first with the record its report
    reads: the example's goal, plan, source and close/distant class besides."""
    fields = {**doc, "distance_class": distance_class(doc["image_step_idx"], doc["snippet_step_idxs"])}
    record = {**{field: fields[field] for field in RECORD_FIELDS}, "gold": values[METRIC_NAMES[0]]["gold"], "pred": values[METRIC_NAMES[0]]["pred"]}
    return {key: record if i == 0 else values[name] for i, (key, name) in enumerate(zip(METRIC_KEYS, METRIC_NAMES))}


def process_results_answer_only(doc: dict, results: list[str]) -> dict:
    return package_values(doc, upstream.process_results_answer_only(doc, results))


def process_results_explain_then_answer(doc: dict, results: list[str]) -> dict:
    return package_values(doc, upstream.process_results_explain_then_answer(doc, results))
