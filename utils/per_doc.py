"""The per-doc value our tasks return: one record under every metric key.

lmms-eval needs every metric key from every doc (docs/protocol/harness.md §4); each aggregation then computes its
figure from the whole list of records, which carry their own join keys, so joins survive sharding.
"""

from typing import Callable, Dict, List, Sequence

from temporal_bench.utils.failed_requests import is_failed_response
from temporal_bench.utils.yes_no import INVALID


def make_process_results(parse: Callable[[str], str], fields: Sequence[str], metric_names: Sequence[str]) -> Callable:
    """``process_results`` recording the doc's ``fields``, its gold ``answer``, the parsed prediction and
    ``failed``: a failed request or no response is never parsed, it is an invalid answer."""

    def process_results(doc: Dict, results: List[str]) -> Dict:
        response = results[0] if results else None
        failed = is_failed_response(response)
        record = {field: doc[field] for field in fields}
        record.update(gold=doc["answer"], pred=INVALID if failed else parse(response), failed=failed)
        return {name: record for name in metric_names}

    return process_results
