"""``python -m tests.recorded.record [NAME ...]``: run the recordings (all, or those named) through the real harness
and check in their output under tests/recorded/runs/ (tests/recorded/__init__.py). Run it after a change that changes
what a recorded run writes: tests/e2e/test_recordings.py says which recording differs, and how."""

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.recorded import RUNS, all_recordings, check_in, read_recorded, record, tokenized

# what differs between two runs of the same command: when and where it ran, and the memory addresses in reprs
VOLATILE_KEYS = {
    "date",
    "start_time",
    "end_time",
    "total_evaluation_time_seconds",
    "git_hash",
    "git_branch",
    "lmms_eval_version",
    "pretty_env_info",
    "upper_git_hash",
    "transformers_version",
    "lm_eval_version",
    "timezone",
    "efficiency",
    "throughput",
}
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
FILE_DATE = re.compile(r"\d{8}_\d{6}|\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d+")


def _without_volatile(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without_volatile(item) for key, item in value.items() if key not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [_without_volatile(item) for item in value]
    return ADDRESS.sub(" at 0x", value) if isinstance(value, str) else value


def _content(path: Path) -> Any:
    text = read_recorded(path)
    if path.suffix == ".gz":
        path = path.with_suffix("")
    if path.suffix == ".jsonl":
        return [_without_volatile(json.loads(line)) for line in text.splitlines() if line.strip()]
    return _without_volatile(json.loads(text))


def comparable(folder: Path) -> dict[str, Any]:
    """A recording's files (relative path, its dates written ``<date>``) -> their content without what differs
    between two runs of the same commands (:data:`VOLATILE_KEYS`, memory addresses)."""
    files = sorted(path for sub in ("out", "scripts") for path in (folder / sub).rglob("*") if path.is_file() and "hf_datasets_cache" not in path.parts)
    return {FILE_DATE.sub("<date>", str(path.relative_to(folder)).removesuffix(".gz")): _content(path) for path in files}


def differences(recorded: dict[str, Any], regenerated: dict[str, Any]) -> list[str]:
    """What differs between two :func:`comparable` folders, one line per file (the first differing value of each)."""
    lines = [f"{name}: only in the recording" for name in recorded if name not in regenerated]
    lines += [f"{name}: only in the new run" for name in regenerated if name not in recorded]
    for name in recorded.keys() & regenerated.keys():
        where = _first_difference(recorded[name], regenerated[name], name)
        if where:
            lines.append(where)
    return sorted(lines)


def _first_difference(a: Any, b: Any, at: str) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys(), key=str):
            found = _first_difference(a.get(key, "<absent>"), b.get(key, "<absent>"), f"{at}.{key}")
            if found:
                return found
        return ""
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{at}: {len(a)} items recorded, {len(b)} now"
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{at}[{i}]")
            if found:
                return found
        return ""
    return "" if a == b else f"{at}: recorded {a!r:.200}, now {b!r:.200}"


def regenerate(name: str, work: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The recording ``name`` run again in ``work``: (the checked-in files, the new ones), both :func:`comparable`,
    the new ones with their paths written as tokens."""
    recording = all_recordings()[name]
    record(recording, work)
    tokens = work.parent / f"{work.name}-tokens"
    for path in (p for sub in ("out", "scripts") for p in (work / sub).rglob("*") if p.is_file() and "hf_datasets_cache" not in p.parts):
        copy = tokens / path.relative_to(work)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(tokenized(path.read_text(encoding="utf-8"), work), encoding="utf-8")
    return comparable(RUNS / name), comparable(tokens)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.recorded.record", description=__doc__)
    parser.add_argument("names", nargs="*", help="recordings to write (default: all)")
    args = parser.parse_args(argv)
    recordings = all_recordings()
    unknown = sorted(set(args.names) - set(recordings))
    if unknown:
        parser.error(f"no recording {', '.join(unknown)}; known: {', '.join(sorted(recordings))}")
    for name in args.names or sorted(recordings):
        with tempfile.TemporaryDirectory(prefix=f"record-{name}-") as work:
            record(recordings[name], Path(work))
            print(f"{name}: {check_in(recordings[name], Path(work)).relative_to(RUNS.parents[2])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
