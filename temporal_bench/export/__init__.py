"""Upstream export: the task folders as lmms-eval's own ``lmms_eval/tasks/<benchmark>/`` (see ``cli``)."""
