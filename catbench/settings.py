"""The CaT-Bench task settings that change a score (docs/catbench.md "Settings").

They live in the task YAMLs' ``metadata``, so the results JSON records them; the defaults are the
paper's. The split is the task's ``test_split``; self-consistency's k and T are the task's ``repeats``
and ``generation_kwargs.temperature``.
"""

import os
from typing import Dict

# d <= 3 reproduces the paper's 1,256 close / 1,584 distant test questions (docs/protocol/catbench.md §3).
DEFAULTS = {"close_max_distance": 3, "switched": False}

# The environment variables that used to set them are refused. (lm-eval's tasks read the settings from
# their metadata too, and from --metadata; the split there is the metadata's data_split.)
REMOVED_ENV = {
    "CATBENCH_SPLIT": "the evaluated split is task configuration: lmms-eval reads the task's test_split "
                      "(a YAML that includes the task and sets test_split: validation), lm-eval the metadata "
                      "data_split (--metadata '{\"data_split\": \"validation\"}')",
    "CATBENCH_CLOSE_MAX_DISTANCE": "the close/distant threshold is the task setting close_max_distance "
                                   "(YAML metadata; lm-eval also --metadata '{\"close_max_distance\": 2}')",
}


class RemovedSettingError(ValueError):
    """An environment variable that used to change a score is still set."""


def refuse_removed_env() -> None:
    for name, instead in REMOVED_ENV.items():
        if name in os.environ:
            raise RemovedSettingError(f"{name} is set but no longer read: {instead}; unset {name}")


def with_defaults(metadata: Dict) -> Dict:
    """The CaT-Bench settings of a task's metadata, defaults filled in."""
    settings = {key: metadata.get(key, default) for key, default in DEFAULTS.items()}
    settings["close_max_distance"] = int(settings["close_max_distance"])
    settings["switched"] = bool(settings["switched"])
    return settings
