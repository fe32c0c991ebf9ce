"""lm-eval model classes for the scripted test model and the random baseline.

lm-eval has no plugin mechanism: importing this module registers them, which
``temporal-bench lm-eval ...`` does before handing over to lm-eval's own command line.
"""

from lm_eval.api.model import LM
from lm_eval.api.registry import register_model

from temporal_bench.models.answer_format import as_requested
from temporal_bench.models.arguments import model_arguments
from temporal_bench.models.policies import ScriptedAnswers, random_choice
from temporal_bench.models.replay import LoggedAnswers


class _DocAnswerLM(LM):
    def answer(self, request) -> str:
        raise NotImplementedError

    def generate_until(self, requests) -> list[str]:
        return [self.answer(request) for request in requests]

    def loglikelihood(self, requests):
        raise NotImplementedError(f"{type(self).__name__} only generates")

    def loglikelihood_rolling(self, requests):
        raise NotImplementedError(f"{type(self).__name__} only generates")


@register_model("scripted")
class ScriptedLM(_DocAnswerLM):
    def __init__(self, **model_args) -> None:
        super().__init__()
        self.answers = ScriptedAnswers(**model_arguments("scripted", model_args))

    def answer(self, request) -> str:
        return self.answers.respond(request.doc, request.task_name, request.doc_id)


@register_model("replay")
class ReplayLM(_DocAnswerLM):
    def __init__(self, **model_args) -> None:
        super().__init__()
        self.answers = LoggedAnswers(model_arguments("replay", model_args)["source"])

    def answer(self, request) -> str:
        return self.answers.respond(request.task_name, request.doc_id, request.args[0])


@register_model("random_choice")
class RandomChoiceLM(_DocAnswerLM):
    def __init__(self, **model_args) -> None:
        super().__init__()
        self.seed = int(model_arguments("random_choice", model_args)["seed"])

    def answer(self, request) -> str:
        return as_requested(random_choice(request.doc, request.task_name, request.doc_id, self.seed), request.args[0])
