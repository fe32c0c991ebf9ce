"""Imported by lmms-eval's sglang class at module level; used only with MCP tools, which these tests do not use."""


class Tool:
    @classmethod
    def model_validate(cls, schema):
        raise RuntimeError("stub sglang: tool calling is not available")
