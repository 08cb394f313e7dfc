"""Scouting Terrain: Sight Radius, identifying Towns, Dwellings and Objects, stolen intelligence."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, NotYourDecision
from engine.homm4 import adventure, board, movement, zones
from engine.homm4.hexes import distance, neighbours
from engine.homm4.state import Army, Homm4State, ScoutOffer, Site
from tests.homm4.adventure_helpers import (
    R,
    add_card,
    apply,
    clear_board,
    clear_hand,
    label,
    place_army,
    started,
    to_hand,
    to_risk,
)


def _scout_game(players: int = 3, kind: str = "dwelling") -> tuple[Homm4State, Army, Site]:
    """Seat 0 moving an Army that stands right next to an unidentified ``kind`` icon."""
    state = started(players=players, seed=31)
    clear_board(state)
    for seat in range(players):
        clear_hand(state, seat)
    state.phase, state.active = "movement", 0
    site = next(s for s in state.sites if s.kind == kind)
    for other in state.sites:
        if other.id != site.id:
            other.declined = list(range(players))
    start = next(
        n
        for n in neighbours(site.hex)
        if board.step_cost2(state, n) is not None and zones.site_at(state, n) is None
    )
    army = place_army(state, 0, start, [add_card(state, 0, "orc")], mp2=6)
    corners = [
        h for h in reversed(board.board_of(state).order) if board.step_cost2(state, h) is not None
    ]
    for seat in range(1, players):
        place_army(state, seat, corners[seat * 3], [add_card(state, seat, "peasant")])
    return state, army, site


def _away(state: Homm4State, army: Army) -> str:
    return label(state, next(h for h in movement.reachable(state, army) if h != army.hex))


@pytest.mark.rule("homm4:movement-phase.scouting-terrain")
def test_an_icon_within_sight_radius_one_stops_the_army_and_asks_the_scout() -> None:
    state, army, site = _scout_game()
    state, events = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    assert zones.army(state, army.id).hex == army.hex, (
        "the Army stops at once: the icon is already in sight"
    )
    assert events[0].kind == "scouted"
    offer = state.interrupts[0]
    assert isinstance(offer, ScoutOffer) and offer.site == site.id and offer.offeree == 0
    assert [(d.seat, d.kind) for d in R.pending(state)] == [(0, "identify")]
    assert any(h for h in state.sites if distance(h.hex, army.hex) == 1)


@pytest.mark.rule("homm4:movement-phase.creature-dwellings")
def test_stolen_intelligence_goes_clockwise_from_the_left_each_seat_once() -> None:
    state, army, site = _scout_game(players=3)
    where = label(state, site.hex)
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    asked = []
    while state.interrupts:
        seat = R.pending(state)[0].seat
        asked.append(seat)
        state, events = apply(state, seat, {"type": "pass_identify", "site": where})
    assert asked == [0, 1, 2]
    assert events[-1].kind == "unidentified"
    assert state.sites[site.id].card is None and state.sites[site.id].declined == [0]
    state, events = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    assert not state.interrupts, "not offered again this turn"
    assert zones.army(state, army.id).hex != army.hex


@pytest.mark.rule("homm4:movement-phase.creature-dwellings")
def test_a_dwelling_is_identified_with_a_unit_with_a_numeric_cost() -> None:
    state, army, site = _scout_game(players=2)
    where = label(state, site.hex)
    peasant = to_risk(state, 0, "peasant")
    orc = to_hand(state, 0, "orc")
    spell = to_hand(state, 0, "fireball")
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    with pytest.raises(IllegalMove, match="numeric cost"):
        apply(state, 0, {"type": "identify", "site": where, "card": peasant})
    with pytest.raises(IllegalMove, match="numeric cost"):
        apply(state, 0, {"type": "identify", "site": where, "card": spell})
    with pytest.raises(NotYourDecision):
        apply(state, 1, {"type": "identify", "site": where, "card": orc})
    state, events = apply(state, 0, {"type": "identify", "site": where, "card": orc})
    assert state.sites[site.id].card == orc and orc not in state.players_state[0].hand
    assert events[0].kind == "identify" and "Orc" in events[0].text, "identification is public"
    assert any(e.kind == "chip_in" for e in events) or any(e.kind == "no_guard" for e in events)


@pytest.mark.rule("homm4:movement-phase.towns")
def test_the_free_town_card_identifies_a_town_without_a_guard() -> None:
    state, army, site = _scout_game(players=2, kind="town")
    where = label(state, site.hex)
    free = state.players_state[0].free_town
    assert free is not None
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    state, events = apply(state, 0, {"type": "identify", "site": where, "card": free})
    placed = state.sites[site.id]
    assert placed.card == free and placed.free_town and placed.guard == [] and placed.owner is None
    assert state.players_state[0].free_town is None
    assert not state.interrupts and not any(e.kind == "chip_in" for e in events)
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": where})
    assert state.sites[site.id].owner == 0, "entering the free Town occupies it"


@pytest.mark.rule("homm4:movement-phase.towns")
def test_another_seat_may_steal_the_intelligence_with_a_town_card() -> None:
    state, army, site = _scout_game(players=3, kind="town")
    where = label(state, site.hex)
    state.players_state[0].free_town = None
    haven = to_risk(state, 2, "haven")
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    state, _ = apply(state, 0, {"type": "pass_identify", "site": where})
    state, _ = apply(state, 1, {"type": "pass_identify", "site": where})
    state, events = apply(state, 2, {"type": "identify", "site": where, "card": haven})
    assert state.sites[site.id].card == haven
    assert "stealing Red's intelligence" in events[0].text
    chip = next(e for e in events if e.kind == "chip_in")
    first = chip.data["turned"][0][0]
    assert first == 1, "the chip-in starts left of the scout, as if the scout identified"


@pytest.mark.rule("homm4:movement-phase.objects")
def test_objects_are_identified_with_an_object_or_an_artifact_card() -> None:
    state, army, site = _scout_game(players=2, kind="object")
    where = label(state, site.hex)
    orc = to_hand(state, 0, "orc")
    ring = to_risk(state, 0, "ring_of_fire")
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    with pytest.raises(IllegalMove, match="Strategic Object or Artifact"):
        apply(state, 0, {"type": "identify", "site": where, "card": orc})
    state, _ = apply(state, 0, {"type": "identify", "site": where, "card": ring})
    assert state.sites[site.id].card == ring


@pytest.mark.rule("homm4:movement-phase.scouting-terrain")
def test_declined_sites_are_offered_again_next_turn() -> None:
    state, army, site = _scout_game(players=2)
    where = label(state, site.hex)
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    state, _ = apply(state, 0, {"type": "pass_identify", "site": where})
    state, _ = apply(state, 1, {"type": "pass_identify", "site": where})
    assert state.sites[site.id].declined == [0]
    adventure.start_turn(state, 0)
    assert state.sites[site.id].declined == []


def _standing_on_icon(kind: str) -> tuple[Homm4State, Army, Site]:
    """Seat 0's Army stands ON an unidentified ``kind`` icon (e.g. placed there at set-up)."""
    state, army, site = _scout_game(players=2, kind=kind)
    army.hex = site.hex
    army.cards = [add_card(state, 0, "lord_cassius"), *army.cards]
    return state, army, site


