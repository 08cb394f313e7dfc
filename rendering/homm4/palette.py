"""Colours and shapes of the homm4 pictures: seats, factions and the page itself.

Seats are told apart by colour *and* shape (colour-blind players, greyscale phones): seat
0 Red circle, 1 Blue square, 2 Green triangle, 3 Orange diamond, 4 Purple hexagon,
5 Teal star (names from `engine.core.model.SEAT_COLOURS`).
"""

from __future__ import annotations

from engine.core.model import seat_name
from engine.homm4.cards import Faction
from rendering.shapes import RGB, Shape

SEAT_RGB: tuple[RGB, ...] = (
    (214, 40, 40),  # Red
    (38, 110, 225),  # Blue
    (40, 150, 60),  # Green
    (240, 138, 28),  # Orange
    (139, 63, 184),  # Purple
    (20, 160, 160),  # Teal
)
SEAT_SHAPES: tuple[Shape, ...] = ("circle", "square", "triangle", "diamond", "hexagon", "star")

NEUTRAL_RGB: RGB = (128, 128, 128)
INK: RGB = (24, 22, 20)
PAPER: RGB = (244, 238, 224)
PAGE: RGB = (38, 34, 30)
PANEL: RGB = (56, 50, 44)
PANEL_LINE: RGB = (92, 82, 70)
LIGHT: RGB = (240, 236, 228)
MUTED: RGB = (180, 172, 160)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
GOLD: RGB = (236, 196, 80)
HIGHLIGHT: RGB = (255, 214, 64)

FACTION_RGB: dict[Faction, RGB] = {
    Faction.LIFE: (212, 170, 50),
    Faction.ORDER: (52, 104, 196),
    Faction.DEATH: (78, 64, 98),
    Faction.CHAOS: (186, 48, 38),
    Faction.NATURE: (52, 134, 58),
    Faction.MIGHT: (158, 92, 38),
    Faction.NEUTRAL: (112, 118, 124),
}


def seat_rgb(seat: int | None) -> RGB:
    """The colour of ``seat`` (grey for None, e.g. a Guard or an unowned site)."""
    if seat is None or seat < 0:
        return NEUTRAL_RGB
    return SEAT_RGB[seat % len(SEAT_RGB)]


def seat_shape(seat: int | None) -> Shape:
    """The token shape of ``seat`` (a pentagon for None)."""
    if seat is None or seat < 0:
        return "pentagon"
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


def seat_label(seat: int | None) -> str:
    """The public name of ``seat`` (``"Red"``), or ``"nobody"``."""
    return "nobody" if seat is None else seat_name(seat)


def darker(colour: RGB, factor: float = 0.6) -> RGB:
    """Return ``colour`` scaled toward black by ``factor`` (0..1)."""
    r, g, b = colour
    return (int(r * factor), int(g * factor), int(b * factor))


def lighter(colour: RGB, amount: float = 0.5) -> RGB:
    """Return ``colour`` mixed toward white by ``amount`` (0..1)."""
    r, g, b = colour
    return (
        int(r + (255 - r) * amount),
        int(g + (255 - g) * amount),
        int(b + (255 - b) * amount),
    )


def readable_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour`` (by luminance)."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE
