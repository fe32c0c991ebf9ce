"""Each start of lmms-eval or lm-eval in the suite, logged, and counted at the end of the session: every distinct
evaluation should start once. An evaluation is its command line and what it reads: each file or folder the command
or a data variable names stands for its name and a digest of its content (the data, an answer script, a task folder,
a response cache), the output folder for nothing.

The log is one file per session, named in an environment variable that pytest-xdist's workers inherit; the
controlling process prints the table and fails the session where a command line started twice."""

import hashlib
import json
import os
import re
import tempfile
from collections import Counter
from pathlib import Path

VARIABLE = "TEMPORAL_BENCH_HARNESS_STARTS"
HARNESSES = ("lmms-eval", "lm-eval", "lmms_eval", "accelerate")
TRAILING_NUMBER = re.compile(r"\d+$")


def configure(config) -> None:
    if not hasattr(config, "workerinput"):  # the controlling process (or the only one)
        handle, path = tempfile.mkstemp(prefix="harness-starts-", suffix=".jsonl")
        os.close(handle)
        os.environ[VARIABLE] = path
        config._harness_starts = path


OUTPUT_OPTIONS = ("--output_path", "--output-dir", "--output", "-o")
SKIPPED = ("__pycache__", "hf_datasets_cache")


def _digest(path: Path) -> str:
    """A digest of a file's content, or of a folder's files (their paths in it and contents)."""
    digest = hashlib.sha1()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and not any(part in SKIPPED for part in p.parts))
    for file in files:
        digest.update(str(file.relative_to(path)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:8]


def _shown(word: str) -> str:
    """``word`` with each absolute path replaced by its last part (without mktemp's trailing number) and, where it
    exists, the digest of its content."""

    def shown(match: re.Match) -> str:
        path = Path(match.group(0))
        name = TRAILING_NUMBER.sub("", path.name)
        return f"{name}@{_digest(path)}" if path.exists() else name

    return re.sub(r"/[^\s,=:]*", shown, word)


def key(command: list[str], env: dict[str, str]) -> str:
    data = sorted(f"{name}={_shown(value)}" for name, value in env.items() if name.endswith("_DATA_DIR"))
    words = [word if i and command[i - 1] in OUTPUT_OPTIONS else _shown(word) for i, word in enumerate(command) if i]
    words = ["<out>" if i and words[i - 1] in OUTPUT_OPTIONS else word for i, word in enumerate(words)]
    return " ".join([*data, Path(command[0]).name, *words])


def is_harness(command: list[str]) -> bool:
    words = [Path(command[0]).name, *command[1:3]]
    evaluates = words[:3] == ["temporal-bench", "lm-eval", "run"] or words[:2] == ["temporal-bench", "rescore"]  # rescore: the harness evaluates again
    return words[0] in HARNESSES or evaluates or (words[0].startswith("python") and "lmms_eval" in command[:4])


def log(command: list[str], env: dict[str, str], again: bool = False) -> None:
    """Note one start of a harness (nothing for other commands; ``again``: a deliberate repeat, not counted)."""
    path = os.environ.get(VARIABLE)
    if path and is_harness(command) and not again:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"key": key(command, env), "test": os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]}) + "\n")


def read(config) -> list[dict]:
    """The session's starts, read once by the controlling process (its log removed)."""
    path = getattr(config, "_harness_starts", None)
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        config._harness_start_lines = [json.loads(line) for line in handle]
    os.unlink(path)
    return config._harness_start_lines


def repeated(starts: list[dict]) -> dict[str, int]:
    return {command: n for command, n in Counter(start["key"] for start in starts).items() if n > 1}


def summarise(reporter, config) -> None:
    starts = getattr(config, "_harness_start_lines", [])
    if not starts:
        return
    counts = Counter(start["key"] for start in starts)
    reporter.write_sep("-", f"harness starts: {len(starts)} over {len(counts)} distinct command lines")
    for command, n in repeated(starts).items():
        tests = sorted({start["test"] for start in starts if start["key"] == command})
        reporter.write_line(f"started {n} times: {command}\n    by {', '.join(tests)}")
    if repeated(starts):
        reporter.write_line("FAILED: a command line started more than once: share its run (tests/recorded/, a module-scoped fixture)", red=True)
