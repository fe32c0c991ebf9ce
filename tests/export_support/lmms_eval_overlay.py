"""The installed lmms-eval with exported task folders in its ``tasks/`` package, as a pull request puts them.

The exported modules import each other as ``lmms_eval.tasks.<benchmark>.<module>``, which resolves only
where the folders sit inside lmms-eval's package. Rather than copy lmms-eval (gigabytes with its
tasks' data files) or hook the import system, the overlay is a folder ``lmms_eval/`` of symlinks to
the installed package's entries, except ``tasks/``: a folder of symlinks to the installed tasks plus
one to each exported folder. A process with the overlay's parent first on PYTHONPATH imports
``lmms_eval`` from it (PYTHONPATH precedes site-packages) and Python follows the links. lmms-eval
indexes its own tasks with ``os.walk``, which does not follow links, so in such a process the tasks
come from ``--include_path`` alone, as the test asks.
"""

import importlib.util
from pathlib import Path
from typing import Iterable


def install_overlay(root: Path, exported_folders: Iterable[Path]) -> Path:
    """Write the overlay under ``root`` and return the folder to put first on PYTHONPATH."""
    installed = Path(importlib.util.find_spec("lmms_eval").submodule_search_locations[0])
    package = root / "lmms_eval"
    (package / "tasks").mkdir(parents=True)
    for entry in installed.iterdir():
        if entry.name not in ("tasks", "__pycache__"):
            (package / entry.name).symlink_to(entry)
    for entry in (installed / "tasks").iterdir():
        if entry.name != "__pycache__":
            (package / "tasks" / entry.name).symlink_to(entry)
    for folder in exported_folders:
        link = package / "tasks" / folder.name
        if link.exists() or link.is_symlink():
            raise FileExistsError(f"lmms-eval already has a task folder {folder.name}")
        link.symlink_to(folder.resolve())
    return root
