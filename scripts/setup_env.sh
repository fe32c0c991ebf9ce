# Sourced by run_demo.sh and run_tests.sh: create .venv and install the package once per
# setup.cfg version (idempotent; a second run only checks the stamp). pip's output goes to
# .venv/install.log; each package pip collects is shown as it comes (the first install takes minutes), and the log's
# end when the install fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=".venv/.installed-$(sha256sum setup.cfg setup.py pyproject.toml | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "Installing into .venv: lmms-eval, lm-eval and torch with its CUDA libraries (about 7 GB, a few minutes on first use)..."
  if ! { .venv/bin/python -m pip install --upgrade pip && .venv/bin/python -m pip install -e ".[test]"; } 2>&1 | tee .venv/install.log \
    | awk '/^(Collecting|Installing collected packages)/ { print "  " substr($0, 1, 110); fflush() }'; then
    tail -n 40 .venv/install.log
    echo "Install failed; the full log is .venv/install.log" >&2
    exit 1
  fi
  rm -f .venv/.installed-*
  touch "$stamp"
  echo "Installed (log: .venv/install.log)."
fi
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
