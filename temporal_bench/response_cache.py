"""``temporal-bench forget-failed CACHE``: remove failed requests from lmms-eval's response cache.

lmms-eval 0.7.3's ``--use_cache`` (lmms_eval/caching/response_cache.py) stores every non-empty response
of a deterministic request (temperature 0, no sampling), so the failure text
``[LMMS_EVAL_REQUEST_FAILED after N retries] ...`` is stored like an answer and a re-run would read it
back instead of asking again. This command deletes the rows whose response is a failed request
(lmms_eval_tasks/plugin/failed_requests.py) from the cache's root database ``CACHE/cache.db`` (and from the per-run
databases under ``CACHE/runs/``, which lmms-eval may merge into it later); the same lmms-eval command,
with the same ``--model_args`` (they are part of the cache key), then sends only those requests and
reads every answered one from the cache.
"""

import json
import sqlite3
from collections import Counter
from pathlib import Path

from temporal_bench.cli_style import command_parser
from temporal_bench.lmms_eval_tasks.plugin.failed_requests import is_failed_response


def cache_database(path: Path) -> Path:
    """The root database of a ``--use_cache`` PATH (a folder, or its ``.db`` file)."""
    path = Path(path)
    database = path if path.suffix == ".db" else path / "cache.db"
    if not database.is_file():
        raise FileNotFoundError(f"no lmms-eval response cache at {database} (the folder given to --use_cache)")
    return database


def _stored_text(stored: str):
    try:
        return json.loads(stored)
    except (json.JSONDecodeError, TypeError):
        return stored


def _delete_failed(database: Path) -> Counter:
    """Delete the failed responses of one cache database; the number deleted per task."""
    connection = sqlite3.connect(str(database))
    try:
        rows = connection.execute("SELECT cache_key, task_name, response FROM responses").fetchall()
        failed = [(key, task) for key, task, stored in rows if isinstance(_stored_text(stored), str) and is_failed_response(_stored_text(stored))]
        connection.executemany("DELETE FROM responses WHERE cache_key = ?", [(key,) for key, _ in failed])
        connection.commit()
        # lmms-eval reads the root database with immutable=1, which ignores a write-ahead log
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    return Counter(task for _, task in failed)


def forget_failed(path: Path) -> dict[str, int]:
    """Delete the failed responses from the cache; the number deleted from its root database per task."""
    database = cache_database(path)
    for run_database in sorted(database.parent.glob("runs/*/rank_*.db")):
        _delete_failed(run_database)
    return dict(_delete_failed(database))


def main_forget_failed(argv=None) -> None:
    parser = command_parser("forget-failed", ["temporal-bench forget-failed cache/gpt-4o"], "The same lmms-eval command run again then asks only for the requests that failed.")
    parser.add_argument("cache", type=Path, metavar="CACHE_DIR", help="the PATH given to lmms-eval's --use_cache")
    args = parser.parse_args(argv)
    removed = forget_failed(args.cache)
    for task, count in sorted(removed.items()):
        print(f"{task}: {count} failed response(s) removed")
    print(f"{sum(removed.values())} failed response(s) removed from {cache_database(args.cache)}")
