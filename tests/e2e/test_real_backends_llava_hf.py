"""The real-backend tests (tests/real_backends/suite.py) for lmms-eval's llava_onevision_hf class (chat)."""

from tests.real_backends.suite import *  # noqa: F401,F403  (the tests, their fixtures and parametrisation)

BACKEND_IDS = ["llava_onevision_hf-chat"]
