"""Upstream export (`temporal-bench export`): each benchmark's task folder copied as lmms-eval's
``lmms_eval/tasks/<benchmark>/``, with the shared helpers it imports (``_task_utils/temporal_reasoning/``) and its
tests (``test/eval/``).

The copy is the source with the import prefix changed and the lines each benchmark declares (its data route)
replaced, nothing else; it passes lmms-eval's lint unchanged, names nothing of this package, and leaves no top-level
definition unused. Installed in lmms-eval's ``tasks/`` package (an overlay of the installed one,
temporal_bench/export/standalone/overlay.py) and run through the real lmms-eval CLI with ``--include_path`` in a
process where ``import temporal_bench`` fails, the exported folders on the converted datasets give exactly the
plugin's results and samples on the releases, with the same model. ``export --check`` runs upstream's checks on
each folder and prints its pull request's description.
"""

import ast
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest

from temporal_bench import benchmarks
from temporal_bench.__main__ import main
from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.export.cli import main_export
from temporal_bench.export.facts import facts_of
from temporal_bench.export.pull_request import STANDALONE, Step, local_copy, run_tasks, standalone_env
from temporal_bench.export.standalone.overlay import install_overlay
from temporal_bench.export.task_folder import LEFT_OUT, SHARED_FOLDER, SOURCE_TESTS, ExportedFolder, planned, upstream_text
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.paths import LMMS_EVAL_TASK_DIR
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs
from tests.harness import BIN, read_results, read_samples, run_cli
from tests.test_report import catbench_entry, write_json
from tests.test_reproduction_verdicts import GPT_4O_A

