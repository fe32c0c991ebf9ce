"""What one logged sample line holds, as either harness writes it: the prompt, the response texts, the image files, and
whether the request failed."""

from __future__ import annotations

from typing import Any

from temporal_bench.lmms_eval_tasks.plugin.failed_requests import is_failed_response


def logged_prompt(line: dict) -> str:
    """lmms-eval logs the prompt as ``input``, lm-eval as the request's first argument."""
    if "input" in line:
        return str(line["input"])
    arguments = line.get("arguments")
    if isinstance(arguments, dict) and arguments:
        first = next(iter(arguments.values()))
        return str(first.get("arg_0", "")) if isinstance(first, dict) else str(first)
    return "\n".join(str(text) for text in logged_texts(arguments))


def logged_texts(value: Any) -> list[str | None]:
    """The response texts of a sample line's ``filtered_resps`` (a text, or a list of them for repeats; None where
    the line holds none)."""
    if isinstance(value, list):
        return [text for item in value for text in logged_texts(item)]
    return [value if isinstance(value, str) or value is None else str(value)]


def request_failed(line: dict) -> bool:
    """Whether a logged request failed or brought no response (lmms-eval's failure texts, an empty response)."""
    return any(is_failed_response(text) for text in logged_texts(line.get("filtered_resps")))


def logged_media(line: dict) -> list[str]:
    """The image files (or ``data:`` URIs) lmms-eval logged for a sample line's doc."""
    return [path for path in line.get("input_media") or [] if isinstance(path, str)]
