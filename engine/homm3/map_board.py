"""Geometry of the map: tiles of seven hexagonal Fields laid on a grid of tile positions,
Field coordinates, adjacency, and where a new tile may go.

Rule sections: homm3core:map-tiles (seven Fields per tile), homm3core:placing-and-discovering-tiles
(a tile is revealed or placed next to the hero's Field; a placed tile touches at least two
other tiles; tiles may be rotated), homm3turn:what-1-mp-buys (move 1 Field in any
direction). Field keys are ``"q,r"`` axial coordinates; tile positions are axial too, and
tile ``(a, b)`` has its centre Field at ``a * (2, 1) + b * (-1, 3)``, the lattice on which
seven-hex tiles cover the plane.
"""

from __future__ import annotations

import math

from engine.homm3.map_content import FieldSpec, load_map
from engine.homm3.map_state import MapGame, PlacedTile

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six neighbour steps of a hex (east first, counter-clockwise)."""

TILE_STEPS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""The six neighbour steps between tile positions."""


def key(q: int, r: int) -> str:
    """``"q,r"``: the key of the Field at axial ``(q, r)``.

    Rule: none (coordinates)"""
    return f"{q},{r}"


def coords(field: str) -> tuple[int, int]:
    """The axial coordinates of Field ``field``.

    :raises ValueError: for a malformed key.
    Rule: none (coordinates)"""
    q, r = field.split(",")
    return int(q), int(r)


def centre(pos: tuple[int, int]) -> tuple[int, int]:
    """The centre Field of the tile at ``pos``.

    Rule: homm3core:map-tiles"""
    a, b = pos
    return 2 * a - b, a + 3 * b


def neighbours(field: str) -> list[str]:
    """The six Fields next to ``field``.

    Rule: homm3turn:what-1-mp-buys"""
    q, r = coords(field)
    return [key(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: str, b: str) -> int:
    """Steps between two Fields.

    Rule: none (geometry)"""
    q1, r1 = coords(a)
    q2, r2 = coords(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def tile_fields(pos: tuple[int, int], rotation: int = 0) -> list[str]:
    """The seven Field keys of the tile at ``pos`` in printed order (centre, then the six
    printed around it) after ``rotation`` steps counter-clockwise.

    Rule: homm3core:placing-and-discovering-tiles (tiles may be rotated)"""
    q, r = centre(pos)
    out = [key(q, r)]
    for index in range(6):
        dq, dr = DIRECTIONS[(index + rotation) % 6]
        out.append(key(q + dq, r + dr))
    return out


COMPASS: tuple[str, ...] = (
    "east",
    "north-east",
    "north",
    "north-west",
    "west",
    "south-west",
    "south",
    "south-east",
)
"""Compass words from east counter-clockwise, in steps of 45 degrees (north is up on the map
picture, as `rendering.homm3.map` draws Field ``q,r`` at x = sqrt(3) * (q + r / 2),
y = 1.5 * r)."""


def compass(start: str, end: str) -> str:
    """The compass word for the way from Field ``start`` to Field ``end`` as the map picture
    shows it: ``"north-west"`` from ``"4,2"`` to ``"4,1"``; the six neighbours of a Field are
    east, north-east, north-west, west, south-west and south-east; ``"here"`` when they are
    the same Field.

    :raises ValueError: for a malformed key.
    Rule: none (geometry, for labels)"""
    (q1, r1), (q2, r2) = coords(start), coords(end)
    dx = math.sqrt(3) * ((q2 - q1) + (r2 - r1) / 2)
    dy = -1.5 * (r2 - r1)
    if dx == 0 and dy == 0:
        return "here"
    angle = math.degrees(math.atan2(dy, dx)) % 360
    return COMPASS[round(angle / 45) % 8]


def position_of(field: str) -> tuple[int, int]:
    """The tile position whose seven Fields include ``field``.

    Rule: homm3core:map-tiles"""
    q, r = coords(field)
    # Solve centre(a, b) within distance 1 of (q, r): a = (3q + r) / 7, b = (2r - q) / 7.
    a0, b0 = round((3 * q + r) / 7), round((2 * r - q) / 7)
    for da in (-1, 0, 1):
        for db in (-1, 0, 1):
            cq, cr = centre((a0 + da, b0 + db))
            if distance(key(cq, cr), field) <= 1:
                return a0 + da, b0 + db
    raise ValueError(f"no tile position holds Field {field}")  # pragma: no cover


def tile_at(game: MapGame, pos: tuple[int, int]) -> PlacedTile | None:
    """The tile (face up or down) at ``pos``, if the layout has one.

    Rule: none (lookup)"""
    for tile in game.tiles:
        if tuple(tile.pos) == tuple(pos):
            return tile
    return None


def field_spec(game: MapGame, field: str) -> FieldSpec | None:
    """What is printed on ``field``: None where no revealed tile lies.

    Rule: homm3core:map-tiles"""
    tile = tile_at(game, position_of(field))
    if tile is None or not tile.revealed:
        return None
    index = tile_fields(tile.pos, tile.rotation).index(field)
    return load_map().tiles[tile.tile].fields[index]


def adjacent_positions(field: str) -> list[tuple[int, int]]:
    """Tile positions next to ``field`` (a neighbour Field lies on them), not its own.

    Rule: homm3core:placing-and-discovering-tiles"""
    own = position_of(field)
    out: list[tuple[int, int]] = []
    for near in neighbours(field):
        pos = position_of(near)
        if pos != own and pos not in out:
            out.append(pos)
    return out


def placeable(game: MapGame, field: str) -> list[tuple[int, int]]:
    """Empty tile positions where a hero on ``field`` may place a Far tile from its pool:
    next to the hero, touching at least two tiles already on the map.

    Rule: homm3core:placing-and-discovering-tiles"""
    out = []
    for pos in adjacent_positions(field):
        if tile_at(game, pos) is not None:
            continue
        touching = sum(
            1
            for step in TILE_STEPS
            if tile_at(game, (pos[0] + step[0], pos[1] + step[1])) is not None
        )
        if touching >= 2:
            out.append(pos)
    return out


def discoverable(game: MapGame, field: str) -> list[PlacedTile]:
    """Face-down tiles next to ``field``.

    Rule: homm3turn:what-1-mp-buys (discover a face-down tile next to your hero)"""
    out = []
    for pos in adjacent_positions(field):
        tile = tile_at(game, pos)
        if tile is not None and not tile.revealed:
            out.append(tile)
    return out
