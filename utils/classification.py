"""Two-class (yes/no) classification scores, computed by scikit-learn's classification report, as the paper did."""

from collections.abc import Sequence
from functools import lru_cache

from sklearn.metrics import accuracy_score, classification_report

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import NO, YES

_SKLEARN_COLUMNS = {"precision": "precision", "recall": "recall", "f1": "f1-score"}


def yes_no_report(gold: Sequence[str], pred: Sequence[str], class_names: Sequence[str]) -> dict[str, float] | None:
    """Per-class and averaged P/R/F1 plus accuracy for labels ``yes``/``no``, the classes named by ``class_names`` in
    the keys (``precision_dep``, ``f1_macro``, ``accuracy`` ...); None for no examples. ``labels=[yes, no]`` keeps the
    class space two-class as the paper's ``classification_report`` calls did: a prediction outside yes/no (an unparsed
    answer kept as a third label) lowers the recall of its gold class and nobody's precision.
    """
    if not gold:
        return None
    return dict(_report(tuple(gold), tuple(pred), tuple(class_names)))


@lru_cache(maxsize=256)
def _report(gold: tuple, pred: tuple, class_names: tuple) -> dict[str, float]:
    """Cached: each score of a task is its own aggregation, all asking for the classification report of the same answers."""
    report = classification_report(list(gold), list(pred), labels=[YES, NO], output_dict=True, zero_division=0)
    scores = {}
    rows = {name: report[label] for label, name in zip((YES, NO), class_names, strict=True)}
    rows.update(macro=report["macro avg"], weighted=report["weighted avg"])
    for row_name, row in rows.items():
        for stat, column in _SKLEARN_COLUMNS.items():
            scores[f"{stat}_{row_name}"] = row[column]
    scores["accuracy"] = accuracy_score(list(gold), list(pred))
    return scores
