"""Upstream export (`temporal-bench export`): each benchmark's task folder copied as lmms-eval's
``lmms_eval/tasks/<benchmark>/``, with the helpers it imports copied into it, its tests (``test/eval/``) and its entry
in lmms-eval's task list (``docs/advanced/current_tasks.md``).

Every exported file is its source with the import prefixes renamed and the imports sorted by upstream's isort (a diff
of the two), and holds only what lmms-eval
merges: no environment read, process exit, download or ``global`` in its Python, none of the package's vocabulary
anywhere, the headline metrics and a hub dataset in its YAMLs, a README, the sizes of issue 39. Installed in
lmms-eval's ``tasks/`` package (an overlay of the installed one, temporal_bench/export/standalone/overlay.py) and run
through the real lmms-eval CLI with ``--include_path`` in a process where ``import temporal_bench`` fails, the exported
folders on the datasets the converters wrote give exactly the package's results and samples on the releases, with the
same model; ``temporal-bench check``, ``report`` and ``compare`` then work on those runs. CaT-Bench's lm-eval folder,
installed in lm-eval where ``import temporal_bench`` fails, registers its tasks and gives the same numbers and prompts.
``export --check`` runs upstream's checks on each folder (with a relative ``--output-dir``; its lint step, black and
isort as lmms-eval pins them, is the suite's lint of the exported files) and prints its pull request's description.
"""

import ast
import difflib
import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from temporal_bench import benchmarks
from temporal_bench.__main__ import main
from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.export.cli import main_export
from temporal_bench.export.facts import facts_of
from temporal_bench.export.pull_request import STANDALONE, Step, local_copy, run_tasks, standalone_env
from temporal_bench.export.standalone.overlay import install_overlay
from temporal_bench.export.task_folder import HELPER_SOURCE, PACKAGE_WORDS, ExportedFolder, planned, sorted_imports, source_folder, upstream_text
from temporal_bench.export.task_list import TASK_LIST
from temporal_bench.export.task_yaml import read_folder
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from tests.cli import temporal_bench
from tests.harness import BIN, read_results, read_samples, run_cli
from tests.paths import REPO, TESTS
from tests.tempvs_fixture_copies import write_tempvs
from tests.unit.test_report import catbench_entry, write_json
from tests.unit.test_reproduction_verdicts import GPT_4O_A

SUPPORT = TESTS / "export_support"
BENCHMARKS = ("tempvs", "isobench", "catbench")
TESTS_SOURCE = TESTS / "upstream"
TASKS = Path("lmms_eval") / "tasks"
# what a task folder may not do (the converters' command line, their ``__main__`` block, may exit with its usage)
ENVIRONMENT = {"environ", "getenv", "putenv", "environb"}
EXITS = {"exit", "_exit", "quit", "SystemExit"}
DOWNLOADS = {"snapshot_download", "hf_hub_download", "HfApi", "urlopen", "urlretrieve", "load_dataset", "requests", "urllib", "http"}
REMOVED_METRICS = {"data_source", "failed_count", "invalid_rate", "coverage"}  # run monitoring: computed after the run now
LM_EVAL_TASKS = ["catbench", "catbench_switched", "catbench_explain", "catbench_explain_switched", "catbench_cot", "catbench_cot_switched"]  # CaT-Bench's lm-eval folder


@dataclass(frozen=True)
class Case:
    oracle_task: str  # answered with the gold answer everywhere
    mixed_task: str  # gold, wrong option, refusal in turn
    main_metrics: tuple[str, ...]  # exactly 1.0 for the oracle
    refusal_metric: str  # strictly between 0 and 1 for the mixed answers
    data_env: str
    write_release: Callable[[Path], Path]
    tagged: bool = False  # answers wrapped in <answer> tags

    @property
    def tasks(self) -> list[str]:
        return [self.oracle_task, self.mixed_task]


