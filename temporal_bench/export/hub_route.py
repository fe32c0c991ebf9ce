"""The data route of the exported tasks upstream: the converted hub dataset, lmms-eval's own loading.

Upstream a task names its data in ``dataset_path`` (a hub id) and ``dataset_name`` (a config), and its
``process_docs`` builds the docs from the rows lmms-eval loaded. The converted datasets and their docs
come from each benchmark's ``temporal_bench.<benchmark>.hub_dataset`` module (``temporal-bench
build-dataset``): ``HUB_DATASET_ID``, ``config_name(settings) -> str`` and ``docs_from_dataset(dataset,
settings)`` and ``make_process_docs(task)``, the ``process_docs`` built on it. This module is the one place
the export learns that route from: each exported task YAML names the hub id and its config (``data_section``),
the exported utils.py takes ``make_process_docs`` from that module and drops the plugin's data route
(``ENTRY_PLUGIN_ONLY``: the placeholder's ``dataset_kwargs``, CaT-Bench's computed ``dataset_path``). Until a
benchmark has such a module its exported tasks keep the plugin's route (``hub_route`` is None) and
``export --check`` says so.
"""

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Dict, Optional

from temporal_bench import benchmarks

# the module of a benchmark that provides the route; its docs_from_dataset is what process_docs calls upstream
HUB_MODULE = "temporal_bench.{benchmark}.hub_dataset"
BUILD_COMMAND = "temporal-bench build-dataset {benchmark} --source RELEASE --output-dir DIR --push-to-hub {hub_id}"
# the keys of a task YAML that say where its data comes from (lmms-eval's ConfigurableTask.download)
DATA_KEYS = ("dataset_path", "dataset_name", "dataset_kwargs")
# the plugin's data route in a task folder's utils.py (export/plugin_only.py names), dropped upstream
ENTRY_PLUGIN_ONLY = frozenset({"utils.dataset_path", "utils.dataset_kwargs", "utils.placeholder_dataset_kwargs", "utils.data_source"})
PROCESS_DOCS_FACTORY = "make_process_docs"


@dataclass(frozen=True)
class HubRoute:
    benchmark: str
    module: ModuleType  # temporal_bench.<benchmark>.hub_dataset

    @property
    def dataset_id(self) -> str:
        return self.module.HUB_DATASET_ID

    @property
    def process_docs_module(self) -> str:
        """The module whose ``make_process_docs`` (on its ``docs_from_dataset``) the exported utils.py uses."""
        return self.module.__name__

    @property
    def imported_from(self) -> Dict[str, str]:
        """The exported modules take ``make_process_docs`` from the hub module (export/redirects.py)."""
        return {PROCESS_DOCS_FACTORY: self.process_docs_module}

    def build_command(self) -> Optional[str]:
        """The command that converts the release into the hub dataset; None where the hub dataset is the release
        itself (the registry names no ``dataset_builder``: CaT-Bench)."""
        return BUILD_COMMAND.format(benchmark=self.benchmark, hub_id=self.dataset_id) if benchmarks.get(self.benchmark).dataset_builder else None

    def data_keys(self, settings: Dict[str, Any]) -> Dict[str, str]:
        """A task YAML's data keys: the hub id and the config holding the docs of a task with ``settings`` (no
        ``dataset_kwargs``: no local files, no placeholder)."""
        return {"dataset_path": self.dataset_id, "dataset_name": self.module.config_name(settings)}


def hub_route(benchmark: str) -> Optional[HubRoute]:
    """The benchmark's converted-dataset route, None while it has no ``hub_dataset`` module."""
    name = HUB_MODULE.format(benchmark=benchmark)
    try:
        return HubRoute(benchmark, importlib.import_module(name))
    except ModuleNotFoundError as error:
        if not error.name or not (name == error.name or name.startswith(error.name + ".")):
            raise
        return None
