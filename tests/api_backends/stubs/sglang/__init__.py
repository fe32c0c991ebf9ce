"""Stand-in for ``sglang`` (tests only, on the subprocess path): lmms-eval's ``sglang`` class builds its
requests for real; ``Engine.generate`` records them (stub_engine.py) and returns scripted outputs."""

from stub_engine import answer, pixel_hash


class Engine:
    def __init__(self, model_path, **kwargs):
        self.model_path = model_path

    def generate(self, prompt, sampling_params, image_data=None, video_data=None, **kwargs):
        if video_data and any(video_data):
            raise RuntimeError("stub sglang: videos are not scripted")
        image_data = image_data or [[] for _ in prompt]
        outputs = []
        for text, images, params in zip(prompt, image_data, sampling_params):
            reply = answer("sglang", text, [pixel_hash(image) for image in images], dict(params))
            outputs.append({"text": reply, "meta_info": {"completion_tokens": 1}})
        return outputs
