"""Test-only support for lmms-eval's API and server model classes, offline: a loopback
OpenAI-compatible mock server (``mock_server``) and stand-in ``vllm`` / ``sglang`` modules
(``stubs/``) that record what the classes would send."""
