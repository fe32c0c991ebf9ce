"""The data keys of an exported task YAML: the hub dataset that lmms-eval loads itself.

Our YAMLs name the plugin's data route (a one-row placeholder, or CaT-Bench's computed ``dataset_path``,
with ``dataset_kwargs`` from utils.py) in their shared template. Upstream each task YAML names its data:
the template's ``dataset_path`` / ``dataset_kwargs`` lines go, each task YAML gets ``dataset_path: <hub id>``
and ``dataset_name: <config>`` (the config its settings read, export/hub_route.py) after its ``task:`` line,
and the opening comment's words about the placeholder and the data variable go with them.
"""

import re
import textwrap
from typing import Optional

from temporal_bench.export.errors import ExportError
from temporal_bench.export.hub_route import DATA_KEYS, HubRoute
from temporal_bench.export.task_yaml import TaskYaml

_DATA_LINE = re.compile(rf"^({'|'.join(DATA_KEYS)}):.*\n", re.MULTILINE)
_TASK_LINE = re.compile(r"^task: .*\n", re.MULTILINE)
_DATA_VARIABLE = re.compile(r" \([^()]*_DATA_DIR[^()]*\)")  # "(hub or ISOBENCH_DATA_DIR)"
_ROUTE_WORDS = re.compile(r"placeholder|_DATA_DIR")
COMMENT_WIDTH = 100


def _opening_comment(comment: str) -> str:
    """The file's opening comment block without the parentheses naming a data variable and the clauses
    about the placeholder (sentences end with ". ", clauses with "; "), rewrapped."""
    if not _ROUTE_WORDS.search(comment):
        return comment
    text = _DATA_VARIABLE.sub("", " ".join(line[1:].strip() for line in comment.splitlines()))
    sentences = []
    for sentence in re.split(r"(?<=\.) ", text):
        clauses = [clause for clause in sentence.rstrip(".").split("; ") if not _ROUTE_WORDS.search(clause)]
        if clauses:
            sentences.append("; ".join(clauses) + ".")
    return "".join(f"# {line}\n" for line in textwrap.wrap(" ".join(sentences), COMMENT_WIDTH))


def upstream_yaml(text: str, task: Optional[TaskYaml], route: HubRoute, where: str) -> str:
    """``text`` (one YAML file of our task folder; ``task`` its resolved config when it defines a task) with the
    hub dataset's data keys in place of the plugin's."""
    comment = re.match(r"(#.*\n)*", text).group(0)
    body = _DATA_LINE.sub("", text[len(comment) :])
    if task is None or task.is_group:
        return _opening_comment(comment) + body
    line = _TASK_LINE.search(body)
    if line is None:
        raise ExportError(f"{where}: a task YAML without a `task:` line")
    data = "".join(f"{key}: {value}\n" for key, value in route.data_keys(task.config.get("metadata") or {}).items())
    return _opening_comment(comment) + body[: line.end()] + data + body[line.end() :]
