"""lmms-eval's lint, applied to the exported Python so a pull request passes it unchanged.

lmms-eval's ``.pre-commit-config.yaml`` runs black 25.1.0 with ``--line-length=240`` and isort 6.0.1
with ``--profile black`` from the repository's root (where ``lmms_eval`` is first-party), and its lint
job fails a pull request from a fork that either would change. Our modules keep their own layout;
each exported text is formatted here, after its names are rewritten (a rename changes line lengths
and the order of imports). Both tools are in the ``export`` and ``test`` extras, pinned to those versions.
"""

from functools import lru_cache
from typing import List

LINE_LENGTH = 240
PINNED = {"black": "25.1.0", "isort": "6.0.1"}


class FormatterMissing(RuntimeError):
    """black or isort is not installed."""


def _formatters():
    try:
        import black
        import isort
    except ImportError as error:
        pins = " ".join(f"{name}=={version}" for name, version in PINNED.items())
        raise FormatterMissing(f"the export formats its Python as lmms-eval's lint does and needs {error.name}: pip install {pins} (or the package's [export] extra)") from error
    return black, isort


def version_notes() -> List[str]:
    """A line for each formatter whose installed version is not the one lmms-eval's lint pins."""
    black, isort = _formatters()
    installed = {"black": black.__version__, "isort": isort.__version__}
    return [f"{name} {installed[name]} is installed; lmms-eval's lint runs {name} {version}, which may format differently" for name, version in PINNED.items() if installed[name] != version]


def upstream_style(text: str) -> str:
    """``text`` as isort (profile black, ``lmms_eval`` first-party) and black (line length 240) leave it."""
    _formatters()  # raises FormatterMissing whether or not the text was formatted before
    return _formatted(text)


@lru_cache(maxsize=None)
def _formatted(text: str) -> str:
    """Cached: an export formats the same texts for each benchmark's plan, and a second export in the process again."""
    black, isort = _formatters()
    sorted_text = isort.code(text, config=isort.Config(profile="black", known_first_party=["lmms_eval"]))
    return black.format_str(sorted_text, mode=black.Mode(line_length=LINE_LENGTH))
