"""Where a benchmark's data comes from (the folder its environment variable names, else the hub), and the
record of it that every doc carries and each task reports as its ``data_source`` metric, so that a
results file names the data each task read."""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, TypeVar

from loguru import logger as eval_logger

OFFLINE_ENVS = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")
SYNTHETIC_MARKER = "SYNTHETIC_DATA.txt"  # in a folder of generated test data: it is not compared with the papers' counts
T = TypeVar("T")


class DataNotFoundError(FileNotFoundError):
    """A benchmark's data cannot be found; the message names the cause, the variable and the layout its folder must hold."""


def local_data_dir(env_var: str, layout: str) -> Optional[Path]:
    """The folder ``env_var`` names, or None when it is unset (load from the hub); a missing folder is an error."""
    value = os.environ.get(env_var, "").strip()
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_dir():
        raise DataNotFoundError(f"{env_var}={value!r} is not a directory; set {env_var} to {layout}")
    return path


def _unreachable(hub_id: str) -> None:
    """Fail at once when the hub cannot be reached (a download would retry for about 20 s first)."""
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    try:
        HfApi().dataset_info(hub_id, timeout=10)
    except HfHubHTTPError:  # the hub answered (not found, gated ...): the download says what it says
        pass
    except Exception as error:  # noqa: BLE001 - no answer: the transport's own error type (httpx's or requests')
        raise ConnectionError(f"{type(error).__name__}: {error}") from error


def from_hub(fetch: Callable[[], T], hub_id: str, env_var: str, layout: str) -> T:
    """``fetch()``, the download of ``hub_id``; when it fails (an ``OSError``: no network, offline without a cached
    copy, an HTTP error), a DataNotFoundError naming ``env_var`` as the way to use a local copy instead."""
    flags = [name for name in OFFLINE_ENVS if os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")]
    try:
        if not flags:
            _unreachable(hub_id)
        return fetch()
    except OSError as error:
        cause = f"offline mode is on ({', '.join(flags)}) and it is not in the local cache" if flags else "the hub cannot be reached or refused the download"
        retry = f"; or unset {' and '.join(flags)} on a machine with network access to download it" if flags else ""
        raise DataNotFoundError(f"{env_var} is not set and the Hugging Face dataset {hub_id} cannot be loaded: {cause} ({type(error).__name__}: {error}). Set {env_var} to {layout}{retry}") from error


def fingerprint(paths: Iterable[Path]) -> str:
    """The first 12 hex digits of a SHA-256 over the files' names and contents, in name order."""
    digest = hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        digest.update(path.name.encode() + b"\0")
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class DataSource:
    """Where a task's data came from: the folder ``variable`` named, or a hub dataset (at a revision)."""

    variable: str  # the benchmark's *_DATA_DIR
    description: str  # for the load log
    folder: Optional[Path] = None
    hub: Optional[str] = None
    revision: Optional[str] = None

    def record(self, files: List[Path], benchmark: str, **facts) -> Dict:
        """Log the source and return its record: where, a fingerprint of the ``files`` read, whether the folder holds
        generated data, and any ``facts`` (e.g. the rows read and the release's count)."""
        value = fingerprint(files)
        eval_logger.info(f"{benchmark} data: {self.description}, {len(files)} file(s), fingerprint {value}")
        where = {"folder": os.path.abspath(self.folder)} if self.folder is not None else {"hub": self.hub, "revision": self.revision}
        synthetic = self.folder is not None and (Path(self.folder) / SYNTHETIC_MARKER).is_file()
        return {"variable": self.variable, **where, "fingerprint": value, "files": len(files), "synthetic": synthetic, **facts}


def data_source(records: List[Dict]) -> Dict:
    """The ``data_source`` aggregation: the record the docs carry (each doc carries its task's)."""
    return next((record for record in records if record), {})
