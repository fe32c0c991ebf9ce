"""``temporal-bench`` run in the test's own process, as the installed command runs it: its output and exit status."""

import contextlib
import io
import os
import subprocess
from pathlib import Path


def temporal_bench(*arguments, cwd: Path) -> subprocess.CompletedProcess:
    """``temporal-bench ARGUMENTS`` in ``cwd``: what it printed and its exit status, as a CompletedProcess."""
    from temporal_bench.__main__ import main

    words = [str(argument) for argument in arguments]
    stdout, stderr = io.StringIO(), io.StringIO()
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                result = main(words)
                code = result if isinstance(result, int) else 0
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
                if isinstance(exit_.code, str):
                    print(exit_.code, file=stderr)
    finally:
        os.chdir(previous)
    return subprocess.CompletedProcess(["temporal-bench", *words], code, stdout.getvalue(), stderr.getvalue())
