"""The benchmark's entry in lmms-eval's task list, ``docs/advanced/current_tasks.md``, as recent task pull requests add
it: ``- [Title](homepage) (task)`` under the section of its modality, its other tasks and groups on indented lines
``  - Description (task)``, the descriptions the benchmark's facts give (``task_titles``).

The entry goes before the first entry of the section whose title sorts after its own (else after the section's last
entry); an entry an earlier export wrote (the same ``(task)``) is replaced, so exporting twice changes nothing.
"""

import re
from pathlib import Path

from temporal_bench import benchmarks
from temporal_bench.export.errors import ExportError
from temporal_bench.export.facts import facts_of
from temporal_bench.export.task_yaml import read_folder

TASK_LIST = Path("docs") / "advanced" / "current_tasks.md"
_HEADING = re.compile(r"^#{2,3} (?:\d+\. )?(.+?)\s*$")
_ENTRY = re.compile(r"^- \[([^\]]+)\]\([^)]*\) \(([\w-]+)\)")


def task_list_entry(benchmark: str, folder: Path) -> list[str]:
    """The entry's lines: the benchmark's task (or group) named on the first, each other task and group of ``folder``
    below it, in the order of the facts' descriptions; a task they do not describe, or describe but the folder lacks,
    is an error."""
    facts = facts_of(benchmarks.get(benchmark))
    others = {task.name for task in read_folder(folder)} - {benchmark}
    if others != set(facts.task_titles):
        raise ExportError(f"{benchmark}'s facts (task_titles) describe {sorted(facts.task_titles)}, its folder holds {sorted(others)}: the task list needs each task's description")
    return [f"- [{benchmarks.get(benchmark).title}]({facts.homepage}) ({benchmark})", *(f"  - {title} ({name})" for name, title in facts.task_titles.items())]


def _section(lines: list[str], title: str) -> range:
    """The line numbers of the section headed ``title``, up to the next heading or ``---`` rule."""
    start = next((i for i, line in enumerate(lines) if (m := _HEADING.match(line)) and m.group(1) == title), None)
    if start is None:
        raise ExportError(f"{TASK_LIST} has no section {title!r}; add the benchmark's entry by hand")
    end = next((i for i in range(start + 1, len(lines)) if _HEADING.match(lines[i]) or lines[i].strip() == "---"), len(lines))
    return range(start + 1, end)


def with_entry(text: str, benchmark: str, entry: list[str]) -> str:
    """``text`` (the task list) with ``entry`` in the benchmark's section, replacing an earlier entry of it."""
    lines = text.splitlines()
    section = _section(lines, facts_of(benchmarks.get(benchmark)).task_list_section)
    entries = [(i, m.group(1), m.group(2)) for i in section if (m := _ENTRY.match(lines[i]))]
    old = next((i for i, _, task in entries if task == benchmark), None)
    if old is not None:
        end = next((i for i in range(old + 1, section.stop) if not lines[i].startswith("  ")), section.stop)
        del lines[old:end]
        return with_entry("\n".join(lines) + "\n", benchmark, entry)
    title = benchmarks.get(benchmark).title.lower()
    at = next((i for i, name, _ in entries if name.lower() > title), None)
    if at is None:
        last = entries[-1][0] if entries else section.start - 1
        at = next((i for i in range(last + 1, section.stop) if not lines[i].startswith("  ")), section.stop)
    lines[at:at] = entry
    return "\n".join(lines) + "\n"


def add_to_task_list(output: Path, benchmark: str, folder: Path) -> Path | None:
    """Write the benchmark's entry into ``output``'s task list; the file, or None where ``output`` has none (no lmms-eval
    checkout)."""
    path = Path(output) / TASK_LIST
    if not path.is_file():
        return None
    path.write_text(with_entry(path.read_text(encoding="utf-8"), benchmark, task_list_entry(benchmark, folder)), encoding="utf-8")
    return path
