"""Shared by the stand-in ``vllm`` and ``sglang`` modules: record each request a model class hands
the engine and answer it from a script; no model is loaded.

``$STUB_ENGINE_SCRIPT``: a JSON list of ``[prompt, temperature, n_images, answer]`` (``answer``: a
string, or a list whose n-th entry answers the n-th repeat of the request). A request matches the
entry with its temperature and image count whose prompt is the longest one contained in the request's
text (vLLM gets the task's text as a message part, SGLang the chat-templated prompt).
``$STUB_ENGINE_RECORD``: the JSON-lines file each request is appended to, with its text, image pixel
hashes in order, sampling parameters and answer. An unscripted request raises.
"""

import base64
import hashlib
import io
import json
import os
import threading
from collections import Counter

_LOCK = threading.Lock()
_SEEN = Counter()


def pixel_hash(image) -> str:
    image = image.convert("RGB")
    return hashlib.sha256(f"{image.size}".encode() + image.tobytes()).hexdigest()[:16]


def data_url_hash(url: str) -> str:
    from PIL import Image

    return pixel_hash(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))))


def _script():
    with open(os.environ["STUB_ENGINE_SCRIPT"], encoding="utf-8") as handle:
        return json.load(handle)


def answer(backend: str, text: str, images, params: dict) -> str:
    temperature = float(params.get("temperature") or 0)
    matches = [entry for entry in _script() if entry[1] == temperature and entry[2] == len(images) and entry[0] in text]
    if not matches:
        raise RuntimeError(f"stub {backend}: no scripted answer for a request with temperature {temperature}, {len(images)} image(s) and text {text[:200]!r}")
    prompt, _, _, scripted = max(matches, key=lambda entry: len(entry[0]))
    with _LOCK:
        n = _SEEN[prompt, temperature]
        _SEEN[prompt, temperature] += 1
        reply = scripted[n % len(scripted)] if isinstance(scripted, list) else scripted
        with open(os.environ["STUB_ENGINE_RECORD"], "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"backend": backend, "text": text, "images": list(images), "params": params, "answer": reply}) + "\n")
    return reply
