"""Every citation in the repository points at something a reader can open.

A ``<name>.md §N`` citation must name a document that exists (a path from the repository root or
from the citing file's folder; the protocol notes live in ``docs/protocol/``), and each section
number it gives must be a numbered heading of that document. A bare ``§N`` is allowed only in a file
that names exactly one protocol note (it then refers to that note) or right after "paper" (a section
of the paper). No file may mention the developers' notes outside the repository.

The documents (README.md, docs/, the benchmarks' FIDELITY.md) name only code that exists: every ``*.py`` path
they give is a file of the repository (from the root, the document's folder, ``temporal_bench/`` or a package
folder as installed, ``temporal_bench/tempvs/...`` = ``tempvs/...``), of the installed lmms-eval or lm-eval, or
one of the official code's files they cite (:data:`OFFICIAL_FILES`), and every ``temporal_bench.`` dotted name
is a module of the package or a name one defines.

Tracked files are read from the git index directly (no subprocess); without a ``.git`` folder the
working tree is walked instead.
"""

import os
import re
import struct
from functools import cache
from pathlib import Path

from tests.paths import REPO

PROTOCOL_DIR = REPO / "docs" / "protocol"
TEXT_SUFFIXES = (".py", ".yaml", "_yaml", ".md", ".csv", ".cfg", ".sh")
# Folders outside the repository that nothing may cite (spelled in pieces so this file does not cite them).
OUTSIDE_MARKERS = ("shared" + "/reference", "../" + "shared", "shared" + "/data")
GUARDS = {"tests/e2e/test_packaging.py"}  # lists the markers it forbids in code
SELF = "tests/unit/test_citations.py"  # its checks of the checker are bad citations on purpose
_NOT_TRACKED_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", "demo_output", ".whl"}

_SECTION = r"§\s*\d+(?:\.\d+)*"
_SECTION_RUN = re.compile(rf"{_SECTION}(?:\s*(?:[-–,/]|and)\s*{_SECTION})*")
_SECTION_NUMBER = re.compile(r"§\s*(\d+(?:\.\d+)*)")
_DOC_CITATION = re.compile(rf"([\w./-]*\.md)[`)\]]*[ \t]*({_SECTION_RUN.pattern})")
_PROTOCOL_NAME = re.compile(r"(?<![\w.-])(?:docs/)?protocol/([\w-]+)\.md\b")
_NOTE_NAME = re.compile(r"(?<![\w/.-])((?:tempvs|catbench|isobench|harness)\.md)\b")
_HEADING = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)


def _varint(data: bytes, offset: int):
    """git's offset varint (``decode_varint``): each continuation byte adds one before shifting."""
    byte = data[offset]
    value, offset = byte & 0x7F, offset + 1
    while byte & 0x80:
        byte = data[offset]
        value, offset = ((value + 1) << 7) | (byte & 0x7F), offset + 1
    return value, offset


def _index_paths(index: Path) -> list:
    """Paths recorded in a git index file (versions 2-4)."""
    data = index.read_bytes()
    signature, version, count = struct.unpack(">4sII", data[:12])
    assert signature == b"DIRC" and version in (2, 3, 4), (signature, version)
    paths, offset, previous = [], 12, b""
    for _ in range(count):
        flags = struct.unpack(">H", data[offset + 60 : offset + 62])[0]
        header = 62 + (2 if version >= 3 and flags & 0x4000 else 0)  # extended flags
        if version == 4:  # the path is stored as (bytes to drop from the previous path, suffix)
            strip, start = _varint(data, offset + header)
            end = data.index(b"\0", start)
            name = previous[: len(previous) - strip] + data[start:end]
            offset = end + 1
        else:  # NUL-terminated, the entry padded to a multiple of 8 bytes
            end = data.index(b"\0", offset + header)
            name = data[offset + header : end]
            offset += (header + len(name) + 8) // 8 * 8
        previous = name
        paths.append(name.decode("utf-8"))
    return paths


