"""The page's images: each source image shrunk once, embedded once (base64 WebP), named when missing.

The images are the files a run's samples name (lmms-eval's ``input_media``: a file, or a ``data:`` URI for an image
a doc holds as bytes), read where they are now. A card asks for its images (a :class:`Thumb` naming the source); once
the page's cards are chosen, :meth:`Thumbnails.make` makes each image asked for once, on threads (Pillow decodes,
resizes and encodes without holding the interpreter lock; a JPEG is decoded at the smallest scale the thumbnail
needs). Cards refer to a thumbnail by id, so a strip shown by many
questions (a TempVS sequence's main and grounding questions) is stored once. An image that cannot be opened becomes
a placeholder that names it and the reason; the page's header counts them.
"""

from __future__ import annotations

import base64
import hashlib
import io
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

# widths in pixels, never enlarged: a combined strip, one frame of a sequence, a single image
WIDTHS = {"strip": 360, "frame": 160, "image": 320}
# WebP: at these sizes a third of JPEG's bytes or less for the same look (its header is tens of
# bytes, JPEG's hundreds); every current browser shows it (benchmarks/RESULTS.md, "Browse page size"). Encoder
# effort 2 of 0-6: half the time of the default 4 for some 5% more bytes
FORMAT, MIME, QUALITY, METHOD = "WEBP", "image/webp", 60, 2


def source_name(source: str) -> str:
    """An image as a placeholder names it: its file, or a ``data:`` URI's type and digest (not its bytes)."""
    if not source.startswith("data:"):
        return source
    return f"{source.partition(',')[0]},... (an image the run logged inline, sha256 {hashlib.sha256(source.encode()).hexdigest()[:12]})"


def thumbnail(source: str, width: int) -> tuple[bytes, int, int]:
    """The image of a file or a base64 ``data:`` URI shrunk to ``width`` (at most its own): WebP bytes, width, height."""
    from PIL import Image

    stream = io.BytesIO(base64.b64decode(source.partition(",")[2])) if source.startswith("data:") else source
    with Image.open(stream) as image:
        width = min(width, image.width)
        height = max(1, round(image.height * width / image.width))
        image.draft("RGB", (width, height))  # a JPEG decoded at a scale no smaller than the thumbnail
        small = image.convert("RGB").resize((width, height), Image.Resampling.LANCZOS, reducing_gap=3.0)
    buffer = io.BytesIO()
    small.save(buffer, format=FORMAT, quality=QUALITY, method=METHOD)
    return buffer.getvalue(), width, height


@dataclass(frozen=True)
class Thumb:
    """One image of a card: asked for (its ``source`` and ``role``), then a thumbnail id, or the name of an image
    that could not be opened."""

    caption: str
    id: str = ""
    width: int = 0
    height: int = 0
    missing: str = ""  # the image's name when it could not be opened
    reason: str = ""
    source: str = ""  # the image file or data: URI asked for, until it is made
    role: str = ""


class Thumbnails:
    def __init__(self, widths: dict[str, int] | None = None):
        self.widths = {**WIDTHS, **(widths or {})}
        self.data: dict[str, str] = {}  # thumbnail id -> base64 image (MIME)
        self._made: dict[tuple[str, str], Thumb] = {}  # (source, role) -> the thumbnail made from it
        self.missing: dict[str, str] = {}  # image name -> why it could not be opened

    def make(self, asked: list[Thumb]) -> list[Thumb]:
        """The thumbnails of the images asked for: each image made once (in parallel, in the order first asked), one
        that cannot be read a placeholder naming it; every placeholder counted in :attr:`missing`."""
        keys = [key for key in dict.fromkeys((thumb.source, thumb.role) for thumb in asked if thumb.source) if key not in self._made]
        with ThreadPoolExecutor() as pool:
            for key, made in zip(keys, pool.map(self._make, keys)):
                if isinstance(made, Exception):
                    self._made[key] = Thumb("", missing=source_name(key[0]), reason=f"cannot be read ({type(made).__name__}: {made})")
                else:
                    self._made[key] = Thumb("", f"t{len(self.data)}", made[1], made[2])
                    self.data[self._made[key].id] = base64.b64encode(made[0]).decode("ascii")
        done = [replace(self._made[thumb.source, thumb.role], caption=thumb.caption) if thumb.source else thumb for thumb in asked]
        self.missing.update((thumb.missing, thumb.reason) for thumb in done if thumb.missing)
        return done

    def _make(self, key: tuple[str, str]) -> tuple[bytes, int, int] | Exception:
        try:
            return thumbnail(key[0], self.widths[key[1]])
        except Exception as error:  # noqa: BLE001 - any failure becomes a named placeholder, counted
            return error
