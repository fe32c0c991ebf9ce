"""lmms-eval model classes for the baselines and the scripted test model."""

from collections.abc import Mapping, Sequence

from lmms_eval.api.instance import Instance
from lmms_eval.api.model import lmms

from temporal_bench.models.answer_format import as_requested
from temporal_bench.models.arguments import model_arguments
from temporal_bench.models.policies import ScriptedAnswers, majority_answer, random_choice, request_choice
from temporal_bench.models.replay import LoggedAnswers


class _DocAnswerModel(lmms):
    """Answers each request from its doc (looked up through ``task_dict``); the prompt sets at most
    the answer's format. ``registered_as``: the model's --model name (temporal_bench/lmms_eval_plugin.py),
    under which models/arguments.py lists the --model_args it takes."""

    registered_as = ""

    def __init__(self, **kwargs) -> None:
        super().__init__()
        self.task_dict: dict[str, Mapping[str, Sequence[dict]]] = {}  # task -> split -> its docs (the evaluator's datasets.DatasetDict)

    def answer(self, doc: dict, task: str, split: str, doc_id: int, prompt) -> str:
        """The response to one request (``prompt``: its text, as lmms-eval built it)."""
        raise NotImplementedError

    def receive(self, request: Instance, doc: dict) -> None:
        """What the model does with the request's inputs besides answering (nothing by default)."""

    def generate_until(self, requests: list[Instance]) -> list[str]:
        responses = []
        for request in requests:
            doc_id, task, split = request.args[-3:]
            doc = self.task_dict[task][split][doc_id]
            self.receive(request, doc)
            response = self.answer(doc, task, split, doc_id, request.args[0])
            self.cache_hook.add_partial("generate_until", request.args, response)
            responses.append(response)
        return responses

    def loglikelihood(self, requests):
        raise NotImplementedError(f"{type(self).__name__} only generates")

    def generate_until_multi_round(self, requests):
        raise NotImplementedError(f"{type(self).__name__} only generates")


class _Baseline(_DocAnswerModel):
    """Picks one of the doc's options and answers with it in the format the prompt asks for."""

    def pick(self, doc: dict, task: str, split: str, doc_id: int) -> str:
        raise NotImplementedError

    def answer(self, doc, task, split, doc_id, prompt):
        return as_requested(self.pick(doc, task, split, doc_id), prompt)


class RandomChoice(_Baseline):
    """Baseline: a uniform random pick among the options the question offers (the papers' Random)."""

    registered_as = "random_choice"

    def __init__(self, **model_args) -> None:
        super().__init__()
        self.seed = int(model_arguments(self.registered_as, model_args)["seed"])

    def pick(self, doc, task, split, doc_id):
        return random_choice(doc, task, doc_id, self.seed)


class MajorityClass(_Baseline):
    """Baseline: always the most frequent gold answer of the evaluated task."""

    registered_as = "majority_class"

    def __init__(self, **model_args) -> None:
        super().__init__()
        model_arguments(self.registered_as, model_args)
        self._majority: dict[tuple[str, str], str] = {}

    def pick(self, doc, task, split, doc_id):
        if (task, split) not in self._majority:
            self._majority[task, split] = majority_answer(self.task_dict[task][split])
        return self._majority[task, split]


class Scripted(_DocAnswerModel):
    """Test model with known answers (see ``ScriptedAnswers`` for the policies)."""

    registered_as = "scripted"

    def __init__(self, **model_args) -> None:
        super().__init__()
        self.answers = ScriptedAnswers(**model_arguments(self.registered_as, model_args))

    def answer(self, doc, task, split, doc_id, prompt):
        return self.answers.respond(doc, task, doc_id)


class Replay(_DocAnswerModel):
    """Test model that answers each request as a logged run's model did (models/replay.py): rescore's."""

    registered_as = "replay"

    def __init__(self, **model_args) -> None:
        super().__init__()
        self.answers = LoggedAnswers(model_arguments(self.registered_as, model_args)["source"])

    def answer(self, doc, task, split, doc_id, prompt):
        return self.answers.respond(task, doc_id, prompt)


class RequestHash(_DocAnswerModel):
    """Test model whose answer depends on what it is sent only: the prompt text and the images in
    their order (``request_choice``), among the options the question offers."""

    registered_as = "request_hash"

    def __init__(self, **model_args) -> None:
        super().__init__()
        model_arguments(self.registered_as, model_args)

    def receive(self, request, doc):
        self._answer = request_choice(request.args[0], request.args[2](doc), doc["choices"])

    def answer(self, doc, task, split, doc_id, prompt):
        return self._answer


class DecodeOnly(RandomChoice):
    """Benchmark instrument: decodes every image the task gives it, then answers at random, so a run
    measures everything but the model."""

    registered_as = "decode_only"

    def receive(self, request, doc):
        doc_to_visual = request.args[2]
        for image in doc_to_visual(doc):
            image.load()
