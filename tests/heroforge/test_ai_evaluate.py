"""The searching players' evaluation of a Hero Forge position (`engine.heroforge.ai.worth`,
issue 19): the living hero 1, its army's strength (10 / (11 - level) a unit), each fort 3
plus half its units' strength, and economy (held, plus 3 turns of the income its lands
and manned forts pay, heroforge:getting-economy-from-lands) at 1 point per 250e. The
figures are the heuristic's own (no rulebook example)."""

from __future__ import annotations

import pytest

from engine.heroforge import ai, effects
from tests.heroforge.helpers import fort, give, started


def test_army_forts_and_garrisons_count() -> None:
    state = started()
    state.player(0).economy = 0
    state.player(0).at = None
    assert ai.worth(state, 0) == 1.0
    give(state, 0, 10, 6)
    levels = [level for _, level in effects.army_levels(state, 0)]
    army = sum(10 / (11 - level) for level in levels)
    assert ai.worth(state, 0) == pytest.approx(1.0 + army)
    fort(state, 0, "B", 2, 2, 9)
    army = ai.strength(state, 0)
    assert ai.worth(state, 0) == pytest.approx(1.0 + army + 3.0 + 0.5 * 10 / 2)


def test_economy_held_and_to_come() -> None:
    state = started()
    player = state.player(0)
    player.economy = 1000
    income = sum(e for e, _ in effects.income(state, 0))
    army = ai.strength(state, 0)
    assert ai.worth(state, 0) == pytest.approx(1.0 + army + (1000 + 3 * max(income, 0)) / 250)


def test_a_dead_hero_is_worth_nothing() -> None:
    state = started()
    state.player(1).alive = False
    assert ai.worth(state, 1) == 0.0
    assert ai.evaluate(state, 0) == 1.0
