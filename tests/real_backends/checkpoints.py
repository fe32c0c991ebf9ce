"""Tiny random-weight checkpoints, built offline.

Nothing is downloaded: each checkpoint is a config with tiny sizes, a randomly initialised model,
a byte-level BPE tokenizer trained here on a few hundred words (byte-level, so every prompt encodes
and decodes losslessly), the model family's special tokens, a chat template string and the image /
video processor configs, all written with ``save_pretrained`` so that the real lmms-eval model
classes load them with ``from_pretrained(<folder>)``.
"""

from pathlib import Path

import torch

# Qwen2-VL / Qwen2.5-VL chat format (the released template's structure: default system turn,
# one <|vision_start|><|image_pad|><|vision_end|> per image part, in content order).
QWEN_CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% set video_count = namespace(value=0) %}"
    "{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif content['type'] == 'video' or 'video' in content %}"
    "{% set video_count.value = video_count.value + 1 %}<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}"
    "{% endfor %}<|im_end|>\n{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

QWEN_SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]

# Words the tiny BPE merges; anything else still encodes byte by byte.
CORPUS = """
yes no Yes No YES NO true false True False A B C D E answer Answer question Question step steps
before after must happen first last plan goal image images frame frames event events order
the a an of to in and or is are be this that which does do not only with as it its for on at by
<answer> </answer> <think> </think> binary_answer why explanation JSON
recipe cook add mix bake heat pour stir cut serve place remove put wait until minutes oven bowl pan
Please read following statements carefully choose option correct sequence story character
You are a helpful assistant. Answer only with YES or NO. Answer with yes or no.
"""


# the text model of every tiny Qwen2-based checkpoint
TINY_QWEN2 = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=4096)


def _special_ids(ids: dict) -> dict:
    return dict(bos_token_id=ids["<|endoftext|>"], eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"])


def _train_tokenizer(special_tokens, vocab_size: int = 400):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=special_tokens, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator([CORPUS] * 20, trainer=trainer)
    return tokenizer


def qwen_tokenizer():
    from transformers import PreTrainedTokenizerFast

    raw = _train_tokenizer(QWEN_SPECIAL_TOKENS)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw, eos_token="<|im_end|>", pad_token="<|endoftext|>", unk_token=None, additional_special_tokens=QWEN_SPECIAL_TOKENS[1:], model_max_length=32768)
    tokenizer.chat_template = QWEN_CHAT_TEMPLATE
    return tokenizer


def _ids(tokenizer) -> dict[str, int]:
    return {token: tokenizer.convert_tokens_to_ids(token) for token in QWEN_SPECIAL_TOKENS}


def _vocab_size(tokenizer) -> int:
    return (len(tokenizer) + 63) // 64 * 64


def build_qwen_vl(folder: Path, version: str = "2", seed: int = 0) -> Path:
    """A tiny Qwen2-VL (``version="2"``) or Qwen2.5-VL (``"2.5"``) checkpoint in ``folder``:
    2 text layers of width 64, 1 vision block of width 32, patch 14 with 2x2 merge (as released),
    so an image of 56x56 pixels costs 4 tokens."""
    from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor, Qwen2VLConfig, Qwen2VLForConditionalGeneration, Qwen2VLImageProcessor, Qwen2VLProcessor, Qwen2VLVideoProcessor

    torch.manual_seed(seed)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = qwen_tokenizer()
    ids = _ids(tokenizer)
    text_config = dict(
        vocab_size=_vocab_size(tokenizer),
        **TINY_QWEN2,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]},
        **_special_ids(ids),
    )
    common = dict(image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"], vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"])
    if version == "2":
        vision_config = dict(depth=1, embed_dim=32, hidden_size=64, num_heads=2, mlp_ratio=2, patch_size=14, spatial_merge_size=2, temporal_patch_size=2)
        config = Qwen2VLConfig(text_config=text_config, vision_config=vision_config, **common)
        model = Qwen2VLForConditionalGeneration(config)
        processor_class = Qwen2VLProcessor
    elif version == "2.5":
        vision_config = dict(depth=1, hidden_size=32, intermediate_size=64, num_heads=2, out_hidden_size=64, patch_size=14, spatial_merge_size=2, temporal_patch_size=2, window_size=56, fullatt_block_indexes=[0])
        config = Qwen2_5_VLConfig(text_config=text_config, vision_config=vision_config, **common)
        model = Qwen2_5_VLForConditionalGeneration(config)
        processor_class = Qwen2_5_VLProcessor
    else:
        raise ValueError(version)
    model = model.to(torch.float32).eval()
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    model.save_pretrained(folder)
    pixels = dict(min_pixels=28 * 28, max_pixels=4 * 28 * 28)
    processor = processor_class(image_processor=Qwen2VLImageProcessor(**pixels), video_processor=Qwen2VLVideoProcessor(**pixels), tokenizer=tokenizer, chat_template=QWEN_CHAT_TEMPLATE)
    processor.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


