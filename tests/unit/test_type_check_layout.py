"""mypy reads the folders setup.py installs under ``temporal_bench`` through ``.mypy_layout/``'s links, one a
``package_dir`` entry (pyproject.toml's ``[tool.mypy]`` says why): every such folder is linked, under the import name
the installed package gives it."""

import importlib.util
from pathlib import Path

from tests.paths import REPO

LAYOUT = REPO / ".mypy_layout"


def _linked() -> dict:
    """import name -> the folder its link points to."""
    bases = [path for path in LAYOUT.iterdir() if path.is_dir()]
    return {".".join(link.relative_to(base).parts): link.resolve() for base in bases for link in base.rglob("*") if link.is_symlink()}


def test_every_installed_folder_is_linked_under_its_import_name():
    installed = {path.parent for path in REPO.glob("*/__init__.py")} - {REPO / "temporal_bench", REPO / "tests"}
    linked = _linked()
    assert sorted(linked.values()) == sorted(installed)
    for name, folder in linked.items():
        spec = importlib.util.find_spec(name)
        assert spec and [Path(location).resolve() for location in spec.submodule_search_locations or []] == [folder], name
