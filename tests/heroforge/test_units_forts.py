"""Buying units under the cap, buying forts, manning and unmanning them."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.heroforge import effects
from engine.heroforge.catalog import EnchantmentSpec
from engine.heroforge.state import Carried, Combat, Instant
from tests.heroforge.helpers import R, apply, fort, give, put, started


@pytest.mark.rule("heroforge:units")
def test_units_are_bought_into_the_army_up_to_the_cap() -> None:
    state = started()  # Red is Weir: cap 5
    state, events = apply(state, 0, {"type": "buy_unit", "level": 3, "count": 5})
    assert [u.level for u in state.player(0).army] == [3] * 5
    assert state.player(0).economy == 1000 - 5 * 150
    assert "buys 5 Archer (level 3) for 750e" in events[0].text
    with pytest.raises(IllegalMove, match="your cap 5: you may buy 0 more"):
        apply(state, 0, {"type": "buy_unit", "level": 1})


@pytest.mark.rule("heroforge:units")
def test_units_in_forts_count_toward_the_military() -> None:
    state = started()
    fort(state, 0, "B", 0, 0, 1, 1)
    # owning Grassland adds 1 to the cap (6); two units already man the fort
    assert (effects.cap(state, 0), effects.military(state, 0)) == (6, 2)
    with pytest.raises(IllegalMove, match="you may buy 4 more"):
        apply(state, 0, {"type": "buy_unit", "level": 1, "count": 5})


@pytest.mark.rule("heroforge:units")
def test_units_over_the_cap_stay_but_none_can_be_bought() -> None:
    state = started()
    give(state, 0, 2, 2, 2, 2, 2, 2, 2)
    assert effects.military(state, 0) == 7 > effects.cap(state, 0) == 5
    assert not [c for c in R.legal_commands(state, 0) if c.type == "buy_unit"]


@pytest.mark.rule("heroforge:enchantments")
def test_unit_prices_change_with_abilities_and_enchantments() -> None:
    state = started(heroes=("brann", "orvan"))
    assert effects.unit_price(state, 0, 3) == 100  # Brann: units 50e less
    tax = EnchantmentSpec(name="War Tax", effect="unit_cost", amount=100)
    state.player(0).enchantment = Carried(spec=tax)
    assert effects.unit_price(state, 0, 3) == 200
    assert effects.unit_price(state, 0, 1) == 100


@pytest.mark.rule("heroforge:economy")
def test_nothing_is_bought_on_a_contested_land_in_combat_or_on_anothers_land() -> None:
    state = started()
    put(state, 1, "A", 0, 0)
    with pytest.raises(IllegalMove, match="contested"):
        apply(state, 0, {"type": "buy_unit", "level": 1})
    put(state, 1, "C")
    state.combats.append(Combat(attacker=1, defender=0, plate="A"))
    with pytest.raises(IllegalMove, match="in combat"):
        apply(state, 0, {"type": "buy_unit", "level": 1})
    state.combats = []
    put(state, 0, "B")
    fort(state, 1, "B", 0, 0)
    with pytest.raises(IllegalMove, match="belongs to Blue"):
        apply(state, 0, {"type": "buy_unit", "level": 1})


@pytest.mark.rule("heroforge:forts")
def test_a_fort_goes_on_the_heros_square_and_the_hero_steps_away() -> None:
    state = started()
    put(state, 0, "B")
    state, events = apply(state, 0, {"type": "buy_fort", "step": "e"})
    built = state.forts[0]
    assert (built.owner, built.at.plate, built.at.cx, built.at.cy) == (0, "B", 2, 2)
    assert state.player(0).at is not None
    assert (state.player(0).at.cx, state.player(0).at.cy) == (3, 2)
    assert state.player(0).economy == 600  # Grassland's fort price is 400e
    assert effects.owner(state, "B") == 0 and effects.cap(state, 0) == 6
    assert "now owns Grassland (B): cap +1" in events[0].text


@pytest.mark.rule("heroforge:forts")
def test_no_fort_on_a_plain_land_nor_a_fifth_on_a_plate() -> None:
    state = started()
    with pytest.raises(IllegalMove, match="Plain Land"):
        apply(state, 0, {"type": "buy_fort", "step": "E"})
    put(state, 0, "B")
    for cx in range(4):
        fort(state, 0, "B", cx, 0)
    with pytest.raises(IllegalMove, match="already has 4 forts"):
        apply(state, 0, {"type": "buy_fort", "step": "E"})


@pytest.mark.rule("heroforge:forts")
def test_the_step_after_placing_a_fort_must_land_on_the_board_off_forts() -> None:
    state = started()
    put(state, 0, "B", 2, 0)
    with pytest.raises(IllegalMove, match="off the board"):
        apply(state, 0, {"type": "buy_fort", "step": "N"})
    fort(state, 0, "B", 3, 0)
    with pytest.raises(IllegalMove, match="a fort stands there"):
        apply(state, 0, {"type": "buy_fort", "step": "E"})


@pytest.mark.rule("heroforge:enchantments")
def test_this_turn_your_next_fort_costs_500e_less() -> None:
    state = started(heroes=("marra", "orvan"))
    put(state, 0, "E")  # Dragon Peak: fort price 1000e, Marra's forts 100e less
    state.player(0).economy = 2000
    blessing = EnchantmentSpec(
        name="Builder's Blessing", kind="instant", effect="fort_cost", amount=-500
    )
    state.instants.append(Instant(seat=0, spec=blessing))
    assert effects.fort_price(state, 0, "E") == 400
    state, _ = apply(state, 0, {"type": "buy_fort", "step": "E"})
    assert state.player(0).economy == 1600 and state.instants == []
    assert effects.fort_price(state, 0, "E") == 900


@pytest.mark.rule("heroforge:manning-forts")
def test_units_move_between_the_hero_and_its_forts_on_an_uncontested_land() -> None:
    state = started()
    put(state, 0, "B")
    ids = give(state, 0, 2, 5)
    built = fort(state, 0, "B", 0, 0)
    state, _ = apply(state, 0, {"type": "man_fort", "fort": built.id, "units": [ids[1]]})
    assert [u.id for u in state.fort(built.id).units] == [ids[1]]
    assert state.fort(built.id).manned
    assert [u.id for u in state.player(0).army] == [ids[0]]
    state, events = apply(state, 0, {"type": "unman_fort", "fort": built.id, "units": [ids[1]]})
    assert not state.fort(built.id).manned and "the fort is unmanned" in events[0].text
    put(state, 1, "B", 4, 4)
    with pytest.raises(IllegalMove, match="contested"):
        apply(state, 0, {"type": "man_fort", "fort": built.id, "units": [ids[0]]})


@pytest.mark.rule("heroforge:manning-forts")
def test_manning_needs_your_own_fort_on_your_heros_plate() -> None:
    state = started()
    put(state, 0, "B")
    ids = give(state, 0, 2)
    far = fort(state, 0, "H", 0, 0)
    with pytest.raises(IllegalMove, match="on plate H"):
        apply(state, 0, {"type": "man_fort", "fort": far.id, "units": ids})
    near = fort(state, 0, "B", 0, 0)
    with pytest.raises(IllegalMove, match="not in your hero's army"):
        apply(state, 0, {"type": "man_fort", "fort": near.id, "units": [999]})
    enemy = fort(state, 1, "F", 4, 4)
    with pytest.raises(IllegalMove, match="is not yours"):
        apply(state, 0, {"type": "man_fort", "fort": enemy.id, "units": ids})
