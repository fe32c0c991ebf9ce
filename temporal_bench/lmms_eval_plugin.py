"""lmms-eval entry point (group ``lmms_eval.models``): registers the baseline and test models, and the family
names under which lmms-eval's own chat classes pick a model family's section of the TempVS tasks'
``lmms_eval_specific_kwargs`` (:data:`FAMILY_MODELS`). Every evaluation run imports ``lmms_eval.models``, which
loads this module before any TaskManager exists: it also registers the task folder (temporal_bench/task_registration.py).
"""

import os

from temporal_bench import task_registration

MODEL_CLASSES = {
    "random_choice": "temporal_bench.models.lmms_eval_models.RandomChoice",
    "majority_class": "temporal_bench.models.lmms_eval_models.MajorityClass",
    "scripted": "temporal_bench.models.lmms_eval_models.Scripted",
    "decode_only": "temporal_bench.models.lmms_eval_models.DecodeOnly",
    "request_hash": "temporal_bench.models.lmms_eval_models.RequestHash",
    "replay": "temporal_bench.models.lmms_eval_models.Replay",
}
# lmms-eval's own chat classes under names that pick a model family's section of the TempVS tasks'
# lmms_eval_specific_kwargs (lmms-eval chooses a section by the --model name): these classes serve
# several families, and the text-first ones of TempVS Table 12 need their own (docs/tempvs.md "Image order").
FAMILY_MODELS = {
    "llava_interleave_hf": "lmms_eval.models.chat.llava_hf.LlavaHf",  # llava-hf/llava-interleave-qwen-*-hf
    "llava_next_video_hf": "lmms_eval.models.chat.huggingface.Huggingface",  # llava-hf/LLaVA-NeXT-Video-*-hf
}


def model_manifests():
    # imported here: importing lmms_eval.models.registry_v2 loads the entry points, this module among them, so a
    # module-level import made while lmms_eval.models is not yet imported would find this module half-built
    from lmms_eval.models.registry_v2 import ModelManifest

    if os.environ.get(task_registration.OPT_OUT_ENV, "") in ("", "0"):
        task_registration.register()
    return [ModelManifest(model_id=name, simple_class_path=path) for name, path in MODEL_CLASSES.items()] + [ModelManifest(model_id=name, chat_class_path=path) for name, path in FAMILY_MODELS.items()]
