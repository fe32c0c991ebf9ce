"""Recorded runs: small run folders of each benchmark written by the real harness and checked in, for the tests of the
commands that read finished runs (check, report, compare, browse, rescore, intervals), which read them in-process
instead of starting lmms-eval.

A recording is a function of a :class:`Recorder`: the data it writes (the benchmarks' synthetic fixtures, copies of
the real CaT-Bench validation split) and the harness runs it makes on them, in order (a re-run into the same folder
too). ``python -m tests.recorded.record [NAME ...]`` runs them and checks in their output folders under
``tests/recorded/runs/<name>/`` (with the answer scripts they used), every path under the folder it ran in written
``@WORK@`` and the checkout's ``@REPO@``, a file over :data:`GZIP_OVER` bytes gzipped (``<name>.gz``). A test gets a copy with :func:`tests.recorded.materialize`: the data written
again (the fixtures are seeded, so the same bytes) and the paths put back. ``tests/e2e/test_recordings.py`` runs each
recording again and compares what the harness writes with the checked-in files, value for value, so that a recording
cannot go stale.

The recordings are defined by the modules of this package (one per area); each registers with :func:`recording`.
"""

import gzip
import importlib
import json
import pkgutil
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.paths import REPO

RUNS = Path(__file__).resolve().parent / "runs"
GZIP_OVER = 64 * 1024  # a recorded file larger than this is checked in gzipped
WORK, CHECKOUT = "@WORK@", "@REPO@"
DataWriter = Callable[[Path], Path]  # writes a benchmark's data under the folder given; returns the data folder


@dataclass(frozen=True)
class Recording:
    name: str
    data: dict[str, DataWriter]  # data variable (CATBENCH_DATA_DIR) -> its writer
    runs: Callable[["Recorder"], None]  # the harness runs, in order
    doc: str = ""


RECORDINGS: dict[str, Recording] = {}


def recording(name: str, **data: DataWriter):
    """Registers the decorated function as the runs of the recording ``name`` over ``data``."""

    def register(runs: Callable[["Recorder"], None]):
        assert name not in RECORDINGS, f"two recordings named {name}"
        RECORDINGS[name] = Recording(name, data, runs, (runs.__doc__ or "").strip())
        return runs

    return register


def all_recordings() -> dict[str, Recording]:
    """Every recording, its defining modules imported."""
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if module.name not in ("record",):
            importlib.import_module(f"{__name__}.{module.name}")
    return RECORDINGS


def write_data(recording: Recording, work: Path) -> dict[str, str]:
    """The recording's data written under ``work / "data"``: data variable -> folder."""
    return {variable: str(write(work / "data" / variable.removesuffix("_DATA_DIR").lower())) for variable, write in recording.data.items()}


@dataclass
class Recorder:
    """What a recording's runs see: its working folder, its data, the output folder its runs write into."""

    work: Path
    env: dict[str, str]
    scripts: list[Path] = field(default_factory=list)

    @property
    def out(self) -> Path:
        return self.work / "out"

    def script(self, answers: dict[str, object], name: str | None = None) -> Path:
        """An answer script of the scripted model (``task/doc_id`` -> its response), kept with the recording."""
        path = self.work / "scripts" / f"{name or len(self.scripts)}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(answers, indent=0, ensure_ascii=False), encoding="utf-8")
        self.scripts.append(path)
        return path

    def lmms_eval(self, tasks: Sequence[str], model: str = "scripted", model_args: str = "policy=oracle", extra: Sequence[str] = (), env: dict[str, str] | None = None, log_samples: bool = True, again: bool = False, into: str = ""):
        """One lmms-eval run into :attr:`out` (``into``: its subfolder, for runs that must not share one; ``again``: the
        same command as an earlier run of the recording)."""
        from tests.harness import lmms_eval_into

        return lmms_eval_into(self.out / into, list(tasks), model, model_args, {**self.env, **(env or {})}, list(extra), log_samples=log_samples, cwd=self.work, again=again)

    def lm_eval(self, tasks: Sequence[str], model_args: str, extra: Sequence[str] = (), env: dict[str, str] | None = None, into: str = ""):
        from tests.harness import lm_eval

        return lm_eval(self.out / into, list(tasks), model_args, {**self.env, **(env or {})}, list(extra))


def record(recording: Recording, work: Path) -> Recorder:
    """Runs ``recording`` in the empty folder ``work``."""
    recorder = Recorder(work, write_data(recording, work))
    recording.runs(recorder)
    return recorder


def _recorded_files(folder: Path) -> list[Path]:
    return sorted(path for sub in ("out", "scripts") for path in (folder / sub).rglob("*") if path.is_file() and "hf_datasets_cache" not in path.parts)


def check_in(recording: Recording, work: Path) -> Path:
    """The output folder and scripts of ``recording`` run in ``work``, written to tests/recorded/runs/<name>/ with the
    paths as tokens."""
    target = RUNS / recording.name
    shutil.rmtree(target, ignore_errors=True)
    for path in _recorded_files(work):
        copy = target / path.relative_to(work)
        copy.parent.mkdir(parents=True, exist_ok=True)
        data = tokenized(path.read_text(encoding="utf-8"), work).encode("utf-8")
        if len(data) > GZIP_OVER:
            copy.with_name(copy.name + ".gz").write_bytes(gzip.compress(data, mtime=0))  # no date in its header: the same bytes each time
        else:
            copy.write_bytes(data)
    return target


def read_recorded(path: Path) -> str:
    """A checked-in file's text (a ``.gz`` one uncompressed)."""
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")


def tokenized(text: str, work: Path) -> str:
    return text.replace(str(work), WORK).replace(str(REPO), CHECKOUT)


@dataclass(frozen=True)
class RecordedRun:
    """A copy of a recording: its folder, the output folder of its runs and its data variables."""

    work: Path
    env: dict[str, str]

    @property
    def out(self) -> Path:
        return self.work / "out"


def materialize(name: str, work: Path) -> RecordedRun:
    """A copy of the recording ``name`` in the empty folder ``work``: its data written again, its files with the paths
    put back."""
    recording = all_recordings()[name]
    source = RUNS / name
    if not source.is_dir():
        raise FileNotFoundError(f"no recording {name} under {RUNS}: python -m tests.recorded.record {name}")
    env = write_data(recording, work)
    for path in _recorded_files(source):
        copy = work / path.relative_to(source).with_suffix("" if path.suffix == ".gz" else path.suffix)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(read_recorded(path).replace(WORK, str(work)).replace(CHECKOUT, str(REPO)), encoding="utf-8")
    return RecordedRun(work, env)


def as_recorded_by(out: Path, model: str, work: Path) -> Path:
    """A copy of the run folder ``out`` in ``work`` whose results files record ``model`` as lmms-eval's ``openai`` class
    records the model it called (``--model openai --model_args model=<model>``, as tests/e2e/test_api_backends.py and
    benchmarks/verdict_gate.py run it), its answers as they were: the commands read the model from the results file,
    which a ``--label`` never replaces."""
    target = Path(shutil.copytree(out, work))
    for path in [*target.rglob("*_results.json"), *target.rglob("results_*.json")]:
        data = json.loads(path.read_text(encoding="utf-8"))
        data["model_name"] = model
        data["config"] = {**(data.get("config") or {}), "model": "openai", "model_args": f"model={model}"}
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return target
