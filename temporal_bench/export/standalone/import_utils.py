"""Run in a subprocess (by file path) by ``export --check`` and the tests: import each exported ``utils.py``
as lmms-eval does (by path, as the top-level module ``utils``) with every socket connection refused and recorded, list the hooks it
lacks, and call the ``process_docs`` hook named for it, if any, on a one-row dataset that is not the task's; then, given folders, what ``load_tasks.py``
reports on them (``task_manager``: the same interpreter, after the imports). Prints a JSON report.

Usage: ``python import_utils.py TASKS_DIR '{"benchmark": ["hook", ...]}' '{"benchmark": "process_docs_<task>"}' ['["FOLDER", ...]']``
"""

import importlib.util
import json
import socket
import sys

connections = []


def _refuse(sock, address, *args):
    connections.append(repr(address))
    raise OSError(f"network refused by the test: {address!r}")


socket.socket.connect = _refuse
socket.socket.connect_ex = _refuse


def _outcome(call) -> str:
    """``ok``, or the exception (any, ``SystemExit`` included) as ``Type: message``."""
    try:
        call()
    except BaseException as error:  # noqa: BLE001 - the report names whatever it was
        return f"{type(error).__name__}: {error}"
    return "ok"


def main(tasks_dir: str, hooks: dict, process_docs: dict) -> dict:
    report = {"imports": {}, "missing_hooks": {}, "process_docs": {}}
    for benchmark, names in hooks.items():
        spec = importlib.util.spec_from_file_location("utils", f"{tasks_dir}/{benchmark}/utils.py")
        module = importlib.util.module_from_spec(spec)
        report["imports"][benchmark] = _outcome(lambda: spec.loader.exec_module(module))
        report["missing_hooks"][benchmark] = [name for name in names if not hasattr(module, name)]
        if benchmark in process_docs:
            import datasets

            placeholder = datasets.Dataset.from_list([{"note": "placeholder"}], split="test")  # not the task's dataset: its data error
            report["process_docs"][benchmark] = _outcome(lambda: getattr(module, process_docs[benchmark])(placeholder))
    report["connections"] = connections
    return report


if __name__ == "__main__":
    report = main(sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]))
    if len(sys.argv) > 4:
        from load_tasks import main as load_tasks  # beside this file, the first entry of sys.path

        report["task_manager"] = load_tasks(json.loads(sys.argv[4]))
    print(json.dumps(report))
