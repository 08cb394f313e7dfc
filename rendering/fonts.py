"""The fonts every image uses: Roboto, shipped by the `font-roboto` package (a dependency).

Fonts are loaded once per (weight, size) and cached for the process. A FreeType face is not
safe to use from two threads at once, and the bot renders in worker threads
(`asyncio.to_thread`), so every use of a font goes through `FONT_LOCK`.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Literal

import font_roboto  # type: ignore[import-untyped]
from PIL import ImageFont

Weight = Literal["regular", "medium", "bold"]

_FILES: dict[Weight, str] = {
    "regular": font_roboto.Roboto,
    "medium": font_roboto.RobotoMedium,
    "bold": font_roboto.RobotoBold,
}


FONT_LOCK = threading.RLock()
"""Held while a font measures or renders text (see the module docstring)."""


def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """Return Roboto at ``size`` pixels (em height) in ``weight``.

    :raises ValueError: if ``size`` is not positive.
    :raises OSError: if the font-roboto package's TTF file is missing (broken install).
    """
    if size <= 0:
        raise ValueError(f"font size must be positive, got {size}")
    with FONT_LOCK:
        return _load(size, weight)


@cache
def _load(size: int, weight: Weight) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(_FILES[weight], size)
