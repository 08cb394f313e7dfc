"""Board icons: Town, Creature Dwelling and Object, in each state, as cached sprites.

Rule sections: homm4:movement-phase.scouting-terrain (the three icons),
homm4:movement-phase.towns / .creature-dwellings / .objects (identified, guarded,
captured), homm4:chipping-in-for-the-guard.

An icon is a silhouette: a castle (Town), a hut (Creature Dwelling) or a pennant (Object).
Its fill tells the state: grey with "?" (unidentified), parchment (identified), parchment
with a dark shield (guarded), the owner's colour (owned), dim with a cross (spent).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from PIL import Image, ImageDraw

from rendering.homm4.palette import INK, PAPER, darker
from rendering.shapes import RGB, supersampled

Kind = Literal["town", "dwelling", "object"]

UNKNOWN_FILL: RGB = (150, 150, 150)
SPENT_FILL: RGB = (110, 104, 98)


def _castle(d: ImageDraw.ImageDraw, s: float, size: int, fill: RGB, line: RGB) -> None:
    u = size * s / 100.0
    width = max(2, int(5 * u))
    body = [
        (14 * u, 92 * u),
        (14 * u, 26 * u),
        (26 * u, 26 * u),
        (26 * u, 36 * u),
        (38 * u, 36 * u),
        (38 * u, 14 * u),
        (46 * u, 14 * u),
        (46 * u, 24 * u),
        (54 * u, 24 * u),
        (54 * u, 14 * u),
        (62 * u, 14 * u),
        (62 * u, 36 * u),
        (74 * u, 36 * u),
        (74 * u, 26 * u),
        (86 * u, 26 * u),
        (86 * u, 92 * u),
    ]
    d.polygon(body, fill=(*fill, 255), outline=(*line, 255), width=width)
    d.rounded_rectangle((42 * u, 62 * u, 58 * u, 92 * u), radius=int(8 * u), fill=(*line, 255))


def _hut(d: ImageDraw.ImageDraw, s: float, size: int, fill: RGB, line: RGB) -> None:
    u = size * s / 100.0
    width = max(2, int(5 * u))
    d.polygon(
        [(50 * u, 10 * u), (92 * u, 50 * u), (8 * u, 50 * u)],
        fill=(*darker(fill, 0.8), 255),
        outline=(*line, 255),
        width=width,
    )
    d.rectangle(
        (20 * u, 50 * u, 80 * u, 90 * u), fill=(*fill, 255), outline=(*line, 255), width=width
    )
    d.rectangle((42 * u, 62 * u, 58 * u, 90 * u), fill=(*line, 255))


def _pennant(d: ImageDraw.ImageDraw, s: float, size: int, fill: RGB, line: RGB) -> None:
    u = size * s / 100.0
    width = max(2, int(5 * u))
    d.ellipse((18 * u, 80 * u, 82 * u, 96 * u), fill=(*line, 255))
    d.rectangle((26 * u, 8 * u, 35 * u, 90 * u), fill=(*line, 255))
    d.polygon(
        [(35 * u, 10 * u), (88 * u, 30 * u), (35 * u, 52 * u)],
        fill=(*fill, 255),
        outline=(*line, 255),
        width=width,
    )


_PAINT = {"town": _castle, "dwelling": _hut, "object": _pennant}


@cache
def site_icon(kind: Kind, fill: RGB, size: int) -> Image.Image:
    """The ``kind`` silhouette filled with ``fill``: an RGBA sprite ``size`` px square."""

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        _PAINT[kind](d, s, size, fill, INK)

    return supersampled((size, size), paint)


@cache
def shield(size: int, fill: RGB = (40, 36, 34), rim: RGB = PAPER) -> Image.Image:
    """A Guard shield sprite ``size`` px square (a Guard Stack stands on the site)."""

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        u = size * s / 100.0
        outline = [
            (10 * u, 8 * u),
            (90 * u, 8 * u),
            (90 * u, 46 * u),
            (50 * u, 94 * u),
            (10 * u, 46 * u),
        ]
        d.polygon(outline, fill=(*rim, 255))
        inner = [
            (20 * u, 18 * u),
            (80 * u, 18 * u),
            (80 * u, 44 * u),
            (50 * u, 80 * u),
            (20 * u, 44 * u),
        ]
        d.polygon(inner, fill=(*fill, 255))

    return supersampled((size, size), paint)


@cache
def crossed_swords(size: int, colour: RGB, edge: RGB) -> Image.Image:
    """Two crossed swords ``size`` px square: the battle marker."""

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        u = size * s / 100.0
        for flip in (False, True):

            def at(x: float, y: float, flip: bool = flip) -> tuple[float, float]:
                return ((100 - x) * u if flip else x * u, y * u)

            for width, ink in ((16, edge), (9, colour)):
                d.line([at(14, 14), at(80, 80)], fill=(*ink, 255), width=int(width * u))
                d.line([at(62, 86), at(86, 62)], fill=(*ink, 255), width=int(width * u))

    return supersampled((size, size), paint)


COIN_GOLD: RGB = (236, 196, 80)
COIN_DARK: RGB = (58, 46, 24)
CARD_BACK: RGB = (74, 44, 96)


@cache
def coin(size: int, found: bool) -> Image.Image:
    """An underground entrance coin ``size`` px across
    (homm4:terrain-map-sections-with-underground): solid gold once found, a dark coin with a
    gold rim while not found yet."""

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        u = size * s / 100.0
        d.ellipse((2 * u, 2 * u, 98 * u, 98 * u), fill=(*INK, 255))
        fill = COIN_GOLD if found else COIN_DARK
        d.ellipse((8 * u, 8 * u, 92 * u, 92 * u), fill=(*fill, 255))
        if not found:
            d.ellipse((8 * u, 8 * u, 92 * u, 92 * u), outline=(*COIN_GOLD, 255), width=int(9 * u))

    return supersampled((size, size), paint)


@cache
def face_down_card(width: int, rim: RGB) -> Image.Image:
    """A face-down card ``width`` px wide (height 4/3 of it) with a rim in ``rim`` (its
    player's colour): the Object token over a dead Hero lying on the board
    (homm4:advanced-rules.resurrecting-fallen-heroes)."""
    height = width * 4 // 3

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        w, h = width * s, height * s
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=w * 0.16, fill=(*INK, 255))
        inset = max(2.0, w * 0.1)
        d.rounded_rectangle(
            (inset, inset, w - 1 - inset, h - 1 - inset),
            radius=w * 0.1,
            fill=(*CARD_BACK, 255),
            outline=(*rim, 255),
            width=max(2, int(w * 0.1)),
        )

    return supersampled((width, height), paint)
