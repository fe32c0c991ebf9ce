"""Where the installed task definitions live."""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
LMMS_EVAL_TASK_DIR = PACKAGE_DIR / "lmms_eval_tasks"
LM_EVAL_TASK_DIR = PACKAGE_DIR / "lm_eval_tasks"