SUPPORT = Path(__file__).resolve().parent / "export_support"
BENCHMARKS = ("tempvs", "isobench", "catbench")
SHARED_SOURCE = LMMS_EVAL_TASK_DIR.parent / "utils"


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
    "tempvs": Case("tempvs_mt1_two", "tempvs", ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"), "mt2_event_invalid_rate", "TEMPVS_DATA_DIR", lambda root: write_tempvs(root, n_sequences=2)),
    "isobench": Case("isobench", "isobench_cot", ("paper_f1_weighted", "paper_f1_macro", "coverage", "paper_f1_dep"), "coverage", "ISOBENCH_DATA_DIR", lambda root: write_isobench(root, "json", n=12), tagged=True),
    "catbench": Case("catbench_switched", "catbench", ("f1_macro", "tc", "occ"), "invalid_rate", "CATBENCH_DATA_DIR", lambda root: write_catbench(root, layout="hf", n_plans=2, pairs_per_class=3)),
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """``temporal-bench export --output-dir <root>`` for all three benchmarks; returns the root."""
    root = tmp_path_factory.mktemp("upstream")
    assert main_export(["--output-dir", str(root)]) == 0
    return root


@pytest.fixture(scope="module")
def overlay(exported, tmp_path_factory) -> Path:
    """The PYTHONPATH entry whose ``lmms_eval`` holds the exported folders in its tasks package."""
    return install_overlay(tmp_path_factory.mktemp("overlay"), exported / "lmms_eval" / "tasks")


def _files(folder: Path) -> Dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_the_export_is_the_source_folder_with_the_prefix_and_the_declared_lines_changed(exported, benchmark):
    substitutions = facts_of(benchmarks.get(benchmark)).substitutions
    source = {name: text for name, text in _files(LMMS_EVAL_TASK_DIR / benchmark).items() if name not in LEFT_OUT}
    expected = {name: upstream_text(text, [s for s in substitutions if s.file == name]) for name, text in source.items()}
    assert _files(exported / "lmms_eval" / "tasks" / benchmark) == expected
    assert [name for name in expected if expected[name] != source[name].replace("temporal_bench.lmms_eval_tasks.", "lmms_eval.tasks.")] == ["_default_template_yaml"]
    test = f"test_{benchmark}_tasks.py"
    assert (exported / "test" / "eval" / test).read_text(encoding="utf-8") == upstream_text((SOURCE_TESTS / test).read_text(encoding="utf-8"))


def test_the_shared_folder_holds_the_helpers_the_folders_import_each_once(exported):
    shared = _files(exported / "lmms_eval" / "tasks" / SHARED_FOLDER)
    assert shared == {name: upstream_text(text) for name, text in _files(SHARED_SOURCE).items() if name not in LEFT_OUT}
    assert set(planned("tempvs").shared) < set(shared) and set(planned("catbench").shared) == set(shared)  # TempVS needs no yes/no or classification


def test_nothing_exported_names_this_package_its_commands_or_its_documentation(exported):
    for path in sorted(p for p in exported.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        assert not re.search(r"temporal[-_]bench|docs/[\w/]+\.md|placeholder\.jsonl", path.read_text(encoding="utf-8")), path
    yamls = "".join(path.read_text(encoding="utf-8") for path in (exported / "lmms_eval" / "tasks").glob("*/*yaml"))
    assert "data_files" not in yamls and "llava_interleave_hf" not in yamls  # upstream: hub datasets, model names lmms-eval registers


def test_every_exported_definition_is_used_by_the_export(exported):
    """A top-level name nothing in the exported folders uses is dead code upstream (tests/upstream's files included,
    ``convert`` excepted: the converter scripts' entry point is their ``__main__`` block)."""
    python = {p.relative_to(exported).as_posix(): p.read_text(encoding="utf-8") for p in exported.rglob("*.py")}
    everything = " ".join([*python.values(), *(p.read_text(encoding="utf-8") for p in exported.rglob("*yaml"))])
    unused = set()
    for path, text in python.items():
        if path.endswith("/utils.py") or path.startswith("test/"):
            continue
        for node in ast.parse(text).body:
            names = [node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            unused |= {(path, name) for name in names if len(re.findall(rf"\b{re.escape(name)}\b", everything)) == 1}
    assert unused == set()


def test_exported_python_passes_lmms_evals_lint_unchanged(exported, tmp_path):
    """black 25.1.0 --line-length=240 and isort 6.0.1 --profile black (lmms-eval's .pre-commit-config.yaml), run
    from the root of a tree laid out as an lmms-eval checkout: neither would change a file."""
    root = tmp_path / "checkout"
    shutil.copytree(exported, root, ignore=shutil.ignore_patterns("__pycache__"))
    for package in (root / "lmms_eval", root / "lmms_eval" / "tasks"):
        (package / "__init__.py").write_text("")
    folders = [f"lmms_eval/tasks/{folder}" for folder in [*BENCHMARKS, SHARED_FOLDER.as_posix()]] + ["test/eval"]
    for command in (["black", "--check", "--diff", "--line-length=240", *folders], ["isort", "--check-only", "--diff", "--profile", "black", *folders]):
        done = subprocess.run([str(BIN / command[0]), "--version"], capture_output=True, text=True)
        assert {"black": "black, 25.1.0", "isort": "VERSION 6.0.1"}[command[0]] in done.stdout, done.stdout
        done = subprocess.run([str(BIN / command[0]), *command[1:]], cwd=root, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]


def test_a_second_export_replaces_the_first_but_never_a_foreign_folder(exported, tmp_path):
    tasks = exported / "lmms_eval" / "tasks"
    (tasks / "isobench" / "stale.yaml").write_text("task: isobench_stale\n")
    assert main_export(["--benchmark", "isobench", "--output-dir", str(exported)]) == 0
    assert not (tasks / "isobench" / "stale.yaml").exists() and (tasks / "isobench" / "utils.py").is_file()
    foreign = tmp_path / "lmms_eval" / "tasks" / "catbench"
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("mine\n")
    with pytest.raises(SystemExit, match="is no task folder an export wrote for catbench"):
        main_export(["--benchmark", "catbench", "--output-dir", str(tmp_path)])
    assert (foreign / "notes.txt").read_text() == "mine\n"


# ---- end to end: the plugin and the exported folders through the real CLI ------------------------


def _oracle_site(root: Path) -> Path:
    """A throwaway distribution whose ``lmms_eval.models`` entry point registers the test model. It goes on
    PYTHONPATH, before site-packages: lmms-eval 0.7.3 stops loading entry points at the first one that fails,
    which in the blocked run is ours."""
    dist_info = root / "export_oracle-0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: export-oracle\nVersion: 0\n")
    (dist_info / "entry_points.txt").write_text("[lmms_eval.models]\nexport_oracle = export_oracle:manifests\n")
    return root


def _evaluate(output_dir: Path, env: Dict[str, str], extra: List[str] = ()):
    """One lmms-eval CLI run of every case's tasks with the test model: (results, CLI log)."""
    output_dir.mkdir(parents=True)
    tasks = [task for case in CASES.values() for task in case.tasks]
    tagged = "+".join(task for case in CASES.values() if case.tagged for task in case.tasks)
    mixed = "+".join(case.mixed_task for case in CASES.values())
    command = [str(BIN / "lmms-eval"), "--model", "export_oracle", "--model_args", f"tagged_tasks={tagged},mixed_tasks={mixed}", "--tasks", ",".join(tasks), "--output_path", str(output_dir), "--log_samples", *extra]
    log = run_cli(command, output_dir, env)
    return read_results(output_dir, tasks, log), log


def _scored(sample: Dict) -> Dict:
    """A logged sample without what names the data read: the image paths sent, the data's record and fingerprint."""
    return {key: {k: v for k, v in value.items() if k != "data"} if isinstance(value, dict) else value for key, value in sample.items() if key not in ("input_media", "data_source")}


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
def plugin_and_export_runs(exported, overlay, data, tmp_path_factory):
    """The same model on the same questions, every benchmark in one run each: through the plugin on the releases,
    then through the exported folders (installed in lmms-eval by the overlay, registered by ``--include_path``) on
    the converted datasets (export --check's local copy of the YAMLs, TempVS's images unpacked where lmms-eval
    unpacks them), in a process where ``import temporal_bench`` fails. Returns (their folder, plugin results,
    export results, the export run's log)."""
    releases, converted = data
    base = tmp_path_factory.mktemp("export_e2e")
    site = _oracle_site(base / "site")
    plugin, _ = _evaluate(base / "plugin", {**{case.data_env: str(releases[b]) for b, case in CASES.items()}, "PYTHONPATH": f"{site}:{SUPPORT}"})
    folders = [ExportedFolder(b, exported / "lmms_eval" / "tasks" / b, {}, {}, {}) for b in BENCHMARKS]
    local = local_copy(exported, folders, converted, base / "local_tasks")
    env = {**standalone_env(overlay, base / "home"), "PYTHONPATH": f"{overlay}:{STANDALONE}:{site}:{SUPPORT}"}
    shutil.unpack_archive(converted / "tempvs" / "images.zip", Path(env["HF_HOME"]) / "tempvs")
    export, log = _evaluate(base / "export", env, ["--include_path", str(local)])
    return base, plugin, export, log.stdout + log.stderr


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_exported_folder_on_the_converted_data_scores_every_doc_as_the_plugin_on_the_release(data, benchmark, plugin_and_export_runs):
    case = CASES[benchmark]
    base, plugin, export, log = plugin_and_export_runs
    # lmms-eval tried our entry point, could not import the package, and went on without it
    assert "No module named 'temporal_bench'" in log
    for task in case.tasks:
        assert {k: v for k, v in export["results"][task].items() if not k.startswith("data_source")} == {k: v for k, v in plugin["results"][task].items() if not k.startswith("data_source")}, task
        assert export["n-samples"][task] == plugin["n-samples"][task]
        assert [_scored(s) for s in read_samples(base / "export", task)] == [_scored(s) for s in read_samples(base / "plugin", task)]
        assert export["configs"][task]["dataset_path"] == str((data[1] / benchmark).resolve())
    for name in case.main_metrics:
        assert export["results"][case.oracle_task][f"{name},none"] == 1.0, name
    assert 0 < export["results"][case.mixed_task][f"{case.refusal_metric},none"] < 1


# ---- export --check: the pull request's checks and its description ---------------------------------


def test_export_check_runs_upstreams_checks_and_prints_each_pull_request(data, tmp_path, capsys):
    """Every step passes for each benchmark, the run on its converted synthetic data included; each description
    follows upstream's template: summary, scope, the validation commands with the smoke table and a sample output,
    the validation verdicts of a run on a published row, risk, type of change."""
    write_json(
        tmp_path / "runs" / "gpt-4o" / "20250101_000000_results.json",
        {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "gpt-4o-2024-05-13", "config": {"model": "openai", "model_args": "model=gpt-4o-2024-05-13", "limit": None}},
    )
    status = main_export(["--output-dir", str(tmp_path / "out"), "--check", "--converted-data", str(data[1]), "--validation", str(tmp_path / "runs")])
    out, err = capsys.readouterr()
    (tmp_path / "description.md").write_text(out)
    assert status == 0 and "failed" not in err, err
    descriptions = {re.search(r"as `lmms_eval/tasks/(\w+)/`", text).group(1): text for text in out.split("## Summary\n\n")[1:]}
    assert sorted(descriptions) == sorted(BENCHMARKS)
    for benchmark, text in descriptions.items():
        headings = re.findall(r"^## (.+)$", text, flags=re.M)
        assert headings == ["In scope", "Out of scope", "Validation", "Risk / Compatibility", "Type of Change"], benchmark
        validation = text.split("## Validation\n\n")[1].split("\n## ")[0]
        assert validation.count("| result: pass |") == 5, validation
        assert re.search(r"utils\.py imports offline with no data, no connection and no exit, and defines the [1-9]\d* functions the YAMLs name", validation), validation
        assert "`python -m lmms_eval --model dummy --tasks " in validation and "| task | metrics |" in validation and "Sample output" in validation
        assert "- [x] New benchmark/task" in text
    catbench = descriptions["catbench"]
    assert catbench.startswith("- Add CaT-Bench (Lal, Cohen, Chambers, Balasubramanian, Mooney. CaT-Bench: ")
    assert "- Data: `vanyacohen/CaT-Bench` (the official release, read as it is)." in catbench
    assert "stay in the `lmms-eval-temporal-bench` package: `catbench_close2`, " in catbench
    assert ": 3 reproduced, 3 close, 3 differs of 9 published cells (tolerance 1 point)." in catbench
    assert "- No new dependency: the folder imports only lmms-eval's own requirements." in catbench
    assert "- Data: `lmms-lab-eval/TempVS`, built from the official release by the folder's converter (`python lmms_eval/tasks/tempvs/tempvs_to_hf.py" in descriptions["tempvs"]
    assert "dataset_path: lmms-lab-eval/TempVS\n" in (tmp_path / "out" / "lmms_eval" / "tasks" / "tempvs" / "_default_template_yaml").read_text()  # the export keeps the hub id


def test_the_run_step_fails_without_converted_data(exported, overlay, tmp_path):
    folders = [ExportedFolder(b, exported / "lmms_eval" / "tasks" / b, {}, {}, {}) for b in BENCHMARKS]
    assert run_tasks(exported, folders, overlay, None, tmp_path)["isobench"] == Step("run", False, "no converted data given: pass --converted-data DIR holding isobench/")
    (tmp_path / "partial" / "isobench").mkdir(parents=True)
    steps = run_tasks(exported, folders, overlay, tmp_path / "partial", tmp_path)
    assert steps["tempvs"] == Step("run", False, f"no converted data at {tmp_path / 'partial' / 'tempvs'}")
    assert steps["isobench"] == Step("run", False, "not run: no converted data for tempvs, catbench")
