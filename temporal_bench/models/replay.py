"""The replay test model: each request answered with what a logged run's model answered to the same request, so that
the harness's own evaluator scores a finished run again (``temporal-bench rescore``, temporal_bench/rescore/).

A request is the logged one with its task and doc id when their prompts agree, else the one logged request of its
task with the same prompt (another setting may number the docs otherwise, e.g. a subset of TempVS's sources). A
request that no logged request asks, or that several logged requests with different answers ask, is an error naming
it: replaying the answer to another question would pass it off as the model's.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path


class ReplayError(KeyError):
    """A request no logged request of the source run answers."""

    def __str__(self) -> str:
        return str(self.args[0])


def logged_outputs(line: dict) -> list:
    """The model's outputs a sample line holds, one per repeat: lm-eval's raw ``resps`` (a list per request), lmms-eval's
    ``resps`` where it logged them apart (repeats, or an output before its reasoning tags were stripped), else the
    ``filtered_resps`` they equal."""
    if "filter" in line:  # lm-eval
        return list(line["resps"][0])
    outputs = line.get("resps", line.get("filtered_resps"))
    return list(outputs) if isinstance(outputs, list) else [outputs]


class LoggedAnswers:
    """The answers of the run whose results file is ``source`` (its samples files beside it)."""

    def __init__(self, source: str) -> None:
        from temporal_bench.runs.lines import logged_prompt
        from temporal_bench.runs.logged import find_runs

        if not source or not Path(source).is_file():
            raise ValueError(f"--model replay: source={source!r} names no results file (the run to replay, with its samples files beside it)")
        (run,) = find_runs(source, rescored=True)
        self.source = source
        self._by_id: dict[tuple[str, int], tuple[str, list]] = {}
        self._by_prompt: dict[tuple[str, str], list[list]] = defaultdict(list)
        for task in run.tasks:
            if not run.has_samples(task):
                continue
            for line in run.lines(task):
                prompt, outputs = logged_prompt(line), logged_outputs(line)
                self._by_id[task, line["doc_id"]] = (prompt, outputs)
                self._by_prompt[task, prompt].append(outputs)
        self._served: dict[tuple[str, int], int] = defaultdict(int)

    def respond(self, task: str, doc_id: int, prompt: str) -> str:
        """The logged output for this request (the next one, for a request repeated for self-consistency)."""
        logged = self._by_id.get((task, doc_id))
        if logged is not None and logged[0] == prompt:
            outputs = logged[1]
        else:
            found = {tuple(map(str, outputs)): outputs for outputs in self._by_prompt.get((task, prompt), [])}
            if len(found) != 1:
                why = "no logged request of the task asks its prompt" if not found else f"{len(found)} logged requests ask its prompt, with other answers"
                raise ReplayError(f"{task} doc {doc_id}: {why} in {self.source}, so the run's answers cannot score it (a setting that changes what is asked needs the model again)")
            (outputs,) = found.values()
        served = self._served[task, doc_id]
        self._served[task, doc_id] += 1
        return outputs[served % len(outputs)]
