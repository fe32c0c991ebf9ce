"""The generic layers name no benchmark: each declares itself in its manifest (temporal_bench/manifest.py), from
which everything that lists them is derived, and no module of ``temporal_bench/`` imports a benchmark's modules; every module stays under about
400 lines (issue 26), except a task folder's converter script ``*_to_hf.py``: one stand-alone script that reads
the release and writes the hub dataset (as upstream's ``hd_epic/hd_epic_to_hf.py``), at most 600."""

import ast
import importlib.util
from pathlib import Path

import pytest

from temporal_bench.manifest import manifests
from tests.paths import REPO

ROOT = REPO
PACKAGE = ROOT / "temporal_bench"
BENCHMARKS = list(manifests())
BENCHMARK_PACKAGES = tuple(f"temporal_bench.{name}" for name in BENCHMARKS)
MAX_LINES = 400
MAX_CONVERTER_LINES = 600


def _modules(folder: Path):
    return sorted(path for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def _imported(path: Path) -> set:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _names_a_benchmark_module(path: Path) -> list:
    """Benchmark modules a module imports or names in a string (``import_module("temporal_bench.tempvs...")``)."""
    strings = {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    named = _imported(path) | {s for s in strings if s.startswith("temporal_bench.")}
    return sorted(name for name in named if name.startswith(BENCHMARK_PACKAGES))


def test_no_generic_module_names_a_benchmarks_modules():
    found = {path.relative_to(ROOT).as_posix(): _names_a_benchmark_module(path) for path in _modules(PACKAGE)}
    assert {module: names for module, names in found.items() if names} == {}
    assert BENCHMARKS == ["catbench", "isobench", "tempvs"]  # found through their manifests' entry points


def test_every_benchmark_folder_declares_itself_in_its_manifest():
    """The folders setup.py installs as benchmarks are those with a manifest; each manifest's modules exist."""
    folders = sorted(path.parent.name for path in ROOT.glob("*/manifest.py") if path.parent != PACKAGE)
    assert folders == BENCHMARKS
    for manifest in manifests().values():
        modules = [manifest.paper, manifest.upstream, manifest.dataset_builder, *(command.module for command in manifest.commands.values())]
        assert all(importlib.util.find_spec(module) for module in modules if module), manifest.name


@pytest.mark.parametrize("folder", ["temporal_bench", *BENCHMARKS, "utils", "lmms_eval_tasks", "lm_eval_tasks"])
def test_no_module_is_over_400_lines(folder):
    lengths = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines()) for path in _modules(ROOT / folder)}
    assert {module: n for module, n in lengths.items() if n > (MAX_CONVERTER_LINES if module.endswith("_to_hf.py") else MAX_LINES)} == {}
