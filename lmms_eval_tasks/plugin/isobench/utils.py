"""The functions of this package's ISO-Bench tasks: the upstream tasks (lmms_eval_tasks/isobench) on the data of
``ISOBENCH_DATA_DIR`` or the hub release (lmms_eval_tasks/plugin/data_routes.py), read under the task settings
``data_split`` and ``column_map`` (its YAML's metadata states them)."""

from functools import partial
from typing import Dict, Optional

import datasets

from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import IsoBenchDataError
from temporal_bench.lmms_eval_tasks.plugin.data_routes import DataNotFoundError, stops_run_on
from temporal_bench.lmms_eval_tasks.plugin.isobench.release import release_rows


@stops_run_on((IsoBenchDataError, DataNotFoundError))
def process_docs(placeholder: datasets.Dataset, data_split: Optional[str] = None, column_map: Optional[Dict[str, Optional[str]]] = None) -> datasets.Dataset:
    """The upstream tasks' rows (they have no ``process_docs`` of their own): the split ``data_split`` of the release
    read under ``column_map``."""
    return release_rows(data_split, column_map)


process_docs_isobench = partial(process_docs)
