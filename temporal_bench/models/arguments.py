"""The ``--model_args`` each baseline and test model takes, with its defaults: the models refuse any
other (a typo such as ``sed=7`` would otherwise be ignored, and the run made with the default seed),
and a run's label names the values the model used (:func:`used_arguments_text`). Imports no harness,
so the run reader can use it."""

from __future__ import annotations

from typing import Any

# model name (lmms-eval's and lm-eval's) -> its arguments with their defaults
MODEL_ARGUMENTS: dict[str, dict[str, Any]] = {
    "random_choice": {"seed": 1234},
    "majority_class": {},
    "decode_only": {"seed": 1234},
    "request_hash": {},
    "scripted": {"policy": "oracle", "response": "", "script": "", "template": ""},
    "replay": {"source": ""},
}
# what the harnesses add to every model's arguments (lmms-eval's and lm-eval's evaluators)
HARNESS_ARGUMENTS = frozenset({"batch_size", "max_batch_size", "device"})


class ModelArgumentsError(TypeError):
    """A ``--model_args`` key the model does not take."""


def model_arguments(model: str, given: dict[str, Any]) -> dict[str, Any]:
    """The arguments ``model`` runs with: its defaults, ``given`` on top; an unknown key is refused in
    one line naming the valid ones (the harnesses' own keys are accepted and dropped)."""
    valid = MODEL_ARGUMENTS[model]
    unknown = sorted(set(given) - set(valid) - HARNESS_ARGUMENTS)
    if unknown:
        choices = ", ".join(valid) or "none (it takes no --model_args)"
        raise ModelArgumentsError(f"--model {model}: unknown --model_args {', '.join(unknown)}; valid: {choices}")
    return {**valid, **{key: value for key, value in given.items() if key in valid}}


def _parsed(model_args: Any) -> dict[str, str]:
    if isinstance(model_args, dict):
        return {str(k): str(v) for k, v in model_args.items()}
    pairs = [item.partition("=") for item in str(model_args or "").split(",") if item.strip()]
    return {key.strip(): value.strip() for key, _, value in pairs}


def arguments_text(model_args: Any) -> str:
    """``--model_args`` as a run recorded them (the text, or a dict) in their ``key=value,...`` form."""
    if isinstance(model_args, dict):
        return ",".join(f"{k}={v}" for k, v in model_args.items())
    return str(model_args or "")


def used_arguments_text(model: str, model_args: Any) -> str:
    """``model_args`` as a label shows them (``seed=1234``): for one of our models the values it used (its
    defaults filled in, keys it ignores left out, empty ones not shown), else as recorded."""
    if model not in MODEL_ARGUMENTS:
        return arguments_text(model_args)
    given = _parsed(model_args)
    used = {key: given.get(key, default) for key, default in MODEL_ARGUMENTS[model].items()}
    return ",".join(f"{key}={value}" for key, value in used.items() if str(value) != "")
