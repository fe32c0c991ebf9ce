"""A benchmark release converted into a hub-ready dataset folder (the build-dataset command): what the task folder's
converter wrote (``data/test-*.parquet``; TempVS also ``images.zip``) and a README.md dataset card whose YAML header
names the data files, so that ``datasets.load_dataset(FOLDER)`` (and, uploaded, ``load_dataset(HUB_ID)``) reads it
(docs/upstream.md, "Converted datasets").
"""

import json
from pathlib import Path

import yaml

CARD = "README.md"
SPLIT = "test"


def write_card(output: Path, header: dict, configs: dict[str, str], body: str) -> Path:
    """README.md: ``header`` (licence, pretty_name, ...) plus the ``configs`` (name -> description, in order) in
    the YAML front matter the hub and ``load_dataset`` read, then ``body`` and a table of the configs. A config
    reads the parquet files the converter wrote (``data/``)."""
    front = {**header, "configs": [{"config_name": name, "data_files": [{"split": SPLIT, "path": f"data/{SPLIT}-*.parquet"}]} for name in configs]}
    table = "\n".join(f"| `{name}` | {description} |" for name, description in configs.items())
    text = f"---\n{yaml.safe_dump(front, sort_keys=False)}---\n\n{body.strip()}\n\n## Configs\n\n| config | contents |\n|---|---|\n{table}\n"
    path = Path(output) / CARD
    path.write_text(text, encoding="utf-8")
    return path


def provenance_section(provenance: dict[str, str]) -> str:
    """The card's provenance list, and the same facts as JSON for machines."""
    items = "\n".join(f"- {key}: {value}" for key, value in provenance.items())
    return f"## Provenance\n\n{items}\n\n```json\n{json.dumps(provenance, indent=1)}\n```\n"


def push_to_hub(output: Path, repo_id: str) -> None:
    """Upload the folder as it is (the card, the parquet files, TempVS's images.zip) to the hub dataset ``repo_id``."""
    from huggingface_hub import HfApi

    api = HfApi()
    api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
    api.upload_folder(folder_path=str(output), repo_id=repo_id, repo_type="dataset")
