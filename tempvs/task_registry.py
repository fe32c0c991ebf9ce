"""The registry of TempVS lmms-eval tasks: what each task asks and how. The hooks build each task's
docs from it; the package's YAML generator writes the task YAMLs from it."""

from dataclasses import dataclass
from typing import Dict, List

from temporal_bench.tempvs.metrics import metric_family
from temporal_bench.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS


@dataclass(frozen=True)
class TaskConfig:
    name: str  # lmms-eval task name
    test: str  # key of MAIN_TESTS or GROUNDING_TESTS
    mode: str = "standard"  # standard / cot / blind
    visual: str = "combined"  # combined / separate / none
    blind_filter: bool = True
    description: str = ""

    @property
    def is_main(self) -> bool:
        return self.test in MAIN_TESTS

    @property
    def family(self) -> str:
        return metric_family(self.test)


def _registry() -> Dict[str, TaskConfig]:
    tasks: List[TaskConfig] = []
    for test, spec in MAIN_TESTS.items():
        base = f"tempvs_{test}"
        tasks.append(TaskConfig(base, test, description=f"{spec.task_id}: combined image, official filters, with {spec.grounding_task_id}"))
        if spec.blind_filtered:
            tasks.append(TaskConfig(f"{base}_unfiltered", test, blind_filter=False, description="without the text-only-LLM filter"))
            tasks.append(TaskConfig(f"{base}_blind", test, mode="blind", visual="none", blind_filter=False,
                                    description="text only, the blind-filter LLMs' prompt; no grounding; unfiltered"))
        tasks.append(TaskConfig(f"{base}_cot", test, mode="cot", description="CoT instruction (<think>/<answer>), last answer tag parsed"))
        tasks.append(TaskConfig(f"{base}_separate", test, visual="separate", description="one image per frame instead of the combined strip"))
    for test, task_id in GROUNDING_TESTS.items():
        tasks.append(TaskConfig(f"tempvs_{test}", test, description=f"{task_id} alone (GT)"))
        tasks.append(TaskConfig(f"tempvs_{test}_separate", test, visual="separate", description=f"{task_id} alone, separate images"))
    return {task.name: task for task in tasks}


TASKS = _registry()

GROUPS = {
    "tempvs_mt1": ["tempvs_mt1_two", "tempvs_mt1_three"],
    "tempvs_mt2": ["tempvs_mt2_event", "tempvs_mt2_caption"],
    "tempvs_mt3": ["tempvs_mt3_event", "tempvs_mt3_caption"],
    "tempvs": ["tempvs_mt1_two", "tempvs_mt1_three", "tempvs_mt2_event", "tempvs_mt2_caption", "tempvs_mt3_event", "tempvs_mt3_caption"],
    "tempvs_gt": ["tempvs_gt_paired", "tempvs_gt_triple", "tempvs_gt_all", "tempvs_gt_all_story"],
}


def fn_name(prefix: str, task: str) -> str:
    return f"{prefix}_{task}"
