"""A harness's command line run in this process (lmms-eval's ``cli_evaluate``, ``temporal-bench lm-eval``), its output
(file descriptors 1 and 2, so loguru's and tqdm's too) sent to a log file: the demo and rescore run evaluations this
way, having imported the harness already."""

import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path


class HarnessRunError(RuntimeError):
    """An evaluation that ended with an error: its last line, and the log that holds the rest."""


def run_logged(main: Callable[[], object], argv: list[str], log_path: Path) -> int:
    """``main()`` with ``sys.argv`` set to ``argv``, both output streams in ``log_path``; its exit status (an uncaught
    error: 1, its traceback in the log)."""
    sys.stdout.flush()
    sys.stderr.flush()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    saved_fds, saved_argv = (os.dup(1), os.dup(2)), sys.argv
    with open(log_path, "w", encoding="utf-8") as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        sys.argv = list(argv)
        try:
            main()
            status = 0
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
        except Exception:  # noqa: BLE001 - kept in the log, as a crash of the command line would be
            traceback.print_exc()
            status = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            sys.argv = saved_argv
            for fd, saved in zip((1, 2), saved_fds):
                os.dup2(saved, fd)
                os.close(saved)
    return status


def last_error(log_path: Path) -> str | None:
    """The last line of the log that names an exception (``SomeError: ...``, without its module), None without one."""
    lines = log_path.read_text(encoding="utf-8", errors="replace").splitlines()
    found = next((line.strip() for line in reversed(lines) if line and not line[0].isspace() and "Error" in line.partition(":")[0]), None)
    return found and found.partition(":")[0].rpartition(".")[2] + ":" + found.partition(":")[2]


def lmms_eval_main() -> None:
    from lmms_eval.__main__ import cli_evaluate

    cli_evaluate()
