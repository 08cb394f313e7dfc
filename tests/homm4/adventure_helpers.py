"""Helpers for the adventure tests: start games, finish set-up, move cards around.

Scenarios are built from a real game (the shipped card pool and map sections) and then
arranged directly on the state, the way a test arranges a chess position.
"""

from __future__ import annotations

from typing import Any

import engine.rulesets  # noqa: F401  (registers homm4)
from engine.core.model import Command, Event
from engine.homm4 import board, zones
from engine.homm4.hexes import Hex, neighbours
from engine.homm4.ruleset import Homm4Ruleset
from engine.homm4.state import Army, Homm4State, Site

R = Homm4Ruleset()


def new_game(players: int = 2, seed: int = 1, **options: Any) -> Homm4State:
    """A new game (quick assembly unless options say otherwise)."""
    state, _ = R.new_game(R.parse_options(options), players, seed)
    return state


def apply(
    state: Homm4State, seat: int, command: Command | dict[str, Any]
) -> tuple[Homm4State, list[Event]]:
    """Apply through the public, checked path."""
    return R.apply(state, seat, command)


SETUP_PHASES = ("develop", "assemble", "entrances", "setup")
"""The phases before the first turn (Pre-developed Heroes, assembly, entrances, set-up)."""


def develop_by_default(state: Homm4State) -> Homm4State:
    """Play the default ``develop_hero`` (the automatic pick) for every seat until the
    Pre-developed Heroes step is over."""
    while state.phase == "develop":
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, R.default_command(state, seat))
    return state


def finish_setup(state: Homm4State) -> Homm4State:
    """Play the default command for every set-up decision until the first turn starts."""
    while state.phase in SETUP_PHASES:
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, R.default_command(state, seat))
    return state


def started(players: int = 2, seed: int = 1, **options: Any) -> Homm4State:
    """A game in seat 0's first Purchase Phase (or later phase if it has no Town)."""
    return finish_setup(new_game(players, seed, **options))


def take(state: Homm4State, seat: int, card_id: str) -> int:
    """Take one instance of ``card_id`` from ``seat``'s deck or discard pile (or, failing
    that, any zone of anybody's that is not on the board) and return it, out of every zone."""
    player = state.players_state[seat]
    for zone in (player.deck, player.discard):
        for instance in zone:
            if state.card_defs[instance] == card_id:
                zone.remove(instance)
                return instance
    for other in state.players_state:
        for zone in (other.deck, other.discard):
            for instance in zone:
                if state.card_defs[instance] == card_id:
                    zone.remove(instance)
                    return instance
    raise AssertionError(f"no free copy of {card_id} in the game")


def add_card(state: Homm4State, seat: int, card_id: str) -> int:
    """Create a new instance of ``card_id`` owned by ``seat`` (out of every zone)."""
    state.card_defs.append(card_id)
    state.card_owner.append(seat)
    return len(state.card_defs) - 1


def to_hand(state: Homm4State, seat: int, card_id: str) -> int:
    """Put a copy of ``card_id`` into ``seat``'s Hand and return its instance."""
    instance = add_card(state, seat, card_id)
    state.players_state[seat].hand.append(instance)
    return instance


def to_risk(state: Homm4State, seat: int, card_id: str) -> int:
    """Put a copy of ``card_id`` into ``seat``'s Risk Stack and return its instance."""
    instance = add_card(state, seat, card_id)
    state.players_state[seat].risk.append(instance)
    return instance


def clear_hand(state: Homm4State, seat: int) -> None:
    """Move ``seat``'s Hand and Risk Stack to its discard pile."""
    player = state.players_state[seat]
    player.discard += player.hand + player.risk
    player.hand = []
    player.risk = []


def army_of(state: Homm4State, seat: int) -> Army:
    """``seat``'s first Army."""
    return zones.armies_of(state, seat)[0]


def label(state: Homm4State, where: Hex) -> str:
    """The label of a hex."""
    return board.label(state, where)


def passable(state: Homm4State, where: Hex) -> bool:
    """Whether ``where`` is a passable board hex."""
    return board.step_cost2(state, where) is not None


def quiet_hex(state: Homm4State, *, away_from: Hex | None = None, minimum: int = 3) -> Hex:
    """A passable hex with no site within ``minimum`` (and none of its passable neighbours
    impassable-locked), far from ``away_from``; row order."""
    from engine.homm4.hexes import distance

    shape = board.board_of(state)
    for h in shape.order:
        if not passable(state, h):
            continue
        if any(distance(s.hex, h) < minimum for s in state.sites):
            continue
        if away_from is not None and distance(h, away_from) < 4:
            continue
        if sum(1 for n in neighbours(h) if passable(state, n)) >= 4:
            return h
    raise AssertionError("no quiet hex on this board")


def site_of_kind(state: Homm4State, kind: str) -> Site:
    """The first site of ``kind``."""
    return next(s for s in state.sites if s.kind == kind)


def place_army(state: Homm4State, seat: int, where: Hex, cards: list[int], mp2: int = 10) -> Army:
    """Put a new Army for ``seat`` with ``cards`` (already out of every zone) on ``where``."""
    from engine.homm4 import armies as army_rules

    army = army_rules.new_army(state, seat, where, cards, mp2)
    return army


def clear_board(state: Homm4State) -> None:
    """Remove every Army (cards to discard) and mark every site as identified-free
    (Objects identified by nothing are left unidentified but declined by everybody)."""
    for army in list(state.armies):
        for instance in army.cards:
            zones.to_discard(state, instance)
            state.inventories.pop(instance, None)
    state.armies = []


def decline_all_sites(state: Homm4State) -> None:
    """Mark every unidentified site as declined by every seat for this turn (no scouting)."""
    for site in state.sites:
        site.declined = list(range(state.players))


def give_town(state: Homm4State, seat: int, index: int = 0, card_id: str | None = None) -> Site:
    """Make the ``index``-th Town icon ``seat``'s Town: its free Town card (or a new
    ``card_id`` Town card) identifies it, no Guard, owned, level 1."""
    site = [s for s in state.sites if s.kind == "town"][index]
    player = state.players_state[seat]
    if card_id is None and player.free_town is not None:
        site.card = player.free_town
        player.free_town = None
    else:
        site.card = add_card(state, seat, card_id or "asylum")
    site.owner = seat
    site.level = 1
    site.guard = []
    return site


def give_object(state: Homm4State, seat: int, card_id: str, index: int = 0) -> Site:
    """Make the ``index``-th Object icon ``seat``'s, identified by a new ``card_id`` card."""
    site = [s for s in state.sites if s.kind == "object"][index]
    site.card = add_card(state, seat, card_id)
    site.owner = seat
    site.guard = []
    return site


def move_army(state: Homm4State, army: Army, where: Hex) -> None:
    """Put ``army`` on ``where`` directly."""
    army.hex = where
