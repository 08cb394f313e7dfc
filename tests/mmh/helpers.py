"""Helpers for the mmh tests: a game set up to round 1, scripted dice, board look-ups and
small state edits (a hero on a space, an army, an encounter marker)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers mmh)
from engine.core.model import Command, Event
from engine.core.ruleset import get_ruleset
from engine.mmh import board as geometry
from engine.mmh.content import load_content
from engine.mmh.state import ActionStep, Activation, MmhState, Unit

R: Any = get_ruleset("mmh")
C = load_content()


def new_game(
    players: int = 2,
    seed: int = 1,
    factions: tuple[str, ...] = ("haven", "necropolis", "sanctuary", "stronghold"),
    heroes: tuple[str, ...] | None = None,
    length: str = "standard",
) -> MmhState:
    """A game past set-up: capitals placed by the computer, the given (or first) heroes
    chosen, round 1 begun, Sage's draw settled."""
    state, _ = R.new_game(
        R.parse_options({"factions": list(factions[:players]), "length": length}), players, seed
    )
    rng = random.Random(seed)
    while state.phase == "capitals":
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, R.ai_command(state, seat, rng))
    for seat in range(players):
        faction = state.seats[seat].faction
        options = [h.id for h in C.faction_heroes(faction)]
        hero = heroes[seat] if heroes else options[0]
        while state.queue:
            owner = state.queue[0].seat
            state, _ = R.apply(state, owner, R.default_command(state, owner))
        state, _ = R.apply(state, seat, {"type": "choose_hero", "hero": hero})
    while state.queue:
        seat = state.queue[0].seat
        state, _ = R.apply(state, seat, R.default_command(state, seat))
    return state


def apply(
    state: MmhState, seat: int, command: dict[str, Any] | Command
) -> tuple[MmhState, list[Event]]:
    """Apply a command (a dict or a model) and return the new state and its events."""
    return R.apply(state, seat, command)  # type: ignore[no-any-return]


def texts(events: list[Event]) -> str:
    """All public event lines joined (for `in` checks)."""
    return "\n".join(e.text for e in events)


def spaces(state: MmhState, test: Callable[[geometry.Space], bool]) -> list[int]:
    """Spaces of the board that pass ``test``."""
    board = geometry.board_of(state)
    return [s.index for s in board.spaces if s is not None and test(s)]


def label(state: MmhState, space: int) -> str:
    """The label of a space."""
    return geometry.space_label(state, space)


def clear_encounters(state: MmhState) -> None:
    """Put every encounter marker back in the box (a quiet board for movement tests)."""
    for space in list(state.encounters):
        state.encounter_box.append(state.encounters.pop(space))


def set_army(state: MmhState, hero: str, units: list[tuple[str, bool]]) -> None:
    """Give ``hero`` exactly these creatures (markers move between army and reserve)."""
    h = state.heroes[hero]
    reserve = state.seats[h.owner].reserve
    for unit in h.army:
        reserve[unit.creature] += 1
    h.army = []
    for creature, elite in units:
        reserve[creature] -= 1
        h.army.append(Unit(creature=creature, elite=elite))


def start_action(state: MmhState, seat: int, kind: str) -> None:
    """Make ``seat`` the active player in the middle of a ``kind`` action."""
    state.active = seat
    state.action = ActionStep(kind=kind, card=1)  # type: ignore[arg-type]
    state.seats[seat].cards[0].used = True


def activate(state: MmhState, hero: str, mp: int = 4, battles: int = 1) -> None:
    """Start an Activate Hero action for ``hero`` with ``mp`` movement points."""
    h = state.heroes[hero]
    start_action(state, h.owner, "hero")
    assert state.action is not None
    state.action.activation = Activation(hero=hero, mp=mp, battles=battles)
    state.action.activated = [hero]


def place_encounter(state: MmhState, space: int, marker: int) -> None:
    """Put encounter marker ``marker`` (from wherever it is) on ``space``."""
    for where, m in list(state.encounters.items()):
        if m == marker:
            del state.encounters[where]
    if marker in state.encounter_box:
        state.encounter_box.remove(marker)
    old = state.encounters.get(space)
    if old is not None:
        state.encounter_box.append(old)
    state.encounters[space] = marker


@contextmanager
def scripted_dice(monkeypatch: pytest.MonkeyPatch, faces: list[int]) -> Iterator[list[int]]:
    """Every die the battle rolls comes from ``faces`` in order (each checked against its
    sides); the test fails if a die is rolled that was not scripted."""
    from engine.mmh import battle

    queue = list(faces)

    def fake(state: MmhState, sides: int, purpose: str, events: list[Event]) -> int:
        assert queue, f"an unscripted d{sides} was rolled for {purpose}"
        value = queue.pop(0)
        assert 1 <= value <= sides, f"d{sides} cannot show {value}"
        events.append(
            Event(
                kind="die_roll",
                text=f"d{sides}: {value}",
                data={"sides": sides, "result": value, "purpose": purpose},
            )
        )
        return value

    monkeypatch.setattr(battle, "roll", fake)
    yield queue


def fixed_board(state: MmhState) -> None:
    """Lay tiles 1-9 unturned in reading order (tile 1 top left), put every encounter
    marker on its symbol (the lowest free marker of the colour), capitals at B1 (seat 0)
    and J1 (seat 1), heroes home, no control. Labels then match ``tiles.toml`` directly:
    tile 1 is A1-D4, tile 2 E1-H4, tile 3 I1-L4, tile 4 A5-D8 ... tile 9 I9-L12."""
    from engine.mmh.state import PlacedTile

    assert state.players == 2
    state.tiles = [
        PlacedTile(tile=n, slot=((n - 1) % 3, (n - 1) // 3), rotation=0) for n in range(1, 10)
    ]
    clear_encounters(state)
    board = geometry.board_of(state)
    for space in board.spaces:
        if space is not None and space.encounter is not None:
            marker = min(m for m in state.encounter_box if C.encounter(m).colour == space.encounter)
            state.encounter_box.remove(marker)
            state.encounters[space.index] = marker
    state.seats[0].capital = at(state, "B1")
    state.seats[1].capital = at(state, "J1")
    state.control = {}
    state.exploration_markers = []
    for hero in state.heroes.values():
        hero.space = None


def at(state: MmhState, text: str) -> int:
    """The space index of a label."""
    return geometry.parse_space(state, text)


def pass_windows(state: MmhState) -> MmhState:
    """Answer every open card window with "no (more) cards" until another decision is
    owed (windows open for any hero holding a scroll, whether usable or not)."""
    while state.battle is not None and R.pending(state)[0].kind == "battle_window":
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, {"type": "pass_window"})
    return state
