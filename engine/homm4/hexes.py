"""Hex geometry of the homm4 Game Board: axial coordinates, sections, rotations and labels.

Rule sections: homm4:terrain-map-sections, homm4:start-of-the-game.

Hexes are pointy-topped and addressed by axial coordinates ``(q, r)``. A Terrain Map
Section is a hexagon of `SECTION_RADIUS` around its centre (37 hexes); sections tile the
plane on a "macro" hex lattice, so a section may be attached at any free macro position
next to a placed one, in any of six rotations. Players name hexes by labels such as
``"C4"``: a column letter (A, B, ... Z, AA, ...) and a row number, both counted from the
assembled board's top-left, rows going down, odd rows shifted half a hex right
("odd-r" offset layout).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

Hex = tuple[int, int]
"""An axial coordinate ``(q, r)``."""

SECTION_RADIUS = 3
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six neighbour offsets, counter-clockwise from east."""


def add(a: Hex, b: Hex) -> Hex:
    """Return ``a + b``.

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    return (a[0] + b[0], a[1] + b[1])


def neighbours(h: Hex) -> list[Hex]:
    """Return the six neighbours of ``h`` (on or off any board).

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Return the number of steps between ``a`` and ``b``.

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(h: Hex, turns: int) -> Hex:
    """Rotate ``h`` about the origin by ``turns`` sixths of a turn clockwise (any integer).

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    q, r = h
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def within(center: Hex, radius: int) -> Iterator[Hex]:
    """Yield every hex at distance <= ``radius`` of ``center``, row by row (r, then q).

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    for dr in range(-radius, radius + 1):
        for dq in range(max(-radius, -dr - radius), min(radius, -dr + radius) + 1):
            yield (center[0] + dq, center[1] + dr)


SECTION_HEXES: tuple[Hex, ...] = tuple(within((0, 0), SECTION_RADIUS))
"""A section's own hexes relative to its centre, row by row (4, 5, 6, 7, 6, 5, 4)."""

_MACRO_Q: Hex = (2 * SECTION_RADIUS + 1, -SECTION_RADIUS)
_MACRO_R: Hex = rotate(_MACRO_Q, 1)


def section_center(slot: Hex) -> Hex:
    """Return the board hex at the centre of the section placed at macro position ``slot``.

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    a, b = slot
    return (a * _MACRO_Q[0] + b * _MACRO_R[0], a * _MACRO_Q[1] + b * _MACRO_R[1])


def section_cells(slot: Hex, rotation: int) -> list[tuple[Hex, Hex]]:
    """Map a section's local hexes to board hexes.

    :returns: ``(local, board)`` pairs: the section's local hex ``local`` (as in its data
        file) lands on board hex ``board`` when the section sits at macro ``slot`` turned
        ``rotation`` sixths clockwise.

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    center = section_center(slot)
    return [(local, add(center, rotate(local, rotation))) for local in SECTION_HEXES]


def free_slots(placed: Iterable[Hex]) -> list[Hex]:
    """Return the macro positions where a new section may be attached, sorted.

    The first section goes at ``(0, 0)``; every later one must touch a placed one
    (homm4:start-of-the-game: sections are joined by their interlocking edges).
    """
    taken = set(placed)
    if not taken:
        return [(0, 0)]
    return sorted({n for s in taken for n in neighbours(s)} - taken)


# --------------------------------------------------------------------------- labels
_LABEL = re.compile(r"^\s*([A-Za-z]{1,2})\s*-?\s*(\d{1,3})\s*$")


def column_name(index: int) -> str:
    """Return the column letters for 0-based ``index`` (0 -> A, 25 -> Z, 26 -> AA).

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    if index < 26:
        return chr(ord("A") + index)
    return chr(ord("A") + index // 26 - 1) + chr(ord("A") + index % 26)


def column_index(name: str) -> int:
    """Inverse of `column_name` (case-insensitive). :raises ValueError: for bad letters.

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    name = name.upper()
    if not name.isalpha() or not 1 <= len(name) <= 2:
        raise ValueError(f"not a column: {name!r}")
    if len(name) == 1:
        return ord(name) - ord("A")
    return (ord(name[0]) - ord("A") + 1) * 26 + ord(name[1]) - ord("A")


def to_offset(h: Hex) -> tuple[int, int]:
    """Return the odd-r offset ``(col, row)`` of axial ``h``.

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    q, r = h
    return (q + (r - (r & 1)) // 2, r)


def from_offset(col: int, row: int) -> Hex:
    """Return the axial hex of odd-r offset ``(col, row)``.

    Rule: homm4:terrain-map-sections (hex geometry).
    """
    return (col - (row - (row & 1)) // 2, row)


class Labeller:
    """Names the hexes of one assembled board and reads names back.

    ``origin`` is the odd-r offset ``(col, row)`` of the board's top-left corner; it is
    fixed when the board is assembled so labels never change during a game.
    """

    def __init__(self, hexes: Iterable[Hex]) -> None:
        offsets = [to_offset(h) for h in hexes]
        if not offsets:
            raise ValueError("a board needs at least one hex")
        min_col = min(c for c, _ in offsets)
        min_row = min(r for _, r in offsets)
        self.origin = (min_col, min_row)

    def label(self, h: Hex) -> str:
        """Return the label of ``h`` (``"C4"``)."""
        col, row = to_offset(h)
        return f"{column_name(col - self.origin[0])}{row - self.origin[1] + 1}"

    def parse(self, text: str) -> Hex:
        """Return the hex named ``text`` (``"c4"``, ``"C 4"``, ``"C-4"`` all work).

        :raises ValueError: with a readable message when ``text`` is not a hex label.
        """
        match = _LABEL.match(text)
        if not match:
            raise ValueError(f"{text!r} is not a hex name; hexes are named like C4")
        col = column_index(match.group(1)) + self.origin[0]
        row = int(match.group(2)) - 1 + self.origin[1]
        return from_offset(col, row)
