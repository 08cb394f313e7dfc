"""Activating heroes: movement points, terrain, harbours, portals, capitals, exploring,
control and control zones (on a fixed board: tiles 1-9 unturned, see `fixed_board`)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.mmh import movement, score, spaces
from tests.mmh.helpers import (
    R,
    activate,
    apply,
    at,
    fixed_board,
    label,
    new_game,
    start_action,
    texts,
)


def _game(heroes=("laszlo", "orson"), factions=("haven", "necropolis")):  # type: ignore[no-untyped-def]
    state = new_game(2, factions=factions, heroes=heroes)
    fixed_board(state)
    return state


def _moves(state, hero):  # type: ignore[no-untyped-def]
    return {
        ("capital" if d is None else label(state, d))
        for d in movement.legal_moves(state, state.heroes[hero])
    }


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_four_movement_points_orthogonal_steps() -> None:
    state = _game()
    start_action(state, 0, "hero")
    state, _events = apply(state, 0, {"type": "activate", "hero": "laszlo"})
    assert state.action is not None and state.action.activation is not None
    assert state.action.activation.mp == 4
    assert _moves(state, "laszlo") == {"A1", "C1", "B2"}  # around the capital at B1
    for step in ("B2", "B3", "B4", "C4"):
        state, _ = apply(state, 0, {"type": "move", "to": step})
    assert state.action.activation.mp == 0
    assert _moves(state, "laszlo") == set()
    with pytest.raises(IllegalMove):
        apply(state, 0, {"type": "move", "to": "C3"})


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_no_diagonal_steps() -> None:
    state = _game()
    state.heroes["laszlo"].space = at(state, "B2")
    activate(state, "laszlo")
    assert "C3" not in _moves(state, "laszlo")
    with pytest.raises(IllegalMove, match="cannot go there"):
        apply(state, 0, {"type": "move", "to": "C3"})


@pytest.mark.rule("mmh:description-of-the-game-board.terrain-features-on-the-game-board")
def test_water_and_mountains_are_impassable() -> None:
    state = _game()
    state.heroes["laszlo"].space = at(state, "A6")
    activate(state, "laszlo")
    assert "A7" not in _moves(state, "laszlo")  # mountain
    state.heroes["laszlo"].space = at(state, "B3")
    assert "A3" not in _moves(state, "laszlo")  # water


@pytest.mark.rule("mmh:game-setup.choosing-the-starting-hero")
def test_pathfinder_crosses_mountains_but_never_ends_there() -> None:
    state = _game(heroes=("sandor", "orson"), factions=("sanctuary", "necropolis"))
    state.heroes["sandor"].space = at(state, "A6")
    activate(state, "sandor", mp=2)
    assert "A7" in _moves(state, "sandor")
    state, _ = apply(state, 0, {"type": "move", "to": "A7"})
    with pytest.raises(IllegalMove, match="may not end"):
        apply(state, 0, {"type": "end_action"})
    state, _ = apply(state, 0, {"type": "move", "to": "A8"})
    activate(state, "sandor", mp=1)
    state.heroes["sandor"].space = at(state, "A6")
    assert "A7" not in _moves(state, "sandor")  # no MP left to get off the mountain


@pytest.mark.rule("mmh:description-of-the-game-board.terrain-features-on-the-game-board")
def test_harbour_crossing_only_from_a_harbour_start_and_landing_on_a_harbour() -> None:
    state = _game()
    state.heroes["laszlo"].space = at(state, "G6")  # harbour on tile 5
    start_action(state, 0, "hero")
    state, _ = apply(state, 0, {"type": "activate", "hero": "laszlo"})
    assert "H6" in _moves(state, "laszlo")
    state, _ = apply(state, 0, {"type": "move", "to": "H6"})
    assert _moves(state, "laszlo") == {"G6", "H5", "H7"}  # back, on across the water, or land
    state, _ = apply(state, 0, {"type": "move", "to": "H7"})
    assert state.heroes["laszlo"].space == at(state, "H7")
    # starting next to the harbour instead: no sailing
    state = _game()
    state.heroes["laszlo"].space = at(state, "F6")
    start_action(state, 0, "hero")
    state, _ = apply(state, 0, {"type": "activate", "hero": "laszlo"})
    state, _ = apply(state, 0, {"type": "move", "to": "G6"})
    assert "H6" not in _moves(state, "laszlo")


@pytest.mark.rule("mmh:description-of-the-game-board.terrain-features-on-the-game-board")
def test_no_sailing_onto_water_without_the_movement_to_land() -> None:
    state = _game()
    state.heroes["laszlo"].space = at(state, "G6")
    start_action(state, 0, "hero")
    state, _ = apply(state, 0, {"type": "activate", "hero": "laszlo"})
    assert state.action is not None and state.action.activation is not None
    state.action.activation.mp = 1
    assert "H6" not in _moves(state, "laszlo")


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_entering_the_own_capital_ends_the_activation_enemy_capital_is_closed() -> None:
    state = _game()
    state.heroes["laszlo"].space = at(state, "B2")
    activate(state, "laszlo")
    state, events = apply(state, 0, {"type": "move", "to": "B1"})
    assert state.heroes["laszlo"].space is None
    assert state.action is not None and state.action.activation is None
    assert "activation ends" in texts(events)
    state.heroes["laszlo"].space = at(state, "J2")
    activate(state, "laszlo")
    assert "J1" not in _moves(state, "laszlo")


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_pass_through_an_own_hero_but_never_stop_on_him() -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    state.seats[0].buildings.append("hall_of_heroes")
    from engine.mmh.setup import enter_play

    enter_play(state, 0, "anton", starting=False)
    state.heroes["anton"].space = at(state, "B3")
    state.heroes["laszlo"].space = at(state, "B2")
    activate(state, "laszlo", mp=1)
    assert "B3" not in _moves(state, "laszlo")
    activate(state, "laszlo", mp=2)
    assert "B3" in _moves(state, "laszlo")


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_town_portal_in_and_out_of_the_capital() -> None:
    state = _game()
    state.seats[0].buildings.append("town_portal")
    start_action(state, 0, "hero")
    state, _ = apply(state, 0, {"type": "activate", "hero": "laszlo"})
    assert {"D7", "A9", "K11"} <= _moves(state, "laszlo")
    state, _ = apply(state, 0, {"type": "move", "to": "K11"})
    assert state.action is not None and state.action.activation is not None
    assert state.action.activation.mp == 3  # 1 MP, as if the capital were next door
    state, _events = apply(state, 0, {"type": "move", "to": "capital"})
    assert state.heroes["laszlo"].space is None and state.action.activation is None


@pytest.mark.rule("mmh:game-setup.choosing-the-starting-hero")
def test_portal_traveler_jumps_between_portals_for_one_mp() -> None:
    state = _game(heroes=("shiori", "orson"), factions=("sanctuary", "necropolis"))
    state.heroes["shiori"].space = at(state, "D7")
    activate(state, "shiori")
    assert {"A9", "K11"} <= _moves(state, "shiori")
    state, _ = apply(state, 0, {"type": "move", "to": "A9"})
    assert state.action is not None and state.action.activation is not None
    assert state.action.activation.mp == 3
    state.heroes["shiori"].space = at(state, "D7")
    state.heroes["orson"].space = None
    assert "capital" not in _moves(state, "shiori")  # no Town Portal built


@pytest.mark.rule("mmh:game-setup.choosing-the-starting-hero")
def test_wanderlust_gives_one_mp_when_starting_in_the_capital() -> None:
    state = _game(heroes=("irina", "orson"), factions=("stronghold", "necropolis"))
    start_action(state, 0, "hero")
    state, _ = apply(state, 0, {"type": "activate", "hero": "irina"})
    assert state.action is not None and state.action.activation is not None
    assert state.action.activation.mp == 5
    state = _game(heroes=("irina", "orson"), factions=("stronghold", "necropolis"))
    state.heroes["irina"].space = at(state, "B2")
    start_action(state, 0, "hero")
    state, _ = apply(state, 0, {"type": "activate", "hero": "irina"})
    assert state.action is not None and state.action.activation is not None
    assert state.action.activation.mp == 4


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_a_hero_without_creatures_stays_home() -> None:
    state = _game()
    from tests.mmh.helpers import set_army

    set_army(state, "laszlo", [])
    start_action(state, 0, "hero")
    with pytest.raises(IllegalMove, match="no creatures"):
        apply(state, 0, {"type": "activate", "hero": "laszlo"})


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_passing_over_a_free_sawmill_offers_control_and_its_vp() -> None:
    state = _game()
    state.heroes["laszlo"].space = at(state, "B2")
    activate(state, "laszlo")
    state, events = apply(state, 0, {"type": "move", "to": "C2"})
    # the player decides: "You may control any number of these spaces"
    assert "Red may take control of the Sawmill at C2" in texts(events)
    owed = R.pending(state)[0]
    assert (owed.seat, owed.kind, owed.commands) == (0, "control", ("take_control", "decline"))
    assert at(state, "C2") not in state.control
    assert R.default_command(state, 0).type == "take_control"
    declined, events = apply(state, 0, {"type": "decline"})
    assert at(state, "C2") not in declined.control and "leaves C2" in texts(events)
    assert R.pending(declined)[0].kind == "action_hero"  # and he moves on
    state, events = apply(state, 0, {"type": "take_control"})
    assert state.control[at(state, "C2")] == 0
    assert score.vp(state, 0) == 1
    assert "+1 VP" in texts(events)
    assert R.pending(state)[0].kind == "action_hero"


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_a_location_left_alone_may_be_taken_while_the_hero_stands_on_it() -> None:
    state = _game()
    state.heroes["laszlo"].space = at(state, "B2")
    activate(state, "laszlo")
    state, _ = apply(state, 0, {"type": "move", "to": "C2"})
    state, _ = apply(state, 0, {"type": "decline"})
    assert {"type": "take_control"} in [c.model_dump() for c in R.legal_commands(state, 0)]
    state, _ = apply(state, 0, {"type": "take_control"})
    assert state.control[at(state, "C2")] == 0
    mine, _ = apply(state, 0, {"type": "move", "to": "B2"})
    mine, _ = apply(mine, 0, {"type": "move", "to": "C2"})  # his own already: nothing to ask
    assert not mine.queue


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_a_space_in_its_owners_control_zone_cannot_be_taken() -> None:
    state = _game()
    state.control[at(state, "C2")] = 1
    state.heroes["orson"].space = at(state, "C3")
    state.heroes["laszlo"].space = at(state, "B2")
    activate(state, "laszlo")
    state, _ = apply(state, 0, {"type": "move", "to": "C2"})
    assert state.control[at(state, "C2")] == 1
    with pytest.raises(IllegalMove, match="control zone"):
        apply(state, 0, {"type": "take_control"})
    state.heroes["orson"].space = at(state, "K8")  # far away: the zone no longer covers C2
    state, events = apply(state, 0, {"type": "take_control"})
    assert state.control[at(state, "C2")] == 0 and "from Blue" in texts(events)


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_control_zone_two_mp_limited_by_terrain() -> None:
    state = _game(heroes=("sandor", "orson"), factions=("sanctuary", "necropolis"))
    orson = state.heroes["orson"]
    orson.space = at(state, "C1")
    zone = {label(state, s) for s in spaces.control_zone(state, orson)}
    assert zone == {"C1", "C2", "C3", "B2", "D2"}  # B1 is a capital, D1 a mountain
    sandor = state.heroes["sandor"]
    sandor.space = at(state, "C1")
    zone = {label(state, s) for s in spaces.control_zone(state, sandor)}
    assert "D1" in zone and "E1" in zone  # Pathfinder: mountains do not limit his zone
    orson.space = None
    assert spaces.control_zone(state, orson) == set()


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_explore_once_an_exploration_marker_lies_there() -> None:
    state = _game()
    del state.encounters[at(state, "B5")]  # the guard of the Arcane Library at C5
    state.exploration_markers.append(at(state, "C5"))
    state.heroes["laszlo"].space = at(state, "C6")
    activate(state, "laszlo")
    state, _ = apply(state, 0, {"type": "move", "to": "C5"})
    scrolls = len(state.heroes["laszlo"].scrolls)
    state, _events = apply(state, 0, {"type": "explore"})
    assert len(state.heroes["laszlo"].scrolls) == scrolls + 1  # Laszlo has Magic 1
    assert at(state, "C5") not in state.exploration_markers
    with pytest.raises(IllegalMove, match="nothing to explore"):
        apply(state, 0, {"type": "explore"})


@pytest.mark.rule("mmh:description-of-the-game-board.game-board-locations")
def test_stable_activates_the_hero_a_second_time() -> None:
    state = _game()
    del state.encounters[at(state, "J10")]
    state.exploration_markers.append(at(state, "I10"))
    state.heroes["laszlo"].space = at(state, "I9")
    activate(state, "laszlo", mp=1, battles=0)
    state, _ = apply(state, 0, {"type": "move", "to": "I10"})
    state, _events = apply(state, 0, {"type": "explore"})
    act = state.action.activation if state.action else None
    assert act is not None and act.mp == 4 and act.battles == 1


@pytest.mark.rule("mmh:description-of-the-game-board.game-board-locations")
def test_crystal_of_revelation_gives_two_vp() -> None:
    state = _game()
    del state.encounters[at(state, "H11")]
    state.exploration_markers.append(at(state, "H10"))
    state.heroes["laszlo"].space = at(state, "H10")
    activate(state, "laszlo")
    state, _ = apply(state, 0, {"type": "explore"})
    assert score.vp(state, 0) == 2


@pytest.mark.rule("mmh:description-of-the-game-board.game-board-locations")
def test_armorsmith_upgrades_every_basic_creature() -> None:
    from tests.mmh.helpers import set_army

    state = _game()
    set_army(state, "laszlo", [("sentinel", False), ("sentinel", False), ("crossbowman", True)])
    del state.encounters[at(state, "F12")]
    state.exploration_markers.append(at(state, "E12"))
    state.heroes["laszlo"].space = at(state, "E12")
    activate(state, "laszlo")
    state, _ = apply(state, 0, {"type": "explore"})
    assert all(u.elite for u in state.heroes["laszlo"].army)


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_only_one_battle_per_activation() -> None:
    state = _game()
    state.heroes["laszlo"].space = at(state, "C3")
    activate(state, "laszlo", battles=0)
    assert "D3" not in _moves(state, "laszlo")  # an encounter marker stands there


def _explore_here(state, location: str):  # type: ignore[no-untyped-def]
    """Explore the first ``location`` of the board with Laszlo (its guard gone)."""
    from engine.mmh import board as geometry

    board = geometry.board_of(state)
    space = next(s.index for s in board.spaces if s is not None and s.location == location)
    hero = state.heroes["laszlo"]
    hero.space = space
    activate(state, "laszlo")
    return spaces.explore_effect(state, hero, space)


@pytest.mark.rule("mmh:description-of-the-game-board.game-board-locations")
def test_arena_recruits_up_to_three_of_any_level_at_the_capital_price() -> None:
    from tests.mmh.helpers import set_army

    state = _game()
    set_army(state, "laszlo", [("sentinel", True)])
    seat = state.seats[0]
    seat.gold = 20
    assert seat.level == 1
    _explore_here(state, "arena")
    assert state.queue and state.queue[0].kind == "arena"
    # Level IV Sun Riders at capital level I: 4 gold each (the elite side needs the Barracks)
    with pytest.raises(IllegalMove, match="Elite Barracks"):
        apply(state, 0, {"type": "arena_recruit", "creature": "sun_rider", "elite": True})
    for _ in range(3):
        state, _ = apply(state, 0, {"type": "arena_recruit", "creature": "sun_rider"})
    assert state.seats[0].gold == 20 - 3 * 4
    army = state.heroes["laszlo"].army
    assert [(u.creature, u.elite) for u in army] == [("sentinel", True)] + [
        ("sun_rider", False)
    ] * 3
    assert not any(p.kind == "arena" for p in state.queue)  # three is the most


@pytest.mark.rule("mmh:description-of-the-game-board.game-board-locations")
def test_weaponsmith_library_shrine_and_stone_of_enlightenment() -> None:
    state = _game()
    _explore_here(state, "weaponsmith")
    keep = state.queue[0]
    assert keep.kind == "keep" and len(keep.cards) == 3  # draw 3 artefacts, keep 1
    state.queue.clear()
    scrolls = len(state.heroes["laszlo"].scrolls)
    _explore_here(state, "arcane_library")
    assert len(state.heroes["laszlo"].scrolls) == scrolls + 1  # Magic 1: room for one
    state = _game()
    _explore_here(state, "dragon_shrine")
    treasure = state.queue[0]
    assert treasure.kind == "treasure" and treasure.picks == 1 and treasure.artefact is True
    state = _game()
    _explore_here(state, "stone_of_enlightenment")
    draw = state.queue[0]
    assert draw.kind == "skill_draw" and draw.draw == 2
    assert state.heroes["laszlo"].trophies == []  # no XP spent
