"""The command lines README.md and docs/ show, as a user would type them: each command of the three
programs in a fenced block (``&&`` and ``|`` split a line into commands; continuation lines are joined;
``# ...`` comments and ``[--option ...]`` synopsis parts dropped), with its leading ``VAR=value``
assignments, and ``$(temporal-bench task-dir ...)`` replaced by the folder it prints. Which of them
only parse (:func:`why_only_parsed`) and which a test runs (tests/e2e/test_documented_commands.py)."""

import re
import shlex
from pathlib import Path
from typing import NamedTuple

from temporal_bench.paths import LM_EVAL_TASK_DIR, PLUGIN_TASK_DIR

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
PROGRAMS = ("temporal-bench", "lmms-eval", "lm-eval")
ENV_ASSIGNMENT = re.compile(r"^([A-Z_][A-Z0-9_]*)=(\S*)$")
COMMAND = re.compile(r"^\s*(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:temporal-bench|lmms-eval|lm-eval)\s")
SYNOPSIS_OPTION = re.compile(r"\s\[[^\]]*\]")  # "[--output FILE.html]" in a usage line
TASK_DIRS = {  # "$(temporal-bench task-dir ...)": the folder it prints
    '"$(temporal-bench task-dir --harness lm-eval)"': str(LM_EVAL_TASK_DIR),
    '"$(temporal-bench task-dir)"': str(PLUGIN_TASK_DIR),
}

WEIGHTS = "needs the model's weights (downloaded from the hub) and a GPU"
SERVER = "needs a model server (an OpenAI-compatible endpoint) and the model's weights"
API = "needs an API key (or a server) of the provider"
ANY_MODEL = "the model is a placeholder for any model"
# --model of a documented lmms-eval / lm-eval command that no test can run, and why; every other model is
# one of our baselines, and the command runs (tests/e2e/test_documented_commands.py)
ONLY_PARSED_MODELS = {
    "qwen2_5_vl": WEIGHTS,
    "qwen2_vl": WEIGHTS,
    "llava_hf": WEIGHTS,
    "llava_onevision": WEIGHTS,
    "internvl_hf": WEIGHTS,
    "hf": WEIGHTS,
    "vllm": WEIGHTS,
    "sglang": WEIGHTS,
    "openai": API,
    "M": ANY_MODEL,
    "...": ANY_MODEL,
}
BASELINES = ("random_choice", "majority_class")


class Documented(NamedTuple):
    document: str  # its path in the repository
    env: dict[str, str]  # the VAR=value in front of it
    words: list[str]  # the program and its arguments

    @property
    def line(self) -> str:
        return " ".join([*(f"{k}={v}" for k, v in self.env.items()), *self.words])


def documented_commands() -> list[Documented]:
    found = []
    for document in DOCUMENTS:
        for block in FENCE.findall(document.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split(" #", 1)[0]
                for substitution, folder in TASK_DIRS.items():
                    line = line.replace(substitution, folder)
                line = SYNOPSIS_OPTION.sub("", line)
                for part in re.split(r"&&|\|", line):
                    if not COMMAND.match(part):
                        continue
                    words, env = shlex.split(part), {}
                    while words and ENV_ASSIGNMENT.match(words[0]):
                        env.update([ENV_ASSIGNMENT.match(words.pop(0)).groups()])
                    # a trailing "..." stands for more arguments, "--tasks ..." for a value
                    words = [w for i, w in enumerate(words) if w != "..." or words[i - 1].startswith("--")]
                    found.append(Documented(document.relative_to(REPO).as_posix(), env, words))
    return found


def documented_demo() -> Documented:
    """The documented ``temporal-bench demo`` command (run by the installed wheel in tests/e2e/test_packaging.py)."""
    (demo,) = [command for command in documented_commands() if command.words[:2] == ["temporal-bench", "demo"]]
    return demo


def model_of(words: list[str]) -> str | None:
    return words[words.index("--model") + 1] if "--model" in words[:-1] else None


def why_only_parsed(command: Documented) -> str | None:
    """Why a test cannot run ``command`` (None: it runs): an lmms-eval / lm-eval model other than our
    baselines (:data:`ONLY_PARSED_MODELS`). KeyError for a model that is in neither list."""
    if command.words[0] == "temporal-bench" and command.words[1:2] != ["lm-eval"]:
        return None
    if command.words[1:3] == ["tasks", "list"] or command.words[1:3] == ["--tasks", "list"]:
        return None
    model = model_of(command.words)
    return None if model in BASELINES else ONLY_PARSED_MODELS[model]
