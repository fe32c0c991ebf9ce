#!/usr/bin/env bash
# The whole test suite (sets up .venv itself). Extra arguments go to pytest (e.g. -n 0: no workers).
# Most of the time goes to the CPU-bound lmms-eval / lm-eval subprocesses the tests start, so one pytest-xdist
# worker per CPU (-n auto; on 2 cores 5 min 39 s, against 6 min 21 s with 3 workers and 6 min 54 s with 4);
# --dist loadfile keeps a file's tests on one worker, so a CLI run that
# several of them read (a module-scoped fixture) runs once; the slowest files go first (tests/conftest.py).
# The 15 slowest tests are listed at the end.
set -euo pipefail
source "$(dirname "$0")/scripts/setup_env.sh"
.venv/bin/python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder --durations=15 "$@"
