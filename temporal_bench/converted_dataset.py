"""A benchmark release converted into a hub-ready dataset folder (the build-dataset command).

The folder holds one parquet folder per config (``<config>/test-NNNNN-of-NNNNN.parquet``, split
``test``, images embedded) and a README.md dataset card whose YAML header lists the configs, so that
``datasets.load_dataset(FOLDER, CONFIG)`` (and, pushed, ``load_dataset(HUB_ID, CONFIG)``) reads it; a
folder is recognised as converted by that card (docs/harness.md, "Converted datasets").
"""

import glob
import json
from pathlib import Path
from typing import Dict, List, Optional, Type

import yaml

CARD = "README.md"
SPLIT = "test"
ROWS_PER_SHARD = 500  # parquet files of a few hundred MB at most for TempVS's combined strips


def card_configs(folder: Path) -> Optional[Dict[str, List[str]]]:
    """config name -> its data-file patterns, from the card's YAML header; None when ``folder`` has no such card."""
    card = Path(folder) / CARD
    if not card.is_file():
        return None
    text = card.read_text(encoding="utf-8")
    if not text.startswith("---\n") or "\n---" not in text[4:]:
        return None
    header = yaml.safe_load(text[4 : text.index("\n---", 4)]) or {}
    configs = header.get("configs") if isinstance(header, dict) else None
    if not isinstance(configs, list):
        return None
    return {entry["config_name"]: [part["path"] for part in entry.get("data_files", [])] for entry in configs if isinstance(entry, dict) and "config_name" in entry}


def is_converted(folder: Path) -> bool:
    return card_configs(folder) is not None


def load_config(folder: Path, config: str, error: Type[Exception]):
    """``datasets.load_dataset(folder, config, split="test")`` and the parquet files it read (for the
    fingerprint); ``error`` naming the configs present when the card lacks ``config``."""
    import datasets

    configs = card_configs(folder) or {}
    if config not in configs:
        raise error(f"{folder}: the converted dataset has no config {config!r} (its card lists {sorted(configs)}); rebuild it from the release")
    files = sorted(Path(path) for pattern in configs[config] for path in glob.glob(str(Path(folder) / pattern)))
    if not files:
        raise error(f"{folder}: config {config!r} names {configs[config]}, which match no file")
    return datasets.load_dataset(str(folder), config, split=SPLIT), files


def write_config(dataset, output: Path, config: str) -> List[Path]:
    """Write ``dataset`` as the ``test`` split of ``config``: parquet shards of ``ROWS_PER_SHARD`` rows."""
    count = max(1, -(-len(dataset) // ROWS_PER_SHARD))
    folder = Path(output) / config
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"{SPLIT}-{index:05d}-of-{count:05d}.parquet"
        dataset.shard(num_shards=count, index=index, contiguous=True).to_parquet(str(path))
        paths.append(path)
    return paths


def write_card(output: Path, header: Dict, configs: Dict[str, str], body: str, folders: Optional[Dict[str, str]] = None) -> Path:
    """README.md: ``header`` (licence, pretty_name, ...) plus the ``configs`` (name -> description, in order) in
    the YAML front matter the hub and ``load_dataset`` read, then ``body`` and a table of the configs. A config
    reads the parquet folder of its name, or the one ``folders`` names (another config's: no copy)."""
    folders = folders or {}
    front = {**header, "configs": [{"config_name": name, "data_files": [{"split": SPLIT, "path": f"{folders.get(name, name)}/{SPLIT}-*.parquet"}]} for name in configs]}
    table = "\n".join(f"| `{name}` | {description} |" for name, description in configs.items())
    text = f"---\n{yaml.safe_dump(front, sort_keys=False)}---\n\n{body.strip()}\n\n## Configs\n\n| config | contents |\n|---|---|\n{table}\n"
    path = Path(output) / CARD
    path.write_text(text, encoding="utf-8")
    return path


def provenance_section(provenance: Dict[str, str]) -> str:
    """The card's provenance list, and the same facts as JSON for machines."""
    items = "\n".join(f"- {key}: {value}" for key, value in provenance.items())
    return f"## Provenance\n\n{items}\n\n```json\n{json.dumps(provenance, indent=1)}\n```\n"


def push_to_hub(output: Path, repo_id: str) -> None:
    """Push every config with ``datasets``' ``push_to_hub``, then the card (which push_to_hub would otherwise rewrite)."""
    import datasets
    from huggingface_hub import HfApi

    for config in card_configs(output) or {}:
        datasets.load_dataset(str(output), config).push_to_hub(repo_id, config_name=config)
    HfApi().upload_file(path_or_fileobj=str(Path(output) / CARD), path_in_repo=CARD, repo_id=repo_id, repo_type="dataset")
