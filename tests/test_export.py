"""Upstream export (`temporal-bench export`): lmms-eval task folders with our modules copied as source.

Each exported folder holds the YAMLs, utils.py and the benchmark's modules it reaches, their imports renamed to
``lmms_eval.tasks.<benchmark>.<module>``; the shared helpers are exported once, into
``lmms_eval/tasks/_task_utils/temporal_reasoning/``, which the folders import; nothing names our package. Installed in lmms-eval's ``tasks/``
package (an overlay of the installed one, temporal_bench/export/standalone/overlay.py) and run through the
real lmms-eval CLI with ``--include_path`` in a process where ``import temporal_bench`` fails, an exported
folder gives exactly the plugin's results, samples and configs on the same fixture with the same model
(one plugin run and one export run of the three benchmarks together, read by each benchmark's test).
The exported Python passes lmms-eval's lint (black, isort) unchanged, and each utils.py imports in a fresh
process with no data, no network and no exit; its data errors come when the data is loaded.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest

from temporal_bench import benchmarks
from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.export.cli import main_export
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import facts_of
from temporal_bench.__main__ import main
from temporal_bench.export.hub_route import DATA_KEYS, hub_route
from temporal_bench.export.pull_request import local_copy
from temporal_bench.export.task_folder import ExportedFolder
from temporal_bench.export.pull_request import STANDALONE, Step
from temporal_bench.export.readme import package_metadata
from temporal_bench.export.source_modules import SHARED_FOLDER, check_standalone, copied_modules
from temporal_bench.export.standalone.overlay import install_overlay
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.paths import LMMS_EVAL_TASK_DIR
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs
from tests.harness import BIN, OFFLINE, read_results, read_samples, run_cli
from tests.test_hub_dataset import scored
from tests.test_report import catbench_entry, write_json
from tests.test_reproduction_verdicts import GPT_4O_A

SUPPORT = Path(__file__).resolve().parent / "export_support"
BENCHMARKS = ("tempvs", "isobench", "catbench")


@dataclass(frozen=True)
class Case:
    oracle_task: str  # answered with the gold answer everywhere
    mixed_task: str  # gold, wrong option, refusal in turn
    main_metrics: Tuple[str, ...]  # exactly 1.0 for the oracle
    refusal_metric: str  # strictly between 0 and 1 for the mixed answers
    data_env: str
    write_release: Callable[[Path], Path]
    tagged: bool = False  # answers wrapped in <answer> tags

    @property
    def tasks(self) -> List[str]:
        return [self.oracle_task, self.mixed_task]


CASES: Dict[str, Case] = {
    "tempvs": Case("tempvs_mt1_two", "tempvs_mt2_event", ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"),
                   "invalid_rate", "TEMPVS_DATA_DIR", lambda root: write_tempvs(root, n_sequences=2)),
    "isobench": Case("isobench", "isobench_cot", ("f1_weighted", "f1_macro", "coverage", "f1_dep"),
                     "coverage", "ISOBENCH_DATA_DIR", lambda root: write_isobench(root, "json", n=12), tagged=True),
    "catbench": Case("catbench_switched", "catbench", ("f1_macro", "accuracy", "tc", "occ"),
                     "invalid_rate", "CATBENCH_DATA_DIR", lambda root: write_catbench(root, layout="hf", n_plans=2, pairs_per_class=3)),
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """``temporal-bench export --output-dir <root>`` for all three benchmarks; returns lmms_eval/tasks/."""
    root = tmp_path_factory.mktemp("upstream")
    main_export(["--output-dir", str(root)])
    return root / "lmms_eval" / "tasks"


@pytest.fixture(scope="module")
def overlay(exported, tmp_path_factory) -> Path:
    """The PYTHONPATH entry whose ``lmms_eval`` holds the exported folders in its tasks package."""
    return install_overlay(tmp_path_factory.mktemp("overlay"), exported)


def _imports(tree: ast.AST) -> List[str]:
    found = []
    for node in ast.walk(tree):
        found += [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or "."] if isinstance(node, ast.ImportFrom) else [])
    return found


def _files(folder: Path) -> Dict[str, Path]:
    return {p.name: p for p in folder.iterdir() if p.is_file()}  # lmms-eval may have left a __pycache__/


# no data_dir, json_lines, synthetic_data, warn_once: the release readers (loading.py) and the data variables are not exported
SHARED_MODULES = {"answer_tags", "classification", "data_fingerprint", "fail_fast", "failed_requests", "harness_task",
                  "per_doc", "task_options", "yes_no"}
OWN_MODULES = {
    "tempvs": {"docs", "extraction", "hooks", "hub_dataset", "metrics", "model_settings", "prompts", "settings", "spec", "suite", "task_tests"},
    "isobench": {"hooks", "hub_dataset", "metrics", "parsing", "prompts", "records"},
    "catbench": {"fewshot", "hooks", "hub_dataset", "metrics", "parsing", "prompts", "questions", "self_consistency", "settings"},
}
SHARED_PACKAGE = "lmms_eval.tasks._task_utils.temporal_reasoning"


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_exported_folder_is_the_yamls_utils_and_the_modules_it_imports(exported, benchmark):
    files = _files(exported / benchmark)
    ours = {p.name for p in (LMMS_EVAL_TASK_DIR / benchmark).iterdir() if p.is_file()} - {"placeholder.jsonl"}
    assert set(files) == ours | {f"{m}.py" for m in OWN_MODULES[benchmark]} | {"README.md"}
    for name in [n for n in files if n.endswith(".py")]:
        text = files[name].read_text(encoding="utf-8")
        ours_imported = [m for m in _imports(ast.parse(text)) if m.startswith(("temporal_bench", "lmms_eval.tasks"))]
        # every package import is one of the folder's modules (or the folder as a package) or a shared helper
        assert all(m == f"lmms_eval.tasks.{benchmark}" or
                   m.rpartition(".")[0] == f"lmms_eval.tasks.{benchmark}" and m.rpartition(".")[2] in OWN_MODULES[benchmark] or
                   m.rpartition(".")[0] == SHARED_PACKAGE and m.rpartition(".")[2] in SHARED_MODULES for m in ours_imported), (name, ours_imported)
    assert f"from lmms_eval.tasks.{benchmark}.hooks import" in files["utils.py"].read_text(encoding="utf-8")
    assert f"from lmms_eval.tasks.{benchmark}.hub_dataset import make_process_docs\n" in files["utils.py"].read_text(encoding="utf-8")


def test_each_shared_helper_is_exported_once_and_no_two_files_are_the_same(exported):
    """The helpers the folders used to copy each (nine modules, 822 duplicated lines) are one file each in the
    shared folder; a module name two folders both have is each benchmark's own (its hooks, loading ...)."""
    assert set(_files(exported / SHARED_FOLDER)) == {f"{m}.py" for m in SHARED_MODULES} | {"README.md"}
    python = sorted(p for p in exported.rglob("*.py") if "__pycache__" not in p.parts)
    names = [p.stem for p in python if p.name != "utils.py"]
    assert {name for name in names if names.count(name) > 1} == {"hooks", "hub_dataset", "metrics", "parsing", "prompts", "settings"}
    assert not {p.stem for p in python if p.parent.name in BENCHMARKS} & SHARED_MODULES
    texts = [p.read_text(encoding="utf-8") for p in python]
    assert len(set(texts)) == len(texts) == 3 + sum(map(len, OWN_MODULES.values())) + len(SHARED_MODULES)


