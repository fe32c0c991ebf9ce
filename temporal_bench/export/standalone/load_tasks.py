"""Run in a subprocess (by file path) by ``export --check``: index the exported folders with lmms-eval's
TaskManager (``include_path``, lmms-eval's own tasks left out) and load every YAML in full, as a run does
(each ``!function`` imports the folder's ``utils.py``); prints a JSON report.

Usage: ``python load_tasks.py FOLDER [FOLDER ...]``
"""

import json
import sys
from pathlib import Path


def main(folders: list) -> dict:
    from lmms_eval.tasks import TaskManager
    from lmms_eval.utils import load_yaml_config

    manager = TaskManager(include_path=folders, include_defaults=False)
    errors = {}
    for path in sorted(p for folder in folders for p in Path(folder).glob("*.yaml")):
        try:
            load_yaml_config(yaml_path=str(path), mode="full")
        except BaseException as error:  # noqa: BLE001 - the report names whatever it was
            errors[f"{path.parent.name}/{path.name}"] = f"{type(error).__name__}: {error}"
    return {"registered": sorted(manager.all_tasks), "errors": errors}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
