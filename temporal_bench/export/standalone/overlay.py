"""The installed lmms-eval (or lm-eval) with the exported folders in its ``tasks/`` package, as a pull request puts them.

The exported modules import each other as ``lmms_eval.tasks.<benchmark>.<module>`` (``lm_eval.tasks...`` in an lm-eval
folder), which resolve only where the folders sit inside the harness's package. Rather than copy lmms-eval (gigabytes with its tasks' data files) or hook the import
system, the overlay is a folder ``lmms_eval/`` of symlinks to the installed package's entries, except that
``tasks/`` (and any folder of it the export adds to, such as ``_task_utils/``) is a folder of symlinks to the
installed entries plus one to each exported entry. A process with the overlay's parent first on PYTHONPATH
imports ``lmms_eval`` from it (PYTHONPATH precedes site-packages) and Python follows the links. lmms-eval
indexes its own tasks with ``os.walk``, which does not follow links, so in such a process the tasks come
from ``--include_path`` alone.
"""

import importlib.util
from pathlib import Path


def _merge(installed: Path, exported: Path, into: Path) -> None:
    """``into``: links to ``installed``'s entries and to ``exported``'s; a folder both have is merged."""
    into.mkdir(parents=True)
    for entry in exported.iterdir():
        if entry.name == "__pycache__":
            continue
        if (installed / entry.name).is_dir() and entry.is_dir():
            _merge(installed / entry.name, entry, into / entry.name)
        elif (installed / entry.name).exists():
            raise FileExistsError(f"lmms-eval already has {installed / entry.name}")
        else:
            (into / entry.name).symlink_to(entry.resolve())
    for entry in installed.iterdir():
        if entry.name != "__pycache__" and not (into / entry.name).exists():
            (into / entry.name).symlink_to(entry)


def install_overlay(root: Path, tasks_dir: Path, harness: str = "lmms_eval") -> Path:
    """Write the overlay of the exported ``<harness>/tasks/`` folder ``tasks_dir`` under ``root`` (``harness``: the
    package, ``lmms_eval`` or ``lm_eval``) and return the folder to put first on PYTHONPATH."""
    spec = importlib.util.find_spec(harness)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{harness} is not installed")
    installed = Path(spec.submodule_search_locations[0])
    package = root / harness
    package.mkdir(parents=True)
    for entry in installed.iterdir():
        if entry.name not in ("tasks", "__pycache__"):
            (package / entry.name).symlink_to(entry)
    _merge(installed / "tasks", Path(tasks_dir), package / "tasks")
    return root
