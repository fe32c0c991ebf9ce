"""Test-only support for running the real lmms-eval model classes on tiny random-weight checkpoints.

``checkpoints`` builds the checkpoints offline (config + random init + a locally trained
tokenizer + processor configs); ``recording`` subclasses the real lmms-eval model classes so a run
writes, per model call, what reached the model; ``registration`` registers those subclasses for the
real CLI through lmms-eval's ``lmms_eval.models`` entry-point group (a throw-away ``.dist-info``
folder on ``PYTHONPATH``, never installed into the environment).
"""

# generation stops after this many new tokens (the recording wrapper caps what the class passed):
# random weights hardly ever end a turn, and 512 tokens per doc on a CPU measure the clock, not the plumbing
NEW_TOKENS_CAP = 16
