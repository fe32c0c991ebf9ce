"""Imported by lmms-eval's sglang class at module level; used only with MCP tools, which these tests do not use."""


class FunctionCallParser:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("stub sglang: tool calling is not available")
