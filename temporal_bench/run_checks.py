"""Warnings lmms-eval runs of our tasks log: a backend that will not keep a task's generation
settings (at start-up), and failed requests (at aggregation). docs/backends.md explains both.

lmms-eval 0.7.3 has no hook for either, so ``install`` wraps two of its functions (idempotently):
``lmms_eval.evaluator.evaluate``, which receives the model instance and the tasks after the CLI's
``--gen_kwargs`` were applied and before any request is sent, and
``lmms_eval.evaluator_utils.TaskOutput.calculate_aggregate_metric``, which knows the task's name and
its aggregated ``failed_count``. The plugin entry point installs them when a TaskManager first indexes
tasks (by then lmms-eval's evaluator module is fully imported).
"""

from typing import Dict, Iterator, List, Tuple

from loguru import logger

# lmms-eval 0.7.3 model classes (and every subclass) whose request building changes a task's settings
VLLM_CLASSES = ("lmms_eval.models.simple.vllm.VLLM", "lmms_eval.models.chat.vllm.VLLM")
SGLANG_CLASSES = ("lmms_eval.models.chat.sglang.Sglang",)
OPENAI_CHAT_CLASS = "lmms_eval.models.chat.openai.OpenAICompatible"
OPENAI_SIMPLE_CLASS = "lmms_eval.models.simple.openai.OpenAICompatible"
# the substrings by which each openai class takes a model for a reasoning model (build_payload_for_index)
REASONING_NAME_PARTS = {OPENAI_CHAT_CLASS: ("o1", "o3", "o4", "gpt-5"), OPENAI_SIMPLE_CLASS: ("o1", "o3")}
BACKEND_TOP_P = 0.95  # what the vllm and sglang classes add when a task sets no top_p
DOCS = "docs/backends.md"


def _class_paths(model) -> List[str]:
    return [f"{cls.__module__}.{cls.__qualname__}" for cls in type(model).__mro__]


def _is_ours(task) -> bool:
    process_results = getattr(getattr(task, "config", None), "process_results", None)
    return getattr(process_results, "__module__", "").startswith("temporal_bench.")


def our_generation_settings(task_dict: Dict) -> Iterator[Tuple[str, Dict]]:
    """(task name, generation_kwargs) of every task of ours in an lmms-eval task dict (groups unfolded)."""
    for name, entry in task_dict.items():
        if isinstance(entry, tuple):
            entry = entry[1]
        if isinstance(entry, dict):
            yield from our_generation_settings(entry)
        elif entry is not None and _is_ours(entry) and entry.config.output_type == "generate_until":
            yield name, dict(entry.config.generation_kwargs or {})


def protocol_warnings(model, settings: Dict[str, Dict]) -> List[str]:
    """What a backend will send instead of each task's generation settings, and how to keep them."""
    paths = _class_paths(model)
    warnings = []
    for task, gen in settings.items():
        cap, temperature = gen.get("max_new_tokens"), gen.get("temperature") or 0
        temperature = f"{temperature:g}" if isinstance(temperature, (int, float)) else temperature
        if any(path in VLLM_CLASSES for path in paths):
            used = max(int(cap), model.max_new_tokens) if cap is not None else model.max_new_tokens
            if used != cap:
                warnings.append(
                    f"vllm: task {task} caps generation at {cap} new tokens (its protocol), but lmms-eval's vllm "
                    f"class generates up to {used} (the larger of the task's cap and its own max_new_tokens="
                    f"{model.max_new_tokens}). Add max_new_tokens=1 to --model_args to keep the task's cap ({DOCS}).")
        if any(path in VLLM_CLASSES + SGLANG_CLASSES for path in paths) and temperature != "0" and "top_p" not in gen:
            backend = "vllm" if any(path in VLLM_CLASSES for path in paths) else "sglang"
            warnings.append(
                f"{backend}: task {task} samples at temperature {temperature} without nucleus sampling, but "
                f"lmms-eval's {backend} class adds top_p={BACKEND_TOP_P}. Add --gen_kwargs top_p=1.0 to keep "
                f"the task's sampling ({DOCS}).")
        for path, parts in REASONING_NAME_PARTS.items():
            name = str(getattr(model, "model_version", ""))
            if path in paths and any(part in name for part in parts):
                warnings.append(
                    f"openai: lmms-eval takes model {name!r} for a reasoning model (its name contains one of "
                    f"{', '.join(parts)}): for task {task} it drops temperature={temperature} and sends "
                    f"max_completion_tokens={cap}, a budget the model's hidden reasoning spends before it answers "
                    f"(an empty answer counts in failed_count). The task's protocol cannot be kept with a reasoning "
                    f"model: to measure one anyway, raise the cap with --gen_kwargs max_new_tokens=N and report the "
                    f"deviation; a model that is none is served under a name without those parts ({DOCS}).")
                break
    return warnings


