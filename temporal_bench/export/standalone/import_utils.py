"""Run in a subprocess (by file path) by ``export --check`` and the tests: import each exported ``utils.py``
as lmms-eval does (by path, as the top-level module ``utils``) with every socket connection refused and recorded, list the hooks it
lacks, and call the ``process_docs`` hook named for it, if any; prints a JSON report.

Usage: ``python import_utils.py TASKS_DIR '{"benchmark": ["hook", ...]}' '{"benchmark": "process_docs_<task>"}'``
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

            placeholder = datasets.Dataset.from_list([{"note": "placeholder"}], split="test")  # what lmms-eval passes offline
            report["process_docs"][benchmark] = _outcome(lambda: getattr(module, process_docs[benchmark])(placeholder))
    report["connections"] = connections
    return report


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]))))
