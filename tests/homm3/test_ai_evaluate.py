"""The searching players' evaluation of a homm3 position (`engine.homm3.ai.worth`, issue
19): in a Combat, living units by tier × (Attack + Defense + Health), a wounded unit at
least half (it still attacks in full), and the Hand; in the Adventure, resources, income
for the Resource rounds to come, Town buildings, the Hand and the hero level. The figures
are the heuristic's own (no rulebook example): a card 6, a building 6, Gold 1/4,
Building Materials 2/4, Valuables 4/4."""

from __future__ import annotations

from engine.homm3 import ai
from engine.homm3 import combat_core as core
from tests.homm3.helpers import battle, new, unit


def test_a_wounded_unit_keeps_half_its_worth_and_more_with_health_left() -> None:
    state = battle([(0, "crusaders", False, "E5"), (1, "halberdiers", True, "F5")])
    crusaders = unit(state, 1)
    attack, defense, health, _ = core.base(crusaders)
    full = core.tier(crusaders) * (attack + defense + health)
    hand = ai.CARD_WORTH * len(state.player(0).hand)
    assert ai.worth(state, 0) == full + hand
    crusaders.damage = core.health(crusaders) - 1
    left = 1 / core.health(crusaders)
    assert ai.worth(state, 0) == full * (0.5 + 0.5 * left) + hand
    crusaders.alive = False
    assert ai.worth(state, 0) == hand


def test_a_card_in_hand_counts_in_a_combat() -> None:
    state = battle(
        [(0, "crusaders", False, "E5"), (1, "halberdiers", True, "F5")], hands={1: ["attack"]}
    )
    without = battle([(0, "crusaders", False, "E5"), (1, "halberdiers", True, "F5")])
    assert ai.worth(state, 1) - ai.worth(without, 1) == ai.CARD_WORTH


def test_the_adventure_counts_income_for_the_resource_rounds_to_come() -> None:
    state = new(mode="adventure", heroes=("catherine", "tamika"))
    player = state.player(0)
    state.round = state.rounds - 3  # rounds n-3 .. n: 4 rounds, 2 of them Resource rounds
    before = ai.worth(state, 0)
    player.income.gold += 4
    assert ai.worth(state, 0) - before == 2 * 4 / 4
    player.buildings.append("citadel")
    assert ai.worth(state, 0) - before == 2 * 4 / 4 + ai.BUILDING_WORTH


def test_evaluate_is_a_share() -> None:
    state = battle([(0, "crusaders", False, "E5"), (1, "halberdiers", True, "F5")])
    total = ai.worth(state, 0) + ai.worth(state, 1)
    assert ai.evaluate(state, 0) == ai.worth(state, 0) / total