def test_no_plugin_only_code_and_no_citation_of_our_docs_pages(exported):
    """No refusal of a retired variable, no lm-eval route in the exported code; no docs/*.md citation in any exported file."""
    plugin_only = set().union(*(FACTS[b].plugin_only for b in BENCHMARKS))
    assert plugin_only >= {"REMOVED_ENV", "refuse_removed_env", "custom_dataset", "doc_to_text_precomputed_fewshot"}
    for path in sorted(exported.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} | {
            node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        assert not names & plugin_only, (path, names & plugin_only)
        assert not re.search(r"is no longer read|used to set", text), path
    for path in sorted(p for p in exported.rglob("*") if p.is_file()):
        assert not re.search(r"docs/[\w/]+\.md", path.read_text(encoding="utf-8")), path
    from temporal_bench.catbench import hooks

    assert callable(hooks.custom_dataset) and "lm-eval" not in (exported / "catbench" / "hooks.py").read_text(encoding="utf-8")




def test_every_exported_definition_is_used_by_the_export(exported):
    """A top-level name no exported module or YAML uses is code only the plugin needs (the report, rescore,
    the YAML generator): the export drops it (each benchmark's ``plugin_only``)."""
    python = {p.relative_to(exported).as_posix(): p.read_text(encoding="utf-8") for p in exported.rglob("*.py")}
    everything = " ".join([*python.values(), *(p.read_text(encoding="utf-8") for p in exported.glob("*/*yaml"))])
    unused = set()
    for path, text in python.items():
        for node in ast.parse(text).body if not path.endswith("/utils.py") else []:
            names = [node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            unused |= {(path, name) for name in names if len(re.findall(rf"\b{re.escape(name)}\b", everything)) == 1}
    assert unused == set()


def test_no_exported_module_reads_the_environment_or_names_a_data_variable(exported):
    """The exported tasks read the hub dataset lmms-eval loads: no module reads an environment variable, none names
    the plugin's data variables, the placeholder or a release reader."""
    readers = {p.relative_to(exported).as_posix() for p in exported.rglob("*.py") if re.search(r"os\.environ|getenv", p.read_text(encoding="utf-8"))}
    assert readers == set()
    named = {p.relative_to(exported).as_posix() for p in exported.rglob("*.py") if re.search(r"\b[A-Z]+_DATA_DIR\b|placeholder|\.loading\b", p.read_text(encoding="utf-8"))}
    assert named == set()


def test_every_task_yaml_names_its_hub_dataset_and_config(exported):
    """``dataset_path`` the literal hub id, ``dataset_name`` the config the task's settings read, ``test_split``; no
    ``dataset_kwargs`` (no data_files), no placeholder, no ``!function`` for the data."""
    from temporal_bench.export.task_yaml import read_folder

    names = {}
    for benchmark in BENCHMARKS:
        for task in read_folder(exported / benchmark):
            if task.is_group:
                continue
            config = task.config
            assert config["dataset_path"] == {"tempvs": "lmms-lab-eval/TempVS", "isobench": "lmms-lab-eval/ISO-Bench", "catbench": "vanyacohen/CaT-Bench"}[benchmark], task.name
            assert "dataset_kwargs" not in config and config["test_split"] == "test", task.name
            names[task.name] = config["dataset_name"]
        assert not list((exported / benchmark).glob("placeholder*"))
    assert (names["tempvs_mt1_two"], names["tempvs_ordering_event"], names["tempvs_suite_mt1_two"], names["tempvs_suite_grounding"], names["tempvs_gt_paired"]) == (
        "mt1_two", "ordering_event", "mt1_two", "suite_grounding", "gt_paired")
    assert {names[t] for t in names if t.startswith("isobench")} == {"default"} and {names[t] for t in names if t.startswith("catbench")} == {"default"}
    assert len(names) == 63
    template = (exported / "tempvs" / "_default_template_yaml").read_text(encoding="utf-8")
    assert template.startswith("# Shared by every TempVS task. The questions come from process_docs. Decoding as the official\n")


def test_the_readmes_give_the_bibtex_every_requirement_and_the_data_source(exported):
    for benchmark in BENCHMARKS:
        readme = (exported / benchmark / "README.md").read_text(encoding="utf-8")
        assert readme.endswith(f"## Citation\n\n```bibtex\n{FACTS[benchmark].bibtex}\n```\n") and "TODO" not in readme
        hub_id = hub_route(benchmark).dataset_id
        assert f"| Dataset | [`{hub_id}`](https://huggingface.co/datasets/{hub_id}) |" in readme
        data = readme.split("## Data\n\n")[1].split("\n## ")[0]
        build = f"```bash\ntemporal-bench build-dataset {benchmark} --source RELEASE --output-dir DIR --push-to-hub {hub_id}\n```\n"
        assert data.endswith(build if benchmark != "catbench" else "The dataset is the official release as it is.\n"), data
    requirements = {b: (exported / b / "README.md").read_text(encoding="utf-8").split("## Requirements\n\n")[1].split("\n\n")[0] for b in BENCHMARKS}
    assert requirements == {
        "tempvs": "lmms-eval's own dependencies; nothing else.", "isobench": "lmms-eval's own dependencies; nothing else.",
        "catbench": "Besides lmms-eval's own dependencies (the pull request adds these to them):\n"
                    "- `rank-bm25` (imported as `rank_bm25` by `catbench/fewshot.py`, only where it is used)"}
    shared = (exported / SHARED_FOLDER / "README.md").read_text(encoding="utf-8")
    assert ("Helpers shared by the task folders `lmms_eval/tasks/catbench/`, `lmms_eval/tasks/isobench/`, `lmms_eval/tasks/tempvs/`, "
            f"which import them as `{SHARED_PACKAGE}.<module>`.") in shared


def _code(text: str) -> Tuple[List[Tuple], List[str]]:
    """What a module does, whatever its layout and import order: (the names it imports, its other
    top-level statements, docstrings included)."""
    tree = ast.parse(text)
    imports = sorted({(getattr(node, "module", None), alias.name, alias.asname) for node in tree.body
                      if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}, key=str)
    return imports, [ast.dump(node) for node in tree.body if not isinstance(node, (ast.Import, ast.ImportFrom))]


def test_each_copied_module_is_the_package_module_with_renamed_imports(exported):
    """A module with no plugin-only code and no docs citation is the package's, formatted as lmms-eval's lint asks,
    with only its imports renamed; the YAML generator, the fixtures and the export's facts are not exported."""
    from temporal_bench.catbench import questions
    from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning import yes_no

    renamed = Path(questions.__file__).read_text(encoding="utf-8").replace("temporal_bench.catbench", "lmms_eval.tasks.catbench").replace(
        "temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.", f"{SHARED_PACKAGE}."
    )
    assert _code((exported / "catbench" / "questions.py").read_text(encoding="utf-8")) == _code(renamed)
    assert _code((exported / SHARED_FOLDER / "yes_no.py").read_text(encoding="utf-8")) == _code(
        Path(yes_no.__file__).read_text(encoding="utf-8").replace("temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.", f"{SHARED_PACKAGE}."))
    assert not {"tasks.py", "fixtures.py", "released_predictions.py", "upstream.py", "paper.py"} & set(_files(exported / "tempvs"))


def test_exported_python_passes_lmms_evals_lint_unchanged(exported, tmp_path):
    """black 25.1.0 --line-length=240 and isort 6.0.1 --profile black (lmms-eval's .pre-commit-config.yaml), run
    from the root of a tree laid out as an lmms-eval checkout (``lmms_eval/`` and ``lmms_eval/tasks/`` are packages,
    so ``lmms_eval`` is first-party as upstream): neither would change a file."""
    root = tmp_path / "checkout"
    shutil.copytree(exported, root / "lmms_eval" / "tasks", ignore=shutil.ignore_patterns("__pycache__"))
    for package in (root / "lmms_eval", root / "lmms_eval" / "tasks"):
        (package / "__init__.py").write_text("")
    folders = [f"lmms_eval/tasks/{folder}" for folder in [*BENCHMARKS, SHARED_FOLDER.as_posix()]]
    for command in (["black", "--check", "--diff", "--line-length=240", *folders], ["isort", "--check-only", "--diff", "--profile", "black", *folders]):
        done = subprocess.run([str(BIN / command[0]), "--version"], capture_output=True, text=True)
        assert {"black": "black, 25.1.0", "isort": "VERSION 6.0.1"}[command[0]] in done.stdout, done.stdout
        done = subprocess.run([str(BIN / command[0]), *command[1:]], cwd=root, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert len(list(root.glob("lmms_eval/tasks/**/*.py"))) == 39  # the check saw the exported modules (and tasks/__init__.py)


FACTS = {name: facts_of(benchmarks.get(name)) for name in BENCHMARKS}
DATA_ENVS = {name: facts.data_dir_env for name, facts in FACTS.items()}
PROCESS_DOCS = {"tempvs": "process_docs_tempvs_mt1_two", "isobench": "process_docs_isobench", "catbench": "process_docs_catbench"}


def _import_utils(tasks_dir: Path, pythonpath: str, home: Path, process_docs: Dict[str, str]) -> Dict:
    """temporal_bench/export/standalone/import_utils.py's report on ``tasks_dir``'s three utils.py, run with no data variable
    and empty Hugging Face caches under ``home``, not offline (sockets refused)."""
    named = {benchmark: sorted({name for path in (tasks_dir / benchmark).iterdir() if path.name.endswith("yaml")
                                for name in re.findall(r"!function\s+utils\.(\w+)", path.read_text(encoding="utf-8"))})
             for benchmark in BENCHMARKS}
    env = {name: value for name, value in os.environ.items() if name not in (*DATA_ENVS.values(), *OFFLINE)}
    env.update({"PYTHONPATH": pythonpath, "HF_HOME": str(home / "hf"),
                "HF_DATASETS_CACHE": str(home / "hf" / "datasets"), "HF_HUB_CACHE": str(home / "hf" / "hub")})
    done = subprocess.run([sys.executable, str(STANDALONE / "import_utils.py"), str(tasks_dir), json.dumps(named), json.dumps(process_docs)],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def imports_report(exported, overlay, tmp_path_factory) -> Tuple[Dict, Path]:
    """The report on the exported folders in a process where ``temporal_bench`` cannot be imported, with no data
    anywhere, not offline (every connection refused and listed), each PROCESS_DOCS hook given a one-row
    placeholder dataset; and the Hugging Face home it had."""
    home = tmp_path_factory.mktemp("home")
    return _import_utils(exported, f"{overlay}:{STANDALONE}", home, PROCESS_DOCS), home


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_exported_utils_defines_every_hook_its_yamls_name(imports_report, benchmark):
    assert imports_report[0]["missing_hooks"][benchmark] == []


def test_exported_utils_import_without_data_network_or_cache(imports_report):
    """No connection opened (the report would list each attempt, process_docs included), no cache written."""
    report, home = imports_report
    assert (report["imports"], report["connections"]) == ({benchmark: "ok" for benchmark in BENCHMARKS}, [])
    assert not (home / "hf").exists()


def test_no_exported_code_can_end_the_process(exported):
    """Neither ``SystemExit`` nor an ``exit`` call in any exported module (the plugin's fail_fast.py has both)."""
    for path in sorted(exported.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert not names & {"SystemExit", "exit", "_exit"}, path
    from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning import fail_fast

    assert "class DataErrorExit(SystemExit)" in Path(fail_fast.__file__).read_text(encoding="utf-8")


DATA_ERRORS = {  # the exported process_docs given a dataset that is not the task's (import_utils.py passes a one-row placeholder)
    "tempvs": "TempVSDataError: the dataset lacks the column(s) ['source', 'task_id', 'question_id', 'fields', 'blind_correct', 'image_names', 'images'] "
              "of a converted TempVS config (it has ['note']): was it written by build-dataset?",
    "isobench": "IsoBenchDataError: lmms-lab-eval/ISO-Bench: cannot find the column(s) for ['image', 'goal', 'snippet', 'relation', 'label']",
    "catbench": "CatBenchDataError: vanyacohen/CaT-Bench[test] row 0: missing field(s) ['title', 'steps', 'origin_text', 'destination_text', 'label']; found ['note']",
}


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_exported_data_errors_are_raised_when_the_data_is_loaded(imports_report, benchmark):
    """Given a dataset that is not the task's, the exported hook raises the benchmark's data error naming what is
    wrong with it (not a SystemExit: the plugin's fail_fast ends the run, the upstream one raises)."""
    assert imports_report[0]["process_docs"][benchmark].startswith(DATA_ERRORS[benchmark])


def test_without_the_formatters_the_export_says_what_to_install_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "black", None)  # import black fails
    with pytest.raises(SystemExit, match=re.escape("temporal-bench export: the export formats its Python as lmms-eval's lint "
                                                   "does and needs black: pip install black==25.1.0 isort==6.0.1")):
        main_export(["--benchmark", "isobench", "--output-dir", str(tmp_path)])
    assert list(tmp_path.iterdir()) == []


def test_nothing_exported_names_our_package_or_command_or_forbids_editing(exported):
    """Upstream the folder is the source: no `temporal-bench` command, no path of our package, no "do not
    edit" (the README's first line names the distribution it was exported from, as provenance; its Data section
    the build-dataset command that converts the release)."""
    distribution = package_metadata()["Name"]
    for path in sorted(exported.rglob("*.*")) + sorted(exported.glob("*/_*_yaml")):
        text = path.read_text(encoding="utf-8")
        if path.name == "README.md":  # its provenance, and the command that builds the hub dataset
            assert text.startswith(f"<!-- Exported from {distribution} ") and text.count(distribution) == 1
            text = re.sub(r"\ntemporal-bench build-dataset \w+ --source RELEASE .*\n", "\n", text.replace(distribution, ""))
        assert not re.search(r"temporal[-_]bench|do not edit|rather than edit", text, re.IGNORECASE), path
    assert "generated by `python -m temporal_bench.tempvs.tasks`; do not edit" in (LMMS_EVAL_TASK_DIR / "tempvs" / "_default_template_yaml").read_text()
    assert (exported / "tempvs" / "_default_template_yaml").read_text().startswith("# Shared by every TempVS task. The questions come from process_docs. ")


def test_a_second_export_replaces_the_first_but_never_a_foreign_folder(exported, tmp_path):
    (exported / "isobench" / "stale.yaml").write_text("task: isobench_stale\n")
    main_export(["--benchmark", "isobench", "--output-dir", str(exported.parents[1])])
    assert not (exported / "isobench" / "stale.yaml").exists() and (exported / "isobench" / "utils.py").is_file()
    foreign = tmp_path / "lmms_eval" / "tasks" / "catbench"
    foreign.mkdir(parents=True)
    (foreign / "utils.py").write_text("def hand_written(): ...\n")
    with pytest.raises(SystemExit, match="not written by `temporal-bench export`"):
        main_export(["--benchmark", "catbench", "--output-dir", str(tmp_path)])
    assert (foreign / "utils.py").read_text() == "def hand_written(): ...\n"


@pytest.mark.parametrize("source, message", [
    ("from temporal_bench.paths import LMMS_EVAL_TASK_DIR\n", "imports temporal_bench.paths"),
    ("from temporal_bench.lmms_eval_tasks.catbench.parsing import PARSERS\n", "imports temporal_bench.catbench.parsing"),
    ("import temporal_bench.tempvs.spec\n", "would need its uses renamed"),
    ("from .hooks import doc_to_text\n", "relative import"),
    ("from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES\nNAME = 'temporal_bench'\n", "still refers to temporal_bench"),
])
def test_modules_that_cannot_be_exported_are_named(tmp_path, source, message):
    """Only the benchmark's own modules and the shared ones can be copied; an import elsewhere stops the export."""
    entry = tmp_path / "utils.py"
    entry.write_text(source)
    with pytest.raises(ExportError, match=re.escape(message)):
        copied_modules("tempvs", entry, [])


def test_a_copied_module_may_not_replace_a_file_of_the_task_folder(tmp_path):
    entry = tmp_path / "utils.py"
    entry.write_text("from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES\n")
    with pytest.raises(ExportError, match="would both be tempvs/spec.py"):
        copied_modules("tempvs", entry, ["spec.py"])


def test_standalone_check_allows_the_package_in_comments_only():
    check_standalone("# copied from temporal_bench/utils/yes_no.py\nimport re\n", "ok.py")
    for source in ("from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning import yes_no\n", "import importlib\nimportlib.import_module('temporal_bench')\n"):
        with pytest.raises(ExportError):
            check_standalone(source, "bad.py")


# ---- end to end: the plugin and the exported folder through the real CLI ------------------------

def _oracle_site(root: Path) -> Path:
    """A throwaway distribution whose ``lmms_eval.models`` entry point registers the test model. It goes on
    PYTHONPATH, before site-packages: lmms-eval 0.7.3 stops loading entry points at the first one that fails,
    which in the blocked run is ours."""
    dist_info = root / "export_oracle-0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: export-oracle\nVersion: 0\n")
    (dist_info / "entry_points.txt").write_text("[lmms_eval.models]\nexport_oracle = export_oracle:manifests\n")
    return root


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _configs(results: Dict, tasks: List[str], task_folder: Path) -> Dict:
    """The task configs lmms-eval recorded, without memory addresses, the task folder's location and where the
    data came from (the data keys, the data source the plugin records)."""
    configs = {task: {k: v for k, v in results["configs"][task].items() if k not in DATA_KEYS} for task in tasks}
    for config in configs.values():
        config["metadata"] = {k: v for k, v in config.get("metadata", {}).items() if k != "data_source"}
    text = _ADDRESS.sub("", json.dumps(configs))
    return json.loads(text.replace(str(task_folder), "<task folder>"))


def _evaluate(output_dir: Path, env: Dict[str, str], extra: List[str] = ()):
    """One lmms-eval CLI run of every case's tasks with the test model: (results, CLI log)."""
    output_dir.mkdir(parents=True)
    tasks = [task for case in CASES.values() for task in case.tasks]
    tagged = "+".join(task for case in CASES.values() if case.tagged for task in case.tasks)
    mixed = "+".join(case.mixed_task for case in CASES.values())
    command = [str(BIN / "lmms-eval"), "--model", "export_oracle", "--model_args", f"tagged_tasks={tagged},mixed_tasks={mixed}",
               "--tasks", ",".join(tasks), "--output_path", str(output_dir), "--log_samples", *extra]
    log = run_cli(command, output_dir, env)
    return read_results(output_dir, tasks, log), log


def _samples(output_dir: Path, task: str) -> List[Dict]:
    return sorted(read_samples(output_dir, task), key=lambda s: s["doc_id"])


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Tuple[Dict[str, Path], Path]:
    """(each benchmark's synthetic release, the folder of their converted datasets ``<benchmark>/``, as
    ``export --check --converted-data`` takes it): TempVS and ISO-Bench converted by build-dataset; CaT-Bench's hub
    dataset is its release, in the hub's file layout, the one folder for both."""
    root = tmp_path_factory.mktemp("data")
    releases = {benchmark: case.write_release(root / ("converted" if benchmark == "catbench" else "release") / benchmark) for benchmark, case in CASES.items()}
    for benchmark in ("tempvs", "isobench"):
        assert main(["build-dataset", benchmark, "--source", str(releases[benchmark]), "--output-dir", str(root / "converted" / benchmark)]) == 0
    return releases, root / "converted"


@pytest.fixture(scope="module")
def plugin_and_export_runs(exported, overlay, data, tmp_path_factory) -> Tuple[Path, Dict, Dict, str]:
    """The same model on the same questions, every benchmark in one run each: through the plugin on the releases,
    then through the exported folders (installed in lmms-eval by the overlay, registered by ``--include_path``) on
    the converted datasets (export --check's local copy of the YAMLs), in a process where ``import temporal_bench``
    fails. Returns (their folder, plugin results, export results, the export run's log)."""
    releases, converted = data
    base = tmp_path_factory.mktemp("export_e2e")
    site = _oracle_site(base / "site")
    plugin, _ = _evaluate(base / "plugin", {**{case.data_env: str(releases[b]) for b, case in CASES.items()}, "PYTHONPATH": f"{site}:{SUPPORT}"})
    local = local_copy(exported, [ExportedFolder(b, exported / b, {}, [], []) for b in BENCHMARKS], converted, base / "local_tasks")
    export, log = _evaluate(base / "export", {"PYTHONPATH": f"{overlay}:{STANDALONE}:{site}:{SUPPORT}"}, ["--include_path", str(local)])
    return base, plugin, export, log.stdout + log.stderr


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_exported_folder_on_the_converted_data_scores_every_doc_as_the_plugin_on_the_release(exported, data, benchmark, plugin_and_export_runs):
    case = CASES[benchmark]
    base, plugin, export, log = plugin_and_export_runs

    # lmms-eval tried our entry point, could not import the package, and went on without it
    assert "Failed to load model entry-point manifests: No module named 'temporal_bench'" in log
    for task in case.tasks:
        assert export["results"][task] == plugin["results"][task], task
        assert export["n-samples"][task] == plugin["n-samples"][task]
        assert [scored(s) for s in _samples(base / "export", task)] == [scored(s) for s in _samples(base / "plugin", task)]
    assert (_configs(export, case.tasks, base / "local_tasks" / benchmark)
            == _configs(plugin, case.tasks, LMMS_EVAL_TASK_DIR / benchmark))
    assert {export["configs"][task]["dataset_path"] for task in case.tasks} == {str((data[1] / benchmark).resolve())}
    assert {export["configs"][task]["dataset_name"] for task in case.tasks} == ({"mt1_two", "mt2_event"} if benchmark == "tempvs" else {"default"})
    for name in case.main_metrics:
        assert export["results"][case.oracle_task][f"{name},none"] == 1.0, name
    assert 0 < export["results"][case.mixed_task][f"{case.refusal_metric},none"] < 1


# ---- export --check: the pull request's checks and its description ---------------------------------

def _hooks_named(folder: Path) -> int:
    return len({name for path in folder.iterdir() if path.name.endswith("yaml") for name in re.findall(r"!function\s+utils\.(\w+)", path.read_text())})


def test_export_check_runs_upstreams_checks_and_prints_the_pull_request(data, tmp_path, capsys):
    """Every step passes, the run on the converted synthetic data of the three benchmarks included (one lmms-eval
    process); the description names what is added, the hub ids to host, the commands that build them and the
    validation verdicts of a run on a published row."""
    write_json(tmp_path / "runs" / "gpt-4o" / "20250101_000000_results.json",
               {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "gpt-4o",
                "config": {"model": "openai", "model_args": "model=gpt-4o", "limit": None}})
    status = main_export(["--output-dir", str(tmp_path / "out"), "--check", "--converted-data", str(data[1]), "--validation", str(tmp_path / "runs")])
    out, err = capsys.readouterr()
    tasks_dir = tmp_path / "out" / "lmms_eval" / "tasks"
    yamls = [p for b in BENCHMARKS for p in (tasks_dir / b).glob("*.yaml")]
    tasks = [p for p in yamls if "group:" not in p.read_text()]
    assert (len(yamls), len(tasks)) == (71, 63)
    checks = out.split("### Checks (`temporal-bench export --check`)\n\n")[1].split("\n\n")[0].splitlines()
    assert checks == [
        "- [x] lint: black 25.1.0 and isort 6.0.1 change none of the 38 Python files",
        f"- [x] imports: 3 utils.py import offline with no data, no connection and no exit, and define the {sum(_hooks_named(tasks_dir / b) for b in BENCHMARKS)} hooks their YAMLs name",
        "- [x] task manager: lmms-eval's TaskManager registers all 71 tasks and groups; every YAML loads in full",
        "- [x] data route: every task names its converted hub dataset in dataset_path / dataset_name",
        f"- [x] run: all 63 tasks ran with --limit 8 (501 docs, model random_choice) on {data[1]}/<benchmark>/, the YAMLs' dataset_path pointed there in a temporary copy",
    ]
    assert status == 0 and "failed" not in err
    assert "dataset_path: lmms-lab-eval/TempVS\n" in (tasks_dir / "tempvs" / "tempvs_mt1_two.yaml").read_text()  # the export keeps the hub id
    added = out.split("### What is added\n\n")[1].split("\n\n")[0].splitlines()
    assert added[0].startswith("- `lmms_eval/tasks/catbench/`: CaT-Bench (Lal, Cohen, Chambers, Balasubramanian, Mooney. CaT-Bench: ")
    assert added[0].endswith(", arXiv:2406.15823), 19 tasks and 1 group; data: hub dataset `vanyacohen/CaT-Bench`.")
    assert added[1].endswith("2 tasks and 1 group; data: hub dataset `lmms-lab-eval/ISO-Bench`, to be hosted: built from the official release by the command below.")
    assert added[2].startswith("- `lmms_eval/tasks/tempvs/`: TempVS (Song, Du, Paperno, Gatt. Burn After Reading: ")
    assert added[2].endswith("42 tasks and 6 groups; data: hub dataset `lmms-lab-eval/TempVS`, to be hosted: built from the official release by the command below.")
    assert added[3:] == ["- `lmms_eval/tasks/_task_utils/temporal_reasoning/`: the helpers the folders share, each once.",
                         "- New dependency `rank-bm25` (imported as `rank_bm25` by `catbench/fewshot.py`, only where it is used)."]
    commands = out.split("### Commands\n\n```bash\n")[1].split("\n")[:2]
    assert commands == ["temporal-bench build-dataset isobench --source RELEASE --output-dir DIR --push-to-hub lmms-lab-eval/ISO-Bench",
                        "temporal-bench build-dataset tempvs --source RELEASE --output-dir DIR --push-to-hub lmms-lab-eval/TempVS"]
    validation = out.split("### Validation\n\n")[1].splitlines()
    assert validation[0] == f"- `{tmp_path / 'runs'}`: **gpt-4o** (1 tasks)"
    assert validation[1].endswith(": 3 reproduced, 3 close, 3 differs of 9 published cells (tolerance 1 point).")


def test_the_run_step_fails_without_converted_data(exported, overlay, tmp_path):
    from temporal_bench.export.pull_request import run_tasks

    folders = [ExportedFolder(b, exported / b, {}, [], []) for b in BENCHMARKS]
    assert run_tasks(exported, folders, overlay, None, tmp_path) == Step(
        "run", False, "no converted data given: pass --converted-data DIR holding tempvs/, isobench/, catbench/")
    (tmp_path / "partial" / "isobench").mkdir(parents=True)
    assert run_tasks(exported, folders, overlay, tmp_path / "partial", tmp_path) == Step(
        "run", False, f"no converted data at {tmp_path / 'partial' / 'tempvs'}, {tmp_path / 'partial' / 'catbench'}")
