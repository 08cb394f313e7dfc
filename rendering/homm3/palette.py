"""Colours and shapes of the homm3 pictures.

Seats are told apart by colour and shape as in every picture of this project (Red circle,
Blue square). Obstacle kinds, deployment zones, unit tiers and Morale have their own
colours; every colour pairs with a text label, so nothing depends on colour alone.
"""

from __future__ import annotations

from rendering.shapes import RGB, Shape

SEAT_RGB: tuple[RGB, ...] = ((214, 40, 40), (38, 110, 225))
SEAT_SHAPES: tuple[Shape, ...] = ("circle", "square")

PAGE: RGB = (34, 31, 28)
PANEL: RGB = (54, 48, 42)
PANEL_LINE: RGB = (92, 82, 70)
LIGHT: RGB = (240, 236, 228)
MUTED: RGB = (172, 164, 152)
DIM: RGB = (120, 112, 102)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
GOLD: RGB = (236, 196, 80)
GREEN: RGB = (96, 190, 96)
RED: RGB = (226, 80, 70)

GRASS: RGB = (112, 140, 84)
GRASS_LINE: RGB = (86, 110, 64)
ZONE: RGB = (134, 138, 128)
ZONE_LINE: RGB = (104, 108, 100)

PLACED_RGB: dict[str, RGB] = {
    "obstacle": (104, 84, 62),
    "wall": (150, 146, 138),
    "gate": (132, 92, 52),
    "fire_wall": (232, 110, 36),
    "force_field": (96, 196, 214),
}
"""Fill of each kind of thing placed on the board."""

TIER_RGB: dict[str, RGB] = {
    "bronze": (196, 130, 72),
    "silver": (190, 196, 204),
    "gold": (236, 196, 80),
}
"""Tier colour (a ring on unit tokens, a dot in lists)."""

FACTION_RGB: dict[str, RGB] = {
    "castle": (47, 95, 179),
    "necropolis": (75, 125, 90),
    "dungeon": (122, 61, 156),
}


def seat_rgb(seat: int) -> RGB:
    """The seat's colour."""
    return SEAT_RGB[seat % len(SEAT_RGB)]


def seat_shape(seat: int) -> Shape:
    """The seat's token shape."""
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


def text_on(rgb: RGB) -> RGB:
    """Black or white, whichever reads better on ``rgb``."""
    luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return BLACK if luma > 150 else WHITE


def darker(rgb: RGB, by: float = 0.75) -> RGB:
    """``rgb`` darkened by the factor ``by``."""
    return (int(rgb[0] * by), int(rgb[1] * by), int(rgb[2] * by))