def _git_dir() -> Path:
    dot_git = REPO / ".git"
    if dot_git.is_file():  # a worktree: "gitdir: <path>"
        return (REPO / dot_git.read_text(encoding="utf-8").split(":", 1)[1].strip()).resolve()
    return dot_git


def _walk_tree() -> list:
    names = []
    for root, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in _NOT_TRACKED_DIRS and not d.endswith(".egg-info")]
        names += [str(Path(root, name).relative_to(REPO)) for name in files]
    return names


def tracked_text_files() -> list:
    index = _git_dir() / "index"
    names = _index_paths(index) if index.is_file() else _walk_tree()
    return sorted(name for name in names if name.endswith(TEXT_SUFFIXES) and (REPO / name).is_file())


@cache
def headings(document: Path) -> frozenset:
    return frozenset(_HEADING.findall(document.read_text(encoding="utf-8")))


def _resolve(cited: str, citing: Path):
    """The cited document: from the citing file's folder, else (for a path) from the repository root."""
    for base in (citing.parent, REPO) if "/" in cited else (citing.parent,):
        candidate = (base / cited).resolve()
        if candidate.is_file():
            return candidate
    return None


def _is_protocol_note(path) -> bool:
    return path is not None and path.parent == PROTOCOL_DIR


def citation_problems(name: str, text: str) -> list:
    """What is wrong with the citations in one file (``name`` relative to the repository root)."""
    citing = REPO / name
    problems = []
    if name not in GUARDS:
        problems += [f"{name}: mentions {marker!r}, outside the repository" for marker in OUTSIDE_MARKERS if marker in text]
    for match in _NOTE_NAME.finditer(text):
        if _resolve(match.group(1), citing) is None:
            problems.append(f"{name}: cites {match.group(1)}, not in the repository (docs/protocol/{match.group(1)}?)")
    cited_spans = []
    for match in _DOC_CITATION.finditer(text):
        cited_spans.append(match.span(2))
        document = _resolve(match.group(1), citing)
        if document is None:
            problems.append(f"{name}: cites {match.group(0)!r}; {match.group(1)} is not in the repository")
        elif _is_protocol_note(document):
            missing = set(_SECTION_NUMBER.findall(match.group(2))) - headings(document)
            problems += [f"{name}: cites {match.group(1)} §{n}, which has no such section" for n in sorted(missing)]
    notes = {(PROTOCOL_DIR / f"{stem}.md") for stem in _PROTOCOL_NAME.findall(text)}
    problems += [f"{name}: names {note.relative_to(REPO)}, which does not exist" for note in notes if not note.is_file()]
    if _is_protocol_note(citing):
        notes.add(citing)
    for run in _SECTION_RUN.finditer(text):
        if any(start <= run.start() < end for start, end in cited_spans):
            continue
        if "paper" in text[max(0, run.start() - 12) : run.start()].lower():
            continue
        if len(notes) != 1:
            problems.append(f"{name}: bare {run.group(0)!r} in a file that names {len(notes)} protocol notes")
            continue
        [note] = notes
        missing = set(_SECTION_NUMBER.findall(run.group(0))) - (headings(note) if note.is_file() else frozenset())
        problems += [f"{name}: §{n} is not a section of {note.relative_to(REPO)}" for n in sorted(missing)]
    return problems


def test_every_citation_points_into_the_repository():
    files = tracked_text_files()
    assert len(files) > 100  # the index was read
    problems = [problem for name in files if name != SELF for problem in citation_problems(name, (REPO / name).read_text(encoding="utf-8"))]
    assert not problems, "\n".join(problems)


def test_protocol_notes_number_their_sections():
    notes = sorted(PROTOCOL_DIR.glob("*.md"))
    assert {note.stem for note in notes} >= {"tempvs", "catbench", "isobench", "harness"}
    for note in notes:
        assert len(headings(note)) >= 5, note