def failed_request_warning(task: str, failed: int, total: int, cli_args=None) -> str:
    """The warning for a task with failed requests: how many questions, how they were scored, how to re-run them
    (a self-consistency question counts once, whichever of its samples failed)."""
    cache = getattr(cli_args, "use_cache", None)
    if cache:
        rerun = (f"lmms-eval's response cache {cache} keeps the answered requests but also the failure texts: "
                 f"run `temporal-bench forget-failed {cache}` and then the same command again, which sends only "
                 "the failed requests (a task that samples, temperature > 0, is never cached and runs again whole)")
    else:
        rerun = ("run with --use_cache DIR to keep answered requests; after `temporal-bench forget-failed DIR` the "
                 "same command sends only the failed ones")
    return (f"{task}: {failed} of {total} question(s) got no answer: their request failed or brought no response "
            f"(lmms-eval's [LMMS_EVAL_REQUEST_FAILED ...] text, or an empty response). They are scored as unanswered "
            f"(invalid answers), so this run's scores are not the model's. To complete the run: {rerun} ({DOCS}).")


def failed_counts(agg_metrics: Dict) -> Iterator[Tuple[str, int]]:
    """The positive failed counts (one per filter) of a task's aggregated metrics, each with the test
    it counts: "" for ``failed_count``; for a task holding two tests, the prefix of the test's key
    (``mt2`` of ``mt2_failed_count``: its main questions and the shared grounding questions)."""
    for key, value in agg_metrics.items():
        name = key.partition(",")[0]
        if (name == "failed_count" or name.endswith("_failed_count")) and isinstance(value, (int, float)) and value > 0:
            yield name.removesuffix("failed_count").rstrip("_"), int(value)


def install() -> None:
    """Wrap lmms-eval's ``evaluate`` and ``TaskOutput.calculate_aggregate_metric`` (once)."""
    from lmms_eval import evaluator, evaluator_utils

    if not getattr(evaluator.evaluate, "checks_temporal_bench_settings", False):
        original_evaluate = evaluator.evaluate

        def evaluate(*args, **kwargs):
            model = kwargs["lm"] if "lm" in kwargs else args[0]
            task_dict = kwargs["task_dict"] if "task_dict" in kwargs else args[1]
            if getattr(model, "rank", 0) == 0:
                for line in protocol_warnings(model, dict(our_generation_settings(task_dict))):
                    logger.warning(line)
            return original_evaluate(*args, **kwargs)

        evaluate.checks_temporal_bench_settings = True
        evaluator.evaluate = evaluate

    task_output = evaluator_utils.TaskOutput
    if not getattr(task_output.calculate_aggregate_metric, "warns_temporal_bench_failures", False):
        original_aggregate = task_output.calculate_aggregate_metric

        def calculate_aggregate_metric(self, *args, **kwargs):
            result = original_aggregate(self, *args, **kwargs)
            if self.task is not None and _is_ours(self.task):
                for test, failed in failed_counts(self.agg_metrics):
                    logger.warning(failed_request_warning(f"{self.task_name} ({test.upper()})" if test else self.task_name,
                                                          failed, self.sample_len, getattr(self.task, "args", None)))
            return result

        calculate_aggregate_metric.warns_temporal_bench_failures = True
        task_output.calculate_aggregate_metric = calculate_aggregate_metric
