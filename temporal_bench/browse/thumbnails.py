"""The page's images: each source image shrunk once, embedded once (base64 WebP), named when missing.

The images are the files a run's samples name (lmms-eval's ``input_media``: a file, or a ``data:`` URI for an image
a doc holds as bytes), read where they are now. Cards refer to a thumbnail by id, so a strip shown by many questions
(a TempVS sequence's main and grounding questions) is stored once. An image that cannot be opened becomes a
placeholder that names it and the reason; the page's header counts them.
"""

from __future__ import annotations

import base64
import hashlib
import io
from dataclasses import dataclass, replace

# widths in pixels, never enlarged: a combined strip, one frame of a sequence, a single image
WIDTHS = {"strip": 360, "frame": 160, "image": 320}
# WebP: at these sizes a third of JPEG's bytes or less for the same look (its header is tens of
# bytes, JPEG's hundreds); every current browser shows it (benchmarks/RESULTS.md, "Browse page size")
FORMAT, MIME, QUALITY = "WEBP", "image/webp", 60


def source_name(source: str) -> str:
    """An image as a placeholder names it: its file, or a ``data:`` URI's type and digest (not its bytes)."""
    if not source.startswith("data:"):
        return source
    return f"{source.partition(',')[0]},... (an image the run logged inline, sha256 {hashlib.sha256(source.encode()).hexdigest()[:12]})"


def open_source(source: str):
    """The image of a file or a base64 ``data:`` URI, as a PIL image."""
    from PIL import Image

    stream = io.BytesIO(base64.b64decode(source.partition(",")[2])) if source.startswith("data:") else source
    with Image.open(stream) as image:
        return image.convert("RGB")


@dataclass(frozen=True)
class Thumb:
    """One image of a card: a thumbnail id, or the name of an image that could not be opened."""

    caption: str
    id: str = ""
    width: int = 0
    height: int = 0
    missing: str = ""  # the image's name when it could not be opened
    reason: str = ""


class Thumbnails:
    def __init__(self, widths: dict[str, int] | None = None):
        self.widths = {**WIDTHS, **(widths or {})}
        self.data: dict[str, str] = {}  # thumbnail id -> base64 image (MIME)
        self._made: dict[tuple[str, str], Thumb] = {}  # (source, role) -> the thumbnail made from it
        self.missing: dict[str, str] = {}  # image name -> why it could not be opened

    def add_source(self, source: str, role: str, caption: str) -> Thumb:
        """The thumbnail of an image file (or ``data:`` URI) a run's samples name, at the width of ``role``."""
        if (source, role) not in self._made:
            self._made[source, role] = self._make(role, source)
        return replace(self._made[source, role], caption=caption)

    def note_missing(self, caption: str, name: str, reason: str) -> Thumb:
        self.missing[name] = reason
        return Thumb(caption, missing=name, reason=reason)

    def _make(self, role: str, source: str) -> Thumb:
        try:
            image = open_source(source)
        except Exception as error:  # noqa: BLE001 - any failure becomes a named placeholder, counted
            return self.note_missing("", source_name(source), f"cannot be read ({type(error).__name__}: {error})")
        from PIL import Image

        width = min(self.widths[role], image.width)
        height = max(1, round(image.height * width / image.width))
        buffer = io.BytesIO()
        image.resize((width, height), Image.LANCZOS).save(buffer, format=FORMAT, quality=QUALITY)
        thumb_id = f"t{len(self.data)}"
        self.data[thumb_id] = base64.b64encode(buffer.getvalue()).decode("ascii")
        return Thumb("", thumb_id, width, height)
