"""Colours of the Hero Forge pictures: seats, land classes and lands, unit levels.

Seats are told apart by colour *and* shape, as in every picture of this project: seat 0
Red circle, 1 Blue square, 2 Green triangle, 3 Orange diamond, 4 Purple hexagon, 5 Teal
star. Unit levels 1-10 each have their own colour (the rulebook: "different colour pieces
to represent the different level units"), light to dark.
"""

from __future__ import annotations

from rendering.shapes import RGB, Shape

SEAT_RGB: tuple[RGB, ...] = (
    (214, 40, 40),
    (38, 110, 225),
    (40, 150, 60),
    (240, 138, 28),
    (139, 63, 184),
    (20, 160, 160),
)
SEAT_SHAPES: tuple[Shape, ...] = ("circle", "square", "triangle", "diamond", "hexagon", "star")

PAGE: RGB = (38, 34, 30)
PANEL: RGB = (56, 50, 44)
PANEL_LINE: RGB = (92, 82, 70)
LIGHT: RGB = (240, 236, 228)
MUTED: RGB = (180, 172, 160)
INK: RGB = (24, 22, 20)
PAPER: RGB = (244, 238, 224)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
GOLD: RGB = (236, 196, 80)
RED_SQUARE: RGB = (200, 52, 44)
CONTESTED: RGB = (255, 214, 64)
GAP: RGB = (30, 27, 24)

LAND_RGB: dict[str, RGB] = {
    "plain": (226, 222, 206),
    "grassland": (150, 196, 104),
    "forest": (70, 130, 70),
    "hills": (176, 150, 100),
    "farmland": (214, 196, 110),
    "swamp": (96, 116, 86),
    "river": (110, 168, 204),
    "desert": (228, 200, 140),
    "mine": (140, 130, 126),
    "dragon_peak": (150, 80, 70),
    "gold_vault": (214, 170, 50),
    "wind_shrine": (170, 200, 220),
    "titan_forge": (110, 96, 140),
}
"""Fill colour of each land; an unknown land falls back to its class colour."""

CLASS_RGB: dict[str, RGB] = {
    "plain": (226, 222, 206),
    "basic": (160, 180, 120),
    "special": (190, 150, 80),
}

LEVEL_RGB: tuple[RGB, ...] = (
    (236, 236, 236),
    (200, 224, 170),
    (140, 200, 120),
    (90, 170, 190),
    (70, 120, 210),
    (120, 90, 200),
    (170, 70, 170),
    (210, 80, 110),
    (200, 110, 40),
    (30, 30, 30),
)
"""Colour of a unit piece by its level (index 0 is level 1)."""


def seat_rgb(seat: int | None) -> RGB:
    """The colour of ``seat`` (grey for None: nobody)."""
    if seat is None or seat < 0:
        return (128, 128, 128)
    return SEAT_RGB[seat % len(SEAT_RGB)]


def seat_shape(seat: int) -> Shape:
    """The token shape of ``seat``."""
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


def land_rgb(land: str, land_class: str) -> RGB:
    """The fill of a land plate."""
    return LAND_RGB.get(land, CLASS_RGB.get(land_class, (160, 160, 160)))


def level_rgb(level: int) -> RGB:
    """The colour of a unit piece of ``level`` (1-10)."""
    return LEVEL_RGB[max(1, min(10, level)) - 1]


def text_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else WHITE
