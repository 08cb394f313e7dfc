"""What a homm3 player reads on buttons and menus (issue 20, a new user's trial of the map
game at the console): a choice's buttons say the options' words without a number (the
console's ``!N`` is the number to press; the buttons said ``0: ...``), and typed answers
count from 1 (the hand DM's list, ``/homm3 choice pick option:N``, its autocomplete); a
map move names the way and the Field, as the map picture shows them; a map Combat's units
are named (they were ``[1]``)."""

from __future__ import annotations

import pytest

from bot.adapters import PlayRequest
from bot.errors import BadOption
from bot.homm3.adapter import Homm3Adapter, describe
from bot.homm3.commands import TABLE, slash_for, suggest
from engine.homm3 import RULESET as HOMM3
from engine.homm3 import commands as c
from engine.homm3 import map_board, map_turns
from engine.homm3 import map_commands as mc
from engine.homm3.options import Homm3Options
from engine.homm3.state import Homm3State
from tests.bot import privacy_helpers as ph

PICK = ("homm3", "choice", "pick")


def _choosing() -> tuple[Homm3State, int]:
    """A medium Skirmish at its set-up Removals: both seats choose at once."""
    state, _ = HOMM3.new_game(HOMM3.parse_options({"size": "medium"}), 2, 11)
    decision = HOMM3.pending(state)[0]
    assert decision.kind == "choose_setup_remove"
    return state, decision.seat


def _request(state: Homm3State, seat: int) -> PlayRequest:
    decision = next(d for d in HOMM3.pending(state) if d.seat == seat)
    return PlayRequest(
        state=state, seat=seat, legal=HOMM3.legal_commands(state, seat), decision=decision
    )


def test_choice_buttons_are_unnumbered_and_typed_answers_count_from_one() -> None:
    state, seat = _choosing()
    options = state.choice[seat].options
    adapter = Homm3Adapter()
    decision = next(d for d in HOMM3.pending(state) if d.seat == seat)
    legal = HOMM3.legal_commands(state, seat)
    ui = adapter.decision_ui(state, seat, decision, 1, legal, None)
    labels = [
        t.removeprefix("Default: ")
        for t in ph.component_texts(ui.components)
        if not t.startswith("ht:")  # the custom ids
    ]
    # the buttons say the options' own words, unnumbered: the console lists them as !N
    # counting every component of the post, so a second number would disagree with it
    assert labels == options
    # typed: option:1 is the first option, Choose(option=0) in the engine
    request = _request(state, seat)
    assert TABLE.build_command(PICK, request, {"option": 1}) == {"type": "choose", "option": 0}
    assert TABLE.build_command(PICK, request, {"option": 2}) == {"type": "choose", "option": 1}
    with pytest.raises(BadOption, match="counts from 1"):
        TABLE.build_command(PICK, request, {"option": 0})
    assert slash_for(c.Choose(option=0)) == (PICK, {"option": 1})
    # autocomplete and the hand DM count the same way
    assert suggest(PICK, request, "option", "", {})[:2] == [
        (f"1: {options[0]}", "1"),
        (f"2: {options[1]}", "2"),
    ]
    hand = adapter.hand_text(state, seat, game_id=1, channel_id=1)
    assert f"  1: {options[0]}" in hand and f"  0: {options[0]}" not in hand
    assert describe(state, c.Choose(option=1), seat) == options[1]
    assert describe(state, c.Choose(option=1)) == "Option 2"  # two seats choose: not guessed


def test_an_option_past_the_last_is_refused_counting_from_one() -> None:
    state, seat = _choosing()
    count = len(state.choice[seat].options)
    with pytest.raises(Exception, match=f"There is no option {count + 1}; choose 1 to {count}"):
        HOMM3.apply(state, seat, c.Choose(option=count))


