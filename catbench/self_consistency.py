"""Self-consistency (paper §5.3): majority vote over k sampled (A) answers."""

from collections import Counter
from typing import List

from temporal_bench.catbench.parsing import parse_answer_only
from temporal_bench.utils.failed_requests import is_failed_response
from temporal_bench.utils.yes_no import INVALID, NO, YES


def majority_vote(responses: List[str]) -> str:
    """The majority label of the parseable samples; unparseable samples are dropped, ties go to
    "no" (the paper does not say; with odd k ties need an invalid sample), and no parseable
    sample gives an empty answer, which scores as invalid.

    A failed sample (utils/failed_requests.py) leaves no vote of k samples: the first failed sample's
    text is returned as the doc's answer, so the question is scored as a failed request."""
    failed = [response for response in responses if is_failed_response(response)]
    if failed:
        return "" if failed[0] is None else failed[0]
    votes = Counter(label for label in map(parse_answer_only, responses) if label != INVALID)
    if not votes:
        return ""
    return YES if votes[YES] > votes[NO] else NO


def vote_each_doc(resps, docs) -> List[str]:
    """Filter body (one voted answer per doc, like ``take_first``) for both harnesses."""
    return [majority_vote(list(samples)) for samples in resps]
