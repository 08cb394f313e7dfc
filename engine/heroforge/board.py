"""Board geometry: plates on a grid, squares inside plates, the 8 directions, connection
and land shifting.

Rule sections: heroforge:lands (plates attached by edge or corner, gaps allowed),
heroforge:basic-rules (moving in one of 8 directions), heroforge:land-shifting.

Coordinates: a plate sits at grid ``(x, y)`` (x to the east, y to the south). A square's
global position is ``(x * PLATE + cx, y * PLATE + cy)``. Two plates are attached when
their grid positions differ by at most one in each axis (an edge or a corner touching).
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.heroforge.catalog import PLATE, Land, load_catalog
from engine.heroforge.plates import connected
from engine.heroforge.state import HeroforgeState, Plate, ShiftDue, Square

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
"""The 8 directions a hero moves in (heroforge:basic-rules), y growing to the south."""

SHIFT_DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")
"""A plate slides into a neighbouring space across one of its edges."""

CENTRE = PLATE // 2
"""The centre square's column and row (heroes start there, heroforge:basic-rules)."""

Global = tuple[int, int]


def direction(name: str) -> tuple[int, int]:
    """The step of direction ``name`` (any case). :raises InvalidInput: for another word.

    Rule: heroforge:basic-rules (the 8 directions).
    """
    step = DIRECTIONS.get(name.strip().upper())
    if step is None:
        raise InvalidInput(f"Unknown direction {name!r}; use one of {', '.join(DIRECTIONS)}.")
    return step


def land_of(state: HeroforgeState, label: str) -> Land:
    """The `Land` of plate ``label``.

    Rule: none (a lookup).
    """
    return load_catalog().lands[state.plate(label).land]


def grid(state: HeroforgeState) -> dict[tuple[int, int], str]:
    """Grid position -> plate label.

    Rule: none (bookkeeping: positions).
    """
    return {(p.x, p.y): p.label for p in state.plates}


def to_global(state: HeroforgeState, square: Square) -> Global:
    """The global square position of ``square``.

    Rule: none (bookkeeping: coordinates).
    """
    plate = state.plate(square.plate)
    return plate.x * PLATE + square.cx, plate.y * PLATE + square.cy


def from_global(positions: dict[tuple[int, int], str], point: Global) -> Square | None:
    """The square at global ``point``, or None over a gap / off the board.

    Rule: none (bookkeeping: coordinates).
    """
    gx, gy = point
    label = positions.get((gx // PLATE, gy // PLATE))
    if label is None:
        return None
    return Square(plate=label, cx=gx % PLATE, cy=gy % PLATE)


def attached(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two grid positions touch by an edge or a corner (and differ).

    Rule: heroforge:what-you-will-need-to-play-hero-forge
    (plates attached by an edge or a corner).
    """
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def plate_distance(state: HeroforgeState, a: str, b: str) -> int:
    """Plates between two plates (king steps on the grid).

    Rule: none (a measure: king steps on the grid).
    """
    pa, pb = state.plate(a), state.plate(b)
    return max(abs(pa.x - pb.x), abs(pa.y - pb.y))


def square_distance(state: HeroforgeState, a: Square, b: Square) -> int:
    """Squares between two squares (king steps, ignoring gaps).

    Rule: none (a measure: king steps).
    """
    ga, gb = to_global(state, a), to_global(state, b)
    return max(abs(ga[0] - gb[0]), abs(ga[1] - gb[1]))


def shift_target(state: HeroforgeState, label: str, towards: str) -> tuple[int, int]:
    """Where plate ``label`` would go shifted one space ``towards`` (N, E, S or W).

    :raises InvalidInput: for an unknown plate or a diagonal/unknown direction.

    Rule: heroforge:land-shifting.
    """
    name = towards.strip().upper()
    if name not in SHIFT_DIRECTIONS:
        raise InvalidInput(f"A plate shifts N, E, S or W, not {towards!r}.")
    try:
        plate = state.plate(label.strip().upper())
    except KeyError:
        raise InvalidInput(f"There is no land plate {label!r}.") from None
    dx, dy = DIRECTIONS[name]
    return plate.x + dx, plate.y + dy


def shift_problem(state: HeroforgeState, label: str, towards: str) -> str | None:
    """Why plate ``label`` cannot shift ``towards`` (None when it can).

    heroforge:land-shifting: only into a neighbouring empty space, and only if no land
    becomes inaccessible from the rest of the board.
    """
    target = shift_target(state, label, towards)
    positions = grid(state)
    if target in positions:
        return f"plate {label.upper()} cannot shift {towards.upper()}: plate {positions[target]} is there"
    plate = state.plate(label.strip().upper())
    after = [pos for pos in positions if pos != (plate.x, plate.y)] + [target]
    if not connected(after):
        return (
            f"plate {label.upper()} cannot shift {towards.upper()}: "
            "a land would be cut off from the rest of the board"
        )
    return None


def legal_shifts(state: HeroforgeState) -> list[tuple[str, str]]:
    """Every ``(plate label, direction)`` shift the rules allow now, in label order.

    Rule: heroforge:land-shifting.
    """
    found = []
    for plate in sorted(state.plates, key=lambda p: p.label):
        for name in SHIFT_DIRECTIONS:
            if shift_problem(state, plate.label, name) is None:
                found.append((plate.label, name))
    return found


def shift(state: HeroforgeState, label: str, towards: str) -> Plate:
    """Slide plate ``label`` one space ``towards``; its heroes and forts ride along.

    :raises IllegalMove: when `shift_problem` names a reason.

    Rule: heroforge:land-shifting.
    """
    problem = shift_problem(state, label, towards)
    if problem:
        raise IllegalMove(problem[0].upper() + problem[1:] + ".")
    plate = state.plate(label.strip().upper())
    x, y = shift_target(state, label, towards)
    moved = plate.model_copy(update={"x": x, "y": y})
    state.plates[state.plates.index(plate)] = moved
    return moved


def plate_labels(count: int) -> list[str]:
    """``A``, ``B``, ..., ``Z``, ``AA``, ``AB``, ... for ``count`` plates.

    Rule: none (names; see README: Board and lands).
    """
    labels = []
    for i in range(count):
        label = ""
        n = i
        while True:
            label = chr(ord("A") + n % 26) + label
            n = n // 26 - 1
            if n < 0:
                break
        labels.append(label)
    return labels


def squares_of(label: str) -> list[Square]:
    """Every square of a plate, row by row.

    Rule: none (bookkeeping: the 5 x 5 squares of a plate).
    """
    return [Square(plate=label, cx=cx, cy=cy) for cy in range(PLATE) for cx in range(PLATE)]


def offer_shift(state: HeroforgeState, seat: int, count: int, reason: str) -> list[Event]:
    """Owe ``seat`` a decision to shift up to ``count`` plates (none if no plate can move).

    Rule: heroforge:turns (roll 10), heroforge:land-shifting.
    """
    if not legal_shifts(state):
        return [
            Event(
                kind="shift_none",
                text=f"{seat_name(seat)} may shift a land plate ({reason}), but no plate can move.",
                data={"seat": seat},
            )
        ]
    state.shift_due.append(ShiftDue(seat=seat, count=count, reason=reason))
    return [
        Event(
            kind="shift_offer",
            text=f"{seat_name(seat)} may shift {plural(count, 'land plate')} ({reason}).",
            data={"seat": seat, "count": count},
        )
    ]