def test_the_checker_catches_bad_citations():
    assert citation_problems("tempvs/x.py", "see docs/protocol/tempvs.md §7.1 and §6.2") == []
    assert citation_problems("tempvs/x.py", "docs/protocol/tempvs.md §2-§5, §7.4.1; paper §9.9") == []
    assert citation_problems("tempvs/x.py", "docs/protocol/tempvs.md §99")
    assert citation_problems("tempvs/x.py", "docs/protocol/tempvs.md; bare §42")
    assert citation_problems("tempvs/x.py", "a bare §6.2 with no document named")
    assert citation_problems("tempvs/x.py", "tempvs.md §7.1 beside the code")
    assert citation_problems("tempvs/x.py", "as in notes/tempvs.md §1")
    assert citation_problems("tempvs/x.py", "see docs/protocol/nothing.md")
    assert citation_problems("tempvs/x.py", "read " + OUTSIDE_MARKERS[0] + "/tempvs.md")


# ---- code the documents name ----------------------------------------------------------------------

DOCUMENTS = ("README.md", "docs/", "tempvs/FIDELITY.md", "catbench/FIDELITY.md", "isobench/FIDELITY.md")
# files of the original benchmarks' code and of transformers that the documents cite by their own paths
OFFICIAL_FILES = {
    "run_inference.py",
    "run_evaluation.py",
    "convert_llava_next_video_weights_to_hf.py",
    "models/model_hf_llava_next_interleave.py",
    "models/model_mantis_idefics.py",
    "models/model_hf_llava_video.py",
    "models/model_longva.py",
}
USER_FOLDERS = ("my_tasks/",)  # the documents' name for a folder of the reader's own
UPSTREAM_PATHS = ("test/eval/", "hd_epic/")  # paths in lmms-eval's repository: where the export writes, and upstream's precedents
SHARED_HELPERS = "lmms_eval_tasks._task_utils.temporal_reasoning"  # setup.cfg installs utils/ there
PACKAGE_DIRS = {"tempvs", "catbench", "isobench", "utils", "lmms_eval_tasks", "lm_eval_tasks"}  # setup.cfg's package_dir
_PY_PATH = re.compile(r"(?<![\w./<>*-])((?:[\w.<>*-]+/)*[\w<>*-]+\.py)\b")
_DOTTED = re.compile(r"\btemporal_bench((?:\.\w+)+)")


def _harness_dirs() -> list:
    """The installed lmms_eval and lm_eval package folders (found without importing them)."""
    from importlib.util import find_spec

    specs = [find_spec(name) for name in ("lmms_eval", "lm_eval")]
    return [Path(location) for spec in specs if spec for location in spec.submodule_search_locations or []]


def _bases(citing: Path) -> list:
    return [REPO, citing.parent, REPO / "temporal_bench", *_harness_dirs(), *(d.parent for d in _harness_dirs())]


def _package_path(path: str) -> str:
    """``temporal_bench/tempvs/x.py`` as the checkout holds it: ``tempvs/x.py``."""
    parts = path.split("/")
    return "/".join(parts[1:]) if parts[0] == "temporal_bench" and len(parts) > 2 and parts[1] in PACKAGE_DIRS else path


def _py_path_exists(path: str, citing: Path, tracked: frozenset) -> bool:
    if path in OFFICIAL_FILES or path.startswith(USER_FOLDERS + UPSTREAM_PATHS):
        return True
    path = _package_path(path)
    if any(mark in path for mark in "*<"):  # a pattern: some tracked file must match it
        pattern = re.compile(re.sub(r"\\\*|<[^>]*>", r"[^/]+", re.escape(path)) + "$")
        return any(pattern.search(name) for name in tracked)
    if "/" not in path and any(name.rsplit("/", 1)[-1] == path for name in tracked):
        return True
    return any((base / path).is_file() for base in _bases(citing))


