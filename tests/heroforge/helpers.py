"""Helpers for the heroforge tests: start games, arrange positions, script the dice.

Positions are built from a real game (the shipped data) and then arranged directly on the
state, the way a test arranges a chess position. `ScriptedRng` replaces the state's
generator so that a test names the exact die faces the rules then use.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

import engine.rulesets  # noqa: F401  (registers heroforge)
from engine.core.model import Command, Event
from engine.core.rng import Rng
from engine.heroforge.ruleset import HeroforgeRuleset
from engine.heroforge.state import Fort, HeroforgeState, Square, Unit

R = HeroforgeRuleset()

CROSS = "PL GR PL / FO DP HI / PL FA PL"
"""A 3 x 3 test board: plates A B C / D E F / G H I (Plain corners, Dragon Peak centre)."""


class ScriptedRng(Rng):
    """An `Rng` whose die rolls are the listed faces, in order (a test fails if it runs
    out or a face does not fit the die)."""

    faces: list[int] = Field(default_factory=list)

    def die(self, sides: int) -> int:
        """The next scripted face. :raises AssertionError: when none is left or too big."""
        assert self.faces, f"the test scripted too few rolls (a D{sides} was rolled)"
        face = self.faces.pop(0)
        assert 1 <= face <= sides, f"scripted {face} on a D{sides}"
        return face


def new_game(players: int = 2, seed: int = 1, **options: Any) -> HeroforgeState:
    """A new game with ``options`` (set-up not yet done)."""
    state, _ = R.new_game(R.parse_options(options), players, seed)
    return state


def apply(
    state: HeroforgeState, seat: int, command: Command | dict[str, Any]
) -> tuple[HeroforgeState, list[Event]]:
    """Apply through the public, checked path."""
    return R.apply(state, seat, command)


def script(state: HeroforgeState, *faces: int) -> None:
    """Make the next die rolls of ``state`` be ``faces``."""
    state.rng = ScriptedRng(seed=state.rng.seed, counter=state.rng.counter, faces=list(faces))


def rolls_left(state: HeroforgeState) -> list[int]:
    """Scripted faces not yet used."""
    assert isinstance(state.rng, ScriptedRng)
    return list(state.rng.faces)


def started(
    players: int = 2,
    heroes: tuple[str, ...] = ("weir", "orvan"),
    plains: tuple[str, ...] = ("A", "C"),
    grid: str = CROSS,
    scenario: int = 4,
    **options: Any,
) -> HeroforgeState:
    """A game on ``grid`` with ``heroes`` placed on ``plains``; Red's first turn has begun
    with the scenario roll ``scenario`` (default 4: nothing happens)."""
    state = new_game(players, heroes=heroes[:players], grid=grid, **options)
    for seat in range(players):
        if seat == players - 1:
            script(state, scenario)
        state, _ = apply(state, seat, {"type": "place_hero", "plate": plains[seat]})
    return state


def put(state: HeroforgeState, seat: int, plate: str, cx: int = 2, cy: int = 2) -> None:
    """Stand ``seat``'s hero on a square."""
    state.player(seat).at = Square(plate=plate, cx=cx, cy=cy)


def give(state: HeroforgeState, seat: int, *levels: int) -> list[int]:
    """Add units of ``levels`` to ``seat``'s army; return their ids."""
    ids = []
    for level in levels:
        state.player(seat).army.append(Unit(id=state.next_unit, level=level))
        ids.append(state.next_unit)
        state.next_unit += 1
    return ids


def fort(state: HeroforgeState, seat: int, plate: str, cx: int, cy: int, *levels: int) -> Fort:
    """Add a fort of ``seat`` on a square, manned by units of ``levels``."""
    units = []
    for level in levels:
        units.append(Unit(id=state.next_unit, level=level))
        state.next_unit += 1
    built = Fort(id=state.next_fort, owner=seat, at=Square(plate=plate, cx=cx, cy=cy), units=units)
    state.next_fort += 1
    state.forts.append(built)
    return built


def to_step(state: HeroforgeState, step: str) -> None:
    """Jump the active seat's turn to ``step`` (``buy1``, ``move``, ``buy2``, ``combat``)."""
    state.step = step  # type: ignore[assignment]


def texts(events: list[Event]) -> str:
    """All event texts, one per line."""
    return "\n".join(e.text for e in events)
