"""Where this package's tasks get their data, beside the upstream folders' own route (``dataset_path``).

Each benchmark's folder of this package (``lmms_eval_tasks/plugin/<benchmark>/``; ``lmms_eval_tasks/plugin/`` is the
one folder registered with lmms-eval) has tasks of the same names as the upstream folder's, whose YAMLs they include,
that load a one-row placeholder and read the data themselves: the folder a benchmark's environment variable names
(``TEMPVS_DATA_DIR``, ``CATBENCH_DATA_DIR``, ``ISOBENCH_DATA_DIR``: a release in its published layout, or a converted
dataset), else the official release on the hub. They hand the rows, in the converted dataset's schema, to the
upstream task's own ``process_docs`` (:func:`routed`; ISO-Bench's upstream tasks have none: the rows are the docs), so
every doc is built by the upstream code. A data error ends the run with status 1, its message the run's last ERROR
line.
"""

import functools
import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

import datasets
from loguru import logger as eval_logger

OFFLINE_ENVS = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")
T = TypeVar("T")


class DataNotFoundError(FileNotFoundError):
    """A benchmark's data cannot be found; the message names the cause, the variable and the layout its folder must hold."""


class DataErrorExit(SystemExit):
    """Ends the run after a data error (status 1); ``str()`` is the logged message, ``__cause__`` the error.

    lmms-eval 0.7.3's ``ConfigurableTask.download`` retries ``process_docs`` on every ``Exception`` (five attempts) and
    then logs only "Error during evaluation: RetryError[...]", exiting 0 without results; a missing folder or a wrong
    layout does not heal on retry, and a ``SystemExit`` is neither retried nor caught by the CLI.
    """

    def __init__(self, message: str) -> None:
        super().__init__(1)
        self.message = message

    def __str__(self) -> str:
        return self.message


def stops_run_on(errors: tuple[type[Exception], ...]) -> Callable[[Callable], Callable]:
    """Decorate a ``process_docs``: ``errors`` raised in it end the run (:class:`DataErrorExit`)."""

    def decorate(process_docs: Callable) -> Callable:
        @functools.wraps(process_docs)
        def wrapper(*args, **kwargs):
            try:
                return process_docs(*args, **kwargs)
            except errors as error:
                message = f"{type(error).__name__}: {error}"
                eval_logger.error(message)
                print(message, file=sys.stderr, flush=True)  # lmms-eval logs to standard output: the error goes to standard error too
                raise DataErrorExit(message) from error

        return wrapper

    return decorate


def local_data_dir(env_var: str, layout: str) -> Path | None:
    """The folder ``env_var`` names, or None when it is unset (the hub release); a missing folder is an error."""
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


def nonempty(path: Path, error: type[Exception]) -> Path:
    """``path``, a data file of a local copy; an empty one (0 bytes: a truncated or incomplete copy) is ``error`` naming
    it, as a missing one is."""
    if path.stat().st_size == 0:
        raise error(f"{path}: an empty file (0 bytes): a truncated or incomplete copy?")
    return path


def json_lines(path: Path, text: str, error: type[Exception]) -> list[tuple[int, dict]]:
    """(line number, object) for every non-blank line; a line that is not a JSON object raises ``error``."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"{path}:{number}: not valid JSON ({exc.msg}); a truncated or corrupt row?") from None
        if not isinstance(row, dict):
            raise error(f"{path}:{number}: not a JSON object but {row!r:.80}")
        rows.append((number, row))
    return rows


def json_lines_after(whole: json.JSONDecodeError, path: Path, text: str, error: type[Exception]) -> list[tuple[int, dict]]:
    """A file the whole-file JSON parse rejected: its JSON lines when the first line is an object on
    its own, else ``error`` naming where the whole-file parse failed (a truncated or corrupt file)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        is_lines = isinstance(json.loads(first), dict)
    except json.JSONDecodeError:
        is_lines = False
    if not is_lines:
        raise error(f"{path}: neither JSON nor JSON lines: line {whole.lineno}, column {whole.colno} ({whole.msg}); a truncated or corrupt file?") from None
    return json_lines(path, text, error)


def routed(docs: Callable[..., datasets.Dataset], rows: Callable[..., Iterable[dict]], errors: tuple[type[Exception], ...]) -> Callable:
    """This package's ``process_docs`` for ``docs`` (an upstream ``process_docs``, or one of this package's built on it):
    ``docs`` with the same settings on ``rows(split, **settings)``, the rows of the split lmms-eval loaded of the
    placeholder (its ``test_split``) from the local folder or the hub release; its signature is that of ``docs`` (the
    settings a YAML's metadata states)."""

    @stops_run_on((DataNotFoundError, *errors))
    @functools.wraps(docs)
    def process_docs(placeholder: datasets.Dataset, **settings) -> datasets.Dataset:
        return docs(rows(str(placeholder.split), **settings), **settings)

    return process_docs