@pytest.mark.rule("homm4:chipping-in-for-the-guard")
def test_a_guard_formed_under_an_army_is_fought_at_once() -> None:
    state, army, site = _standing_on_icon("object")
    mine = to_hand(state, 0, "gold_mine")
    where = label(state, site.hex)
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    assert isinstance(state.interrupts[0], ScoutOffer)
    state, _ = apply(state, 0, {"type": "identify", "site": where, "card": mine})
    guard_player = R.pending(state)[0].seat
    state, events = apply(state, guard_player, {"type": "reinforce_guard", "cards": []})
    assert state.battle is not None, "the Army inside the guarded territory fights it now"
    assert state.battle.attacker == 0 and state.battle.defender_kind == "guard"
    assert state.battle.hex == site.hex and zones.army(state, army.id).done
    assert "battle" in events[-1].kind


@pytest.mark.rule("homm4:movement-phase.towns")
def test_a_free_town_identified_under_an_army_is_occupied_at_once() -> None:
    state, army, site = _standing_on_icon("town")
    free = state.players_state[0].free_town
    assert free is not None
    where = label(state, site.hex)
    state, _ = apply(state, 0, {"type": "move", "army": army.id, "to": _away(state, army)})
    state, events = apply(state, 0, {"type": "identify", "site": where, "card": free})
    assert any(e.kind == "capture" for e in events)
    assert state.sites[site.id].owner == 0, "no Guard for a free Town: the Army occupies it"
    assert state.battle is None
