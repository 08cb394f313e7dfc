"""The Closing Phase: one Hand card into the Risk Stack, draw one, pass the turn."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from tests.homm4.adventure_helpers import R, apply, clear_hand, started, to_hand


@pytest.mark.rule("homm4:closing-phase")
def test_one_hand_card_goes_to_the_risk_stack_and_one_is_drawn() -> None:
    state = started(seed=51)
    state.phase, state.active = "movement", 0
    clear_hand(state, 0)
    kept = to_hand(state, 0, "orc")
    other = to_hand(state, 0, "fireball")
    state, _ = apply(state, 0, {"type": "end_movement"})
    assert state.phase == "closing"
    with pytest.raises(IllegalMove, match="from your Hand"):
        apply(state, 0, {"type": "close_turn", "card": None})
    in_deck = state.players_state[0].deck[0]
    with pytest.raises(IllegalMove) as not_in_hand:
        apply(state, 0, {"type": "close_turn", "card": in_deck})
    assert not_in_hand.value.message == (
        f"Card #{in_deck} is not in your Hand; put one of your Hand cards into your Risk Stack."
    )
    deck_top = state.players_state[0].deck[0]
    state, events = apply(state, 0, {"type": "close_turn", "card": kept})
    player = state.players_state[0]
    assert player.risk == [kept]
    assert sorted(player.hand) == sorted([other, deck_top])
    assert events[0].kind == "close_turn" and "Orc" not in events[0].text, "the card stays secret"
    assert state.active == 1 and state.phase in ("purchase", "movement")


@pytest.mark.rule("homm4:closing-phase")
def test_an_empty_hand_skips_the_closing_phase() -> None:
    state = started(seed=51)
    state.phase, state.active = "movement", 0
    clear_hand(state, 0)
    state, events = apply(state, 0, {"type": "end_movement"})
    assert [e.kind for e in events][:2] == ["closing_skipped", "turn"]
    assert state.active == 1
    assert state.players_state[0].risk == []


@pytest.mark.rule("homm4:game-process")
def test_turns_pass_clockwise_and_the_round_counts_up() -> None:
    state = started(players=3, seed=52)
    seen = []
    for _ in range(4):
        seat = state.active
        seen.append((seat, state.round))
        while state.active == seat:
            owner = R.pending(state)[0].seat
            state, _ = apply(state, owner, R.default_command(state, owner))
    assert seen == [(0, 1), (1, 1), (2, 1), (0, 2)]


@pytest.mark.rule("homm4:closing-phase")
def test_default_close_puts_the_most_useful_card_into_the_risk_stack() -> None:
    state = started(seed=53)
    state.phase, state.active = "closing", 0
    clear_hand(state, 0)
    spell = to_hand(state, 0, "fireball")
    town = to_hand(state, 0, "haven")
    command = R.default_command(state, 0)
    assert command.model_dump() == {"type": "close_turn", "card": town}
    assert spell != town
