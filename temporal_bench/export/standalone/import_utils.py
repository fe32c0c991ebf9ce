"""Run in a subprocess (by file path) by ``export --check``: import each exported ``utils.py`` as lmms-eval does (by
path, as the top-level module ``utils``) with every socket connection refused and recorded, and list the hooks it
lacks; then, in the same interpreter, index the exported folders with lmms-eval's TaskManager (``include_path``,
lmms-eval's own tasks left out) and load every YAML in full, as a run does (each ``!function`` imports the folder's
``utils.py``). Prints a JSON report.

Usage: ``python import_utils.py TASKS_DIR '{"benchmark": ["hook", ...]}' '["FOLDER", ...]'``
"""

import importlib.util
import json
import socket
import sys
from pathlib import Path

connections: list[str] = []


def _refuse(sock, address, *args):
    connections.append(repr(address))
    raise OSError(f"network refused by the test: {address!r}")


for method in ("connect", "connect_ex"):
    setattr(socket.socket, method, _refuse)


def _outcome(call) -> str:
    """``ok``, or the exception (any, ``SystemExit`` included) as ``Type: message``."""
    try:
        call()
    except BaseException as error:  # noqa: BLE001 - the report names whatever it was
        return f"{type(error).__name__}: {error}"
    return "ok"


def import_hooks(tasks_dir: str, hooks: dict) -> dict:
    report: dict[str, dict] = {"imports": {}, "missing_hooks": {}}
    for benchmark, names in hooks.items():
        path = f"{tasks_dir}/{benchmark}/utils.py"
        spec = importlib.util.spec_from_file_location("utils", path)
        if spec is None:
            raise ImportError(f"no loader for {path}")
        module = importlib.util.module_from_spec(spec)
        report["imports"][benchmark] = _outcome(lambda spec=spec, module=module: spec.loader.exec_module(module))
        report["missing_hooks"][benchmark] = [name for name in names if not hasattr(module, name)]
    return report


def load_tasks(folders: list) -> dict:
    from lmms_eval.tasks import TaskManager
    from lmms_eval.utils import load_yaml_config

    manager = TaskManager(include_path=folders, include_defaults=False)
    paths = sorted(path for folder in folders for path in Path(folder).glob("*.yaml"))
    errors = {f"{path.parent.name}/{path.name}": outcome for path in paths if (outcome := _outcome(lambda path=path: load_yaml_config(yaml_path=str(path), mode="full"))) != "ok"}
    return {"registered": sorted(manager.all_tasks), "errors": errors}


if __name__ == "__main__":
    report = import_hooks(sys.argv[1], json.loads(sys.argv[2]))
    report["connections"] = connections
    report["task_manager"] = load_tasks(json.loads(sys.argv[3]))
    print(json.dumps(report))
