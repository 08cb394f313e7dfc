"""The square board assembled from map tiles: spaces, labels, terrain, locations,
encounter symbols, neighbours, and the portal rule for placing tiles.

Rule sections: mmh:game-setup.setting-up-the-game-board,
mmh:description-of-the-game-board (and its sub-sections).

Spaces are numbered ``y * width + x`` (x to the right, y down); their labels are a column
letter and a row number, ``"A1"`` top-left (the commands and the pictures use labels). A
tile turned ``r`` quarter turns clockwise maps its own ``(x, y)`` as ``(3 - y, x)`` per turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.core.errors import InvalidInput
from engine.mmh.content import Colour, Tile, load_content
from engine.mmh.state import MmhState, PlacedTile

GRIDS: dict[int, tuple[int, int]] = {2: (3, 3), 3: (4, 3), 4: (4, 4)}
"""Tile grid (columns, rows) per player count: 3x3 tiles 1-9, 3x4 tiles 1-12, 4x4 tiles
1-16 (mmh:game-setup.setting-up-the-game-board; the 3x4 grid is laid four wide)."""

Point = tuple[int, int]
STEPS: tuple[Point, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""Orthogonal steps (heroes never move diagonally)."""


def tiles_for(players: int) -> list[int]:
    """The tile numbers used with ``players`` players (9, 12 or 16 tiles).

    Rule: mmh:game-setup.setting-up-the-game-board.
    """
    cols, rows = GRIDS[players]
    return list(range(1, cols * rows + 1))


def rotate(point: Point, rotation: int) -> Point:
    """Turn a tile-local point ``rotation`` quarter turns clockwise about the tile.

    Rule: mmh:game-setup.setting-up-the-game-board.
    """
    x, y = point
    for _ in range(rotation % 4):
        x, y = 3 - y, x
    return (x, y)


@dataclass(frozen=True)
class Space:
    """One space of the assembled board (static: terrain and printed symbols)."""

    index: int
    x: int
    y: int
    label: str
    tile: int
    red: bool
    terrain: str
    location: str | None
    encounter: Colour | None
    guards: int | None


