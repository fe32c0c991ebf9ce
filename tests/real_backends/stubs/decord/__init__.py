"""Stand-in for ``decord``, put on the subprocess path only when the real package is missing.

lmms-eval 0.7.3's Qwen2-VL / Qwen2.5-VL / LLaVA-HF classes ``import decord`` at module level but use it
only for videos; these tests pass images only. Any use fails loudly."""


class _Unavailable:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("decord is not installed (test stand-in): `pip install decord` to evaluate videos")


VideoReader = _Unavailable
cpu = gpu = _Unavailable
bridge = None
