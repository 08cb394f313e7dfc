"""Objectives and Victory: a side without Army and Town is out; the last side wins."""

from __future__ import annotations

import pytest

from engine.core.errors import GameOver
from engine.homm4 import adventure, zones
from tests.homm4.adventure_helpers import R, add_card, apply, give_town, started


def _drop_armies(state, seat: int) -> None:  # type: ignore[no-untyped-def]
    for army in zones.armies_of(state, seat):
        for card in army.cards:
            zones.to_discard(state, card)
            state.inventories.pop(card, None)
    state.armies = [a for a in state.armies if a.owner != seat]


@pytest.mark.rule("homm4:objectives")
def test_a_side_with_a_town_but_no_army_stays_in() -> None:
    state = started(players=3, seed=61)
    give_town(state, 1)
    _drop_armies(state, 1)
    assert adventure.check_eliminations(state) == []
    assert not state.players_state[1].eliminated


@pytest.mark.rule("homm4:victory")
def test_losing_the_last_army_and_town_eliminates_and_the_last_side_wins() -> None:
    state = started(players=3, seed=61)
    _drop_armies(state, 2)
    events = adventure.check_eliminations(state)
    assert [e.kind for e in events] == ["eliminated"] and state.players_state[2].eliminated
    assert state.phase != "over"
    assert adventure.next_living(state, 1) == 0, "eliminated seats are skipped"
    _drop_armies(state, 1)
    events = adventure.check_eliminations(state)
    assert [e.kind for e in events] == ["eliminated", "victory"]
    result = R.result(state)
    assert result.finished and result.winners == (0,)
    assert R.pending(state) == []
    with pytest.raises(GameOver):
        apply(state, 0, {"type": "end_purchase"})


@pytest.mark.rule("homm4:victory")
def test_the_active_seat_eliminated_passes_the_turn() -> None:
    state = started(players=3, seed=62)
    assert state.active == 0
    _drop_armies(state, 0)
    events = adventure.check_eliminations(state)
    assert events[0].kind == "eliminated" and state.active == 1
    assert any(e.kind == "turn" for e in events)


@pytest.mark.rule("homm4:victory")
def test_objects_of_an_eliminated_side_become_unowned() -> None:
    state = started(players=3, seed=63)
    site = next(s for s in state.sites if s.kind == "object")
    site.card, site.owner = add_card(state, 2, "gold_mine"), 2
    _drop_armies(state, 2)
    adventure.check_eliminations(state)
    assert state.sites[site.id].owner is None
