#!/usr/bin/env bash
# The whole test suite (sets up .venv itself). Extra arguments go to pytest.
set -euo pipefail
source "$(dirname "$0")/scripts/setup_env.sh"
.venv/bin/python -m pytest -q "$@"
