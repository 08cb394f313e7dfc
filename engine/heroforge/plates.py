"""Whether plates at grid positions make one board (heroforge:lands: "Every piece must be
attached to the board", by an edge or a corner).

Pure grid geometry on ``(x, y)`` positions, knowing no game state, so both the options
(a custom board refused when the game is created) and `board` (land shifting, the audit)
use it without importing each other.
"""

from __future__ import annotations

from collections.abc import Iterable


def connected(positions: Iterable[tuple[int, int]]) -> bool:
    """Whether every plate is attached to the rest (one piece, heroforge:lands)."""
    todo = set(positions)
    if not todo:
        return False
    stack = [todo.pop()]
    while stack:
        x, y = stack.pop()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nxt = (x + dx, y + dy)
                if nxt in todo:
                    todo.remove(nxt)
                    stack.append(nxt)
    return not todo
