"""Set-up, the order of a turn, collecting economy, the scenario roll."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.heroforge import effects
from engine.heroforge.state import HeroforgeState
from tests.heroforge.helpers import (
    CROSS,
    R,
    apply,
    fort,
    give,
    new_game,
    put,
    script,
    started,
    texts,
    to_step,
)


@pytest.mark.rule("heroforge:economy")
def test_every_player_starts_with_1000e() -> None:
    state = new_game(3)
    assert [p.economy for p in state.players_state] == [1000, 1000, 1000]


@pytest.mark.rule("heroforge:basic-rules")
def test_heroes_are_chosen_in_seat_order_each_only_once() -> None:
    state = new_game(2, grid=CROSS)
    assert R.pending(state)[0].kind == "choose_hero"
    state, _ = apply(state, 0, {"type": "choose_hero", "hero": "Weir Of HopeSeeking"})
    with pytest.raises(IllegalMove, match="already taken"):
        apply(state, 1, {"type": "choose_hero", "hero": "weir"})
    state, _ = apply(state, 1, {"type": "choose_hero", "hero": "kestrel"})
    assert [p.hero for p in state.players_state] == ["weir", "kestrel"]
    assert state.phase == "place_hero" and R.pending(state)[0].seat == 0


@pytest.mark.rule("heroforge:basic-rules")
def test_heroes_start_in_the_centre_of_a_free_plain_land() -> None:
    state = new_game(2, grid=CROSS, heroes=("weir", "orvan"))
    with pytest.raises(IllegalMove, match="not a free Plain Land"):
        apply(state, 0, {"type": "place_hero", "plate": "B"})
    state, _ = apply(state, 0, {"type": "place_hero", "plate": "g"})
    assert state.player(0).at is not None
    assert (state.player(0).at.plate, state.player(0).at.cx, state.player(0).at.cy) == ("G", 2, 2)
    with pytest.raises(IllegalMove, match="not a free Plain Land"):
        apply(state, 1, {"type": "place_hero", "plate": "G"})
    script(state, 4)
    state, events = apply(state, 1, {"type": "place_hero", "plate": "I"})
    assert state.phase == "play" and state.active == 0 and state.turn == 0
    assert "Round 1: Red's turn" in texts(events)


def _next_red_turn(state: HeroforgeState, *scenario: int) -> tuple[HeroforgeState, str]:
    """End Red's turn and Blue's and return Red's next turn start. Blue's scenario roll is
    4 (nothing happens); Red's rolls are ``scenario`` (default: 4)."""
    to_step(state, "combat")
    script(state, 4, *(scenario or (4,)))
    state, _ = apply(state, 0, {"type": "end_turn"})
    to_step(state, "combat")
    state, events = apply(state, 1, {"type": "end_turn"})
    return state, texts(events)


@pytest.mark.rule("heroforge:turns")
def test_a_turn_collects_economy_then_rolls_the_scenario() -> None:
    state = started()
    put(state, 0, "B")
    state, log = _next_red_turn(state)
    assert log.index("collects +100e") < log.index("(scenario roll)")
    assert state.player(0).economy == 1100
    assert state.step == "buy1" and state.turn == 2 and state.round == 2


@pytest.mark.rule("heroforge:getting-economy-from-lands")
def test_the_hero_collects_its_land_and_a_red_economy_square() -> None:
    state = started()
    put(state, 0, "B", 1, 3)  # Grassland's red square: +50e
    assert effects.income(state, 0) == [(150, "the hero on Grassland (B)")]
    put(state, 0, "A")  # a Plain Land is blank
    assert effects.income(state, 0) == []
    # Orvan's ability pays every turn wherever he stands
    assert effects.income(state, 1) == [(100, "the hero's ability")]


@pytest.mark.rule("heroforge:getting-economy-from-lands")
def test_a_contested_land_gives_economy_to_no_one() -> None:
    state = started()
    put(state, 0, "B")
    put(state, 1, "B", 4, 4)
    assert effects.contested(state, "B")
    assert effects.income(state, 0) == []
    fort(state, 0, "B", 0, 0, 1)
    assert effects.income(state, 0) == []


@pytest.mark.rule("heroforge:forts")
def test_manned_forts_collect_and_deny_every_hero() -> None:
    state = started()
    fort(state, 0, "H", 0, 0, 1)
    fort(state, 0, "H", 4, 0, 2)
    put(state, 0, "H")
    # two manned forts on Farmland (200e) collect 400e; the hero there collects nothing
    assert effects.income(state, 0) == [(400, "2 manned forts on H")]
    put(state, 1, "H", 4, 4)
    assert effects.income(state, 1) == [(100, "the hero's ability")]


@pytest.mark.rule("heroforge:forts")
def test_a_hero_with_only_unmanned_forts_on_its_land_collects_it() -> None:
    state = started()
    fort(state, 0, "H", 0, 0)
    put(state, 0, "H")
    assert effects.income(state, 0) == [(200, "the hero on Farmland (H)")]
    # an enemy hero cannot use the owned land at all
    put(state, 0, "A")
    put(state, 1, "H")
    assert effects.income(state, 1) == [(100, "the hero's ability")]


@pytest.mark.rule("heroforge:rolling-an-enchantment")
@pytest.mark.parametrize(("scenario", "listed"), [(1, "Windfall"), (5, "Plague")])
def test_scenario_rolls_one_and_five_draw_from_list_one_and_list_five(
    scenario: int, listed: str
) -> None:
    state = started()
    state.player(0).economy = 1000
    state, log = _next_red_turn(state, scenario, 1)
    assert f"draws enchantment 1 of list {scenario}: {listed}" in log
    # Windfall gives 300e at once; Plague takes 300e at once
    assert state.player(0).economy == (1300 if scenario == 1 else 700)


@pytest.mark.rule("heroforge:turns")
def test_the_steps_of_a_turn_in_order() -> None:
    state = started()
    give(state, 0, 3)
    kinds = []
    for command in (
        {"type": "end_buying"},
        {"type": "skip_move"},
        {"type": "end_buying"},
    ):
        kinds.append(R.pending(state)[0].kind)
        script(state, 4)
        state, _ = apply(state, 0, command)
    assert kinds == ["buy", "move", "buy"]
    # nothing to attack on plate A: the turn ended with the second buying step
    assert state.active == 1 and R.pending(state)[0].kind == "buy"
