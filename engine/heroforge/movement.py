"""Moving a hero: the D6 roll plus speed, in one of 8 directions; forts block enemies.

Rule sections: heroforge:basic-rules (move once per turn in one direction, horizontally,
vertically or diagonally, the D6 roll of spaces; on a 6 the hero may stop on any square
between where it is and the farthest it may go; moving is optional), heroforge:forts
(enemy heroes cannot walk through forts), heroforge:combat (moving ends combat; once a
player leaves combat they cannot enter combat until their next turn).

Readings (README): on rolls 1-5 the hero moves exactly the roll plus speed; a direction
whose path runs over a gap, off the board or through an enemy fort is closed; a hero
never stops on a fort square (its own forts it may pass).
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.heroforge import board, effects, turns
from engine.heroforge.dice import roll
from engine.heroforge.state import HeroforgeState, Square


def reach(state: HeroforgeState, seat: int) -> int:
    """The farthest the hero may move after this turn's roll: D6 + speed, at least 0.

    Rule: heroforge:basic-rules (the D6 roll plus speed).
    """
    assert state.move_roll is not None
    return max(0, state.move_roll + effects.speed(state, seat))


def path(state: HeroforgeState, seat: int, direction: str, distance: int) -> list[Square] | None:
    """The squares walked moving ``distance`` squares ``direction`` (last = destination),
    or None if the path leaves the board, crosses a gap or an enemy fort, or ends on a fort.

    Rule: heroforge:basic-rules, heroforge:forts (enemy heroes cannot walk through forts).
    """
    player = state.player(seat)
    assert player.at is not None
    dx, dy = board.direction(direction)
    gx, gy = board.to_global(state, player.at)
    positions = board.grid(state)
    forts = {(f.at.plate, f.at.cx, f.at.cy): f.owner for f in state.forts}
    walked = []
    for k in range(1, distance + 1):
        square = board.from_global(positions, (gx + dx * k, gy + dy * k))
        if square is None:
            return None
        fort_owner = forts.get((square.plate, square.cx, square.cy))
        if fort_owner is not None and (fort_owner != seat or k == distance):
            return None
        walked.append(square)
    return walked


def destinations(state: HeroforgeState, seat: int) -> list[tuple[str, int]]:
    """Every ``(direction, distance)`` the hero may move after its roll.

    Rule: heroforge:basic-rules.
    """
    if state.move_roll is None:
        return []
    farthest = reach(state, seat)
    if farthest < 1:
        return []
    distances = range(1, farthest + 1) if state.move_roll == 6 else [farthest]
    return [
        (name, d)
        for name in board.DIRECTIONS
        for d in distances
        if path(state, seat, name, d) is not None
    ]


def roll_move(state: HeroforgeState, seat: int) -> list[Event]:
    """Roll the D6 to move. With nowhere to go, the moving step ends at once.

    Rule: heroforge:basic-rules.
    """
    face, event = roll(state, 6, "move", seat)
    state.move_roll = face
    state.step = "moving"
    farthest = reach(state, seat)
    how = "any distance up to" if face == 6 else "exactly"
    events = [
        event,
        Event(
            kind="move_roll",
            text=f"{seat_name(seat)} may move {how} {plural(farthest, 'square')} in one direction.",
            data={"seat": seat, "roll": face, "reach": farthest},
        ),
    ]
    if not destinations(state, seat):
        state.step = "buy2"
        events.append(
            Event(
                kind="move_blocked",
                text=f"{seat_name(seat)}'s hero has no square to move to and stays.",
                data={"seat": seat},
            )
        )
    return events


def move(state: HeroforgeState, seat: int, direction: str, distance: int) -> list[Event]:
    """Move the hero ``distance`` squares ``direction``; moving ends its combats.

    :raises IllegalMove: for a distance the roll does not allow or a closed path.
    :raises InvalidInput: for an unknown direction.

    Rule: heroforge:basic-rules, heroforge:combat (moving ends combat).
    """
    board.direction(direction)
    allowed = destinations(state, seat)
    name = direction.strip().upper()
    if (name, distance) not in allowed:
        farthest = reach(state, seat)
        rule = f"any distance up to {farthest}" if state.move_roll == 6 else f"exactly {farthest}"
        options = ", ".join(f"{d} {n}" for n, d in allowed)
        raise IllegalMove(
            f"Your hero cannot move {distance} {name}: it moves {rule} squares along an open "
            f"path. Possible: {options or 'none (stay)'}."
        )
    walked = path(state, seat, name, distance)
    assert walked is not None
    player = state.player(seat)
    assert player.at is not None
    start = player.at
    player.at = walked[-1]
    state.last_move = [start, *walked]
    state.last_move_owner = seat
    state.moved = True
    state.step = "buy2"
    events = [
        Event(
            kind="move",
            text=f"{seat_name(seat)} moves {distance} {name} to plate {walked[-1].plate}.",
            data={"seat": seat, "direction": name, "distance": distance, "plate": walked[-1].plate},
        )
    ]
    if effects.in_combat(state, seat):
        state.left_combat = True
        events += turns.end_combats(state, seat)
    return events


def stay(state: HeroforgeState, seat: int) -> list[Event]:
    """Stay after rolling (moving is optional); the second buying step follows.

    Rule: heroforge:basic-rules (moving is optional).
    """
    state.step = "buy2"
    return [Event(kind="stay", text=f"{seat_name(seat)}'s hero stays.", data={"seat": seat})]


def skip_move(state: HeroforgeState, seat: int) -> list[Event]:
    """Do not roll to move this turn; the second buying step follows.

    Rule: heroforge:basic-rules (moving is optional).
    """
    state.step = "buy2"
    return [Event(kind="skip_move", text=f"{seat_name(seat)} does not move.", data={"seat": seat})]
