"""README.md stays a two-minute read that starts with its title and then the two commands, and every relative link in
it and in docs/ opens a file of the repository (and, for a ``#fragment``, one of its headings)."""

import re
from pathlib import Path

from tests.paths import REPO

README = REPO / "README.md"
MAX_README_BYTES = 12_000

_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower())
    return text.replace(" ", "-")


def _anchors(document: Path) -> set:
    text = _FENCE.sub("", document.read_text(encoding="utf-8"))
    return {_slug(heading) for heading in _HEADING.findall(text)}


def broken_links(document: Path, root: Path = REPO) -> list:
    text = _FENCE.sub("", document.read_text(encoding="utf-8"))
    problems = []
    for target in _LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
            continue
        path, _, fragment = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        if not resolved.exists() or root not in (resolved, *resolved.parents):
            problems.append(f"{document.relative_to(root)}: link {target} points at nothing in the repository")
        elif fragment and resolved.suffix == ".md" and fragment not in _anchors(resolved):
            problems.append(f"{document.relative_to(root)}: link {target} names no heading of {path or 'this file'}")
    return problems


def test_readme_is_short():
    assert README.stat().st_size < MAX_README_BYTES, README.stat().st_size


def test_readme_starts_with_its_title_then_the_two_commands():
    text = README.read_text(encoding="utf-8")
    first_block = _FENCE.search(text)
    title, _, rest = text.partition("\n\n")
    assert re.fullmatch(r"# \S.*", title) and first_block and rest.startswith("```")
    commands = [line.split("#", 1)[0].strip() for line in first_block.group(1).splitlines()]
    assert [command for command in commands if command] == ["bash run_demo.sh", "bash run_tests.sh"]


def test_relative_links_open_files_of_the_repository():
    documents = [README, *sorted((REPO / "docs").rglob("*.md"))]
    problems = [problem for document in documents for problem in broken_links(document)]
    assert not problems, "\n".join(problems)


def test_the_link_checker_catches_a_broken_link(tmp_path):
    (tmp_path / "a.md").write_text("# A `b` (c)\n\n[ok](a.md#a-b-c) [bad](missing.md) [anchor](#nope) [up](../x.md)\n")
    assert [problem.split()[2] for problem in broken_links(tmp_path / "a.md", root=tmp_path)] == ["missing.md", "#nope", "../x.md"]