def _defines(module: Path, name: str) -> bool:
    text = module.read_text(encoding="utf-8") if module.is_file() else ""
    return bool(re.search(rf"^(?:def|class)\s+{name}\b|^{name}\s*[:=]|^(?:from\s+\S+\s+)?import\b[^\n]*\b{name}\b", text, re.MULTILINE))


def _module_problem(dotted: str):
    """Why ``temporal_bench.<dotted>`` names nothing (None: it names a package, a module or a name a module defines)."""
    names = ("utils" + dotted[len(SHARED_HELPERS) :] if dotted.startswith(SHARED_HELPERS) else dotted).split(".")
    folder = REPO / names[0] if names[0] in PACKAGE_DIRS else REPO / "temporal_bench" / names[0]
    if not folder.is_dir():
        if (folder.parent / f"{names[0]}.py").is_file():
            return None if len(names) == 1 or _defines(folder.parent / f"{names[0]}.py", names[1]) else f"{names[1]} is not defined in it"
        return None if _defines(REPO / "temporal_bench" / "__init__.py", names[0]) else f"no module {names[0]}"
    for i, name in enumerate(names[1:], 1):
        if (folder / name).is_dir():
            folder = folder / name
        elif (folder / f"{name}.py").is_file():
            module = folder / f"{name}.py"
            return None if i + 1 == len(names) or _defines(module, names[i + 1]) else f"{module.relative_to(REPO)} defines no {names[i + 1]}"
        else:
            return None if _defines(folder / "__init__.py", name) else f"{folder.relative_to(REPO)} has no module {name}"
    return None


def code_name_problems(name: str, text: str, tracked: frozenset) -> list:
    """The ``*.py`` files and ``temporal_bench.`` modules that a document (``name`` relative to the repository root) names
    and that do not exist."""
    citing = REPO / name
    problems = [f"{name}: names {path}, which does not exist" for path in dict.fromkeys(_PY_PATH.findall(text)) if not _py_path_exists(path, citing, tracked)]
    for dotted in dict.fromkeys(_DOTTED.findall(text)):
        problem = _module_problem(dotted.lstrip("."))
        if problem:
            problems.append(f"{name}: names temporal_bench{dotted}: {problem}")
    return problems


def test_the_documents_name_only_code_that_exists():
    tracked = frozenset(tracked_text_files())
    documents = [name for name in tracked if name.endswith(".md") and name.startswith(DOCUMENTS)]
    assert "docs/harness.md" in documents and "tempvs/FIDELITY.md" in documents
    problems = [problem for name in sorted(documents) for problem in code_name_problems(name, (REPO / name).read_text(encoding="utf-8"), tracked)]
    assert not problems, "\n".join(problems)


def test_the_code_name_checker_catches_what_does_not_exist():
    tracked = frozenset(tracked_text_files())
    ok = (
        "`tempvs/breakdowns.py`, `temporal_bench/runs/records.py`, `runs/logged.py`, `temporal_bench/lmms_eval_tasks/tempvs/docs.py`, "
        "`tests/e2e/test_real_backends_*.py`, `run_inference.py`, `api/task.py`, `temporal_bench.lmms_eval_tasks.plugin.tempvs.utils.variant`, "
        "`temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no`, `temporal_bench.benchmarks.register`, `temporal_bench.published.load_table`"
    )
    assert code_name_problems("docs/x.md", ok, tracked) == []
    bad = "`utils/task_options.py`, `*/loading.py`, `temporal_bench.tempvs.metrics.judge`, `temporal_bench.utils.task_options.overridden`, `temporal_bench.benchmarks.nothing`, `temporal_bench.lmms_eval_tasks.tempvs.docs.variant`"
    assert [problem.split()[2] for problem in code_name_problems("docs/x.md", bad, tracked)] == [
        "utils/task_options.py,",
        "*/loading.py,",
        "temporal_bench.tempvs.metrics.judge:",
        "temporal_bench.utils.task_options.overridden:",
        "temporal_bench.benchmarks.nothing:",
        "temporal_bench.lmms_eval_tasks.tempvs.docs.variant:",
    ]
