"""Run our three command lines in processes forked from one that has already imported them.

A CLI run of the suite spends about 60% of its time importing torch, transformers, datasets and the
harness. Each pytest worker therefore starts one multiprocessing "forkserver" that imports them
once; every run is a fresh child forked from it, which sets the run's environment, working folder
and argv, sends its output to files and calls the console script's own entry function
(``lmms_eval.cli.dispatch.main``, ``lm_eval.__main__.cli_evaluate``, ``temporal_bench.__main__.main``).
So each run is still the real CLI in its own process, minus the imports and the indexing of the
harnesses' built-in task folders (tests/preloaded_task_index.py).

Where the environment must act before the imports (``PYTHONPATH`` stubs, the plugin's opt-out
variable read when lmms-eval loads its entry points), ``ENTRY_POINTS`` does not apply and the caller
starts a plain subprocess. ``HF_DATASETS_CACHE`` is read by ``datasets`` at import: the child sets
it again from the run's environment.
"""

import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Dict, List

ENTRY_POINTS = {
    "lmms-eval": ("lmms_eval.cli.dispatch", "main"),
    "lm-eval": ("lm_eval.__main__", "cli_evaluate"),
    "temporal-bench": ("temporal_bench.__main__", "main"),
}
PRELOAD = ["torch", "transformers", "datasets", "lmms_eval.cli.dispatch", "lmms_eval.__main__", "lmms_eval.evaluator",
           "lmms_eval.models", "lmms_eval.tasks", "lm_eval.__main__", "temporal_bench.__main__", "tests.preloaded_task_index"]
IMPORT_TIME_VARIABLES = ("PYTHONPATH", "TEMPORAL_BENCH_NO_AUTO_TASKS")

_context = None


def applies(command: List[str], env: Dict[str, str]) -> bool:
    """True when ``command`` is one of our console scripts and ``env`` needs nothing before the imports."""
    return (Path(command[0]).name in ENTRY_POINTS and Path(command[0]).parent == Path(sys.executable).parent
            and not any(env.get(name) != os.environ.get(name) for name in IMPORT_TIME_VARIABLES))


def _forkserver():
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(PRELOAD)
    return _context


def _child(command: List[str], env: Dict[str, str], cwd: str, stdout: str, stderr: str) -> None:
    import importlib

    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    if "HF_DATASETS_CACHE" in env:
        import datasets.config

        datasets.config.HF_DATASETS_CACHE = Path(env["HF_DATASETS_CACHE"])
    for fd, path in ((1, stdout), (2, stderr)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    sys.argv = [command[0], *command[1:]]
    module, function = ENTRY_POINTS[Path(command[0]).name]
    code = 0
    try:
        result = getattr(importlib.import_module(module), function)()
        code = result if isinstance(result, int) else 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        if isinstance(exit_.code, str):
            print(exit_.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 - reported like an uncaught exception of the CLI
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    sys.exit(code)


def run(command: List[str], env: Dict[str, str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    """``command`` run as a forked child of the preloaded server; its output as a CompletedProcess."""
    logs = Path(tempfile.mkdtemp(prefix="preloaded-cli-"))
    stdout, stderr = logs / "stdout", logs / "stderr"
    process = _forkserver().Process(target=_child, args=(command, env, str(cwd), str(stdout), str(stderr)))
    process.start()
    process.join(timeout)
    if process.is_alive():
        process.kill()
        process.join()
        raise subprocess.TimeoutExpired(command, timeout)
    read = lambda path: path.read_text(encoding="utf-8", errors="replace")  # noqa: E731
    completed = subprocess.CompletedProcess(command, process.exitcode, read(stdout), read(stderr))
    shutil.rmtree(logs)
    return completed
