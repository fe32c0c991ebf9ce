"""Run our three command lines in processes forked from one that has already imported them.

A CLI run of the suite spends about 60% of its time importing torch, transformers, datasets and the
harness (and the benchmarks' own modules: tests/preloaded_benchmarks.py). Each pytest worker therefore
starts one multiprocessing "forkserver" that imports them once; every run is a fresh child forked from it, which sets the run's environment, working folder
and argv, sends its output to files and calls the console script's own entry function
(``lmms_eval.cli.dispatch.main``, ``lm_eval.__main__.cli_evaluate``, ``temporal_bench.__main__.main``).
So each run is still the real CLI in its own process, minus the imports, the indexing of the
harnesses' built-in task folders and of ours (tests/preloaded_task_index.py), and the garbage collector's
passes over the preloaded objects (frozen in the child).

Folders a run puts in front of ``PYTHONPATH`` (stand-in engines, a throw-away ``.dist-info`` that
registers a test model) go to the front of the child's ``sys.path``, and lmms-eval's model registry
reads its entry points again; where the environment must act before the imports (a folder that
shadows an installed module, such as a stand-in ``lmms_eval``, or the plugin's opt-out variable read
when lmms-eval loads its entry points), the caller starts a plain subprocess. ``HF_DATASETS_CACHE``
is read by ``datasets`` at import and ``OMP_NUM_THREADS`` by torch: the child applies both again.
"""

import functools
import gc
import importlib
import importlib.metadata
import multiprocessing
import multiprocessing.forkserver
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

ENTRY_POINTS = {
    "lmms-eval": ("lmms_eval.cli.dispatch", "main"),
    "lm-eval": ("lm_eval.__main__", "cli_evaluate"),
    "temporal-bench": ("temporal_bench.__main__", "main"),
}
PRELOAD = [
    "torch",
    "transformers",
    "datasets",
    "lmms_eval.cli.dispatch",
    "lmms_eval.__main__",
    "lmms_eval.evaluator",
    "lmms_eval.models",
    "lmms_eval.tasks",
    # what a run imports after it starts: lmms-eval's metrics and results table, our task folders' modules
    "nltk",
    "pytablewriter",
    "sklearn.linear_model",
    "sklearn.model_selection",
    "sklearn.svm",
    "PIL.JpegImagePlugin",
    "temporal_bench.lmms_eval_tasks.plugin.catbench.utils",
    "temporal_bench.lmms_eval_tasks.plugin.isobench.utils",
    "temporal_bench.lmms_eval_tasks.plugin.tempvs.utils",
    "temporal_bench.models.lmms_eval_models",
    "lm_eval.__main__",
    "temporal_bench.__main__",
    "tests.preloaded_task_index",
    "tests.preloaded_benchmarks",
]
IMPORT_TIME_VARIABLES = ("TEMPORAL_BENCH_NO_AUTO_TASKS",)
# read by huggingface_hub, datasets and transformers when the server imports them: the server starts
# with them whatever the environment of the test that happens to start it, and runs must match them
SERVER_ENVIRONMENT = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}

_context = None


def _paths(value: str | None) -> list[str]:
    return [path for path in (value or "").split(os.pathsep) if path]


@functools.lru_cache(maxsize=1)
def _installed_modules() -> frozenset:
    return frozenset(importlib.metadata.packages_distributions()) | frozenset(sys.stdlib_module_names)


def _shadows_an_installed_module(folder: str) -> bool:
    """Also true for ``sitecustomize``, which acts when an interpreter starts (a forked child is past that)."""
    names = {entry[:-3] if entry.endswith(".py") else entry for entry in os.listdir(folder)}
    return bool(names & (_installed_modules() | {"sitecustomize", "usercustomize"}))


def added_paths(env: dict[str, str]) -> list[str] | None:
    """The folders ``env``'s PYTHONPATH puts in front of ours ([] for none), or None when it changes
    PYTHONPATH otherwise or one of them holds a module that is installed (and may be preloaded)."""
    new, old = _paths(env.get("PYTHONPATH")), _paths(os.environ.get("PYTHONPATH"))
    if new[len(new) - len(old) :] != old:
        return None
    added = new[: len(new) - len(old)]
    return None if any(_shadows_an_installed_module(folder) for folder in added) else added


def applies(command: list[str], env: dict[str, str]) -> bool:
    """True when ``command`` is one of our console scripts and ``env`` needs nothing before the imports."""
    return (
        Path(command[0]).name in ENTRY_POINTS
        and Path(command[0]).parent == Path(sys.executable).parent
        and not any(env.get(name) != os.environ.get(name) for name in IMPORT_TIME_VARIABLES)
        and all(env.get(name) == value for name, value in SERVER_ENVIRONMENT.items())
        and added_paths(env) is not None
    )


def _forkserver():
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(PRELOAD)
        saved = {name: os.environ.get(name) for name in SERVER_ENVIRONMENT}
        os.environ.update(SERVER_ENVIRONMENT)
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name)
                else:
                    os.environ[name] = value
    return _context


def _child(command: list[str], env: dict[str, str], added: list[str], cwd: str, stdout: str, stderr: str) -> None:
    gc.freeze()  # the preloaded modules' objects: the run's garbage collections (lmms-eval calls gc.collect) skip them
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    if "HF_DATASETS_CACHE" in env:
        import datasets.config

        datasets.config.HF_DATASETS_CACHE = Path(env["HF_DATASETS_CACHE"])
    if "OMP_NUM_THREADS" in env:
        import torch

        torch.set_num_threads(int(env["OMP_NUM_THREADS"]))
    if added:
        sys.path[0:0] = added
        importlib.invalidate_caches()
        if any(entry.endswith(".dist-info") for folder in added for entry in os.listdir(folder)):
            from lmms_eval.models import MODEL_REGISTRY_V2

            MODEL_REGISTRY_V2.load_entrypoint_manifests(overwrite=True)
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


def run(command: list[str], env: dict[str, str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    """``command`` run as a forked child of the preloaded server; its output as a CompletedProcess."""
    logs = Path(tempfile.mkdtemp(prefix="preloaded-cli-"))
    stdout, stderr = logs / "stdout", logs / "stderr"
    process = _forkserver().Process(target=_child, args=(command, env, added_paths(env), str(cwd), str(stdout), str(stderr)))
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
