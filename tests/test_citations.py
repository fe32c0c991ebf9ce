"""Every citation in the repository points at something a reader can open.

A ``<name>.md §N`` citation must name a document that exists (a path from the repository root or
from the citing file's folder; the protocol notes live in ``docs/protocol/``), and each section
number it gives must be a numbered heading of that document. A bare ``§N`` is allowed only in a file
that names exactly one protocol note (it then refers to that note) or right after "paper" (a section
of the paper). No file may mention the developers' notes outside the repository.

Tracked files are read from the git index directly (no subprocess); without a ``.git`` folder the
working tree is walked instead.
"""

import os
import re
import struct
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROTOCOL_DIR = REPO / "docs" / "protocol"
TEXT_SUFFIXES = (".py", ".yaml", "_yaml", ".md", ".csv", ".cfg", ".sh")
# Folders outside the repository that nothing may cite (spelled in pieces so this file does not cite them).
OUTSIDE_MARKERS = ("shared" + "/reference", "../" + "shared", "shared" + "/data")
GUARDS = {"tests/test_packaging.py"}  # lists the markers it forbids in code
SELF = "tests/test_citations.py"  # its checks of the checker are bad citations on purpose
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
        flags = struct.unpack(">H", data[offset + 60:offset + 62])[0]
        header = 62 + (2 if version >= 3 and flags & 0x4000 else 0)  # extended flags
        if version == 4:  # the path is stored as (bytes to drop from the previous path, suffix)
            strip, start = _varint(data, offset + header)
            end = data.index(b"\0", start)
            name = previous[:len(previous) - strip] + data[start:end]
            offset = end + 1
        else:  # NUL-terminated, the entry padded to a multiple of 8 bytes
            end = data.index(b"\0", offset + header)
            name = data[offset + header:end]
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


@lru_cache(maxsize=None)
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
        problems += [f"{name}: mentions {marker!r}, outside the repository"
                     for marker in OUTSIDE_MARKERS if marker in text]
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
    problems += [f"{name}: names {note.relative_to(REPO)}, which does not exist"
                 for note in notes if not note.is_file()]
    if _is_protocol_note(citing):
        notes.add(citing)
    for run in _SECTION_RUN.finditer(text):
        if any(start <= run.start() < end for start, end in cited_spans):
            continue
        if "paper" in text[max(0, run.start() - 12):run.start()].lower():
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
    problems = [problem for name in files if name != SELF
                for problem in citation_problems(name, (REPO / name).read_text(encoding="utf-8"))]
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
