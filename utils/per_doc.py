"""The per-doc value our tasks return: the doc's record under the first metric key, under each other key
only the fields its aggregation reads.

lmms-eval needs every metric key from every doc (docs/protocol/harness.md §4) and logs each value in the
doc's sample line; each aggregation then computes its figure from the whole list of values, which carry
their own join keys, so joins survive sharding. Whatever reads the logged samples back takes the whole
record from the first key, so the other keys carry only what their aggregation needs and the logged payload
stays small.
"""

from typing import Callable, Dict, List, Mapping, Sequence

from temporal_bench.utils.failed_requests import is_failed_response
from temporal_bench.utils.yes_no import INVALID


def make_process_results(parse: Callable[[str], str], fields: Sequence[str], metric_names: Sequence[str],
                         fields_read: Mapping[str, Sequence[str]]) -> Callable:
    """``process_results`` recording the doc's ``fields``, its gold ``answer``, the parsed prediction and
    ``failed`` (a failed request or no response is never parsed, it is an invalid answer): the record under
    ``metric_names[0]``, under each other name the record's ``fields_read[name]``."""

    def process_results(doc: Dict, results: List[str]) -> Dict:
        response = results[0] if results else None
        failed = is_failed_response(response)
        record = {field: doc[field] for field in fields}
        record.update(gold=doc["answer"], pred=INVALID if failed else parse(response), failed=failed)
        return {name: record if i == 0 else {field: record[field] for field in fields_read[name]} for i, name in enumerate(metric_names)}

    return process_results
