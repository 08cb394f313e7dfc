"""Forts in combat: level-5 defenders rolling together, destruction, extra hero rolls."""

from __future__ import annotations

import pytest

from engine.heroforge import effects
from engine.heroforge.state import HeroforgeState
from tests.heroforge.helpers import apply, fort, give, put, script, started, texts, to_step


def siege(heroes: tuple[str, str] = ("weir", "orvan")) -> HeroforgeState:
    """Red on plate B (Grassland), Blue's hero far away on plate I; Red's combat step."""
    state = started(heroes=heroes)
    put(state, 0, "B", 2, 2)
    put(state, 1, "I", 2, 2)
    to_step(state, "combat")
    return state


def _fort_rolls(events: list) -> int:  # type: ignore[type-arg]
    return sum(1 for e in events if e.kind == "die_roll" and "forts'" in e.data["purpose"])


@pytest.mark.rule("heroforge:combat-with-forts")
@pytest.mark.parametrize(("manned", "rolls"), [(4, 4), (2, 3), (1, 2)])
def test_manned_forts_roll_together_four_have_four_rolls_two_have_three(
    manned: int, rolls: int
) -> None:
    assert effects.fort_rolls(manned, attacked_manned=True) == rolls
    state = siege()
    give(state, 0, 9, 9, 9, 9)  # level 10 with Weir: only a 10 kills
    forts = [fort(state, 1, "B", cx, 0, 9) for cx in range(manned)]
    script(state, 2, *([3] * rolls), 4)
    state, events = apply(state, 0, {"type": "attack", "target": f"fort:{forts[0].id}"})
    assert _fort_rolls(events) == rolls
    forts_word = (
        "1 manned fort on plate B defends"
        if manned == 1
        else f"{manned} manned forts on plate B defend"
    )
    assert f"Blue's {forts_word} with {rolls} damage rolls." in texts(events)
    assert state.active == 1


@pytest.mark.rule("heroforge:combat-with-forts")
def test_unmanned_forts_do_not_fight_back() -> None:
    state = siege()
    give(state, 0, 5)
    target = fort(state, 1, "B", 0, 0)
    script(state, 4, 4)
    state, events = apply(state, 0, {"type": "attack", "target": f"F{target.id}"})
    assert _fort_rolls(events) == 0
    assert "4 against the cleared fort F1 (needs 5): it stands" in texts(events)


@pytest.mark.rule("heroforge:combat-with-forts")
def test_a_fort_is_cleared_of_units_then_destroyed_on_a_five_or_higher() -> None:
    state = siege(heroes=("sable", "orvan"))  # Sable: two damage rolls
    give(state, 0, 9)
    target = fort(state, 1, "B", 0, 0, 2)
    assert effects.cap(state, 1) == 6  # Orvan's 5 + Grassland's 1
    script(state, 3, 5, 4)
    state, events = apply(state, 0, {"type": "attack", "target": f"fort:{target.id}"})
    log = texts(events)
    assert "the fort is cleared" in log and "Fort F1 is destroyed" in log
    assert "Grassland (B) belongs to no one; Blue loses its bonuses" in log
    assert state.forts == [] and effects.owner(state, "B") is None
    assert effects.cap(state, 1) == 5 and state.combats == []


@pytest.mark.rule("heroforge:combat-with-forts")
def test_marras_forts_are_level_six_defenders() -> None:
    state = siege(heroes=("weir", "marra"))
    give(state, 0, 9)
    target = fort(state, 1, "B", 0, 0)
    script(state, 5, 4)
    state, events = apply(state, 0, {"type": "attack", "target": f"fort:{target.id}"})
    assert "5 against the cleared fort F1 (needs 6): it stands" in texts(events)


@pytest.mark.rule("heroforge:combat-with-forts")
def test_forts_alone_cannot_kill_a_hero_who_retreats_at_the_end_of_the_turn() -> None:
    state = siege()
    give(state, 0, 1)  # level 2 with Weir
    target = fort(state, 1, "B", 0, 0, 9)
    fort(state, 0, "H", 0, 0)  # Red's own land to retreat to
    script(state, 2, 9, 9, 4)
    state, events = apply(state, 0, {"type": "attack", "target": f"fort:{target.id}"})
    assert state.player(0).alive and state.player(0).army == []
    assert "has no units left in the combat and retreats to plate H" in texts(events)
    assert state.combats == [] and state.active == 1


@pytest.mark.rule("heroforge:combat-with-forts")
def test_a_hero_without_a_land_to_retreat_to_stays_when_out_of_units() -> None:
    state = siege()
    give(state, 0, 1)
    target = fort(state, 1, "B", 0, 0, 9)
    script(state, 2, 9, 9, 4)
    state, events = apply(state, 0, {"type": "attack", "target": f"fort:{target.id}"})
    assert "has no land to retreat to; it stays" in texts(events)
    at = state.player(0).at
    assert at is not None and at.plate == "B" and state.combats == []


@pytest.mark.rule("heroforge:combat-with-forts")
def test_a_hero_gets_an_extra_damage_roll_per_manned_fort_on_its_plate() -> None:
    state = siege()
    put(state, 1, "B", 4, 4)
    give(state, 0, 9)
    give(state, 1, 9)
    fort(state, 0, "B", 0, 0, 1)
    fort(state, 0, "B", 1, 0, 1)
    fort(state, 0, "B", 2, 0)  # unmanned: no extra roll
    assert effects.hero_rolls(state, 0) == 3
    script(state, 2, 2, 2)
    state, events = apply(state, 0, {"type": "attack", "target": "hero:1"})
    assert sum(1 for e in events if e.kind == "die_roll") == 3


@pytest.mark.rule("heroforge:combat-with-forts")
def test_an_attacker_emptied_by_the_other_forts_after_destroying_one_still_retreats() -> None:
    state = siege()
    give(state, 0, 2)  # level 3 with Weir
    target = fort(state, 1, "B", 0, 0)  # unmanned: a roll of 5 destroys it
    fort(state, 1, "B", 4, 0, 9)  # manned: rolls once at Red's units
    fort(state, 0, "H", 0, 0)
    script(state, 5, 9, 4)
    state, events = apply(state, 0, {"type": "attack", "target": f"fort:{target.id}"})
    log = texts(events)
    assert "Fort F1 is destroyed" in log and "retreats to plate H" in log