@dataclass(frozen=True)
class Board:
    """The assembled board's static facts."""

    width: int
    height: int
    spaces: tuple[Space | None, ...]
    guard_of: dict[int, int]
    portals: tuple[int, ...]

    def space(self, index: int) -> Space:
        """The space ``index``. :raises KeyError: if it is off the board or not placed yet."""
        found = self.spaces[index] if 0 <= index < len(self.spaces) else None
        if found is None:
            raise KeyError(index)
        return found

    def neighbours(self, index: int) -> list[int]:
        """Orthogonal neighbours of ``index`` that exist on the board."""
        x, y = index % self.width, index // self.width
        found = []
        for dx, dy in STEPS:
            nx, ny = x + dx, y + dy
            if 0 <= nx < self.width and 0 <= ny < self.height:
                n = ny * self.width + nx
                if self.spaces[n] is not None:
                    found.append(n)
        return found

    def distance(self, a: int, b: int) -> int:
        """Manhattan distance between two spaces."""
        return abs(a % self.width - b % self.width) + abs(a // self.width - b // self.width)


def label(x: int, y: int) -> str:
    """The label of board point ``(x, y)``: ``(0, 0) -> "A1"``.

    Rule: none (names, labels and events).
    """
    return f"{chr(ord('A') + x)}{y + 1}"


@lru_cache(maxsize=64)
def _build(width: int, height: int, placed: tuple[tuple[int, int, int, int], ...]) -> Board:
    content = load_content()
    spaces: list[Space | None] = [None] * (width * height)
    guard_of: dict[int, int] = {}
    portals: list[int] = []
    for number, col, row, rotation in placed:
        tile = content.tile(number)
        for local in tile.spaces:
            gx, gy = _global(col, row, rotation, (local.x, local.y))
            index = gy * width + gx
            guards = None
            if local.guards is not None:
                tx, ty = _global(col, row, rotation, local.guards)
                guards = ty * width + tx
                guard_of[guards] = index
            if local.location == "portal":
                portals.append(index)
            spaces[index] = Space(
                index=index,
                x=gx,
                y=gy,
                label=label(gx, gy),
                tile=number,
                red=tile.capital,
                terrain=local.terrain,
                location=local.location,
                encounter=local.encounter,
                guards=guards,
            )
    return Board(width, height, tuple(spaces), guard_of, tuple(sorted(portals)))


def _global(col: int, row: int, rotation: int, local: Point) -> Point:
    rx, ry = rotate(local, rotation)
    return (col * 4 + rx, row * 4 + ry)


def board_of(state: MmhState) -> Board:
    """The static board of ``state`` (cached by its tile placement).

    Rule: mmh:game-setup.setting-up-the-game-board.
    """
    placed = tuple((t.tile, t.slot[0], t.slot[1], t.rotation) for t in state.tiles)
    return _build(state.width, state.height, placed)


def space_label(state: MmhState, index: int | None) -> str:
    """The label of space ``index`` (``"the capital"`` for None).

    Rule: none (names, labels and events).
    """
    if index is None:
        return "the capital"
    return label(index % state.width, index // state.width)


def parse_space(state: MmhState, text: str) -> int:
    """Read a space label (``"C7"``, case-insensitive).

    :raises InvalidInput: naming the board's size when the label is malformed or off it.

    Rule: none (names, labels and events).
    """
    cleaned = text.strip().upper()
    last_col = chr(ord("A") + state.width - 1)
    # ASCII only: str.isalpha/isdigit also accept letters and digits ("²") int() cannot read
    if (
        len(cleaned) < 2
        or not ("A" <= cleaned[0] <= "Z")
        or not cleaned[1:].isascii()
        or not cleaned[1:].isdigit()
    ):
        raise InvalidInput(
            f"'{text}' is not a space: write a column A-{last_col} and a row 1-{state.height}, e.g. C4."
        )
    x = ord(cleaned[0]) - ord("A")
    y = int(cleaned[1:]) - 1
    if not (0 <= x < state.width and 0 <= y < state.height):
        raise InvalidInput(
            f"{cleaned} is off the board: columns run A-{last_col}, rows 1-{state.height}."
        )
    index = y * state.width + x
    if board_of(state).spaces[index] is None:
        raise InvalidInput(f"No map tile lies at {cleaned} yet.")
    return index


# ------------------------------------------------------------------ the portal rule
def _portal_at(tile: Tile, col: int, row: int, rotation: int) -> Point | None:
    local = tile.portal
    return None if local is None else _global(col, row, rotation, local)


def legal_rotations(placed: list[PlacedTile], tile_number: int, slot: tuple[int, int]) -> list[int]:
    """The turns (0-3) at which tile ``tile_number`` may lie in ``slot`` (mmh:game-setup.
    setting-up-the-game-board, "Important exception").

    A tile without a portal, or with no portal tile among the eight tiles around the slot,
    may lie any way round. Otherwise it must be turned so that its portal is as far as
    possible (Manhattan distance, the smallest over the neighbouring portals) from the
    portals already placed around it; ties allow several turns.
    """
    content = load_content()
    tile = content.tile(tile_number)
    if tile.portal is None:
        return [0, 1, 2, 3]
    others: list[Point] = []
    for other in placed:
        if max(abs(other.slot[0] - slot[0]), abs(other.slot[1] - slot[1])) != 1:
            continue
        point = _portal_at(content.tile(other.tile), other.slot[0], other.slot[1], other.rotation)
        if point is not None:
            others.append(point)
    if not others:
        return [0, 1, 2, 3]
    scores: dict[int, int] = {}
    for rotation in range(4):
        mine = _portal_at(tile, slot[0], slot[1], rotation)
        assert mine is not None
        scores[rotation] = min(abs(mine[0] - o[0]) + abs(mine[1] - o[1]) for o in others)
    best = max(scores.values())
    return [r for r in range(4) if scores[r] == best]


def portals_apart(state: MmhState) -> bool:
    """True when no two portals on neighbouring tiles touch by an edge or a corner.

    Rule: mmh:game-setup.setting-up-the-game-board.
    """
    board = board_of(state)
    for a in board.portals:
        for b in board.portals:
            if a < b and board.space(a).tile != board.space(b).tile:
                ax, ay, bx, by = (
                    a % board.width,
                    a // board.width,
                    b % board.width,
                    b // board.width,
                )
                if max(abs(ax - bx), abs(ay - by)) <= 1:
                    return False
    return True