# LLaVA-OneVision (HF format) chat format: Qwen2 turns, one <image> per image part, in content order.
LLAVA_OV_CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' %}<image>\n{% elif content['type'] == 'video' %}<video>\n"
    "{% elif content['type'] == 'text' %}{{ content['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
LLAVA_SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<image>", "<video>"]


def build_llava_onevision(folder: Path, seed: int = 0) -> Path:
    """A tiny LLaVA-OneVision checkpoint in the Hugging Face format (``llava-hf/llava-onevision-*``):
    a 2-layer Qwen2 of width 64 and a 1-layer SigLIP of width 32 on 28x28 images (patch 14), one
    28x28 any-resolution grid point, so an image costs a handful of tokens."""
    from transformers import LlavaOnevisionConfig, LlavaOnevisionForConditionalGeneration, LlavaOnevisionImageProcessor, LlavaOnevisionProcessor, LlavaOnevisionVideoProcessor, PreTrainedTokenizerFast

    torch.manual_seed(seed)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=_train_tokenizer(LLAVA_SPECIAL_TOKENS), eos_token="<|im_end|>", pad_token="<|endoftext|>", additional_special_tokens=LLAVA_SPECIAL_TOKENS[1:], model_max_length=32768)
    tokenizer.chat_template = LLAVA_OV_CHAT_TEMPLATE
    ids = {token: tokenizer.convert_tokens_to_ids(token) for token in LLAVA_SPECIAL_TOKENS}
    text_config = dict(
        model_type="qwen2",
        vocab_size=_vocab_size(tokenizer),
        **TINY_QWEN2,
        **_special_ids(ids),
    )
    vision_config = dict(model_type="siglip_vision_model", hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2, image_size=28, patch_size=14)
    config = LlavaOnevisionConfig(
        text_config=text_config,
        vision_config=vision_config,
        image_token_index=ids["<image>"],
        video_token_index=ids["<video>"],
        image_grid_pinpoints=[[28, 28]],
        vision_feature_layer=-1,
        vision_feature_select_strategy="full",
        vision_aspect_ratio="anyres_max_9",
    )
    model = LlavaOnevisionForConditionalGeneration(config).to(torch.float32).eval()
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    model.save_pretrained(folder)
    size = {"height": 28, "width": 28}
    processor = LlavaOnevisionProcessor(
        image_processor=LlavaOnevisionImageProcessor(size=size, image_grid_pinpoints=[[28, 28]]),
        video_processor=LlavaOnevisionVideoProcessor(size=size),
        tokenizer=tokenizer,
        num_image_tokens=4,
        vision_feature_select_strategy="full",
        chat_template=LLAVA_OV_CHAT_TEMPLATE,
        vision_aspect_ratio="anyres_max_9",
    )
    processor.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def build_qwen2_text(folder: Path, seed: int = 0) -> Path:
    """A tiny text-only Qwen2 causal LM (for lm-eval's ``hf`` backend on CaT-Bench)."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    folder = Path(folder)
    tokenizer = qwen_tokenizer()
    ids = _ids(tokenizer)
    config = Qwen2Config(
        vocab_size=_vocab_size(tokenizer),
        **TINY_QWEN2,
        **_special_ids(ids),
    )
    model = Qwen2ForCausalLM(config).eval()
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
