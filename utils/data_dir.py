"""Where a benchmark's data comes from: the folder its environment variable names, else the hub.

Each failure raises :class:`DataNotFoundError`, whose message names the cause, the variable to set
and the layout that variable's folder must hold.
"""

import contextlib
import os
from pathlib import Path
from typing import Callable, Dict, Iterator, Optional, TypeVar

OFFLINE_ENVS = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")
_TRUE = ("1", "true", "yes", "on")

T = TypeVar("T")


class DataNotFoundError(FileNotFoundError):
    """A benchmark's data cannot be found: its ``*_DATA_DIR`` names no folder, or the variable is
    unset and the hub dataset cannot be fetched."""


def local_data_dir(env_var: str, layout: str) -> Optional[Path]:
    """The folder named by ``env_var``, or None when the variable is unset (load from the hub).

    A variable that names a missing folder is an error, never a silent fall-back to the hub.
    ``layout``: what the folder must hold, for the message.
    """
    value = os.environ.get(env_var, "").strip()
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_dir():
        raise DataNotFoundError(f"{env_var}={value!r} is not a directory; set {env_var} to {layout}")
    return path


def from_hub(fetch: Callable[[], T], hub_id: str, env_var: str, layout: str) -> T:
    """``fetch()``, the download of the hub dataset ``hub_id``; when it fails (no network, offline
    mode without a cached copy, an HTTP error: all ``OSError``), a DataNotFoundError naming
    ``env_var`` and its ``layout`` as the way to use a local copy instead."""
    try:
        return fetch()
    except OSError as error:
        offline = [name for name in OFFLINE_ENVS if os.environ.get(name, "").strip().lower() in _TRUE]
        cause = (f"offline mode is on ({', '.join(offline)}) and it is not in the local cache" if offline
                 else "the hub cannot be reached or refused the download")
        retry = f"; or unset {' and '.join(offline)} on a machine with network access to download it" if offline else ""
        raise DataNotFoundError(
            f"{env_var} is not set and the Hugging Face dataset {hub_id} cannot be loaded: {cause} "
            f"({type(error).__name__}: {error}). Set {env_var} to {layout}{retry}"
        ) from error


DATA_ENVS = ("TEMPVS_DATA_DIR", "CATBENCH_DATA_DIR", "ISOBENCH_DATA_DIR")


def parse_locations(items) -> Dict[str, str]:
    """``NAME=VALUE`` items naming data folders (one of :data:`DATA_ENVS`) as a dict."""
    found = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or name not in DATA_ENVS:
            raise ValueError(f"{item!r}: expected NAME=FOLDER with NAME one of {', '.join(DATA_ENVS)} "
                             "(scoring settings are task configuration, not variables)")
        found[name] = value
    return found


@contextlib.contextmanager
def data_locations(assignments: Dict[str, str]) -> Iterator[None]:
    """The environment with the data folders of ``assignments`` set, restored afterwards (rebuilding a
    run's docs in-process, as rescore, browse and the demo do)."""
    saved = {name: os.environ.get(name) for name in assignments}
    os.environ.update(assignments)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def placeholder_dataset_kwargs(task_folder: Path) -> Dict:
    """``dataset_kwargs`` naming a task folder's one-row ``placeholder.jsonl`` (its test split) by absolute
    path: lmms-eval 0.7.3 resolves a relative ``data_files`` against the YAML's folder, 0.7.2 against the
    working folder."""
    return {"data_files": {"test": str(Path(task_folder).resolve() / "placeholder.jsonl")}}
