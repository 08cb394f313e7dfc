"""Terrain looks: a fill colour plus a pattern per terrain type, as cached hex tiles.

Rule sections: homm4:movement-phase.movement-points-and-terrain (the Terrain Map legend),
homm4:advanced-rules.native-and-special-lands.

Each terrain of the legend (``engine/homm4/data/terrain.toml``) is matched by its name to a
look: Grass has tufts, Forest trees, Swamp reeds, Snow flakes, Water waves, Mountains
peaks... so that types stay apart in greyscale too. Special lands get a gold inner ring on
top of their pattern. A terrain no look matches gets one derived from its code (stable
across runs). A hex tile is drawn once per (look, size) at 4x and reduced: pasting cached
tiles draws a whole board in a few milliseconds.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from functools import cache
from typing import Literal

from PIL import Image, ImageDraw

from engine.homm4.maps import Terrain
from rendering.homm4.palette import darker, lighter
from rendering.shapes import RGB, SUPERSAMPLE

Pattern = Literal[
    "tufts",
    "dots",
    "trees",
    "reeds",
    "flakes",
    "hatch",
    "cracks",
    "crosses",
    "waves",
    "peaks",
    "bricks",
    "stipple",
    "pebbles",
    "rings",
    "sparks",
]


@dataclass(frozen=True)
class TerrainLook:
    """How one terrain is drawn: ``fill`` colour, ``ink`` for the ``pattern``, ``ring`` for
    special lands."""

    fill: RGB
    ink: RGB
    pattern: Pattern
    ring: bool = False


# (name keywords, look), tried in order: the first whose keyword occurs in the lowercased
# terrain name wins. Specific names come before general ones ("volcanic" before "volcano").
_LOOKS: tuple[tuple[tuple[str, ...], TerrainLook], ...] = (
    (("enchanted",), TerrainLook((160, 184, 214), (52, 84, 150), "sparks", ring=True)),
    (("glory",), TerrainLook((232, 140, 56), (120, 56, 16), "sparks", ring=True)),
    (("fields of life", "life"), TerrainLook((246, 204, 214), (170, 70, 100), "sparks", ring=True)),
    (("garden",), TerrainLook((96, 200, 170), (20, 100, 80), "sparks", ring=True)),
    (("scorched",), TerrainLook((150, 70, 40), (250, 170, 60), "sparks", ring=True)),
    (("cave wall", "cave-wall", "rock wall"), TerrainLook((58, 50, 46), (26, 22, 20), "bricks")),
    (("lava",), TerrainLook((214, 78, 30), (255, 214, 70), "cracks")),
    (("volcanic",), TerrainLook((96, 82, 80), (44, 34, 34), "hatch")),
    (("volcano",), TerrainLook((120, 56, 44), (250, 150, 60), "peaks")),
    (("mountain",), TerrainLook((140, 124, 104), (70, 58, 46), "peaks")),
    (
        ("water", "sea", "lake", "river", "ocean"),
        TerrainLook((58, 120, 200), (200, 228, 255), "waves"),
    ),
    (("cursed",), TerrainLook((112, 94, 128), (48, 36, 60), "crosses")),
    (("snow", "ice", "tundra"), TerrainLook((236, 242, 248), (110, 150, 196), "flakes")),
    (("swamp", "marsh", "bog"), TerrainLook((104, 124, 64), (40, 56, 22), "reeds")),
    (("forest", "wood"), TerrainLook((54, 112, 52), (20, 58, 22), "trees")),
    (("grass",), TerrainLook((142, 196, 92), (70, 124, 40), "tufts")),
    (("dirt",), TerrainLook((160, 116, 74), (92, 62, 34), "dots")),
    (("wasteland", "rough", "badland"), TerrainLook((222, 188, 112), (128, 92, 40), "cracks")),
    (("sand", "desert", "beach"), TerrainLook((242, 226, 168), (176, 146, 80), "stipple")),
    (("subterran", "underground", "cave"), TerrainLook((128, 118, 106), (70, 62, 54), "pebbles")),
)

_FALLBACK_PATTERNS: tuple[Pattern, ...] = ("rings", "dots", "hatch", "stipple", "pebbles")


def look_for(code: str, terrain: Terrain | None) -> TerrainLook:
    """Return the look of terrain ``code`` (its legend entry ``terrain`` if known).

    Matches the terrain's name (or the code itself when the legend lacks it); cave walls
    and special lands are recognised by their legend flags as well.
    """
    name = (terrain.name if terrain else code).lower()
    for keywords, look in _LOOKS:
        if any(word in name for word in keywords):
            if terrain is not None and terrain.special and not look.ring:
                return TerrainLook(look.fill, look.ink, look.pattern, ring=True)
            return look
    if terrain is not None and terrain.cave_wall:
        return _LOOKS[5][1]
    digest = zlib.crc32(code.encode("utf-8"))
    hue = (digest % 360) / 360.0
    fill = _hsv(hue, 0.35, 0.78)
    pattern = _FALLBACK_PATTERNS[(digest >> 9) % len(_FALLBACK_PATTERNS)]
    special = terrain is not None and terrain.special
    return TerrainLook(fill, darker(fill, 0.45), pattern, ring=special)


def _hsv(h: float, s: float, v: float) -> RGB:
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r, g, b = ((v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q))[i]
    return (int(r * 255), int(g * 255), int(b * 255))


def hex_polygon(cx: float, cy: float, w: float, h: float) -> list[tuple[float, float]]:
    """The pointy-top hex of width ``w`` and height ``h`` centred on ``(cx, cy)``."""
    return [
        (cx, cy - h / 2),
        (cx + w / 2, cy - h / 4),
        (cx + w / 2, cy + h / 4),
        (cx, cy + h / 2),
        (cx - w / 2, cy + h / 4),
        (cx - w / 2, cy - h / 4),
    ]


@cache
def hex_tile(look: TerrainLook, w: int, h: int, outline: bool = True) -> Image.Image:
    """Return an RGBA tile ``w`` x ``h`` px: the hex filled and patterned per ``look``.

    The tile's centre is the hex centre; adjacent tiles pasted at the lattice spacing
    (``w`` across, ``3h/4`` down) meet edge to edge. ``outline`` draws the hex grid line.
    """
    s = SUPERSAMPLE
    big_w, big_h = w * s, h * s
    colour = Image.new("RGB", (big_w, big_h), look.fill)
    draw = ImageDraw.Draw(colour)
    _PAINTERS[look.pattern](draw, big_w / 2, big_h / 2, float(big_w), float(big_h), look.ink)
    polygon = hex_polygon(big_w / 2, big_h / 2, big_w, big_h)
    if look.ring:
        inner = hex_polygon(big_w / 2, big_h / 2, big_w * 0.8, big_h * 0.8)
        draw.polygon(inner, outline=(236, 196, 80), width=max(2, int(big_w * 0.045)))
    if outline:
        draw.polygon(polygon, outline=darker(look.fill, 0.5), width=max(2, int(s * 1.25)))
    mask = Image.new("L", (big_w, big_h), 0)
    ImageDraw.Draw(mask).polygon(polygon, fill=255)
    tile = colour.reduce(s).convert("RGBA")
    tile.putalpha(mask.reduce(s))
    return tile


# ------------------------------------------------------------------------ patterns
# Each painter draws on the 4x tile: centre (cx, cy), hex size (w, h), in colour ink.
# Glyph patterns use six fixed spots around the centre (the centre holds icons/tokens).
_SPOTS = ((-0.24, -0.2), (0.24, -0.2), (-0.34, 0.08), (0.34, 0.08), (-0.14, 0.3), (0.14, 0.3))


def _spots(cx: float, cy: float, w: float) -> list[tuple[float, float]]:
    return [(cx + dx * w, cy + dy * w) for dx, dy in _SPOTS]


def _line_w(w: float, share: float = 0.03) -> int:
    return max(2, int(w * share))


def _tufts(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    u = w * 0.06
    for x, y in _spots(cx, cy, w):
        for dx in (-1.0, 0.0, 1.0):
            d.line(
                [(x + dx * u * 0.5, y + u), (x + dx * u, y - u * (1.2 if dx == 0 else 0.7))],
                fill=ink,
                width=_line_w(w, 0.022),
            )


def _dots(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    r = w * 0.03
    for x, y in _spots(cx, cy, w):
        for dx, dy in ((0.0, 0.0), (0.06, 0.04), (-0.05, 0.05)):
            px, py = x + dx * w, y + dy * w
            d.ellipse((px - r, py - r, px + r, py + r), fill=ink)


def _trees(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    u = w * 0.085
    crown = lighter(ink, 0.25)
    for x, y in _spots(cx, cy, w):
        d.rectangle((x - u * 0.12, y + u * 0.4, x + u * 0.12, y + u * 0.95), fill=ink)
        d.polygon(
            [(x, y - u * 1.1), (x + u * 0.75, y + u * 0.5), (x - u * 0.75, y + u * 0.5)],
            fill=crown,
            outline=ink,
            width=_line_w(w, 0.012),
        )


def _reeds(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    u = w * 0.07
    for x, y in _spots(cx, cy, w):
        d.line([(x - u * 1.1, y + u), (x + u * 1.1, y + u)], fill=ink, width=_line_w(w, 0.02))
        for dx in (-0.5, 0.0, 0.5):
            d.line(
                [(x + dx * u, y + u), (x + dx * u * 1.4, y - u * (0.9 if dx else 1.3))],
                fill=ink,
                width=_line_w(w, 0.016),
            )


def _flakes(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    u = w * 0.06
    for x, y in _spots(cx, cy, w):
        for angle in (90.0, 30.0, 150.0):
            a = math.radians(angle)
            d.line(
                [
                    (x - u * math.cos(a), y - u * math.sin(a)),
                    (x + u * math.cos(a), y + u * math.sin(a)),
                ],
                fill=ink,
                width=_line_w(w, 0.018),
            )


def _hatch(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    step = w / 6
    for i in range(-8, 9):
        x0 = cx + i * step
        d.line(
            [(x0 - h / 2, cy - h / 2), (x0 + h / 2, cy + h / 2)], fill=ink, width=_line_w(w, 0.02)
        )


def _cracks(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    u = w * 0.07
    for x, y in _spots(cx, cy, w):
        d.line(
            [
                (x - u * 1.2, y - u * 0.3),
                (x - u * 0.4, y + u * 0.4),
                (x + u * 0.3, y - u * 0.4),
                (x + u * 1.2, y + u * 0.3),
            ],
            fill=ink,
            width=_line_w(w, 0.022),
        )


def _crosses(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    u = w * 0.06
    for x, y in _spots(cx, cy, w):
        d.line([(x, y - u * 1.2), (x, y + u)], fill=ink, width=_line_w(w, 0.025))
        d.line(
            [(x - u * 0.6, y - u * 0.45), (x + u * 0.6, y - u * 0.45)],
            fill=ink,
            width=_line_w(w, 0.025),
        )


def _waves(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    amp, period = h * 0.035, w / 3.0
    for row in range(-3, 4):
        y0 = cy + row * h * 0.16
        points = []
        for i in range(49):
            x = cx - w / 2 + w * i / 48
            points.append((x, y0 + amp * math.sin(2 * math.pi * (x - cx) / period + row)))
        d.line(points, fill=ink, width=_line_w(w, 0.022))


def _peaks(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    cap = (240, 240, 236)
    for px, py, size in ((-0.2, 0.1, 0.3), (0.17, 0.16, 0.26), (0.0, -0.12, 0.34)):
        x, y, u = cx + px * w, cy + py * w, size * w
        d.polygon(
            [(x, y - u * 0.6), (x + u * 0.55, y + u * 0.35), (x - u * 0.55, y + u * 0.35)],
            fill=lighter(ink, 0.2),
            outline=ink,
            width=_line_w(w, 0.015),
        )
        d.polygon(
            [(x, y - u * 0.6), (x + u * 0.16, y - u * 0.31), (x - u * 0.16, y - u * 0.31)], fill=cap
        )


def _bricks(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    rows, width = 7, _line_w(w, 0.02)
    for row in range(rows + 1):
        y = cy - h / 2 + row * h / rows
        d.line([(cx - w / 2, y), (cx + w / 2, y)], fill=ink, width=width)
        shift = (row % 2) * w / 8
        for i in range(-1, 5):
            x = cx - w / 2 + shift + i * w / 4
            d.line([(x, y), (x, y + h / rows)], fill=ink, width=width)


def _stipple(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    r = w * 0.014
    for i in range(-5, 6):
        for j in range(-6, 7):
            x = cx + i * w * 0.09 + (j % 2) * w * 0.045
            y = cy + j * h * 0.075
            d.ellipse((x - r, y - r, x + r, y + r), fill=ink)


def _pebbles(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    for x, y in _spots(cx, cy, w):
        u = w * 0.045
        d.ellipse(
            (x - u * 1.2, y - u * 0.7, x + u * 1.2, y + u * 0.7),
            outline=ink,
            width=_line_w(w, 0.018),
        )


def _rings(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    for x, y in _spots(cx, cy, w):
        u = w * 0.05
        d.ellipse((x - u, y - u, x + u, y + u), outline=ink, width=_line_w(w, 0.02))


def _sparks(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB) -> None:
    u = w * 0.06
    for x, y in _spots(cx, cy, w)[:4]:
        d.polygon(
            [
                (x, y - u),
                (x + u * 0.3, y - u * 0.3),
                (x + u, y),
                (x + u * 0.3, y + u * 0.3),
                (x, y + u),
                (x - u * 0.3, y + u * 0.3),
                (x - u, y),
                (x - u * 0.3, y - u * 0.3),
            ],
            fill=ink,
        )


_PAINTERS = {
    "tufts": _tufts,
    "dots": _dots,
    "trees": _trees,
    "reeds": _reeds,
    "flakes": _flakes,
    "hatch": _hatch,
    "cracks": _cracks,
    "crosses": _crosses,
    "waves": _waves,
    "peaks": _peaks,
    "bricks": _bricks,
    "stipple": _stipple,
    "pebbles": _pebbles,
    "rings": _rings,
    "sparks": _sparks,
}
