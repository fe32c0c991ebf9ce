#!/usr/bin/env bash
# The plugin on the oldest lmms-eval it supports (setup.cfg's lower bound; 0.7.2 is also what a source
# install of lmms-eval's main branch reports): a second environment, .venv-oldest, holds lmms-eval
# 0.7.2 and this checkout; every other dependency (torch, lm-eval, ...) comes from .venv through a
# .pth line, so nothing else is installed twice. Runs the tests that cover registration, the task
# families of the three benchmarks, the baselines and `temporal-bench check`; extra arguments go to
# pytest. The newest end of the range is what run_tests.sh installs.
set -euo pipefail
source "$(dirname "$0")/setup_env.sh"  # .venv, the newest supported versions (it cds to the repository root)
OLDEST=.venv-oldest
LMMS_EVAL_OLDEST=0.7.2
[ -x "$OLDEST/bin/python" ] || .venv/bin/python -m venv --without-pip "$OLDEST"
site=$("$OLDEST/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
.venv/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])" > "$site/dependencies.pth"
if [ "$("$OLDEST/bin/python" -c 'import importlib.metadata as m; print(m.version("lmms-eval"))')" != "$LMMS_EVAL_OLDEST" ]; then
  .venv/bin/python -m pip --python "$OLDEST/bin/python" install -q --no-deps "lmms-eval==$LMMS_EVAL_OLDEST"
  .venv/bin/python -m pip --python "$OLDEST/bin/python" install -q --no-deps --no-build-isolation -e .
  "$OLDEST/bin/python" scripts/lmms_eval_release_standins.py  # the 0.7.2 release lacks its task templates
fi
"$OLDEST/bin/python" -c 'import importlib.metadata as m; print("lmms-eval", m.version("lmms-eval"), "lm-eval", m.version("lm-eval"))'
"$OLDEST/bin/python" -m pytest -q -n 0 tests/test_registration.py tests/test_baselines.py tests/test_check.py \
  tests/test_task_folders.py tests/test_catbench_cli.py tests/test_isobench_cli.py tests/test_tempvs_cli.py "$@"
