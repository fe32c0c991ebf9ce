"""The processes the scripts start and time: each command in its own process, offline, with its wall time, its own peak
resident memory and CPU time (``wait4``: this child's, not the largest child's so far that ``RUSAGE_CHILDREN`` gives), its standard
output and each line of its standard error with the second it came at (browse says its steps there).

The suite's smoke runs of the scripts (tests/e2e/test_benchmark_scripts.py) replace :func:`launch` by one that starts
the console scripts preloaded (tests/preloaded_cli.py), so that a script's small run costs no harness imports."""

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BIN = Path(sys.executable).parent
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


@dataclass(frozen=True)
class Finished:
    command: list[str]
    returncode: int
    wall_s: float
    cpu_s: float  # user and system time, its own and its waited-for children's (nan where the launcher cannot measure it)
    peak_mb: float  # likewise
    stdout: str
    stderr: list[tuple[float, str]]  # (seconds from the start, line)

    def checked(self, ok: tuple[int, ...] = (0,)) -> "Finished":
        """Itself, or an error naming the command and the end of its standard error where it exited otherwise."""
        if self.returncode not in ok:
            tail = "".join(line for _, line in self.stderr[-20:])
            raise SystemExit(f"{' '.join(self.command)} failed with status {self.returncode}:\n{tail}")
        return self


def launch(command: list[str], env: dict[str, str], cwd: Path | None) -> Finished:
    """``command`` in a plain subprocess."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as stdout:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True)
        stderr = [(time.perf_counter() - start, line) for line in process.stderr]
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        return Finished(command, process.returncode, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout.read(), stderr)


def run(command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None, log: Path | None = None) -> Finished:
    """``command`` in its own process, offline, with ``env`` added to this one's; ``log``: its output written there."""
    finished = launch([str(word) for word in command], {**os.environ, **OFFLINE, **(env or {})}, cwd)
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(finished.stdout + "".join(line for _, line in finished.stderr), encoding="utf-8")
    return finished
