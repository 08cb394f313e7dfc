"""The searching players' evaluation of a homm4 position (`engine.homm4.ai.worth`, issue
19): Armies' strength, Towns by level with their garrisons, Dwellings, other sites, and
the cards of the Hand and the Risk Stack (homm4: a Unit's cost is paid in cards). The
figures are the heuristic's own (no rulebook example): a Town 8 per level, a Dwelling 6,
an Object 4, a card 1.5."""

from __future__ import annotations

from engine.homm4 import ai
from tests.homm4.adventure_helpers import started


def test_hand_and_risk_stack_cards_count() -> None:
    state = started()
    player = state.players_state[0]
    before = ai.worth(state, 0)
    moved = player.hand.pop()
    player.risk.append(moved)
    assert ai.worth(state, 0) == before
    player.discard.append(player.risk.pop())
    assert before - ai.worth(state, 0) == ai.CARD_WORTH


def test_a_dwelling_counts_more_than_an_object() -> None:
    state = started()
    before = ai.worth(state, 0)
    free = [s for s in state.sites if s.owner is None and s.kind != "town"]
    dwelling = next(s for s in free if s.kind == "dwelling")
    dwelling.owner = 0
    assert ai.worth(state, 0) - before == ai.DWELLING_WORTH == 6.0


def test_an_eliminated_side_is_worth_nothing() -> None:
    state = started()
    state.players_state[1].eliminated = True
    assert ai.worth(state, 1) == 0.0
    assert ai.evaluate(state, 0) == 1.0
