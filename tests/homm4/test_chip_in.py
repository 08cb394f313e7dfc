"""Chipping in for the Guard: the Guard Player, the three extra cards, reinforcement, control."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm4 import scouting
from engine.homm4.state import ChipIn, Homm4State, Site
from tests.homm4.adventure_helpers import R, add_card, apply, clear_hand, started, to_hand, to_risk


def _rigged(players: int, decks: dict[int, list[str]]) -> tuple[Homm4State, Site]:
    """A game in seat 0's Movement Phase whose seats' decks are exactly ``decks`` (top
    first), discard piles empty, and an identified Dwelling waiting for its Guard."""
    state = started(players=players, seed=41)
    state.phase, state.active = "movement", 0
    for seat in range(players):
        clear_hand(state, seat)
        player = state.players_state[seat]
        player.discard = []
        player.deck = [add_card(state, seat, c) for c in decks.get(seat, [])]
    site = next(s for s in state.sites if s.kind == "dwelling")
    site.card = add_card(state, 0, "orc")
    return state, site


@pytest.mark.rule("homm4:chipping-in-for-the-guard")
def test_guard_player_is_the_first_to_turn_up_a_unit_from_the_identifiers_left() -> None:
    state, site = _rigged(
        3,
        {
            0: ["orc", "orc"],
            1: ["fireball", "gold_mine"],
            2: ["orc", "bandit", "squire", "medusa", "efreet"],
        },
    )
    seat1_top = state.players_state[1].deck[0]
    first, bandit, squire, medusa, _ = state.players_state[2].deck
    events = scouting.chip_in(state, site, identifier=0)
    chip = events[0]
    assert chip.data["turned"] == [[1, seat1_top], [2, first]]
    assert chip.data["guard_player"] == 2
    assert state.players_state[1].discard == [seat1_top], "the discards are public, face up"
    formed = events[1]
    assert formed.data["extra"] == [bandit, squire, medusa], "three more cards"
    assert formed.data["guard"] == [first, bandit, medusa], "Units of the first card's faction join"
    assert state.players_state[2].discard == [squire]
    head = state.interrupts[0]
    assert isinstance(head, ChipIn) and head.guard_player == 2 and head.identifier == 0
    assert [(d.seat, d.kind) for d in R.pending(state)] == [(2, "reinforce_guard")]


@pytest.mark.rule("homm4:chipping-in-for-the-guard")
def test_reinforcing_with_units_of_the_guard_faction_from_hand_or_risk() -> None:
    state, site = _rigged(2, {1: ["orc", "fireball", "fireball", "fireball"], 0: ["orc"]})
    scouting.chip_in(state, site, identifier=0)
    minotaur = to_risk(state, 1, "minotaur")
    bandit = to_hand(state, 1, "bandit")
    squire = to_hand(state, 1, "squire")
    with pytest.raises(IllegalMove, match="Guard's faction"):
        apply(state, 1, {"type": "reinforce_guard", "cards": [squire]})
    state, events = apply(state, 1, {"type": "reinforce_guard", "cards": [bandit, minotaur]})
    guard = state.sites[site.id].guard
    assert guard[1:] == [bandit, minotaur] and len(guard) == 3
    assert state.sites[site.id].guard_player == 1
    assert squire in state.players_state[1].hand and not state.interrupts
    assert "The Guard Stack has 3 cards" in events[-1].text


@pytest.mark.rule("homm4:chipping-in-for-the-guard")
def test_the_identifier_can_be_the_guard_player() -> None:
    state, site = _rigged(2, {0: ["bandit", "fireball"], 1: ["fireball", "gold_mine"]})
    events = scouting.chip_in(state, site, identifier=0)
    assert events[0].data["guard_player"] == 0
    assert [s for s, _ in events[0].data["turned"]] == [1, 0]
    state, _ = apply(state, 0, {"type": "reinforce_guard", "cards": []})
    assert state.sites[site.id].guard_player == 0


@pytest.mark.rule("homm4:chipping-in-for-the-guard")
def test_an_empty_deck_reshuffles_and_no_unit_anywhere_means_no_guard() -> None:
    state, site = _rigged(2, {0: [], 1: []})
    state.players_state[1].discard = [add_card(state, 1, "fireball"), add_card(state, 1, "orc")]
    events = scouting.chip_in(state, site, identifier=0)
    assert any(e.kind == "shuffle" and e.data["seat"] == 1 for e in events)
    chip = next(e for e in events if e.kind == "chip_in")
    assert chip.data["guard_player"] == 1
    state2, site2 = _rigged(2, {0: ["fireball"], 1: ["gold_mine"]})
    events = scouting.chip_in(state2, site2, identifier=0)
    assert [e.kind for e in events] == ["no_guard"] and not state2.interrupts


@pytest.mark.rule("homm4:chipping-in-for-the-guard")
def test_guard_control_passes_left_when_the_guard_player_attacks() -> None:
    state, site = _rigged(3, {})
    site.guard = [add_card(state, 0, "orc")]
    site.guard_player = 0
    assert scouting.guard_controller(state, site, attacker=1) == 0
    assert scouting.guard_controller(state, site, attacker=0) == 1
    state.players_state[1].eliminated = True
    assert scouting.guard_controller(state, site, attacker=0) == 2, "eliminated seats are skipped"
