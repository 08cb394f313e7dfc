"""Combat over several turns: targets, damage rolls, defence, retreat, deaths, victory."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, WrongPhase
from engine.heroforge import effects
from engine.heroforge.state import HeroforgeState
from tests.heroforge.helpers import (
    R,
    apply,
    fort,
    give,
    put,
    rolls_left,
    script,
    started,
    texts,
    to_step,
)


def fight(heroes: tuple[str, str] = ("weir", "orvan")) -> HeroforgeState:
    """Red and Blue on plate B (Grassland), Red's combat step."""
    state = started(heroes=heroes)
    put(state, 0, "B", 2, 2)
    put(state, 1, "B", 4, 4)
    to_step(state, "combat")
    return state


@pytest.mark.rule("heroforge:units")
def test_a_damage_roll_at_least_the_level_kills_the_highest_level_unit() -> None:
    state = fight()
    give(state, 0, 3)
    low, high = give(state, 1, 2, 6)
    script(state, 6)
    state, events = apply(state, 0, {"type": "attack", "target": "hero:1"})
    assert [u.id for u in state.player(1).army] == [low]
    assert f"6 against level 6: Blue's #{high} dies" in texts(events)
    assert R.pending(state)[0].kind == "defend" and R.pending(state)[0].seat == 1


@pytest.mark.rule("heroforge:units")
def test_a_roll_below_the_level_leaves_the_unit_undamaged() -> None:
    state = fight()
    give(state, 0, 3)  # Weir: level 3 + 1 = 4
    give(state, 1, 9)
    script(state, 4, 3, 4)
    state, _ = apply(state, 0, {"type": "attack", "target": "hero:1"})
    state, events = apply(state, 1, {"type": "fight_back", "target": "hero:0"})
    assert "3 against level 4" in texts(events) and "no damage" in texts(events)
    assert len(state.player(0).army) == 1


@pytest.mark.rule("heroforge:combat")
def test_combat_goes_on_over_turns_with_the_roles_swapped() -> None:
    state = fight()
    give(state, 0, 9)
    give(state, 1, 9)
    script(state, 1, 1, 4)
    state, _ = apply(state, 0, {"type": "attack", "target": "Blue"})
    state, _ = apply(state, 1, {"type": "fight_back", "target": "hero:0"})
    # Red's turn ended; the two heroes are still in combat on Blue's turn
    assert state.active == 1 and effects.in_combat(state, 1)
    with pytest.raises(IllegalMove, match="in combat"):
        apply(state, 1, {"type": "buy_unit", "level": 1})
    state, _ = apply(state, 1, {"type": "end_buying"})
    state, _ = apply(state, 1, {"type": "skip_move"})
    state, _ = apply(state, 1, {"type": "end_buying"})
    with pytest.raises(IllegalMove, match="in combat"):
        apply(state, 1, {"type": "end_turn"})
    script(state, 2)
    state, _events = apply(state, 1, {"type": "attack", "target": "hero:0"})
    assert R.pending(state)[0].seat == 0 and R.pending(state)[0].kind == "defend"


@pytest.mark.rule("heroforge:combat")
def test_several_damage_rolls_keep_their_target_even_when_it_dies() -> None:
    state = fight(heroes=("sable", "orvan"))  # Sable makes 2 damage rolls
    give(state, 0, 4)
    give(state, 1, 2)
    script(state, 9, 9)
    state, events = apply(state, 0, {"type": "attack", "target": "hero:1"})
    assert [e.data["purpose"] for e in events if e.kind == "die_roll"] == [
        "damage roll against Blue's hero",
        "damage roll against Blue's hero",
    ]
    assert not state.player(1).alive and state.phase == "over"
    assert R.result(state).winners == (0,)
    assert rolls_left(state) == []


@pytest.mark.rule("heroforge:basic-rules")
def test_a_hero_attacked_with_no_units_dies_at_once() -> None:
    state = fight()
    give(state, 0, 1)
    state, events = apply(state, 0, {"type": "attack", "target": "hero:1"})
    assert not [e for e in events if e.kind == "die_roll"]
    assert "Blue's hero is killed by Red (attacked with no units)" in texts(events)
    assert R.result(state).finished and "Red has killed every enemy hero" in R.result(state).reason


