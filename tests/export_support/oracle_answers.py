"""The answers of the export tests' models, lmms-eval's (export_oracle.py) and lm-eval's (lm_eval_oracle.py): no
harness imported, so lm-eval's run does not pay for lmms-eval's import. They come from the evaluated doc, never from
the prompt: every processed doc of the three benchmarks carries its gold ``answer`` (what each task's
``doc_to_target`` returns) and the ``choices`` its question offers."""

REFUSAL = "unsure"  # no yes/no word, option letter or digit: unparseable for every benchmark


def oracle_answer(doc: dict, doc_id: int, mixed: bool, tagged: bool = False) -> str:
    """The gold answer (in ``<answer>`` tags where ``tagged``); where ``mixed``, doc i gets the gold answer, a wrong
    option or a refusal as i % 3 is 0, 1 or 2."""
    answer = doc["answer"]
    if mixed and doc_id % 3 == 2:
        return REFUSAL
    if mixed and doc_id % 3 == 1:
        answer = next(choice for choice in doc["choices"] if choice != answer)
    return f"<answer>{answer}</answer>" if tagged else answer
