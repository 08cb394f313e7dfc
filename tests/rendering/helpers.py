"""Pixel and text helpers for the rendering tests."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

from rendering.canvas import Box, Drawing
from rendering.fonts import font

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(data: bytes) -> Image.Image:
    """Open encoded image bytes."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def share_of_colour(
    drawing: Drawing, box: Box, colour: tuple[int, int, int], tolerance: int = 0
) -> float:
    """The share (0..1) of pixels in ``box`` whose RGB is within ``tolerance`` of ``colour``."""
    region = drawing.image.crop(box).convert("RGB")
    area = region.width * region.height
    counts = region.getcolors(maxcolors=area) or []
    close = sum(
        n
        for n, p in counts
        if isinstance(p, tuple)
        and all(abs(a - b) <= tolerance for a, b in zip(p, colour, strict=True))
    )
    return close / max(1, area)


@cache
def _tofu() -> bytes:
    return bytes(font(40, "bold").getmask("\uffff"))


def missing_glyphs(texts: list[str]) -> set[str]:
    """Characters of ``texts`` that Roboto draws as the missing-glyph box."""
    face = font(40, "bold")
    tofu = _tofu()
    return {
        ch for ch in set("".join(texts)) if not ch.isspace() and bytes(face.getmask(ch)) == tofu
    }


def inside(inner: Box, outer: Box, slack: int = 0) -> bool:
    """Whether ``inner`` lies within ``outer`` (give or take ``slack`` px)."""
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share any pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
