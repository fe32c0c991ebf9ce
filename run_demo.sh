#!/usr/bin/env bash
# The main job: evaluate the bundled demo data of all three benchmarks with the random baseline
# (no download) and print the results table. Sets up .venv itself.
set -euo pipefail
source "$(dirname "$0")/scripts/setup_env.sh"
.venv/bin/temporal-bench demo --output-dir demo_output "$@"
