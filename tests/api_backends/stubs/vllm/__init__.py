"""Stand-in for ``vllm`` (tests only, on the subprocess path): lmms-eval's ``vllm`` classes build their
requests for real; ``LLM.chat`` records them (stub_engine.py) and returns scripted outputs."""

from types import SimpleNamespace

from stub_engine import answer, data_url_hash


class SamplingParams:
    def __init__(self, **params):
        self.params = params


class LLM:
    def __init__(self, model, **kwargs):
        self.model = model

    def chat(self, messages, sampling_params, chat_template=None, **kwargs):
        conversations = messages if messages and isinstance(messages[0], list) else [messages]
        if not isinstance(sampling_params, list):
            sampling_params = [sampling_params] * len(conversations)
        outputs = []
        for conversation, params in zip(conversations, sampling_params):
            parts = [part for message in conversation for part in message["content"]]
            text = "".join(part["text"] for part in parts if part["type"] == "text")
            images = [data_url_hash(part["image_url"]["url"]) for part in parts if part["type"] == "image_url"]
            reply = answer("vllm", text, images, params.params)
            outputs.append(SimpleNamespace(outputs=[SimpleNamespace(text=reply)]))
        return outputs

    def get_metrics(self):
        return []
