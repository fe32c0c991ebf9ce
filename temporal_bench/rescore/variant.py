"""A run's tasks written as variants of their own YAMLs under the settings rescore chooses (docs/harness.md "Variants of
your own"): each YAML includes the task's YAML, keeps its name (a folder given with ``--include_path`` comes before the
registered one, so it shadows it), states the settings in its ``metadata`` and names a ``process_docs`` given them; the
per-model settings are the run's, under the replay model's name. The folder stays in the re-scored run's folder, so the
re-score can be repeated from what it holds."""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from temporal_bench.rescore.errors import RescoreError

MODULE = "rescore_settings"
REPLAY_MODEL = "replay"


def process_docs_with(yaml_path: str, **settings: Any) -> partial:
    """The ``process_docs`` of the task YAML at ``yaml_path`` (a ``functools.partial``, whose keyword arguments are the
    task's settings) given ``settings`` instead of its own."""
    from lmms_eval.utils import load_yaml_config

    process_docs = load_yaml_config(yaml_path=yaml_path, mode="full").get("process_docs")
    if not isinstance(process_docs, partial):
        raise RescoreError(f"{yaml_path}: its process_docs takes no settings (not a functools.partial), so it cannot be re-scored with {settings}")
    unknown = sorted(set(settings) - set(inspect.signature(process_docs.func).parameters))
    if unknown:
        raise RescoreError(f"{yaml_path}: its process_docs takes no setting {', '.join(unknown)}")
    return partial(process_docs.func, *process_docs.args, **{**process_docs.keywords, **settings})


@dataclass(frozen=True)
class TaskVariant:
    """One re-scored task: its YAML, the settings it is re-scored with, and the run's per-model settings."""

    task: str
    yaml_path: str
    metadata: dict  # every setting, as the results record them
    process_docs_settings: dict | None  # the keyword arguments its process_docs takes (None: it takes none)
    per_model: Any  # the run's lmms_eval_specific_kwargs as resolved for its model (None: the task has none)


def write_variants(folder: Path, variants: list[TaskVariant]) -> Path:
    """The variants' YAMLs and the module of their ``process_docs`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    module = ['"""Written by temporal-bench rescore: the process_docs of each re-scored task, given its settings."""', "", "from temporal_bench.rescore.variant import process_docs_with", ""]
    for index, variant in enumerate(variants):
        lines = [f"# written by temporal-bench rescore: {variant.task} under the settings it was re-scored with", f"include: {json.dumps(variant.yaml_path)}", f"task: {variant.task}"]
        if variant.process_docs_settings is not None:
            module.append(f"process_docs_{index} = process_docs_with({variant.yaml_path!r}, **{variant.process_docs_settings!r})  # {variant.task}")
            lines.append(f"process_docs: !function {MODULE}.process_docs_{index}")
        lines.append(f"metadata: {json.dumps(variant.metadata)}")
        if variant.per_model is not None:
            lines.append(f"lmms_eval_specific_kwargs: {json.dumps({REPLAY_MODEL: variant.per_model})}")
        (folder / f"{variant.task}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / f"{MODULE}.py").write_text("\n".join(module) + "\n", encoding="utf-8")
    return folder


def resolved_per_model(kwargs: Any, model: str | None) -> Any:
    """A task's ``lmms_eval_specific_kwargs`` as lmms-eval resolves them for ``model`` (its section, else the whole mapping
    with the ``default`` section's keys added: what the task hands its hooks), from the task config a run recorded or
    from its YAML."""
    if not isinstance(kwargs, dict):
        return kwargs
    if model in kwargs:
        return kwargs[model]
    return {**kwargs, **kwargs.get("default", {})} if isinstance(kwargs.get("default"), dict) else kwargs
