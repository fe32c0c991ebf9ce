"""Entry point (group ``lmms_eval.models``) of the throw-away test distribution written by
``write_test_distribution``: registers the recording subclasses under their own model names.

``LMMS_EVAL_PLUGINS`` cannot be used for this: lmms-eval 0.7.3 registers its models as *simple*
class paths only, and a chat class (``is_simple = False``) then fails the registry's validation.
"""

from pathlib import Path

from lmms_eval.models.registry_v2 import ModelManifest

MODELS = {
    # model name: (simple class path, chat class path)
    "rec_qwen2_vl": ("real_backends.recording.RecordingQwen2VL", None),
    "rec_qwen2_5_vl": (None, "real_backends.recording.RecordingQwen2_5VLChat"),
    "rec_llava_hf": (None, "real_backends.recording.RecordingLlavaHfChat"),
}
DIST_NAME = "temporal_bench_real_backend_tests"


def manifests():
    return [ModelManifest(model_id=name, simple_class_path=simple, chat_class_path=chat) for name, (simple, chat) in MODELS.items()]


def write_test_distribution(site_dir: Path) -> Path:
    """A minimal ``.dist-info`` in ``site_dir``; with ``site_dir`` on ``PYTHONPATH``,
    ``importlib.metadata`` finds its ``lmms_eval.models`` entry point. Nothing is installed."""
    info = Path(site_dir) / f"{DIST_NAME}-0.0.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: 0.0.0\n")
    (info / "entry_points.txt").write_text(f"[lmms_eval.models]\n{DIST_NAME} = real_backends.registration:manifests\n")
    return info
