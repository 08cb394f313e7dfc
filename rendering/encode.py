"""Image encodings: lossless formats that keep text sharp, chosen for speed and size.

Measured on this project's images (docs/RENDERING.md): a 256-colour palette PNG is the
default. Our pictures are flat colours, patterns and anti-aliased text, which fit a palette
without visible loss, and quantising first makes the PNG both smaller (about 40% of an RGB
PNG's bytes) and faster to compress than RGB at zlib level 1. Lossless WebP at method 0 is
no smaller and slower. `encode` also guarantees the size budget: an RGB PNG over `MAX_BYTES`
is re-encoded as a palette PNG.

The palette PNG's pixels are compressed by ISA-L (the ``isal`` package, Intel's
deflate), not by Pillow's zlib: on the homm4 board the same stream takes about a sixth
of the time for 3-4 % more bytes (docs/PERFORMANCE.md), and compressing was half of the
CPU of a picture. The PNG around it (signature, IHDR, PLTE, one IDAT, IEND) is written
here, as the PNG specification lays it out; every PNG reader decodes it.
"""

from __future__ import annotations

import io
import struct
import zlib
from enum import StrEnum

from isal import isal_zlib
from PIL import Image

MAX_BYTES = 1_000_000
"""The size budget of one image (bytes). Discord previews larger files slowly on phones."""

MAX_WIDTH = 1600
"""The widest image any renderer produces (pixels)."""


class ImageFormat(StrEnum):
    """A lossless encoding. The value names it on the command line."""

    PALETTE_PNG = "palette.png"
    """256 colours (fast octree quantiser, no dithering), zlib level 3: the default."""
    PNG = "png"
    """RGB PNG, zlib level 1: exact colours, about twice the bytes."""
    WEBP = "webp"
    """Lossless WebP, method 0, effort 50."""

    @property
    def extension(self) -> str:
        """The file name extension without a dot (``png`` or ``webp``)."""
        return "webp" if self is ImageFormat.WEBP else "png"

    @property
    def mime(self) -> str:
        """The MIME type (``image/png`` or ``image/webp``)."""
        return f"image/{self.extension}"


DEFAULT_FORMAT = ImageFormat.PALETTE_PNG


def encode(image: Image.Image, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """Encode ``image`` losslessly in ``fmt``; deterministic (no timestamps, no metadata).

    An RGB PNG that would exceed `MAX_BYTES` is re-encoded as a palette PNG (still a PNG,
    so the caller's file name stays right).

    :raises ValueError: if the image is wider than `MAX_WIDTH` pixels.
    """
    if image.width > MAX_WIDTH:
        raise ValueError(f"image is {image.width} px wide; the limit is {MAX_WIDTH}")
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if fmt is ImageFormat.WEBP:
        return _save(rgb, "WEBP", lossless=True, method=0, quality=50, exact=True)
    if fmt is ImageFormat.PNG:
        data = _save(rgb, "PNG", compress_level=1)
        if len(data) <= MAX_BYTES:
            return data
    return _palette_png(rgb)


PALETTE_SAMPLE = 4
"""The palette is chosen from every 4th pixel of every 4th row (see `_palette_png`)."""


def _palette_png(rgb: Image.Image) -> bytes:
    """256 colours, no dithering (text edges stay clean).

    The fast octree quantiser chooses the palette from a 1-in-16 sample of the pixels
    (every `PALETTE_SAMPLE`-th pixel of every `PALETTE_SAMPLE`-th row); every pixel is then
    mapped to its nearest palette colour. Any colour covering a 4 × 4 px square is in the
    sample, and our pictures are flat colours, patterns and text, so the result is as close
    to the original as quantising every pixel (mean error under one level per channel on
    the board, battlefield and hand) for half the encoding time: quantising every pixel was
    the largest single cost of posting a picture (docs/PERFORMANCE.md).
    """
    sample = rgb.resize(
        (max(1, rgb.width // PALETTE_SAMPLE), max(1, rgb.height // PALETTE_SAMPLE)),
        Image.Resampling.NEAREST,
    )
    palette = sample.quantize(
        colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    quantised = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    return palette_png(quantised)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

ISAL_LEVEL = 1
"""ISA-L's compression level for a palette PNG's pixels (0-3). Level 1 and 2 are within
1 % of each other's bytes and time on our pictures; 3 is 4x slower and no smaller."""


def palette_png(image: Image.Image, level: int = ISAL_LEVEL) -> bytes:
    """The PNG of the palette image ``image`` (mode ``P``, 8 bits a pixel, no transparency):
    its pixels unfiltered (filter type 0 on every row: filters predict neighbouring
    values, which palette indices are not, so PNG encoders leave palette rows unfiltered
    too), deflated by ISA-L at ``level`` (0-3, default `ISAL_LEVEL`). Deterministic; no
    metadata.

    :raises ValueError: if ``image`` is not a palette image, or its palette is empty or
        holds more than 256 colours; or for a ``level`` outside 0-3.
    """
    if image.mode != "P":
        raise ValueError(f"a palette PNG is made from a palette image, not mode {image.mode}")
    colours = image.getpalette() or []
    if not colours or len(colours) > 768:
        raise ValueError(f"a palette holds 1 to 256 colours, not {len(colours) // 3}")
    if not 0 <= level <= 3:
        raise ValueError(f"ISA-L's compression levels are 0 to 3, not {level}")
    width, height = image.size
    rows = Image.new("P", (width + 1, height), 0)  # column 0: each row's filter type byte
    rows.paste(image, (1, 0))
    pixels = isal_zlib.compress(rows.tobytes(), level)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours)),
            _chunk(b"IDAT", pixels),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC-32 of type and data."""
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
    )


def _save(image: Image.Image, kind: str, **params: object) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **params)
    return out.getvalue()
