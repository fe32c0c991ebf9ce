"""Responses that are no answer at all: a request that failed, or no text.

lmms-eval 0.7.3 has no constant for its failure texts: they are matched by the prefixes its model classes write
(every retry failed; the ``--max_tokens`` budget was spent; ``chat/async_openai.py`` on a message without text),
and an empty response counts too. Such a response is never parsed (``"after 5 retries"`` would read as image 5,
``"No such model"`` as "no"): it is scored as an unanswered question and counted in the task's ``failed_count``.
"""

from typing import Dict, List, Optional

from loguru import logger as eval_logger

REQUEST_FAILED_PREFIX = "[LMMS_EVAL_REQUEST_FAILED"
BUDGET_EXCEEDED_PREFIX = "[LMMS_EVAL_BUDGET_EXCEEDED]"
NO_MESSAGE_TEXT = 'Error: can only concatenate str (not "NoneType") to str'
FAILURE_PREFIXES = (REQUEST_FAILED_PREFIX, BUDGET_EXCEEDED_PREFIX, NO_MESSAGE_TEXT)


def is_failed_response(response: Optional[str]) -> bool:
    """True for a missing or empty response and for lmms-eval's failure texts (leading spaces ignored)."""
    text = "" if response is None else str(response).strip()
    return not text or text.startswith(FAILURE_PREFIXES)


def count_failed(records: List[Dict]) -> int:
    """``failed_count``: the records whose request failed or brought no response."""
    return sum(record["failed"] for record in records)


def warn_failed(task: str, failed: int, total: int, args=None) -> None:
    """Warn when questions got no answer: how they were scored and how to re-run only them (``args``: lmms-eval's
    command-line arguments, which an aggregation with an ``args`` parameter receives)."""
    if not failed:
        return
    cache = getattr(args, "use_cache", None)
    if cache:
        rerun = (
            f"lmms-eval's response cache {cache} keeps the answered requests but also the failure texts: remove those and run the same "
            "command again, which sends only the failed requests (a task that samples, temperature > 0, is never cached and runs again whole)"
        )
    else:
        rerun = "run with --use_cache DIR to keep the answered requests, so that a re-run sends only the failed ones"
    eval_logger.warning(
        f"{task}: {failed} of {total} question(s) got no answer: their request failed or brought no response (lmms-eval's "
        f"[LMMS_EVAL_REQUEST_FAILED ...] text, or an empty response). They are scored as unanswered (invalid answers), so this "
        f"run's scores are not the model's. To complete the run: {rerun}."
    )
