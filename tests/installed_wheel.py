"""The project as a user installs it: the built wheel, and a fresh virtual environment with the wheel
installed (not editable). The environment takes its dependencies (torch, lmms-eval, ...) from the
test's own through a ``.pth`` line, so nothing is downloaded; the project itself comes only from the
wheel (the editable install's finder is not loaded there, which test_packaging checks).
``tests/test_demo.py`` runs the demo there; ``tests/test_packaging.py`` checks the wheel."""

import subprocess
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(command, **kwargs) -> subprocess.CompletedProcess:
    """``command``, which must succeed (its output tails in the failure message)."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{command}\nstdout:\n{result.stdout[-3000:]}\nstderr:\n{result.stderr[-6000:]}"
    return result


def build_wheel(out: Path) -> Path:
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", str(out), str(REPO)], cwd=out)
    [built] = out.glob("*.whl")
    return built


def fresh_environment(env: Path, wheel: Path) -> Path:
    """A virtual environment at ``env`` with ``wheel`` installed and this environment's packages visible."""
    run([sys.executable, "-m", "venv", str(env)])
    python = env / "bin" / "python"
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)])
    return env
