"""Battlefield hex geometry: labels, neighbours, distances, zones and paths.

Rule sections: homm3bf:battlefield-combat (the hex board), homm3bf:battlefield-combat.
changes-to-combat-rules.unit-movement (movement counts hexes). Hexes are pointy-top in
rows; rows 2, 4, 6... (0-based odd rows) sit half a hex to the right. A label is a column
letter and a row number: ``"A1"`` is the top-left hex, ``"M9"`` the bottom-right on the
13 × 9 board. Functions take and return labels; ``(column, row)`` pairs are 0-based.
"""

from __future__ import annotations

import string
from collections import deque
from collections.abc import Callable, Iterable
from functools import cache

from engine.homm3.content import load_content

LETTERS = string.ascii_uppercase


@cache
def size() -> tuple[int, int]:
    """``(columns, rows)`` of the board (13, 9).

    Rule: homm3bf:battlefield-combat"""
    board = load_content().board
    return board.columns, board.rows


def label(col: int, row: int) -> str:
    """``(2, 3) -> "C4"``.

    Rule: none (label)"""
    return f"{LETTERS[col]}{row + 1}"


def parse(text: str) -> tuple[int, int] | None:
    """``"c4" -> (2, 3)``; None when ``text`` is not a hex of the board.

    Rule: none (label)"""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in LETTERS or not text[1:].isdigit():
        return None
    col, row = LETTERS.index(text[0]), int(text[1:]) - 1
    cols, rows = size()
    if not (0 <= col < cols and 0 <= row < rows):
        return None
    return col, row


def normalize(text: str) -> str | None:
    """The canonical label of ``text`` (``" c4 " -> "C4"``), or None if off the board.

    Rule: none (label)"""
    pos = parse(text)
    return None if pos is None else label(*pos)


@cache
def all_hexes() -> tuple[str, ...]:
    """Every hex of the board, row by row (A1, B1, ... M9).

    Rule: homm3bf:battlefield-combat"""
    cols, rows = size()
    return tuple(label(c, r) for r in range(rows) for c in range(cols))


def _axial(col: int, row: int) -> tuple[int, int]:
    return col - (row - (row & 1)) // 2, row


def _offset(q: int, r: int) -> tuple[int, int]:
    return q + (r - (r & 1)) // 2, r


_DIRS = ((1, 0), (-1, 0), (0, -1), (1, -1), (0, 1), (-1, 1))


@cache
def neighbours(hex_label: str) -> tuple[str, ...]:
    """The (up to six) hexes adjacent to ``hex_label`` on the board, in a fixed order.

    :raises KeyError: for a label that is not on the board.
    Rule: homm3bf:battlefield-combat
    """
    pos = parse(hex_label)
    if pos is None:
        raise KeyError(hex_label)
    q, r = _axial(*pos)
    cols, rows = size()
    out = []
    for dq, dr in _DIRS:
        c, rr = _offset(q + dq, r + dr)
        if 0 <= c < cols and 0 <= rr < rows:
            out.append(label(c, rr))
    return tuple(out)


def offset_hex(hex_label: str, dq: int, dr: int) -> str | None:
    """The hex at axial offset ``(dq, dr)`` from ``hex_label``; None if off the board.

    Rule: homm3bf:battlefield-combat"""
    pos = parse(hex_label)
    if pos is None:
        return None
    q, r = _axial(*pos)
    c, rr = _offset(q + dq, r + dr)
    cols, rows = size()
    return label(c, rr) if 0 <= c < cols and 0 <= rr < rows else None


@cache
def distance(a: str, b: str) -> int:
    """Hex distance between two labels (0 for the same hex).

    :raises KeyError: for a label that is not on the board.
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement,
        homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units
    """
    pa, pb = parse(a), parse(b)
    if pa is None or pb is None:
        raise KeyError(a if pa is None else b)
    q1, r1 = _axial(*pa)
    q2, r2 = _axial(*pb)
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def adjacent(a: str, b: str) -> bool:
    """Whether two hexes touch.

    Rule: homm3bf:battlefield-combat,
        homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units"""
    return b in neighbours(a)


@cache
def zone(side: str) -> tuple[str, ...]:
    """The deployment zone ``"west"`` (first columns) or ``"east"`` (last columns).

    Rule: homm3bf:battlefield-combat.place-units"""
    cols, rows = size()
    width = load_content().board.zone_columns
    picked = range(width) if side == "west" else range(cols - width, cols)
    return tuple(label(c, r) for r in range(rows) for c in picked)


def zone_of(hex_label: str) -> str | None:
    """``"west"``, ``"east"`` or None for a hex outside both deployment zones.

    Rule: homm3bf:battlefield-combat.place-units"""
    for side in ("west", "east"):
        if hex_label in zone(side):
            return side
    return None


@cache
def near_zone(hex_label: str) -> bool:
    """Whether a hex lies in or next to a deployment zone (no Obstacle may go there).

    Rule: homm3bf:battlefield-combat.place-obstacles"""
    if zone_of(hex_label):
        return True
    return any(zone_of(n) for n in neighbours(hex_label))


def column(hex_label: str) -> int:
    """0-based column of a hex.

    Rule: none (bookkeeping)"""
    pos = parse(hex_label)
    if pos is None:
        raise KeyError(hex_label)
    return pos[0]


def row(hex_label: str) -> int:
    """0-based row of a hex.

    Rule: none (bookkeeping)"""
    pos = parse(hex_label)
    if pos is None:
        raise KeyError(hex_label)
    return pos[1]


def reachable(
    start: str,
    steps: int,
    passable: Callable[[str], bool],
) -> dict[str, int]:
    """Breadth-first reach: every hex within ``steps`` moves of ``start`` through hexes
    for which ``passable`` is true, with the number of moves to reach it.

    ``start`` itself is included at 0. Movement counts one per hex entered
    (homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement).
    """
    seen = {start: 0}
    queue: deque[str] = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] >= steps:
            continue
        for nxt in neighbours(here):
            if nxt not in seen and passable(nxt):
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


def path(start: str, goal: str, passable: Callable[[str], bool]) -> list[str] | None:
    """A shortest path of hexes from ``start`` (excluded) to ``goal`` (included) through
    passable hexes (``goal`` must be passable too); None when there is none.
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement"""
    if start == goal:
        return []
    prev: dict[str, str] = {}
    queue: deque[str] = deque([start])
    seen = {start}
    while queue:
        here = queue.popleft()
        for nxt in neighbours(here):
            if nxt in seen or not passable(nxt):
                continue
            prev[nxt] = here
            if nxt == goal:
                out = [goal]
                while out[-1] in prev and prev[out[-1]] != start:
                    out.append(prev[out[-1]])
                return list(reversed(out))
            seen.add(nxt)
            queue.append(nxt)
    return None


def sort_labels(labels: Iterable[str]) -> list[str]:
    """Labels in board order (row, then column).

    Rule: none (label)"""
    return sorted(labels, key=lambda h: (row(h), column(h)))
