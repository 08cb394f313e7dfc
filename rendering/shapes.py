"""Anti-aliased sprites (token shapes, icons) drawn 4x large and reduced, cached per size.

Pillow's polygon and ellipse drawing is not anti-aliased; drawing a small sprite at four
times its size and reducing it gives smooth edges for a few hundred microseconds, once per
(shape, size, colours) for the whole process.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Literal, Protocol

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
Shape = Literal["circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon"]

SUPERSAMPLE = 4


class PasteTarget(Protocol):
    """What a sprite can be pasted on besides a PIL image: a recording canvas
    (`rendering.scene.Surface`), named here by shape so this module needs no import of
    the scene (rendering's modules form no cycle)."""

    def paste(
        self, image: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None
    ) -> None:
        """Paste ``image`` with its top-left corner at ``xy`` (px) through ``mask``."""


def shape_points(shape: Shape, cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """Return the polygon of ``shape`` centred on ``(cx, cy)`` filling a circle of ``radius``.

    Every shape is scaled to look about as heavy as the circle of that radius.
    :raises ValueError: for ``circle`` (not a polygon; draw an ellipse).
    """
    if shape == "circle":
        raise ValueError("a circle is not a polygon")
    corners, turn, scale, inner = {
        "square": (4, 45.0, 1.22, None),
        "triangle": (3, -90.0, 1.32, None),
        "diamond": (4, -90.0, 1.3, None),
        "hexagon": (6, -90.0, 1.1, None),
        "pentagon": (5, -90.0, 1.15, None),
        "star": (5, -90.0, 1.35, 0.5),
    }[shape]
    r = radius * scale
    points: list[tuple[float, float]] = []
    steps = corners * (2 if inner else 1)
    for i in range(steps):
        angle = math.radians(turn + 360.0 * i / steps)
        rr = r * inner if inner and i % 2 else r
        points.append((cx + rr * math.cos(angle), cy + rr * math.sin(angle)))
    if shape == "triangle":  # sit the triangle's centre of mass a little lower
        points = [(x, y + r * 0.12) for x, y in points]
    return points


def draw_shape(
    draw: ImageDraw.ImageDraw,
    shape: Shape,
    cx: float,
    cy: float,
    radius: float,
    fill: RGB | tuple[int, int, int, int],
    outline: RGB | tuple[int, int, int, int] | None = None,
    width: int = 0,
) -> None:
    """Draw ``shape`` (aliased) with ``draw``; used on 4x sprite canvases."""
    if shape == "circle":
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        draw.ellipse(box, fill=fill, outline=outline, width=width)
    else:
        draw.polygon(shape_points(shape, cx, cy, radius), fill=fill, outline=outline, width=width)


def supersampled(
    size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, float], None]
) -> Image.Image:
    """Return an RGBA sprite of ``size`` painted by ``paint(draw, scale)`` at 4x, then reduced.

    ``paint`` receives the drawing and the scale factor to multiply its coordinates by.
    """
    big = Image.new("RGBA", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), float(SUPERSAMPLE))
    return big.reduce(SUPERSAMPLE)


@cache
def token(shape: Shape, diameter: int, fill: RGB, ring: RGB, halo: RGB) -> Image.Image:
    """An Army token sprite: ``shape`` in ``fill`` with a ``ring`` outline and a ``halo``.

    The sprite is ``diameter + 4`` pixels square; its centre is the token's centre.
    """
    side = diameter + 4

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        c = side * s / 2
        r = diameter * s / 2
        draw_shape(draw, shape, c, c, r, fill=(*halo, 255))
        draw_shape(draw, shape, c, c, r - 2.2 * s, fill=(*ring, 255))
        draw_shape(draw, shape, c, c, r - 4.4 * s, fill=(*fill, 255))

    return supersampled((side, side), paint)


@cache
def badge(shape: Shape, diameter: int, fill: RGB, outline: RGB) -> Image.Image:
    """A small ``shape`` sprite (owner marks, legend keys): ``diameter + 2`` px square."""
    side = diameter + 2

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        c = side * s / 2
        draw_shape(draw, shape, c, c, diameter * s / 2, fill=(*outline, 255))
        draw_shape(draw, shape, c, c, diameter * s / 2 - 1.6 * s, fill=(*fill, 255))

    return supersampled((side, side), paint)


def alpha_paste(
    target: Image.Image | PasteTarget, sprite: Image.Image, xy: tuple[int, int]
) -> None:
    """Paste the RGBA ``sprite`` onto the RGB ``target`` with its top-left corner at ``xy``
    (pixels), through its own alpha: what ``target.paste(sprite, xy, sprite)`` does, the same
    pixels, without that method's checks and conversions.

    A picture pastes hundreds of text sprites and tiles, and `Image.paste`'s Python part
    (argument forms, ``load``, mode checks) cost twice its pixel work on these small sprites
    (docs/PERFORMANCE.md). Any other pair of modes goes through `Image.paste`; a recording
    canvas's `rendering.scene.Surface` records the paste.
    """
    if not isinstance(target, Image.Image):
        target.paste(sprite, xy, sprite)
        return
    if target.mode != "RGB" or sprite.mode != "RGBA" or target.readonly:
        target.paste(sprite, xy, sprite)
        return
    x0, y0 = xy
    width, height = sprite.size
    core = sprite.im
    target.im.paste(core, (x0, y0, x0 + width, y0 + height), core)


def paste_centred(
    target: Image.Image | PasteTarget, sprite: Image.Image, cx: int, cy: int
) -> tuple[int, int, int, int]:
    """Alpha-paste ``sprite`` centred on ``(cx, cy)``; return the box it covers."""
    x0 = cx - sprite.width // 2
    y0 = cy - sprite.height // 2
    alpha_paste(target, sprite, (x0, y0))
    return (x0, y0, x0 + sprite.width, y0 + sprite.height)
