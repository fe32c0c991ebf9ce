"""What a backend sent instead of a task's generation settings, read from a finished run's results file
(``temporal-bench check`` prints it; docs/backends.md explains each case and how to keep the protocol).

lmms-eval 0.7.3's ``vllm`` classes generate up to the larger of the task's cap and their own ``max_new_tokens``
(4096 chat, 1024 simple), ``vllm`` and ``sglang`` add ``top_p=0.95`` to a sampling task, and the ``openai``
classes take a model whose name holds a reasoning model's marker for one: they drop the temperature and send the
cap as ``max_completion_tokens``, which the hidden reasoning spends.
"""

from collections.abc import Mapping

from temporal_bench import benchmarks

# lmms-eval 0.7.3's classes whose request building changes a task's settings, by the class path the --model names
VLLM_CLASSES = {"lmms_eval.models.chat.vllm.VLLM": 4096, "lmms_eval.models.simple.vllm.VLLM": 1024}  # -> their max_new_tokens default
SGLANG_CLASSES = ("lmms_eval.models.chat.sglang.Sglang",)
OPENAI_CHAT_CLASS = "lmms_eval.models.chat.openai.OpenAICompatible"
OPENAI_SIMPLE_CLASS = "lmms_eval.models.simple.openai.OpenAICompatible"
# the substrings by which each openai class takes a model for a reasoning model (build_payload_for_index)
REASONING_NAME_PARTS = {OPENAI_CHAT_CLASS: ("o1", "o3", "o4", "gpt-5"), OPENAI_SIMPLE_CLASS: ("o1", "o3")}
BACKEND_TOP_P = 0.95  # what the vllm and sglang classes add when a task sets no top_p
DOCS = "docs/backends.md"


def model_arguments(model_args: object) -> dict[str, str]:
    """``--model_args`` as lmms-eval records it (``k=v,k=v``, or already a mapping)."""
    if isinstance(model_args, Mapping):
        return {str(k): str(v) for k, v in model_args.items()}
    pairs = (item.partition("=") for item in str(model_args or "").split(",") if "=" in item)
    return {key.strip(): value.strip() for key, _, value in pairs}


def model_class_path(model: str, force_simple: bool = False) -> str | None:
    """The class path lmms-eval resolves ``--model`` to (its chat class unless ``--force_simple``), from the model
    registry's manifest, without importing the class (None for a name lmms-eval does not register); one of this
    package's models without importing lmms-eval's registry either."""
    from temporal_bench.lmms_eval_plugin import MODEL_CLASSES

    if model in MODEL_CLASSES:
        return MODEL_CLASSES[model]
    from lmms_eval.models import MODEL_REGISTRY_V2

    try:
        manifest = MODEL_REGISTRY_V2.get_manifest(model)
    except Exception:  # noqa: BLE001 - an unregistered name: no backend rule applies
        return None
    return manifest.simple_class_path if force_simple or not manifest.chat_class_path else manifest.chat_class_path


