"""CaT-Bench's lm-eval pull request (`temporal-bench export --harness lm-eval`): ``lm_eval_tasks/catbench/`` copied as
lm-eval's ``lm_eval/tasks/catbench/`` with the modules its ``utils.py`` imports, the import prefixes renamed and the
Python formatted as lm-eval's lint formats it (ruff), and its row in lm-eval's task table. The folder speaks no word
of this package, reads no environment variable and no other data than the hub dataset, and passes lm-eval's ruff
settings. lm-eval registers its tasks in a process where ``import temporal_bench`` fails and gives the same numbers as
lmms-eval's on the same answers: tests/e2e/test_export.py (``test_lm_eval_gives_lmms_evals_numbers_and_prompts``, one
process for both)."""

import re
import subprocess
from pathlib import Path

import pytest

from temporal_bench.export.lm_eval_folder import LM_EVAL_PREFIX, LM_EVAL_SOURCE, LM_EVAL_TASKS_DIR, LM_EVAL_WORDS, TASK_TABLE, ruff_formatted, task_table_row
from temporal_bench.export.task_folder import HELPER_SOURCE, upstream_text
from temporal_bench.paths import LMMS_EVAL_TASK_DIR
from tests.e2e.test_export import _forbidden
from tests.harness import BIN
from tests.paths import TESTS

SUPPORT = TESTS / "export_support"
# a task table in lm-eval's layout (lm_eval/tasks/README.md: rows of task families, in name order)
TABLE = """# Tasks

| Task Family                          | Description                      | Language(s) |
|--------------------------------------|----------------------------------|-------------|
| [careqa](careqa/README.md)           | Medical question answering.      | English     |
| [ceval](ceval/README.md)             | Chinese educational evaluation.  | Chinese     |
"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lm_eval_checkout")
    (root / TASK_TABLE).parent.mkdir(parents=True)
    (root / TASK_TABLE).write_text(TABLE)
    from temporal_bench.export.cli import main_export

    assert main_export(["--harness", "lm-eval", "--output-dir", str(root)]) == 0
    return root


def _folder(exported: Path) -> dict:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted((exported / LM_EVAL_TASKS_DIR / "catbench").iterdir())}


def test_every_file_is_its_source_with_the_prefixes_renamed_and_formatted_by_ruff(exported):
    """The folder's files (YAMLs, utils.py, README) and the modules utils.py imports (the lmms-eval folder's and the
    helpers), nothing else; each is its source with the prefixes renamed and formatted as lm-eval's ruff would."""
    files = _folder(exported)
    own = {path.name for path in (LM_EVAL_SOURCE / "catbench").iterdir() if path.is_file()}
    assert set(files) == own | {"metrics.py", "parsing.py", "prompts.py", "questions.py", "classification.py", "yes_no.py", "think_blocks.py"}
    for name, text in files.items():
        source = next(folder / name for folder in (LM_EVAL_SOURCE / "catbench", LMMS_EVAL_TASK_DIR / "catbench", HELPER_SOURCE) if (folder / name).is_file())
        assert text == ruff_formatted(name, upstream_text(source.read_text(encoding="utf-8"), "catbench", LM_EVAL_PREFIX)), name
    assert "from lm_eval.tasks.catbench.questions import task_docs" in files["utils.py"]
    assert "lmms_eval_specific_kwargs" not in files["utils.py"] and "doc_to_visual" not in "".join(files.values())


def test_the_folder_speaks_lm_evals_language_only_and_reads_the_hub_dataset(exported):
    files = _folder(exported)
    assert [(name, m.group(0)) for name, text in files.items() for m in LM_EVAL_WORDS.finditer(text)] == []
    assert [name for name, text in files.items() if re.search(r"temporal[-_]bench|lmms[-_]eval|_DATA_DIR|custom_dataset|placeholder", text, flags=re.I)] == []
    assert [problem for name, text in files.items() if name.endswith(".py") for problem in _forbidden(name, text)] == []
    assert re.findall(r"^dataset_path: (.+)$", "".join(text for name, text in files.items() if "yaml" in name), flags=re.M) == ["vanyacohen/CaT-Bench"]


def test_lm_evals_ruff_settings_change_no_file(exported):
    """lm-eval's pre-commit runs ruff-check --fix and ruff-format: with its settings neither finds anything to do."""
    folder = str(exported / LM_EVAL_TASKS_DIR / "catbench")
    for command in (["check", "--config", str(SUPPORT / "lm_eval_ruff.toml"), folder], ["format", "--check", folder]):
        done = subprocess.run([str(BIN / "ruff"), *command], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_the_task_table_gains_the_row_once_in_name_order(exported):
    from temporal_bench.export.cli import main_export

    assert main_export(["--harness", "lm-eval", "--output-dir", str(exported)]) == 0  # a second export replaces the first
    lines = (exported / TASK_TABLE).read_text().splitlines()
    rows = [line for line in lines if line.startswith("| [")]
    assert [row.split("]")[0][3:] for row in rows] == ["careqa", "catbench", "ceval"]
    assert rows[1].index("| Causal and temporal") == rows[0].index("| Medical")  # the first cell padded as the table pads it
    assert [part.strip() for part in rows[1].strip("|").split("|")] == [part.strip() for part in task_table_row("catbench").strip("|").split("|")]