@pytest.mark.rule("heroforge:combat")
def test_to_enter_combat_the_hero_needs_an_army_and_a_target_on_its_plate() -> None:
    state = fight()
    with pytest.raises(IllegalMove, match="must have an army"):
        apply(state, 0, {"type": "attack", "target": "hero:1"})
    give(state, 0, 3)
    put(state, 1, "C")
    with pytest.raises(IllegalMove, match="No enemy hero or fort"):
        apply(state, 0, {"type": "attack", "target": "hero:1"})


@pytest.mark.rule("heroforge:combat")
def test_the_defender_kills_the_attackers_last_unit_and_the_attacker_dies() -> None:
    state = fight()
    give(state, 0, 1)  # level 2 with Weir
    give(state, 1, 9)
    script(state, 2, 2)
    state, _ = apply(state, 0, {"type": "attack", "target": "hero:1"})
    state, _events = apply(state, 1, {"type": "fight_back", "target": "hero:0"})
    assert not state.player(0).alive and R.result(state).winners == (1,)


@pytest.mark.rule("heroforge:combat")
def test_a_retreat_over_five_sends_the_hero_to_its_closest_uncontested_land() -> None:
    state = fight()
    give(state, 0, 5)
    give(state, 1, 5)
    fort(state, 1, "F", 0, 0)  # one plate from B
    fort(state, 1, "I", 0, 0)  # two plates from B
    script(state, 1, 6, 4)
    state, _ = apply(state, 0, {"type": "attack", "target": "hero:1"})
    state, events = apply(state, 1, {"type": "retreat"})
    at = state.player(1).at
    assert at is not None and (at.plate, at.cx, at.cy) == ("F", 2, 2)
    assert state.combats == [] and state.active == 1
    assert "retreats to plate F" in texts(events)


@pytest.mark.rule("heroforge:combat")
def test_a_retreat_roll_of_five_fails_and_the_combat_goes_on() -> None:
    state = fight()
    give(state, 0, 5)
    give(state, 1, 5)
    fort(state, 1, "F", 0, 0)
    script(state, 1, 5, 4)
    state, _ = apply(state, 0, {"type": "attack", "target": "hero:1"})
    state, events = apply(state, 1, {"type": "retreat"})
    assert "retreat fails" in texts(events)
    assert state.player(1).at is not None and state.player(1).at.plate == "B"
    assert effects.in_combat(state, 1)


@pytest.mark.rule("heroforge:combat")
def test_no_retreat_without_an_uncontested_land_of_your_own() -> None:
    state = fight()
    give(state, 0, 5)
    give(state, 1, 5)
    fort(state, 1, "F", 0, 0)
    put(state, 0, "F", 4, 4)
    put(state, 1, "F", 3, 3)
    script(state, 1)
    state, _ = apply(state, 0, {"type": "attack", "target": "hero:1"})
    # Blue's only land is the plate of the combat
    assert {c.type for c in R.legal_commands(state, 1)} == {"fight_back"}
    with pytest.raises(IllegalMove, match="own an uncontested land"):
        apply(state, 1, {"type": "retreat"})


@pytest.mark.rule("heroforge:basic-rules")
def test_weirs_roll_of_one_raises_his_units_until_the_combat_ends() -> None:
    state = fight()
    give(state, 0, 3)
    give(state, 1, 9)
    script(state, 1, 4, 4)
    state, events = apply(state, 0, {"type": "attack", "target": "hero:1"})
    assert "Weir Of HopeSeeking rolled a 1" in texts(events)
    assert effects.army_levels(state, 0)[0][1] == 5  # 3 + 1 (always) + 1 (this combat)
    state, events = apply(state, 1, {"type": "fight_back", "target": "hero:0"})
    assert "4 against level 5" in texts(events)
    # Blue moves away on its turn: the combat ends and Weir's bonus with it
    state, _ = apply(state, 1, {"type": "end_buying"})
    script(state, 6)
    state, _ = apply(state, 1, {"type": "roll_move"})
    state, _ = apply(state, 1, {"type": "move", "direction": "W", "distance": 1})
    assert state.player(0).combat_bonus == 0
    assert effects.army_levels(state, 0)[0][1] == 4


@pytest.mark.rule("heroforge:combat")
def test_the_defence_is_owed_by_the_defender_alone() -> None:
    state = fight()
    give(state, 0, 3)
    give(state, 1, 3)
    script(state, 1)
    state, _ = apply(state, 0, {"type": "attack", "target": "hero:1"})
    with pytest.raises(Exception, match="not your turn"):
        apply(state, 0, {"type": "end_turn"})
    with pytest.raises(WrongPhase):
        apply(state, 1, {"type": "buy_unit", "level": 1})
