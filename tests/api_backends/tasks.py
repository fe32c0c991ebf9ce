"""The docs a run of our tasks evaluates, built in the test process from the same fixtures, with what
a request for each must carry: the prompt (the task's ``doc_to_text``), the images (pixel hashes, in
order) and the generation settings of the task's YAML; and the run's data folders."""

import base64
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from temporal_bench.data_locations import data_locations

# the tasks an API run evaluates: a combined and a separate TempVS task, and a self-consistency task
TASKS = ["catbench", "catbench_sc", "isobench", "tempvs_mt1_two", "tempvs_mt3_event_separate"]
LIMIT = 8  # every doc of the CaT-Bench fixture's test split, the first main questions of the TempVS tasks
GENERATION = {  # the task YAMLs' generation_kwargs
    "catbench": {"max_new_tokens": 2, "temperature": 0},
    "catbench_sc": {"max_new_tokens": 2, "temperature": 0.6},
    "isobench": {"max_new_tokens": 120, "temperature": 0},
    "tempvs_mt1_two": {"max_new_tokens": 512, "temperature": 0},
    "tempvs_gt_all": {"max_new_tokens": 512, "temperature": 0},
    "tempvs_mt3_event_separate": {"max_new_tokens": 512, "temperature": 0},
}
SC_REPEATS = 3  # catbench_sc.yaml


@dataclass(frozen=True)
class ExpectedRequest:
    task: str
    doc_id: int
    doc: dict
    prompt: str
    images: tuple[str, ...]  # pixel hashes in order
    gold: str  # the answer that is correct

    @property
    def key(self) -> tuple[str, float, int]:
        """As ``mock_server.request_key`` reads it from the request (catbench and catbench_sc share prompts)."""
        return self.prompt, float(GENERATION[self.task]["temperature"]), len(self.images)


def pixel_hash(image: Image.Image) -> str:
    image = image.convert("RGB")
    return hashlib.sha256(f"{image.size}".encode() + image.tobytes()).hexdigest()[:16]


def data_url_hash(url: str) -> str:
    return pixel_hash(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))))


def write_data(root: Path) -> dict[str, str]:
    """Small fixtures of the three benchmarks; the environment that points the tasks at them."""
    from temporal_bench.catbench.fixtures import write_fixture as catbench_fixture
    from temporal_bench.isobench.fixtures import write_fixture as isobench_fixture
    from tests.tempvs_fixture_copies import write_tempvs as tempvs_fixture

    return {
        "CATBENCH_DATA_DIR": str(catbench_fixture(root / "catbench", n_plans=1, pairs_per_class=2)),
        "ISOBENCH_DATA_DIR": str(isobench_fixture(root / "isobench", n=4)),
        "TEMPVS_DATA_DIR": str(tempvs_fixture(root / "tempvs", n_sequences=1)),
    }


def _hooks(task: str):
    """(docs, doc_to_text, doc_to_visual) of a task as its YAML names them (the data: the environment's)."""
    from tests.task_docs import task_docs

    if task.startswith("catbench"):
        from temporal_bench.lmms_eval_tasks.catbench import utils

        return task_docs(task), utils.doc_to_text_answer_only, utils.doc_to_visual  # the test split's docs
    if task == "isobench":
        from temporal_bench.lmms_eval_tasks.isobench import utils

        return task_docs(task), utils.doc_to_text_answer_only, utils.doc_to_visual
    from temporal_bench.lmms_eval_tasks.plugin.tempvs import utils

    return task_docs(task), utils.doc_to_text, utils.doc_to_visual


def expected_requests(env: dict[str, str], tasks: list[str] = TASKS, limit: int = LIMIT) -> list[ExpectedRequest]:
    """One entry per evaluated doc of each task (the first ``limit``, as ``--limit`` takes them)."""
    expected = []
    with data_locations(env):
        for task in tasks:
            docs, doc_to_text, doc_to_visual = _hooks(task)
            for doc_id, doc in enumerate(list(docs)[:limit]):
                images = tuple(pixel_hash(image) for image in doc_to_visual(doc))
                expected.append(ExpectedRequest(task, doc_id, doc, doc_to_text(doc), images, doc["answer"]))
    return expected


def scripted_answers(expected: list[ExpectedRequest], answer_of) -> dict[tuple[str, float, int], object]:
    """``answer_of(ExpectedRequest)`` for every request key; one key must never need two answers."""
    answers = {}
    for request in expected:
        answer = answer_of(request)
        assert answers.setdefault(request.key, answer) == answer, f"two docs share a request but not its answer: {request.key[0][:80]}"
    return answers
