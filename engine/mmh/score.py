"""Victory points and the end of the game.

Rule sections: mmh:game-goal, mmh:game-end, mmh:course-of-play.activate-hero (VP of
controlled spaces), mmh:other-game-rules.using-card-effects (1 VP per artefact).
"""

from __future__ import annotations

from engine.mmh.board import board_of
from engine.mmh.common import content, who
from engine.mmh.content import CONTROLLABLE
from engine.mmh.state import MmhState

THRESHOLDS: dict[int, int] = {2: 12, 3: 14, 4: 16}
"""VP that win at once: 2 players 12, 3 players 14, 4 players 16 (mmh:game-goal)."""


def location_vp(state: MmhState, seat: int) -> int:
    """VP of the spaces ``seat`` controls (Sawmill 1, Mine 2, Crystal Cavern 3, Dragon Nexus 4).

    Rule: mmh:course-of-play.activate-hero.
    """
    board = board_of(state)
    total = 0
    for space, owner in state.control.items():
        if owner == seat:
            location = board.space(space).location
            if location in CONTROLLABLE:
                total += CONTROLLABLE[location][0]
    return total


def artefact_vp(state: MmhState, seat: int) -> int:
    """1 VP per artefact card the seat's heroes hold (and the Tear of Asha under a Temple).

    Rule: mmh:other-game-rules.using-card-effects.
    """
    held = sum(len(state.heroes[h].artefacts) for h in state.seats[seat].heroes)
    return held + (1 if state.seats[seat].temple_artefact else 0)


def building_vp(state: MmhState, seat: int) -> int:
    """VP of constructed buildings (the Temple of Asha: 3).

    Rule: mmh:course-of-play.build.
    """
    c = content()
    return sum(c.building(b).vp for b in state.seats[seat].buildings)


def vp(state: MmhState, seat: int) -> int:
    """The seat's victory points (the power marker on its capital board).

    Rule: mmh:game-goal.
    """
    return (
        location_vp(state, seat)
        + artefact_vp(state, seat)
        + building_vp(state, seat)
        + state.seats[seat].vp_bonus
    )


def check_victory(state: MmhState) -> bool:
    """End the game at once when a seat has reached the threshold (mmh:game-end).

    Several seats over the threshold at once (never seen in play): the most VP wins, then
    the tie-breaks of the final round. Returns True when the game ended.
    """
    if state.phase != "play":
        return False
    need = THRESHOLDS[state.players]
    reached = [s.seat for s in state.seats if vp(state, s.seat) >= need]
    if not reached:
        return False
    _finish(state, reached, f"reached {need} victory points")
    return True


def finish_by_weeks(state: MmhState) -> None:
    """The last week card's round is over: most VP wins, then most gold + resources, else
    a draw (mmh:game-end)."""
    _finish(state, [s.seat for s in state.seats], "had the most victory points after the last week")


def _finish(state: MmhState, candidates: list[int], how: str) -> None:
    best = max(vp(state, s) for s in candidates)
    top = [s for s in candidates if vp(state, s) == best]
    if len(top) > 1:
        wealth = {s: state.seats[s].gold + state.seats[s].resources for s in top}
        richest = max(wealth.values())
        top = [s for s in top if wealth[s] == richest]
    state.phase = "over"
    if len(top) == 1:
        state.winners = top
        state.end_reason = f"{who(top[0])} {how} ({best} VP) and wins the throne of Ashan."
    else:
        state.winners = []
        names = " and ".join(who(s) for s in top)
        state.end_reason = (
            f"{names} tie on {best} VP and on gold and resources: the game is a draw."
        )
