#!/usr/bin/env bash
# The whole test suite (sets up .venv itself). Extra arguments go to pytest (e.g. -n 0: no workers).
# Most of the time goes to the lmms-eval / lm-eval subprocesses the tests start, so 4 pytest-xdist
# workers keep the cores busy; --dist loadfile keeps a file's tests on one worker, so a CLI run that
# several of them read (a module-scoped fixture) runs once; the slowest files go first (tests/conftest.py).
# The 15 slowest tests are listed at the end.
set -euo pipefail
source "$(dirname "$0")/scripts/setup_env.sh"
.venv/bin/python -m pytest -q -n 4 --dist loadfile --no-loadscope-reorder --durations=15 "$@"
