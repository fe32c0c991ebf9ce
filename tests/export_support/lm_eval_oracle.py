"""Run lm-eval's tasks of an exported lm-eval folder with the answers export_oracle.py gives lmms-eval (gold, a wrong
option or a refusal as doc i % 3 is 0, 1 or 2 in the mixed tasks; gold elsewhere: oracle_answers.py), in a process
that must not need ``temporal_bench``; print as JSON each task's metrics and logged prompts, every task lm-eval's
TaskManager registers from the folder, and whether ``import temporal_bench`` failed.

Usage: ``python lm_eval_oracle.py TASK_FOLDER_PARENT MIXED_TASKS TASK [TASK ...]`` (task lists joined with ``+``).
"""

import json
import sys

from lm_eval import simple_evaluate
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager
from oracle_answers import oracle_answer


class LmEvalOracle(LM):
    def __init__(self, mixed: set) -> None:
        super().__init__()
        self.mixed = mixed

    def generate_until(self, requests):
        return [oracle_answer(request.doc, request.doc_id, request.task_name in self.mixed) for request in requests]

    def loglikelihood(self, requests):
        raise NotImplementedError("the oracle only generates")

    def loglikelihood_rolling(self, requests):
        raise NotImplementedError("the oracle only generates")


def context(sample: dict) -> str:
    """The prompt a logged sample sent (lm-eval 0.4.13 logs the request's arguments as a list, its main branch as a dict)."""
    arguments = sample["arguments"]
    return arguments["gen_args_0"]["arg_0"] if isinstance(arguments, dict) else arguments[0][0]


if __name__ == "__main__":
    try:
        import temporal_bench  # noqa: F401
    except ModuleNotFoundError:
        blocked = True
    else:
        blocked = False
    folder, mixed, tasks = sys.argv[1], set(sys.argv[2].split("+")), sys.argv[3:]
    manager = TaskManager(include_path=folder, include_defaults=False)
    done = simple_evaluate(model=LmEvalOracle(mixed), tasks=tasks, task_manager=manager, log_samples=True)
    prompts = {task: [context(sample) for sample in sorted(done["samples"][task], key=lambda s: s["doc_id"])] for task in tasks}
    print(json.dumps({"results": done["results"], "prompts": prompts, "registered": sorted(manager.all_tasks), "blocked": blocked}))
