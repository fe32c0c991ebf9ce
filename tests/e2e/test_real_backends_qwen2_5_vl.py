"""The real-backend tests (tests/real_backends/suite.py) for lmms-eval's qwen2_5_vl class (chat)."""

from tests.real_backends.suite import *  # noqa: F401,F403  (the tests, their fixtures and parametrisation)

BACKEND_IDS = ["qwen2_5_vl-chat"]
