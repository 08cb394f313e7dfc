"""Colours of the mmh pictures: seats (colour and shape, as in every picture of this
project), terrain, encounter colours, the page."""

from __future__ import annotations

from rendering.shapes import RGB, Shape

SEAT_RGB: tuple[RGB, ...] = (
    (214, 40, 40),  # Red
    (38, 110, 225),  # Blue
    (40, 150, 60),  # Green
    (240, 138, 28),  # Orange
)
SEAT_SHAPES: tuple[Shape, ...] = ("circle", "square", "triangle", "diamond")

INK: RGB = (24, 22, 20)
PAPER: RGB = (244, 238, 224)
PAGE: RGB = (38, 34, 30)
PANEL: RGB = (56, 50, 44)
PANEL_LINE: RGB = (92, 82, 70)
LIGHT: RGB = (240, 236, 228)
MUTED: RGB = (180, 172, 160)
WHITE: RGB = (255, 255, 255)
GOLD: RGB = (236, 196, 80)
HIGHLIGHT: RGB = (255, 214, 64)
DARK_TIMES: RGB = (120, 40, 140)
RED_TILE: RGB = (200, 40, 40)

TERRAIN_RGB: dict[str, RGB] = {
    "open": (150, 186, 110),
    "water": (70, 130, 200),
    "mountain": (128, 116, 104),
    "harbour": (168, 196, 150),
}
ENCOUNTER_RGB: dict[str, RGB] = {
    "yellow": (238, 206, 72),
    "purple": (150, 84, 190),
    "gold": (214, 160, 40),
}
LOCATION_CODES: dict[str, str] = {
    "sawmill": "SM",
    "mine": "MI",
    "arcane_library": "AL",
    "stable": "ST",
    "arena": "AR",
    "crystal_cavern": "CC",
    "gold_mine": "GM",
    "armorsmith": "AS",
    "weaponsmith": "WS",
    "dragon_nexus": "DN",
    "crystal_of_revelation": "CR",
    "dragon_vein": "DV",
    "stone_of_enlightenment": "SE",
    "portal": "PO",
    "dragon_shrine": "DS",
}
"""Two-letter location codes drawn on the board (the legend spells them out)."""


def seat_rgb(seat: int | None) -> RGB:
    """The colour of ``seat`` (grey for None)."""
    if seat is None or seat < 0:
        return (128, 128, 128)
    return SEAT_RGB[seat % len(SEAT_RGB)]


def seat_shape(seat: int) -> Shape:
    """The token shape of ``seat``."""
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]