def protocol_warnings(class_path: str | None, model_args: Mapping[str, str], settings: Mapping[str, Mapping]) -> list[str]:
    """What the backend class sent instead of each task's generation settings (``settings``: task -> its recorded
    ``generation_kwargs``), and how to keep them."""
    warnings = []
    for task, gen in settings.items():
        cap, temperature = gen.get("max_new_tokens"), gen.get("temperature") or 0
        temperature = f"{temperature:g}" if isinstance(temperature, (int, float)) else temperature
        if class_path in VLLM_CLASSES:
            own = int(model_args.get("max_new_tokens", VLLM_CLASSES[class_path]))
            used = max(int(cap), own) if cap is not None else own
            if used != cap:
                warnings.append(
                    f"vllm: task {task} caps generation at {cap} new tokens (its protocol), but lmms-eval's vllm class generated up to {used} (the "
                    f"larger of the task's cap and its own max_new_tokens={own}). Add max_new_tokens=1 to --model_args to keep the task's cap ({DOCS})."
                )
        if (class_path in VLLM_CLASSES or class_path in SGLANG_CLASSES) and temperature != "0" and "top_p" not in gen:
            backend = "vllm" if class_path in VLLM_CLASSES else "sglang"
            warnings.append(
                f"{backend}: task {task} samples at temperature {temperature} without nucleus sampling, but lmms-eval's {backend} class added top_p={BACKEND_TOP_P}. Add --gen_kwargs top_p=1.0 to keep the task's sampling ({DOCS})."
            )
        name = model_args.get("model_version", model_args.get("model", ""))  # the openai classes take either
        parts = REASONING_NAME_PARTS.get(class_path, ()) if class_path is not None else ()
        if any(part in name for part in parts):
            warnings.append(
                f"openai: lmms-eval takes model {name!r} for a reasoning model (its name contains one of {', '.join(parts)}): for task {task} it "
                f"dropped temperature={temperature} and sent max_completion_tokens={cap}, a budget the model's hidden reasoning spends before "
                "it answers (an empty answer counts in failed_count). The task's protocol cannot be kept with a reasoning model: to measure one "
                f"anyway, raise the cap with --gen_kwargs max_new_tokens=N and report the deviation; a model that is none is served under a name "
                f"without those parts ({DOCS})."
            )
    return warnings


def run_protocol_warnings(data: Mapping) -> list[str]:
    """The protocol warnings of one lmms-eval results file (its model, model arguments and our tasks' recorded settings)."""
    config = data.get("config") or {}
    cli_args = config.get("resolved_cli_args") or {}
    class_path = model_class_path(str(config.get("model", "")), bool(cli_args.get("force_simple")))
    settings = {task: dict(entry.get("generation_kwargs") or {}) for task, entry in (data.get("configs") or {}).items() if benchmarks.of_task(task) is not None and entry.get("output_type") == "generate_until"}
    return protocol_warnings(class_path, model_arguments(config.get("model_args")), settings)


def accepted_arguments(class_path: str) -> list[str] | None:
    """The ``--model_args`` an lmms-eval model class takes: the named parameters of its ``__init__`` and of the parents
    it hands its other keyword arguments to (``super().__init__(..., **kwargs)``). None where that cannot be told: a
    class that hands them on elsewhere (an engine, a checkpoint loader), one that cannot be imported here, or one of
    this package's (they refuse what they do not take themselves)."""
    import importlib
    import inspect
    import re

    module, name = class_path.rsplit(".", 1)
    if module.startswith("temporal_bench."):
        return None
    try:
        cls = getattr(importlib.import_module(module), name)
    except Exception:  # noqa: BLE001 - its optional dependencies are not installed here
        return None
    names: list[str] = []
    for klass in (k for k in cls.__mro__ if "__init__" in k.__dict__):
        parameters = inspect.signature(klass.__init__).parameters.values()
        names += [p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"]
        rest = next((p.name for p in parameters if p.kind == p.VAR_KEYWORD), None)
        source = inspect.getsource(klass.__init__)
        if rest is None or source.count(f"**{rest}") == 1:  # no other keyword arguments, or only in its signature: ignored or refused
            return names
        if source.count(f"**{rest}") > 2 or not re.search(rf"super\(\)\.__init__\([^)]*\*\*{rest}\)", source):
            return None
    return names


def model_argument_problems(data: Mapping) -> list[str]:
    """The ``--model_args`` of a results file that its lmms-eval model class takes no parameter for (and so ignored:
    ``modle=gpt-4o`` leaves the class's default model in place)."""
    config = data.get("config") or {}
    cli_args = config.get("resolved_cli_args") or {}
    class_path = model_class_path(str(config.get("model", "")), bool(cli_args.get("force_simple")))
    accepted = accepted_arguments(class_path) if class_path else None
    if accepted is None:
        return []
    unknown = [key for key in model_arguments(config.get("model_args")) if key not in accepted]
    if not unknown:
        return []
    return [
        f"--model_args {', '.join(unknown)}: lmms-eval's {config.get('model')} class ({class_path}) takes no such argument, so the run went on without it (it takes: {', '.join(accepted)}); run again with the argument spelt as the class names it"
    ]
