#!/usr/bin/env bash
# The whole test suite (sets up .venv itself): every tier of tests/ (docs/testing.md).
#   bash run_tests.sh           all five tiers: unit, upstream, tooling, fidelity and e2e (the real harness runs)
#   bash run_tests.sh --quick   the quick tier (unit, upstream, tooling), as plain `pytest` runs it
# Other arguments go to pytest (e.g. -n 0: no workers; a file or folder instead of the tiers).
# ruff and mypy check the product first (pyproject.toml), then pytest runs the tiers.
# One pytest-xdist worker per CPU; --dist loadfile keeps a file's tests on one worker, so a run that several of them
# read (a module-scoped fixture) is made once. The 15 slowest tests are listed at the end.
set -euo pipefail
source "$(dirname "$0")/scripts/setup_env.sh"
tiers=(tests)
if [ "${1:-}" = "--quick" ]; then
  shift
  tiers=()
fi
for argument in "$@"; do
  [ -e "${argument%%::*}" ] && tiers=()  # a file or folder given: that instead of the tiers
done
.venv/bin/ruff check --quiet .
.venv/bin/mypy
.venv/bin/python -m pytest -q -n auto --dist loadfile --durations=15 "${tiers[@]}" "$@"