CASES: dict[str, Case] = {
    "tempvs": Case("tempvs_mt1_two", "tempvs_mt2_event", ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict"), "gt_acc", "TEMPVS_DATA_DIR", lambda root: write_tempvs(root, n_sequences=2)),
    "isobench": Case("isobench", "isobench_cot", ("f1_weighted", "f1_macro", "f1_dep"), "recall_dep", "ISOBENCH_DATA_DIR", lambda root: write_isobench(root, "json", n=12), tagged=True),
    "catbench": Case("catbench_switched", "catbench", ("f1_macro", "tc", "occ"), "f1_macro", "CATBENCH_DATA_DIR", lambda root: write_catbench(root, layout="hf", n_plans=2, pairs_per_class=3)),
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """``temporal-bench export --output-dir <root>`` for all three benchmarks into a tree holding lmms-eval's task list
    (``docs/advanced/current_tasks.md``, as lmms-eval's main branch has it); returns the root."""
    root = tmp_path_factory.mktemp("upstream")
    (root / TASK_LIST).parent.mkdir(parents=True)
    shutil.copy(SUPPORT / "current_tasks.md", root / TASK_LIST)
    assert main_export(["--output-dir", str(root)]) == 0
    return root


@pytest.fixture(scope="module")
def lm_eval_exported(tmp_path_factory) -> Path:
    """``temporal-bench export --harness lm-eval --output-dir <root>``; returns CaT-Bench's lm-eval folder in it."""
    root = tmp_path_factory.mktemp("lm_eval_checkout")
    assert main_export(["--harness", "lm-eval", "--output-dir", str(root)]) == 0
    return root / "lm_eval" / "tasks" / "catbench"


@pytest.fixture(scope="module")
def overlay(exported, tmp_path_factory) -> Path:
    """The PYTHONPATH entry whose ``lmms_eval`` holds the exported folders in its tasks package."""
    return install_overlay(tmp_path_factory.mktemp("overlay"), exported / TASKS)


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()}


def _python_files(exported: Path) -> dict[str, str]:
    return {p.relative_to(exported).as_posix(): p.read_text(encoding="utf-8") for p in sorted(exported.rglob("*.py"))}


def _source_of(relative: Path) -> Path:
    """The package's file an exported file is the copy of: a test, a file of the task folder or a helper it imports."""
    if relative.parts[:2] == ("test", "eval"):
        return TESTS_SOURCE / relative.name
    own = source_folder(relative.parent.name) / relative.name
    return own if own.is_file() else HELPER_SOURCE / relative.name


def test_every_exported_file_is_its_source_with_the_import_prefixes_renamed_and_the_imports_sorted(exported):
    """The diff of each exported file against its source, the prefixes renamed (``temporal_bench.lmms_eval_tasks.`` ->
    ``lmms_eval.tasks.``, a helper's -> ``lmms_eval.tasks.<benchmark>.``) and the imports sorted by isort's profile
    black, is empty; the export holds every file of each source folder (``__init__.py`` aside) and the helpers it
    imports, and nothing else."""
    written = sorted(p.relative_to(exported) for p in exported.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.relative_to(exported) != TASK_LIST)
    diffs = []
    for relative in written:
        benchmark = relative.parent.name if relative.parts[:2] != ("test", "eval") else relative.name[len("test_") : -len("_tasks.py")]
        expected = sorted_imports(relative.name, upstream_text(_source_of(relative).read_text(encoding="utf-8"), benchmark))
        diffs += difflib.unified_diff(expected.splitlines(), (exported / relative).read_text(encoding="utf-8").splitlines(), f"source of {relative}", str(relative), lineterm="")
    assert diffs == [], "\n".join(diffs)
    for benchmark in BENCHMARKS:
        source = {p.name for p in source_folder(benchmark).iterdir() if p.is_file() and p.name != "__init__.py" and p.suffix != ".pyc"}
        assert {r.name for r in written if r.parent == TASKS / benchmark} == source | set(planned(benchmark).files) and set(planned(benchmark).files) >= source, benchmark
        assert (TASKS / benchmark / "README.md") in written and Path("test/eval") / f"test_{benchmark}_tasks.py" in written
    assert [r for r in written if r.parts[:2] == ("lmms_eval", "tasks") and len(r.parts) != 4] == []  # one folder per pull request, no shared one


def test_each_folder_holds_the_helpers_it_imports_and_no_other(exported):
    """Each pull request stands alone: the helpers (the package's utils/) its modules import, copied into the folder."""
    helpers = {name: {file for file in _files(exported / TASKS / name) if (HELPER_SOURCE / file).is_file()} for name in BENCHMARKS}
    assert helpers == {"tempvs": set(), "catbench": {"classification.py", "think_blocks.py", "yes_no.py"}, "isobench": {"answer_tags.py", "classification.py", "think_blocks.py", "yes_no.py"}}
    assert "from lmms_eval.tasks.catbench.think_blocks import strip_think" in _files(exported / TASKS / "catbench")["yes_no.py"]


def _forbidden(path: str, text: str) -> list[str]:
    """What a task folder's Python may not do: read the environment, end the process, download, keep ``global`` state."""
    tree = ast.parse(text)
    script = [node for node in tree.body if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)] if path.endswith("_to_hf.py") else []
    allowed = {id(node) for block in script for node in ast.walk(block)}
    found = []
    for node in (n for n in ast.walk(tree) if id(n) not in allowed):
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        imported = [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
        for what, words in (("environment read", ENVIRONMENT), ("process exit", EXITS), ("download", DOWNLOADS)):
            if name in words or any(m.split(".")[0] in words for m in modules) or set(imported) & words:
                found.append(f"{path}:{node.lineno}: {what} ({ast.unparse(node)[:60]})")
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            found.append(f"{path}:{node.lineno}: global state ({ast.unparse(node)})")
    return sorted(found, key=lambda problem: int(problem.split(":")[1]))


def test_exported_python_reads_no_environment_exits_downloads_or_keeps_global_state(exported):
    found = [problem for path, text in _python_files(exported).items() for problem in _forbidden(path, text)]
    assert found == []
    assert _forbidden("x/utils.py", "import os\nfrom huggingface_hub import snapshot_download\ndef f():\n    global X\n    if os.getenv('A'):\n        raise SystemExit(1)\n") == [
        "x/utils.py:2: download (from huggingface_hub import snapshot_download)",
        "x/utils.py:4: global state (global X)",
        "x/utils.py:5: environment read (os.getenv)",
        "x/utils.py:6: process exit (SystemExit)",
    ]


def test_nothing_exported_speaks_the_packages_vocabulary(exported):
    """No exported file (code, YAML, README, test) names the package, its commands, documents, folders, data variables
    or the words it uses for its own tooling, and no YAML reads local files or a model name lmms-eval does not register."""
    for path in sorted(p for p in exported.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.relative_to(exported) != TASK_LIST):
        text = path.read_text(encoding="utf-8")
        assert not [m.group(0) for m in PACKAGE_WORDS.finditer(text)], path
        assert not re.search(r"temporal[-_]bench|TEMPORAL_BENCH|[A-Z]+_DATA_DIR|placeholder\.jsonl", text), path
    yamls = "".join(path.read_text(encoding="utf-8") for path in (exported / TASKS).glob("*/*yaml"))
    assert "data_files" not in yamls and "load_from_disk" not in yamls and "llava_interleave_hf" not in yamls


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_exported_yamls_list_headline_metrics_only_and_name_the_hub_dataset(exported, benchmark):
    folder = exported / TASKS / benchmark
    tasks = [task for task in read_folder(folder) if not task.is_group]
    metrics = {m["metric"] for task in tasks for m in task.config["metric_list"]}
    assert metrics and not metrics & REMOVED_METRICS and not any(name.startswith("data_source") for name in metrics), metrics
    named = {path.name: re.findall(r"^dataset_path:\s*(\S+)\s*$", path.read_text(encoding="utf-8"), flags=re.M) for path in sorted(folder.glob("*yaml"))}
    templates = {name: paths for name, paths in named.items() if paths}
    assert list(templates) == ["_default_template_yaml"], named  # one template names the data; every task includes it
    assert templates["_default_template_yaml"] == [facts_of(benchmarks.get(benchmark)).hub_dataset]
    assert re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", templates["_default_template_yaml"][0]) and not (REPO / templates["_default_template_yaml"][0]).exists()
    assert {task.config["dataset_path"] for task in tasks} == set(templates["_default_template_yaml"])


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_each_exported_folder_has_a_readme_of_its_tasks_metrics_data_licence_and_citation(exported, benchmark):
    readme = (exported / TASKS / benchmark / "README.md").read_text(encoding="utf-8")
    facts = facts_of(benchmarks.get(benchmark))
    headings = re.findall(r"^## (.+)$", readme, flags=re.M)
    assert readme.startswith(f"# {benchmarks.get(benchmark).title}\n") and {"Tasks", "Metrics", "Usage", "Citation"} <= set(headings), headings
    assert "licence" in readme.lower() and facts.hub_dataset in readme and facts.bibtex in readme
    tasks = read_folder(exported / TASKS / benchmark)
    assert [task.name for task in tasks if f"`{task.name}`" not in readme] == []
    metrics = {m["metric"] for task in tasks if not task.is_group for m in task.config["metric_list"]}
    assert [name for name in sorted(metrics) if f"`{name}`" not in readme and not re.fullmatch(r"mt\d_\w+_(gt_acc|gtstrict_rate|mt_acc|mt_given_gtstrict)", name)] == []
    if facts.build_command:
        assert f"python lmms_eval/tasks/{benchmark}/{benchmark}_to_hf.py RELEASE_FOLDER" in readme


def test_the_export_adds_each_benchmark_to_lmms_evals_task_list_once(exported):
    lines = (exported / TASK_LIST).read_text(encoding="utf-8").splitlines()
    original = (SUPPORT / "current_tasks.md").read_text(encoding="utf-8").splitlines()
    added = [line for line in lines if line not in original]
    for benchmark in BENCHMARKS:
        facts = facts_of(benchmarks.get(benchmark))
        entry = f"- [{benchmarks.get(benchmark).title}]({facts.homepage}) ({benchmark})"
        assert lines.count(entry) == 1 and entry in added
        heading = [line for line in lines[: lines.index(entry)] if re.match(r"^#{2,3} ", line)][-1]
        assert heading.endswith(facts.task_list_section), heading
    others = [task.name for benchmark in BENCHMARKS for task in read_folder(exported / TASKS / benchmark) if task.name != benchmark]
    described = [re.fullmatch(r"  - (\S.*) \((\w+)\)", line) for line in added if line.startswith("  - ")]  # "Description (name)", as recent entries
    assert all(described) and sorted(match.group(2) for match in described) == sorted(others)
    assert [line for line in original if line not in lines] == []  # nothing else changes


def test_every_exported_definition_is_used_by_the_export(exported):
    """A top-level name nothing in the exported folders uses is dead code upstream (tests/upstream's files included,
    ``convert`` excepted: the converter scripts' entry point is their ``__main__`` block)."""
    python = _python_files(exported)
    everything = " ".join([*python.values(), *(p.read_text(encoding="utf-8") for p in exported.rglob("*yaml"))])
    unused = set()
    for path, text in python.items():
        if path.endswith("/utils.py") or path.startswith("test/"):
            continue
        for node in ast.parse(text).body:
            names = [node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            unused |= {(path, name) for name in names if len(re.findall(rf"\b{re.escape(name)}\b", everything)) == 1}
    assert unused == set()


def test_vulture_finds_nothing_unused_in_any_exported_folder(exported, lm_eval_exported, tmp_path):
    """vulture (every confidence) on each exported folder, lmms-eval's and CaT-Bench's lm-eval folder, its tests
    beside it: nothing unused but the functions the folder's YAMLs name (``!function``), which it cannot see."""
    folders = [exported / TASKS / benchmark for benchmark in BENCHMARKS] + [lm_eval_exported]
    found = []
    for folder in folders:
        named = sorted({name.rsplit(".", 1)[-1] for path in folder.glob("*yaml") for name in re.findall(r"!function\s+([\w.]+)", path.read_text(encoding="utf-8"))})
        whitelist = tmp_path / f"yaml_names_{folder.parent.parent.name}_{folder.name}.py"
        whitelist.write_text("".join(f"{name}  # named by a YAML\n" for name in named))
        tests = [str(test) for test in (exported / "test" / "eval").glob(f"test_{folder.name}_tasks.py") if folder.parent.parent.name == "lmms_eval"]
        done = subprocess.run([str(BIN / "vulture"), "--min-confidence", "0", str(folder), *tests, str(whitelist)], capture_output=True, text=True, timeout=120)
        found += [line for line in done.stdout.splitlines() if line.strip()]
    assert found == []


def test_a_second_export_replaces_the_first_but_never_a_foreign_folder(exported, tmp_path, capsys):
    tasks = exported / TASKS
    task_list = (exported / TASK_LIST).read_text(encoding="utf-8")
    (tasks / "isobench" / "stale.yaml").write_text("task: isobench_stale\n")
    assert main_export(["--benchmark", "isobench", "--output-dir", str(exported)]) == 0
    assert not (tasks / "isobench" / "stale.yaml").exists() and (tasks / "isobench" / "utils.py").is_file()
    assert (exported / TASK_LIST).read_text(encoding="utf-8") == task_list
    foreign = tmp_path / "lmms_eval" / "tasks" / "catbench"
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("mine\n")
    with pytest.raises(SystemExit, match="is no task folder an export wrote for catbench"):
        main_export(["--benchmark", "catbench", "--output-dir", str(tmp_path)])
    assert (foreign / "notes.txt").read_text() == "mine\n"
    assert main_export(["--benchmark", "catbench", "--output-dir", str(tmp_path / "bare")]) == 0  # no task list there: the entry to add by hand
    assert f"no {TASK_LIST.as_posix()} under {tmp_path / 'bare'} (no lmms-eval checkout): add the entry by hand:\n- [CaT-Bench](" in capsys.readouterr().err


def test_the_exported_folders_keep_their_sizes():
    """Non-blank Python lines, converters apart (benchmarks/export_size.py, the table of benchmarks/RESULTS.md): TempVS at
    most 550, CaT-Bench 350 and ISO-Bench 275 with the helpers each imports (issue 39: 300 and 200, the helpers they
    shared 150); each converter at most 300 (250 before issue 51's release check)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from export_size import BUDGET, CONVERTER_BUDGET, sizes

    rows = {row.folder: row for row in sizes()}
    assert (BUDGET, CONVERTER_BUDGET) == ({"tempvs": 550, "catbench": 350, "isobench": 275}, 300)
    assert [row for row in rows.values() if not row.within()] == [], rows
    assert rows["tempvs"].converter and rows["isobench"].converter and rows["catbench"].converter is None  # CaT-Bench reads its release as published


# ---- end to end: the package and the exported folders through the real CLI ------------------------


def _oracle_site(root: Path) -> Path:
    """A throwaway distribution whose ``lmms_eval.models`` entry point registers the test model. It goes on
    PYTHONPATH, before site-packages: lmms-eval 0.7.3 stops loading entry points at the first one that fails,
    which in the blocked run is the package's."""
    dist_info = root / "export_oracle-0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: export-oracle\nVersion: 0\n")
    (dist_info / "entry_points.txt").write_text("[lmms_eval.models]\nexport_oracle = export_oracle:manifests\n")
    return root


TASKS_RUN = [task for case in CASES.values() for task in case.tasks]


def _run_configuration(output_dir: Path, mixed: bool = True) -> dict[str, str]:
    """One lmms-eval run of every case's tasks with the test model (``mixed``: the mixed tasks get mixed answers, else
    the gold everywhere), as lmms-eval's options (their ``dest`` names, as a ``--config`` file gives them)."""
    output_dir.mkdir(parents=True)
    tagged = "+".join(task for case in CASES.values() if case.tagged for task in case.tasks)
    mixed_tasks = "+".join(case.mixed_task for case in CASES.values()) if mixed else ""
    return {"model": "export_oracle", "model_args": f"tagged_tasks={tagged},mixed_tasks={mixed_tasks}", "tasks": ",".join(TASKS_RUN), "output_path": str(output_dir)}


# what only the package's records carry: the variant's mode (its tasks run the variants too) and the fields its report
# reads besides the metrics (TempVS's, ISO-Bench's)
PACKAGE_RECORD_KEYS = ("mode", "unmatched", "statement_type", "event_distance", "goal", "plan_id", "source", "distance_class")
PACKAGE_PREFIX = "paper_"  # ISO-Bench's scores as the package names them (Table 1's rule, beside the others it reports)


def _upstream_name(key: str) -> str:
    return key.removeprefix(PACKAGE_PREFIX)


def _scored(sample: dict) -> dict:
    """A logged sample without the image paths sent (the release's files, or those lmms-eval unpacked) and without the
    keys only the package's records carry, its metrics under upstream's names."""
    return {_upstream_name(key): {k: v for k, v in value.items() if k not in PACKAGE_RECORD_KEYS} if isinstance(value, dict) else value for key, value in sample.items() if key != "input_media"}


def _results_as_upstream(entry: dict) -> dict:
    return {_upstream_name(key): value for key, value in entry.items()}


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> tuple[dict[str, Path], Path]:
    """(each benchmark's synthetic release, the folder of their converted datasets ``<benchmark>/``, as
    ``export --check --converted-data`` takes it): TempVS and ISO-Bench converted by the folders' converters (through
    build-dataset); CaT-Bench's hub dataset is its release, in the hub's file layout, the one folder for both."""
    root = tmp_path_factory.mktemp("data")
    releases = {benchmark: case.write_release(root / ("converted" if benchmark == "catbench" else "release") / benchmark) for benchmark, case in CASES.items()}
    for benchmark in ("tempvs", "isobench"):
        assert main(["build-dataset", benchmark, "--source", str(releases[benchmark]), "--output-dir", str(root / "converted" / benchmark)]) == 0
    return releases, root / "converted"


@pytest.fixture(scope="module")
def plugin_and_export_runs(exported, overlay, data, tmp_path_factory):
    """The same model on the same questions, every benchmark in one run each: through the package's tasks on the
    releases, then twice through the exported folders (installed in lmms-eval by the overlay, registered by
    ``--include_path`` alone) on the converted datasets (export --check's local copy of the YAMLs, TempVS's images
    unpacked where lmms-eval unpacks them), in one process where ``import temporal_bench`` fails: with the mixed
    answers (``export``) and with the gold everywhere (``export_gold``). Returns (their folder, the package's results, the
    export's results, the export run's log)."""
    releases, converted = data
    base = tmp_path_factory.mktemp("export_e2e")
    site = _oracle_site(base / "site")
    plugin_command = [str(BIN / "lmms-eval"), *(word for key, value in _run_configuration(base / "plugin").items() for word in (f"--{key}", value)), "--log_samples"]
    plugin = read_results(base / "plugin", TASKS_RUN, run_cli(plugin_command, base / "plugin", {**{case.data_env: str(releases[b]) for b, case in CASES.items()}, "PYTHONPATH": f"{site}:{SUPPORT}"}))
    folders = [ExportedFolder(b, exported / TASKS / b, {}, {}) for b in BENCHMARKS]
    local = local_copy(exported, folders, converted, base / "local_tasks")
    env = {**standalone_env(overlay, base / "home"), "PYTHONPATH": f"{overlay}:{STANDALONE}:{site}:{SUPPORT}"}
    shutil.unpack_archive(converted / "tempvs" / "images.zip", Path(env["HF_HOME"]) / "tempvs")
    # both runs in one lmms-eval process (one start of a package-free interpreter): lmms-eval evaluates the
    # configurations a --config file lists one after the other
    runs = [{**_run_configuration(base / name, mixed), "log_samples": True, "include_path": str(local)} for name, mixed in (("export", True), ("export_gold", False))]
    (base / "runs.yaml").write_text(yaml.safe_dump(runs))
    log = run_cli([str(BIN / "lmms-eval"), "--config", str(base / "runs.yaml")], base, env)
    export = read_results(base / "export", TASKS_RUN, log)
    read_results(base / "export_gold", TASKS_RUN, log)
    return base, plugin, export, log.stdout + log.stderr


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_exported_folder_on_the_converted_data_scores_every_doc_as_the_plugin_on_the_release(data, benchmark, plugin_and_export_runs):
    case = CASES[benchmark]
    base, plugin, export, log = plugin_and_export_runs
    # lmms-eval tried the package's entry point, could not import the package, and went on without it
    assert "No module named 'temporal_bench'" in log
    for task in case.tasks:
        listed = {f"{m['metric']},none" for m in export["configs"][task]["metric_list"]}  # the breakdowns apart: some read the package's record fields
        assert {k: v for k, v in export["results"][task].items() if k in listed} == {k: v for k, v in _results_as_upstream(plugin["results"][task]).items() if k in listed}, task
        assert len(listed) >= 4
        assert export["n-samples"][task] == plugin["n-samples"][task]
        assert [_scored(s) for s in read_samples(base / "export", task)] == [_scored(s) for s in read_samples(base / "plugin", task)]
        assert export["configs"][task]["dataset_path"] == str((data[1] / benchmark).resolve())
    for name in case.main_metrics:
        assert export["results"][case.oracle_task][f"{name},none"] == 1.0, name
    assert 0 < export["results"][case.mixed_task][f"{case.refusal_metric},none"] < 1


def test_check_report_and_compare_work_on_runs_of_the_exported_folders(data, plugin_and_export_runs, tmp_path):
    """The package's commands on the output of lmms-eval runs made without it: check names the data each task read
    (the converted dataset the results name) and passes (``--allow-subset``: the synthetic data's counts are not the
    release's); report lays out each benchmark's tables with the run's rows; compare pairs the two runs question by
    question."""
    base, _, export, _ = plugin_and_export_runs
    checked = temporal_bench("check", base / "export", "--allow-subset", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for task in TASKS_RUN:
        benchmark = next(b for b, case in CASES.items() if task in case.tasks)
        assert re.search(rf"^check: {task}: [\d,]+ question\(s\), fingerprint \w+ \(the dataset {re.escape(str((data[1] / benchmark).resolve()))}", checked.stdout, flags=re.M), checked.stdout
    reported = temporal_bench("report", base / "export", cwd=tmp_path)
    assert reported.returncode == 0, reported.stderr
    for title in ("## CaT-Bench Table 1", "## CaT-Bench Table 3", "## ISO-Bench Table 1", "## TempVS Table 3"):
        assert title in reported.stdout, title
    assert "**export_oracle " in reported.stdout and "read synthetic data" in reported.stdout
    compared = temporal_bench("compare", base / "export", base / "export_gold", cwd=tmp_path)
    assert compared.returncode == 0, compared.stderr
    cells = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in compared.stdout.splitlines() if line.startswith("| ") and not line.startswith("| task")]
    rows = {(row[0], row[1]): row for row in cells}  # task, metric, n, clusters, A, B, B - A [95%], p, Holm
    assert {task for task, _ in rows} >= set(TASKS_RUN)
    assert rows[("catbench", "macro F1")][5] == "100.0" and float(rows[("catbench", "macro F1")][6].split()[0]) > 0  # B (gold) - A (mixed)
    assert rows[("catbench_switched", "macro F1")][6].split()[0] == "0.0"  # the oracle task in both runs


def test_lm_eval_gives_lmms_evals_numbers_and_prompts_on_the_same_answers(data, plugin_and_export_runs, lm_eval_exported, tmp_path):
    """CaT-Bench's lm-eval folder (``export --harness lm-eval``), installed in lm-eval and registered by its include
    path in a process where ``import temporal_bench`` fails (lm-eval's TaskManager registers every task of the folder),
    on the same hub-layout data and with the same answers as the exported lmms-eval folder's run (gold, a wrong option
    or a refusal in turn in ``catbench``; gold in ``catbench_switched``): every metric and every prompt equal."""
    base, _, export, _ = plugin_and_export_runs
    local = tmp_path / "tasks" / "catbench"  # the folder alone: lm-eval has a README.md of its own
    shutil.copytree(lm_eval_exported, local)
    template = local / "_default_template_yaml"  # the hub id, as export --check's copy does, names the local copy of the hub's files
    template.write_text(template.read_text().replace("dataset_path: vanyacohen/CaT-Bench\n", f"dataset_path: {data[1] / 'catbench'}\n"))
    overlay = install_overlay(tmp_path / "overlay", tmp_path / "tasks", harness="lm_eval")
    env = {**standalone_env(overlay, tmp_path / "home"), "PYTHONPATH": f"{overlay}:{STANDALONE}:{SUPPORT}"}
    done = subprocess.run([sys.executable, str(SUPPORT / "lm_eval_oracle.py"), str(local), "catbench", "catbench", "catbench_switched"], capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    lm_eval = json.loads(done.stdout.strip().splitlines()[-1])
    assert lm_eval["blocked"] and lm_eval["registered"] == sorted(LM_EVAL_TASKS)
    for task in ("catbench", "catbench_switched"):
        scores = {key: value for key, value in lm_eval["results"][task].items() if key.endswith(",none")}
        assert len(scores) >= 10 and scores == {key: export["results"][task][key] for key in scores}, task
        assert lm_eval["prompts"][task] == [sample["input"] for sample in sorted(read_samples(base / "export", task), key=lambda s: s["doc_id"])], task
    assert 0 < lm_eval["results"]["catbench"]["f1_macro,none"] < 1 and lm_eval["results"]["catbench_switched"]["occ,none"] == 1.0


# ---- export --check: the pull request's checks and its description ---------------------------------


def test_export_check_runs_upstreams_checks_and_prints_each_pull_request(data, tmp_path, capsys, monkeypatch, read_as_release):
    """``--output-dir checkout/``, relative, into a tree holding lmms-eval's task list: every step passes for each
    benchmark, the tests step with tests run and the run step on its converted synthetic data, which the description
    says; each description follows the template (tests/unit/test_export_rules.py checks its rules), with the validation
    verdicts of a run on a published row."""
    write_json(
        tmp_path / "runs" / "gpt-4o" / "20250101_000000_results.json",
        {"results": {"catbench_switched": catbench_entry(GPT_4O_A)}, "model_name": "gpt-4o-2024-05-13", "config": {"model": "openai", "model_args": "model=gpt-4o-2024-05-13", "limit": None}},
    )
    (tmp_path / "checkout" / TASK_LIST).parent.mkdir(parents=True)
    shutil.copy(SUPPORT / "current_tasks.md", tmp_path / "checkout" / TASK_LIST)
    monkeypatch.chdir(tmp_path)
    status = main_export(["--output-dir", "checkout/", "--check", "--converted-data", str(data[1]), "--validation", "runs"])
    out, err = capsys.readouterr()
    (tmp_path / "description.md").write_text(out)
    assert status == 0 and "failed" not in err, err
    descriptions = {re.search(r"as `lmms_eval/tasks/(\w+)/`", text).group(1): text for text in out.split("## Summary\n\n")[1:]}
    assert sorted(descriptions) == sorted(BENCHMARKS)
    for benchmark, text in descriptions.items():
        assert re.findall(r"^## (.+)$", text, flags=re.M) == ["In scope", "Out of scope", "Validation", "Risk / Compatibility", "Type of Change"], benchmark
        validation = text.split("## Validation\n\n")[1].split("\n## ")[0]
        bullets = [line for line in validation.splitlines() if line.startswith("- ")]
        assert len(bullets) == 3 and all(line.endswith("| result: `pass`") for line in bullets), validation
        assert bullets[0].endswith("| key metrics: lint: black 25.1.0 and isort 6.0.1 change none of them | result: `pass`"), bullets[0]  # lmms-eval's pins
        assert re.search(r"utils\.py imports offline with no data, no connection and no exit, and defines the [1-9]\d* functions the YAMLs name", bullets[1]), bullets[1]
        assert re.search(r"; tests: [1-9]\d* passed \|", bullets[1]), bullets[1]
        response = facts_of(benchmarks.get(benchmark)).smoke_response
        assert (
            bullets[2].startswith(f"- `python -m lmms_eval --model dummy --model_args {shlex.quote('response=' + response)} --tasks ")
            and "`N=8 docs per task, " in bullets[2]
            and ", synthetic data (generated in the release's layout, not the release)`" in bullets[2]
        )
        assert "| task | metrics |" in validation and "Sample output" in validation and "- [x] New benchmark/task" in text
        smoke = [line for line in validation.splitlines() if line.startswith("| `")]
        assert smoke and any(float(value) > 0 for line in smoke for value in re.findall(r" (\d\.\d+|1|0)(?:,| \|)", line)), smoke  # answers in the tasks' format: not all zeros
    catbench = descriptions["catbench"]
    assert catbench.startswith("- Add CaT-Bench (Lal, Cohen, Chambers, Balasubramanian, Mooney. CaT-Bench: ")
    assert "- Data: `vanyacohen/CaT-Bench`, the official release as its authors published it on the hub; nothing to host." in catbench
    assert "| `runs` | **gpt-4o-2024-05-13** (1 tasks) | CaT-Bench Table 1: Step Order Prediction, per class and macro average: 3 reproduced, 3 close, 3 differs of 9 published cells (tolerance 1 point).<br>" in catbench
    assert "- No new dependency: the folder imports only lmms-eval requirements;" in catbench
    assert "A maintainer of `lmms-lab-eval` hosts it: the official release converted by the folder's converter, `python lmms_eval/tasks/tempvs/tempvs_to_hf.py" in descriptions["tempvs"]
    checkout = tmp_path / "checkout"
    assert "dataset_path: lmms-lab-eval/TempVS\n" in (checkout / TASKS / "tempvs" / "_default_template_yaml").read_text()  # the export keeps the hub id
    assert "- [ISO-Bench](https://arxiv.org/abs/2507.23135) (isobench)" in (checkout / TASK_LIST).read_text()


def test_the_run_step_fails_without_converted_data(exported, overlay, tmp_path):
    folders = [ExportedFolder(b, exported / TASKS / b, {}, {}) for b in BENCHMARKS]
    assert run_tasks(exported, folders, overlay, None, tmp_path)["isobench"] == Step("run", False, "no converted data given: pass --converted-data DIR holding isobench/")
    (tmp_path / "partial" / "isobench").mkdir(parents=True)
    steps = run_tasks(exported, folders, overlay, tmp_path / "partial", tmp_path)
    assert steps["tempvs"] == Step("run", False, f"no converted data at {tmp_path / 'partial' / 'tempvs'}")
    assert steps["isobench"] == Step("run", False, "not run: no converted data for tempvs, catbench")
