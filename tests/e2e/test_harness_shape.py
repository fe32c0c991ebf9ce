"""The code that runs inside the harness is written in lmms-eval's shape (issue 32): installing the package replaces
one lmms-eval function (the registration of the task folder), nothing in the product inspects the call stack,
updates ``globals()`` or star-imports, and every task's YAML ``metadata`` states exactly the settings its named
``process_docs`` runs with."""

import ast
import inspect
import re
import subprocess
import sys

import pytest

from temporal_bench.export.task_yaml import read_folder
from temporal_bench.paths import LMMS_EVAL_TASK_DIR, PLUGIN_TASK_DIR
from tests.paths import REPO

PRODUCT = ("temporal_bench", "lmms_eval_tasks", "lm_eval_tasks", "utils", "tempvs", "catbench", "isobench")
# the upstream folders and this package's (plugin/)
TASK_FOLDERS = sorted(path for path in LMMS_EVAL_TASK_DIR.rglob("*") if path.is_dir() and list(path.glob("*.yaml")))

SNAPSHOT = """
import importlib, json, os, sys
os.environ["TEMPORAL_BENCH_NO_AUTO_TASKS"] = "1"
import lmms_eval.evaluator, lmms_eval.models, lmms_eval.tasks, lmms_eval.api.task, lmms_eval.api.metrics, lmms_eval.utils, lmms_eval.__main__
# opted out, a TaskManager a user builds holds none of our tasks
print(json.dumps([t for t in lmms_eval.tasks.TaskManager(include_path=None, include_defaults=False).all_tasks if t.startswith(("tempvs", "catbench", "isobench"))]))

def snapshot():
    seen = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("lmms_eval") and module is not None:
            for attr, value in list(vars(module).items()):
                seen[f"{name}.{attr}"] = id(value)
                if isinstance(value, type) and value.__module__ == name:
                    seen.update({f"{name}.{attr}.{key}": id(item) for key, item in vars(value).items()})
    return seen

before = snapshot()
from temporal_bench import lmms_eval_plugin, task_registration
lmms_eval_plugin.model_manifests()
task_registration.register()
for folder in %r:
    for module in ("utils", "metrics", "docs", "release", "model_settings", "extraction", "questions", "prompts", "parsing"):
        try:
            importlib.import_module(f"temporal_bench.lmms_eval_tasks.{folder}.{module}")
        except ModuleNotFoundError:
            pass
from lmms_eval.tasks import TaskManager
TaskManager(include_path=None, include_defaults=False)
after = snapshot()
print(json.dumps(sorted(key for key in before if key in after and before[key] != after[key])))
"""


def test_installing_the_package_replaces_one_lmms_eval_function():
    """Opted out (``TEMPORAL_BENCH_NO_AUTO_TASKS``), lmms-eval is untouched and indexes none of our tasks; then the
    plugin, the registration and every module of our folders change one attribute."""
    folders = [".".join(path.relative_to(LMMS_EVAL_TASK_DIR).parts) for path in TASK_FOLDERS]
    done = subprocess.run([sys.executable, "-c", SNAPSHOT % folders], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-2:] == ["[]", '["lmms_eval.tasks.TaskManager.initialize_tasks"]']


def _product_modules():
    for folder in PRODUCT:
        yield from sorted(path for path in (REPO / folder).rglob("*.py") if "__pycache__" not in path.parts)


def test_no_stack_inspection_no_globals_update_no_star_import():
    found = []
    for path in _product_modules():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        found += [f"{path.relative_to(REPO)}: import *" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)]
        found += [f"{path.relative_to(REPO)}: {match.group(0)}" for match in re.finditer(r"_getframe|globals\(\)\.update|inspect\.stack|inspect\.currentframe", text)]
    assert found == []


def _task_yamls():
    for folder in TASK_FOLDERS:
        yield from (pytest.param(task, id=task.name) for task in read_folder(folder) if not task.is_group)


def _settings(process_docs) -> dict:
    """The settings a ``process_docs`` partial runs with: its function's defaults (a function of this package's that
    wraps an upstream one has its signature), then the partial's keywords (the dataset aside)."""
    defaults = {name: p.default for name, p in inspect.signature(process_docs.func).parameters.items() if p.default is not inspect.Parameter.empty}
    settings = {**defaults, **process_docs.keywords}
    return {key: list(value) if isinstance(value, tuple) else value for key, value in settings.items()}


@pytest.mark.parametrize("task", list(_task_yamls()))
def test_each_task_yaml_states_the_settings_its_process_docs_runs_with(task):
    """This package's tasks state every setting in their metadata (the results file records it); an upstream task's
    name says all (one ``process_docs`` per task), so its metadata is the version alone: no key that no code reads."""
    from lmms_eval.utils import load_yaml_config

    config = load_yaml_config(yaml_path=str(task.path), mode="full")
    stated = {key: value for key, value in config["metadata"].items() if key != "version"}
    assert config["metadata"]["version"] == 1.0
    if PLUGIN_TASK_DIR not in task.path.parents:
        assert stated == {}, task.name
        return
    if "process_docs" not in config:  # the rows are the docs (ISO-Bench)
        assert stated == {}
        return
    assert stated == _settings(config["process_docs"]), task.name