def test_map_moves_name_the_way_and_the_field() -> None:
    """Seed 7: Red's Town is on 4,2; its six neighbours as the map shows them."""
    state, _ = HOMM3.new_game(Homm3Options(mode="map"), 2, 7)
    state, _ = HOMM3.apply(state, 0, mc.RefreshHand())
    moves = [describe(state, m, 0) for m in HOMM3.legal_commands(state, 0) if m.type == "map_move"]
    assert moves == [
        "Main hero: move east to 5,2 (Resource Field, 1 MP)",
        "Main hero: move north-east to 5,1 (Mine (Gold), guarded (I), 1 MP)",
        "Main hero: move north-west to 4,1 (Stables, 1 MP)",
        "Main hero: move west to 3,2 (empty Field, 1 MP)",
        "Main hero: move south-west to 3,3 (Mine (Materials), guarded (I), 1 MP)",
        "Main hero: move south-east to 4,3 (Treasure Field, guarded (I), 1 MP)",
    ]
    assert describe(state, mc.HireHero(field="4,2"), 0) == (
        "Hire a Secondary hero on 4,2 (your Town, 10 Gold)"
    )
    game = state.map
    assert game is not None
    enemy = map_board.tile_fields([t for t in game.tiles if t.kind == "start"][1].pos)[0]
    assert describe(state, mc.MapMove(field=enemy), 0).endswith(f"to {enemy} (Blue's Town, 1 MP)")
    # the Stables: Visited again by name
    state, _ = HOMM3.apply(state, 0, mc.MapMove(field="4,1"))
    assert describe(state, mc.Revisit(), 0) == "Main hero: Visit Stables again (1 MP)"
    # a face-down tile: the way to its centre
    hero = map_turns.hero_of(state.map, 0, "main")  # type: ignore[arg-type]
    tile = map_board.discoverable(state.map, hero.field)[0]  # type: ignore[arg-type]
    way = map_board.compass(hero.field, map_board.key(*map_board.centre(tile.pos)))
    assert describe(state, mc.Discover(pos=tile.pos, rotation=2), 0) == (
        f"Main hero: turn up the face-down tile {way} (tile {tile.pos[0]},{tile.pos[1]}; "
        "rotation 2, 1 MP)"
    )


def test_compass_words_match_the_map_picture() -> None:
    # east first, counter-clockwise, as map_board.DIRECTIONS
    assert [map_board.compass("4,2", n) for n in map_board.neighbours("4,2")] == [
        "east",
        "north-east",
        "north-west",
        "west",
        "south-west",
        "south-east",
    ]
    assert map_board.compass("0,0", "0,0") == "here"
    assert map_board.compass("0,0", "-1,3") == "south"  # the centre of tile (0, 1)


def test_a_map_combat_names_its_units() -> None:
    state, _ = HOMM3.new_game(Homm3Options(mode="map"), 2, 7)
    state, _ = HOMM3.apply(state, 0, mc.RefreshHand())
    state, _ = HOMM3.apply(state, 0, mc.MapMove(field="5,1"))  # the guarded Gold Mine
    while HOMM3.pending(state)[0].kind == "town_reaction":
        state, _ = HOMM3.apply(state, HOMM3.pending(state)[0].seat, c.StartCombat())
    state, _ = HOMM3.apply(state, 0, c.PassObstacles())
    state, _ = HOMM3.apply(state, 1, c.PassObstacles())
    deploys = [m for m in HOMM3.legal_commands(state, 0) if m.type == "deploy"]
    names = {describe(state, m, 0).split(" on ")[0] for m in deploys}
    army = state.player(0).army
    assert names == {
        f"Deploy [{n}] {'Pack' if a.pack else 'Few'} of {_unit_name(a.unit)}"
        for n, a in enumerate(army[:2], start=1)
    }


def _unit_name(unit: str) -> str:
    from engine.homm3.content import load_content

    return load_content().units[unit].name


def test_the_status_counts_one_valuable_in_the_singular() -> None:
    """Border Clash starts with 20 Gold, 6 Building Materials and 1 Valuable (the status
    said "1 Valuables")."""
    state, _ = HOMM3.new_game(Homm3Options(mode="map"), 2, 7)
    lines = Homm3Adapter().status_lines(HOMM3.public_view(state), {})
    red = next(line for line in lines if line.startswith("Red"))
    assert red.endswith("— 20 Gold, 6 Building Materials, 1 Valuable"), red
