"""Week card events change the round they are revealed in
(mmh:course-of-play.revealing-the-week-card)."""

from __future__ import annotations

import pytest

from engine.mmh import economy, heroes, movement
from tests.mmh.helpers import new_game


def _week(card: str):  # type: ignore[no-untyped-def]
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    for pile in (state.week_stack, state.week_box):
        if card in pile:
            pile.remove(card)
    state.week = card
    return state


@pytest.mark.rule("mmh:course-of-play.revealing-the-week-card")
def test_week_events_apply_for_the_round() -> None:
    laszlo = lambda s: s.heroes["laszlo"]  # noqa: E731
    state = _week("week_of_fair_winds")
    assert heroes.movement_points(state, laszlo(state)) == 5
    state = _week("week_of_the_market")
    assert economy.creature_cost(state, laszlo(state), "sentinel", True) == 2 - 1
    state = _week("week_of_heroes")
    assert economy.hero_cost(state) == 3
    state = _week("week_of_the_builders")
    assert economy.level_cost(state, 0) == 4 - 1
    state = _week("week_of_the_griffin")
    assert heroes.hero_dice(state, laszlo(state)) == 1 + 1 + 1  # Aggressor too
    state = _week("ashas_tithe")
    assert economy.gather_income(state, 0) == (2, 0)


@pytest.mark.rule("mmh:other-game-rules.dark-times")
def test_dark_times_and_stronger_encounters() -> None:
    state = _week("night_of_the_faceless")
    assert movement.overwhelm_needed(state, "yellow") == 3
    from engine.mmh.common import week_event

    assert week_event(state).encounter_might == 1 and week_event(state).dark_times


@pytest.mark.rule("mmh:other-game-rules.luck")
def test_wild_magic_forbids_luck() -> None:
    from engine.mmh import battle

    state = _week("week_of_wild_magic")
    hero = state.heroes["laszlo"]
    hero.luck = 1
    state.luck_supply = 12
    assert not battle._luck_usable(state, hero)
    state.week = None
    assert battle._luck_usable(state, hero)
