"""Moving: the D6 roll plus speed in one of 8 directions; a 6 stops anywhere; blocks."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.heroforge import movement
from engine.heroforge.state import Combat
from tests.heroforge.helpers import R, apply, fort, give, put, script, started, to_step


def _rolled(face: int, **kwargs: object) -> object:
    state = started(**kwargs)  # type: ignore[arg-type]
    to_step(state, "move")
    script(state, face)
    state, _ = apply(state, 0, {"type": "roll_move"})
    return state


@pytest.mark.rule("heroforge:basic-rules")
def test_a_roll_below_six_moves_exactly_the_roll_plus_speed() -> None:
    state = _rolled(4)  # Weir's speed is -1: exactly 3 squares
    moves = movement.destinations(state, 0)  # type: ignore[arg-type]
    assert moves == [("E", 3), ("SE", 3), ("S", 3)]
    with pytest.raises(IllegalMove, match="exactly 3"):
        apply(state, 0, {"type": "move", "direction": "E", "distance": 2})  # type: ignore[arg-type]
    state, events = apply(state, 0, {"type": "move", "direction": "se", "distance": 3})  # type: ignore[arg-type]
    at = state.player(0).at
    assert at is not None and (at.plate, at.cx, at.cy) == ("E", 0, 0)
    assert "moves 3 SE to plate E" in events[0].text
    assert state.step == "buy2"


@pytest.mark.rule("heroforge:basic-rules")
def test_a_six_lets_the_hero_stop_anywhere_up_to_the_maximum() -> None:
    state = _rolled(6)  # 6 - 1 = 5 at most
    moves = movement.destinations(state, 0)  # type: ignore[arg-type]
    assert [d for n, d in moves if n == "E"] == [1, 2, 3, 4, 5]
    assert ("E", 6) not in moves


@pytest.mark.rule("heroforge:basic-rules")
def test_speed_adds_to_the_roll() -> None:
    state = _rolled(2, heroes=("kestrel", "orvan"))  # Kestrel: speed +2
    assert movement.reach(state, 0) == 4  # type: ignore[arg-type]


@pytest.mark.rule("heroforge:lands")
def test_a_red_speed_square_changes_the_roll() -> None:
    state = started()
    put(state, 0, "D", 1, 1)  # Forest's red square: speed -1
    to_step(state, "move")
    script(state, 4)
    state, _ = apply(state, 0, {"type": "roll_move"})
    assert movement.reach(state, 0) == 2


@pytest.mark.rule("heroforge:lands")
def test_gaps_and_the_board_edge_close_a_direction() -> None:
    state = _rolled(4, grid="PL . PL / GR FO HI", plains=("A", "B"))
    moves = dict(movement.destinations(state, 0))  # type: ignore[arg-type]
    assert "E" not in moves  # three squares east is the gap
    assert moves == {"SE": 3, "S": 3}


@pytest.mark.rule("heroforge:forts")
def test_enemy_forts_block_the_way_own_forts_do_not_but_no_one_stops_on_one() -> None:
    state = started()
    to_step(state, "move")
    enemy = fort(state, 1, "A", 3, 2)
    script(state, 4)
    state, _ = apply(state, 0, {"type": "roll_move"})
    assert ("E", 3) not in movement.destinations(state, 0)
    state.forts.remove(enemy)
    fort(state, 0, "A", 3, 2)
    assert ("E", 3) in movement.destinations(state, 0)
    fort(state, 0, "A", 4, 4)
    assert movement.path(state, 0, "SE", 2) is None


@pytest.mark.rule("heroforge:basic-rules")
def test_moving_is_optional() -> None:
    state = _rolled(3)
    state, _events = apply(state, 0, {"type": "stay"})  # type: ignore[arg-type]
    assert state.step == "buy2" and state.player(0).at is not None
    assert state.player(0).at.plate == "A"


@pytest.mark.rule("heroforge:combat")
def test_moving_ends_combat_and_the_hero_cannot_enter_combat_again_this_turn() -> None:
    state = started()
    give(state, 0, 4)
    give(state, 1, 4)
    put(state, 1, "A", 4, 4)
    state.combats.append(Combat(attacker=1, defender=0, plate="A"))
    to_step(state, "move")
    script(state, 2)
    state, _ = apply(state, 0, {"type": "roll_move"})
    state, events = apply(state, 0, {"type": "move", "direction": "E", "distance": 1})
    assert state.combats == [] and state.left_combat
    assert "Red's combat with Blue ends" in events[-1].text
    # Blue is still on plate A, but Red left combat this turn: no combat step, the turn ends
    assert state.player(1).at is not None and state.player(1).at.plate == "A"
    script(state, 4)
    state, _ = apply(state, 0, {"type": "end_buying"})
    assert state.active == 1 and R.pending(state)[0].kind == "buy"
