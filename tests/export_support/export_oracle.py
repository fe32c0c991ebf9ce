"""A deterministic lmms-eval model for the export tests that never imports ``temporal_bench`` (its answers, lm-eval's
runs' too: oracle_answers.py).

The test registers it through the ``lmms_eval.models`` entry point of a throwaway distribution, so
lmms-eval finds it in a process where our package cannot be imported, and uses it in both runs it
compares.
"""

from lmms_eval.api.instance import Instance
from lmms_eval.api.model import lmms
from lmms_eval.models.registry_v2 import ModelManifest
from oracle_answers import oracle_answer

MODEL_ID = "export_oracle"


class ExportOracle(lmms):
    """:func:`oracle_answer`, tagged in the ``tagged_tasks``, mixed in the ``mixed_tasks`` (task lists joined with
    ``+``)."""

    def __init__(self, tagged_tasks: str = "", mixed_tasks: str = "", **kwargs) -> None:
        super().__init__()
        self.tagged_tasks = set(tagged_tasks.split("+"))
        self.mixed_tasks = set(mixed_tasks.split("+"))

    def respond(self, doc: dict, task: str, doc_id: int) -> str:
        return oracle_answer(doc, doc_id, task in self.mixed_tasks, task in self.tagged_tasks)

    def generate_until(self, requests: list[Instance]) -> list[str]:
        responses = []
        for request in requests:
            doc_id, task, split = request.args[-3:]
            responses.append(self.respond(self.task_dict[task][split][doc_id], task, doc_id))
        return responses

    def loglikelihood(self, requests):
        raise NotImplementedError("export_oracle only generates")

    def generate_until_multi_round(self, requests):
        raise NotImplementedError("export_oracle only generates")


def manifests() -> list[ModelManifest]:
    return [ModelManifest(model_id=MODEL_ID, simple_class_path=f"{__name__}.ExportOracle")]
