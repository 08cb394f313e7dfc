"""Enchantments: one carried, instants, stacks, passing on, stealing, player-written lists."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.heroforge import decisions, effects, enchant
from engine.heroforge.catalog import EnchantmentSpec, load_catalog
from engine.heroforge.state import Combat, HeroforgeState
from tests.heroforge.helpers import CROSS, R, apply, give, put, script, started, texts, to_step

FORTUNES = load_catalog().lists["fortunes"].enchantments
BANNERS = FORTUNES[1]  # Iron Banners (Stack) [HighLands]: unit_level +1
CHEAP = FORTUNES[2]  # Cheap Labour: unit_cost -50
BLOODLUST = FORTUNES[6]  # Bloodlust (Instant) [Ashlands]: +1 damage roll


def _drawn(state: HeroforgeState, number: int) -> tuple[HeroforgeState, str]:
    """Red ends its turn, Blue's turn passes, Red's scenario roll is 1 and the enchantment
    roll ``number`` (on the Fortunes list)."""
    to_step(state, "combat")
    script(state, 4, 1, number)
    state, _ = apply(state, 0, {"type": "end_turn"})
    to_step(state, "combat")
    state, events = apply(state, 1, {"type": "end_turn"})
    return state, texts(events)


@pytest.mark.rule("heroforge:enchantments")
def test_a_hero_carries_one_enchantment_a_new_permanent_replaces_it() -> None:
    state = started()
    enchant.deliver(state, 0, CHEAP, 1)
    events = enchant.deliver(state, 0, BANNERS, 1)
    carried = state.player(0).enchantment
    assert carried is not None and carried.spec.name == "Iron Banners"
    assert "replacing Cheap Labour" in events[0].text


@pytest.mark.rule("heroforge:enchantments")
def test_an_instant_acts_at_once_and_does_not_replace_the_permanent() -> None:
    state = started(heroes=("sable", "orvan"))
    enchant.deliver(state, 0, CHEAP, 1)
    enchant.deliver(state, 0, BLOODLUST, 1)
    carried = state.player(0).enchantment
    assert carried is not None and carried.spec.name == "Cheap Labour"
    assert effects.hero_rolls(state, 0) == 3  # 1 + Sable's ability + Bloodlust this turn
    to_step(state, "combat")
    script(state, 4)
    state, _ = apply(state, 0, {"type": "end_turn"})
    assert state.instants == [] and effects.hero_rolls(state, 0) == 2


@pytest.mark.rule("heroforge:enchantments")
def test_stack_enchantments_of_one_name_multiply() -> None:
    state = started()
    enchant.deliver(state, 0, BANNERS, 1)
    events = enchant.deliver(state, 0, BANNERS, 1)
    carried = state.player(0).enchantment
    assert carried is not None and carried.count == 2
    assert events[0].text == "Red's Iron Banners stacks: units +1 level x2 = units +2 level."
    # Weir's +1 and two Iron Banners: a level 3 unit is level 6
    give(state, 0, 3)
    assert effects.army_levels(state, 0)[0][1] == 6
    enchant.deliver(state, 0, CHEAP, 1)
    assert state.player(0).enchantment is not None
    assert state.player(0).enchantment.count == 1


@pytest.mark.rule("heroforge:units")
def test_levels_never_pass_ten() -> None:
    state = started()
    enchant.deliver(state, 0, BANNERS, 3)
    give(state, 0, 9)
    assert effects.army_levels(state, 0)[0][1] == 10


@pytest.mark.rule("heroforge:other-ways-of-getting-rid-of-enchantments")
def test_paying_1000e_passes_the_enchantment_to_a_player_of_your_choice() -> None:
    state = started()
    enchant.deliver(state, 0, CHEAP, 1)
    state.player(0).economy = 1200
    state, _events = apply(state, 0, {"type": "pass_enchantment", "to": 1})
    assert state.player(0).economy == 200 and state.player(0).enchantment is None
    carried = state.player(1).enchantment
    assert carried is not None and carried.spec.name == "Cheap Labour"
    with pytest.raises(IllegalMove, match="carries no enchantment"):
        apply(state, 0, {"type": "pass_enchantment", "to": 1})


@pytest.mark.rule("heroforge:other-ways-of-getting-rid-of-enchantments")
def test_no_passing_in_combat_or_without_1000e() -> None:
    state = started()
    enchant.deliver(state, 0, CHEAP, 1)
    state.player(0).economy = 950
    with pytest.raises(IllegalMove, match="costs 1000e and you have 950e"):
        apply(state, 0, {"type": "pass_enchantment", "to": 1})
    state.player(0).economy = 5000
    state.combats.append(Combat(attacker=1, defender=0, plate="A"))
    put(state, 1, "A", 0, 0)
    with pytest.raises(IllegalMove, match="while in combat"):
        apply(state, 0, {"type": "pass_enchantment", "to": 1})


@pytest.mark.rule("heroforge:factions")
def test_an_enemy_of_the_enchantments_faction_may_steal_it_for_1000e() -> None:
    state = started(heroes=("orvan", "weir"))  # Blue is Weir, of the HighLands
    state, log = _drawn(state, 2)  # Iron Banners [HighLands]
    assert "Blue may pay 1000e to steal it from Red" in log
    decision = R.pending(state)[0]
    assert (decision.seat, decision.kind) == (1, "steal")
    state, _events = apply(state, 1, {"type": "steal"})
    assert state.player(1).economy == 0
    assert state.player(1).enchantment is not None and state.player(0).enchantment is None
    assert R.pending(state)[0].seat == 0 and R.pending(state)[0].kind == "buy"


@pytest.mark.rule("heroforge:factions")
def test_when_the_enemy_lets_it_go_the_receiver_keeps_it() -> None:
    state = started(heroes=("orvan", "weir"))
    state, _ = _drawn(state, 2)
    state, _events = apply(state, 1, {"type": "let_go"})
    carried = state.player(0).enchantment
    assert carried is not None and carried.spec.name == "Iron Banners"
    assert state.player(1).economy == 1000


@pytest.mark.rule("heroforge:factions")
def test_no_steal_offer_without_1000e_or_for_another_faction() -> None:
    state = started(heroes=("orvan", "weir"))
    state.player(1).economy = 950
    state, log = _drawn(state, 2)
    assert "steal" not in log and state.steal is None
    state = started(heroes=("orvan", "kestrel"))
    state, log = _drawn(state, 2)
    assert state.steal is None


@pytest.mark.rule("heroforge:land-shifting")
def test_an_instant_shift_is_a_shift_decision_at_once() -> None:
    state = started(grid=CROSS + " / . . .")
    state, log = _drawn(state, 8)  # Earthquake (Instant): shift 1
    assert "uses Earthquake" in log
    assert R.pending(state)[0].kind == "shift"
    state, _ = apply(state, 0, {"type": "skip_shift"})
    assert R.pending(state)[0].kind == "buy"


@pytest.mark.rule("heroforge:land-shifting")
def test_a_carried_shift_enchantment_shifts_one_plate_each_turn() -> None:
    state = started(grid=CROSS + " / . . .")
    landwalker = load_catalog().lists["shifting_sands"].enchantments[2]
    enchant.deliver(state, 0, landwalker, 1)
    assert decisions.ability_shifts_left(state, 0) == 1
    state, _ = apply(state, 0, {"type": "shift", "plate": "H", "direction": "S"})
    assert (state.plate("H").x, state.plate("H").y) == (1, 3)
    with pytest.raises(IllegalMove, match="no land shift to make"):
        apply(state, 0, {"type": "shift", "plate": "G", "direction": "S"})


@pytest.mark.rule("heroforge:enchantment-lists")
def test_a_player_written_list_is_rolled_on() -> None:
    written = "; ".join(f"Gift {i} (Instant): economy +{50 * i}" for i in range(1, 11))
    state = started(list1=written)
    state, log = _drawn(state, 7)
    assert "draws enchantment 7 of list 1: Gift 7 (Instant): +350e" in log
    assert state.player(0).economy == 1350


@pytest.mark.rule("heroforge:enchantments")
def test_helpful_and_harmful_are_told_apart_for_the_computer() -> None:
    from engine.heroforge.ai import helpful

    assert helpful(CHEAP) and helpful(BANNERS)
    assert not helpful(EnchantmentSpec(name="War Tax", effect="unit_cost", amount=100))
