"""Responses that are no answer at all: a request that failed, or no text.

lmms-eval 0.7.3 has no constant for its failure texts: they are matched by the prefixes its model classes write
(every retry failed; the ``--max_tokens`` budget was spent; ``chat/async_openai.py`` on a message without text),
and an empty response counts too. The task folders parse every response as the papers' code would (``"after 5
retries"`` reads as image 5, ``"No such model"`` as "no"); ``temporal-bench check`` finds these responses in a run's
samples and fails the run, and no verdict or comparison uses it. Self-consistency's vote passes a failed sample's
text on as the doc's answer, so that the samples show it.
"""

REQUEST_FAILED_PREFIX = "[LMMS_EVAL_REQUEST_FAILED"
BUDGET_EXCEEDED_PREFIX = "[LMMS_EVAL_BUDGET_EXCEEDED]"
NO_MESSAGE_TEXT = 'Error: can only concatenate str (not "NoneType") to str'
FAILURE_PREFIXES = (REQUEST_FAILED_PREFIX, BUDGET_EXCEEDED_PREFIX, NO_MESSAGE_TEXT)


def is_failed_response(response: str | None) -> bool:
    """True for a missing or empty response and for lmms-eval's failure texts (leading spaces ignored)."""
    text = "" if response is None else str(response).strip()
    return not text or text.startswith(FAILURE_PREFIXES)
