"""What setup.cfg cannot say without naming every benchmark, derived from the folders: the design card's top-level
folders installed under the one import name ``temporal_bench`` (``tempvs/`` as ``temporal_bench.tempvs``), every file
in them shipped, and one ``temporal_bench.benchmarks`` entry point per benchmark folder, the folders holding a
``manifest.py`` (temporal_bench/manifest.py). Adding a benchmark adds no line here."""

from pathlib import Path

from setuptools import find_namespace_packages, setup

ROOT = Path(__file__).resolve().parent
BENCHMARKS = sorted(path.parent.name for path in ROOT.glob("*/manifest.py") if path.parent.name != "temporal_bench")  # its manifest.py defines the type
# import name -> folder
FOLDERS = {
    "temporal_bench": "temporal_bench",
    **{f"temporal_bench.{name}": name for name in BENCHMARKS},
    "temporal_bench.lmms_eval_tasks": "lmms_eval_tasks",
    "temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning": "utils",
    "temporal_bench.lm_eval_tasks": "lm_eval_tasks",
}


def _packages(package: str, folder: str) -> dict:
    """Every folder under ``folder`` as a package -> its folder (a folder mapped elsewhere in FOLDERS is left to that
    entry); the task folders are namespace packages, as upstream's are."""
    found = {package: folder, **{f"{package}.{sub}": f"{folder}/{sub.replace('.', '/')}" for sub in find_namespace_packages(ROOT / folder, exclude=["*__pycache__*"])}}
    return {name: path for name, path in found.items() if name == package or name not in FOLDERS}


PACKAGES = {name: path for package, folder in FOLDERS.items() for name, path in _packages(package, folder).items()}


def _data_files(folder: str) -> list:
    """The files of a package's own folder that are not Python modules (YAML, CSV, templates, the page's assets)."""
    return sorted(path.name for path in (ROOT / folder).iterdir() if path.is_file() and path.suffix not in (".py", ".pyc"))


setup(
    packages=list(PACKAGES),
    package_dir=FOLDERS,
    package_data={name: files for name, path in PACKAGES.items() if (files := _data_files(path))},
    entry_points={
        "console_scripts": ["temporal-bench = temporal_bench.__main__:main"],
        "lmms_eval.models": ["temporal_bench = temporal_bench.lmms_eval_plugin:model_manifests"],
        "temporal_bench.benchmarks": [f"{name} = temporal_bench.{name}.manifest:MANIFEST" for name in BENCHMARKS],
    },
)
