"""The Income Phase: Towns, Mines and Objects, town levels, skills and tolls."""

from __future__ import annotations

import pytest

from engine.homm4 import adventure, zones
from tests.homm4.adventure_helpers import (
    add_card,
    army_of,
    give_object,
    give_town,
    started,
)


def _income(state, seat: int) -> int:  # type: ignore[no-untyped-def]
    before = len(state.players_state[seat].hand)
    adventure.income_phase(state, seat)
    return len(state.players_state[seat].hand) - before


@pytest.mark.rule("homm4:income-phase.town-income")
def test_one_card_per_town_and_none_for_the_free_town_card() -> None:
    state = started(seed=3)
    assert state.players_state[1].free_town is not None
    assert adventure.income_breakdown(state, 1)["towns"] == 0, (
        "the free Town card is not yet controlled"
    )
    assert _income(state, 1) == 0
    give_town(state, 1, 0)
    give_town(state, 1, 1, card_id="haven")
    assert adventure.income_breakdown(state, 1)["towns"] == 2
    assert _income(state, 1) == 2


@pytest.mark.rule("homm4:income-phase.mine-income")
def test_alchemists_lab_gives_one_card() -> None:
    state = started(seed=3)
    give_object(state, 1, "alchemists_lab")
    parts = adventure.income_breakdown(state, 1)
    assert parts["objects"] == 1 and parts["towns"] == 0
    assert _income(state, 1) == 1, "a player without Towns still gets the other income"
    give_object(state, 1, "sulfur_mine", index=1)
    assert _income(state, 1) == 1, "an Object without an income effect adds nothing"


@pytest.mark.rule("homm4:income-phase.additional-income")
def test_tolls_and_skills_add_cards() -> None:
    state = started(seed=3)
    army = army_of(state, 1)
    nomad = add_card(state, 1, "nomad")
    army.cards.append(nomad)
    assert adventure.income_breakdown(state, 1)["tolls"] == 1
    town = give_town(state, 1)
    genie = add_card(state, 1, "genie")
    town.garrison.append(genie)
    assert adventure.income_breakdown(state, 1)["tolls"] == 2, "tolls count in garrisons too"
    hero = army.cards[0]
    skill = add_card(state, 1, "nobility_basic")
    state.inventories[hero].skills.append(skill)
    parts = adventure.income_breakdown(state, 1)
    assert parts["skills"] == 1
    assert _income(state, 1) == 1 + 2 + 1


@pytest.mark.rule("homm4:income-phase")
def test_income_is_drawn_at_the_start_of_the_turn_with_a_public_breakdown() -> None:
    state = started(seed=3)
    give_town(state, 1)
    give_object(state, 1, "gold_mine")
    events = adventure.start_turn(state, 1)
    income = next(e for e in events if e.kind == "income")
    assert income.data["total"] == 2 and income.data["towns"] == 1 and income.data["objects"] == 1
    draw = next(e for e in events if e.kind == "draw")
    assert draw.data["count"] == 2
    assert 1 in draw.private and not any(str(c) in draw.text for c in draw.private_data[1]["cards"])
    assert state.phase == "purchase"
    assert zones.towns_of(state, 1)
