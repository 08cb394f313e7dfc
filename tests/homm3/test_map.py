"""The homm3 map game (``mode: map``, issue 20): the turn rules' Movement Points, tiles,
Fields, heroes, Town actions on any turn, Combats on the Battlefield by the expansion's
regular-game rules, victory, privacy; and every homm3bf: / homm3turn: section of
SECTIONS.txt has a test in tests/homm3."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.core.errors import IllegalMove, RuleViolation, WrongPhase
from engine.core.model import seat_name
from engine.homm3 import combat_attack, combat_flow, hexes, map_board, map_combat, map_turns
from engine.homm3 import commands as c
from engine.homm3 import map_commands as mc
from engine.homm3.map_content import FieldSpec, load_map
from engine.homm3.map_state import FieldMark, MapHero, PlacedTile
from engine.homm3.options import Homm3Options
from engine.homm3.ruleset import Homm3Ruleset
from engine.homm3.state import ArmyUnit, Homm3State

RULES = Homm3Ruleset()
ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ROOT.parent / "shared" / "rules" / "SECTIONS.txt"


def new(players: int = 2, seed: int = 7, **options: object) -> Homm3State:
    state, _ = RULES.new_game(Homm3Options(mode="map", **options), players, seed)  # type: ignore[arg-type]
    return state


def act(state: Homm3State, seat: int, command: c.Command) -> Homm3State:
    state, _ = RULES.apply(state, seat, command)
    return state


def refreshed(state: Homm3State) -> Homm3State:
    seat = state.map.active  # type: ignore[union-attr]
    return act(state, seat, mc.RefreshHand())


def town_of(state: Homm3State, seat: int) -> str:
    game = state.map
    assert game is not None
    return map_board.tile_fields([t for t in game.tiles if t.kind == "start"][seat].pos)[0]


def set_field(state: Homm3State, field: str, spec: str) -> None:
    """Print ``spec`` on ``field`` by revealing a tile whose Field there is ``spec``."""
    game = state.map
    assert game is not None
    pos = map_board.position_of(field)
    tile = map_board.tile_at(game, pos)
    assert tile is not None
    tile.revealed = True
    index = map_board.tile_fields(pos, tile.rotation).index(field)
    spec_tile = load_map().tiles[tile.tile]
    wanted = FieldSpec.parse(spec)
    # find a shipped tile with that Field at that index, or rotate one that has it
    for candidate in load_map().tiles.values():
        for rotation in range(6):
            fields = map_board.tile_fields(pos, rotation)
            i = fields.index(field)
            if candidate.fields[i] == wanted and candidate.kind == spec_tile.kind:
                tile.tile, tile.rotation = candidate.id, rotation
                return
    raise AssertionError(f"no {tile.kind} tile has {spec} at index {index}")


def field_with(state: Homm3State, kind: str, near: str) -> str:
    game = state.map
    assert game is not None
    for field in map_board.neighbours(near):
        spec = map_board.field_spec(game, field)
        if spec is not None and spec.kind == kind:
            return field
    raise AssertionError(kind)


# ----------------------------------------------------------------- set-up
@pytest.mark.rule("homm3core:setup")
def test_setup_two_players() -> None:
    state = new()
    game = state.map
    assert game is not None and state.phase == "map"
    assert [t.kind for t in game.tiles].count("start") == 2
    assert [t.kind for t in game.tiles].count("far") == 4
    assert [t.kind for t in game.tiles].count("near") == 6
    assert [t.kind for t in game.tiles].count("center") == 1
    assert all(t.revealed == (t.kind == "start") for t in game.tiles)
    assert {s: len(p) for s, p in game.pools.items()} == {0: 1, 1: 1}
    for player in state.seats:
        # Border Clash: 20 Gold, 6 Building Materials, 1 Valuable; income 10 Gold.
        assert (player.resources.gold, player.resources.materials, player.resources.valuables) == (
            20,
            6,
            1,
        )
        assert player.income.gold == 10
        assert player.buildings == ["dwelling_bronze"]
        assert [a.pack for a in player.army] == [True, False]
        assert len(player.deck) == 9
    assert [(h.seat, h.main, h.field) for h in game.heroes] == [
        (0, True, town_of(state, 0)),
        (1, True, town_of(state, 1)),
    ]
    assert len({p.faction for p in state.seats}) == 2


@pytest.mark.rule("homm3core:scenarios")
def test_player_counts() -> None:
    three = new(players=3)
    assert three.map is not None and len({p.faction for p in three.seats}) == 3
    # one player a faction: the core game's three; Skirmish and Adventure are 1 vs 1
    assert RULES.seat_range(Homm3Options(mode="map")) == (2, 3)
    assert RULES.seat_range(Homm3Options(mode="adventure")) == (2, 2)
    assert (RULES.min_players, RULES.max_players) == (2, 3)
    with pytest.raises(RuleViolation):
        RULES.new_game(Homm3Options(mode="map"), 4, 1)
    with pytest.raises(RuleViolation):
        RULES.new_game(Homm3Options(), 3, 1)


@pytest.mark.rule("homm3core:map-tiles")
def test_tiles_cover_the_plane_without_overlap() -> None:
    seen: dict[str, tuple[int, int]] = {}
    for a in range(-3, 4):
        for b in range(-3, 4):
            for field in map_board.tile_fields((a, b)):
                assert field not in seen
                seen[field] = (a, b)
                assert map_board.position_of(field) == (a, b)
    assert len(load_map().of_kind("start")) == 3
    assert all(t.fields[0].kind == "town" for t in load_map().of_kind("start"))


# ----------------------------------------------------------------- turns and MP
@pytest.mark.rule("homm3turn:refresh-your-hand")
@pytest.mark.rule("homm3turn:hand-limit")
def test_refresh_draws_up_to_the_hand_limit() -> None:
    state = new()
    assert RULES.pending(state)[0].kind == "refresh_hand"
    state = refreshed(state)
    assert len(state.player(0).hand) == 4  # Level I: Hand Limit 4
    with pytest.raises(RuleViolation):
        act(state, 0, mc.RefreshHand())


@pytest.mark.rule("homm3turn:movement-actions")
@pytest.mark.rule("homm3turn:what-1-mp-buys")
@pytest.mark.rule("homm3core:main-hero")
def test_main_hero_has_three_mp_and_each_move_costs_one() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    hero = map_turns.hero_of(game, 0, "main")
    assert hero.mp == 3
    empty = field_with(state, "empty", hero.field)
    state = act(state, 0, mc.MapMove(field=empty))
    hero = map_turns.hero_of(state.map, 0, "main")  # type: ignore[arg-type]
    assert (hero.field, hero.mp) == (empty, 2)
    with pytest.raises(RuleViolation):  # movement only on your own turn
        act(state, 1, mc.MapMove(field=map_board.neighbours(town_of(state, 1))[0]))


@pytest.mark.rule("homm3turn:what-1-mp-buys")
@pytest.mark.rule("homm3core:placing-and-discovering-tiles")
def test_discover_and_place_cost_one_mp() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    hero = map_turns.hero_of(game, 0, "main")
    # walk to an outer Field of the Starting tile next to a face-down tile
    outer = next(
        f
        for f in map_board.tile_fields(game.tiles[0].pos)[1:]
        if map_board.discoverable(game, f)
        and map_turns.move_problem(state, hero, f) is None
        and not map_turns.guarded(game, f)
        and map_board.field_spec(game, f).kind in ("empty", "stables")  # type: ignore[union-attr]
    )
    state = act(state, 0, mc.MapMove(field=outer))
    game = state.map
    assert game is not None
    tile = map_board.discoverable(game, outer)[0]
    mp = map_turns.hero_of(game, 0, "main").mp
    state = act(state, 0, mc.Discover(pos=tile.pos, rotation=2))
    game = state.map
    assert game is not None
    placed = map_board.tile_at(game, tile.pos)
    assert placed is not None and placed.revealed and placed.rotation == 2
    assert map_turns.hero_of(game, 0, "main").mp == mp - 1
    # no tile of the pool fits where fewer than two tiles touch
    assert all(
        sum(
            map_board.tile_at(game, (p[0] + d[0], p[1] + d[1])) is not None
            for d in map_board.TILE_STEPS
        )
        >= 2
        for p in map_board.placeable(game, outer)
    )


@pytest.mark.rule("homm3turn:what-1-mp-buys")
def test_place_a_far_tile_from_the_pool() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    hero = map_turns.hero_of(game, 0, "main")
    # an empty position next to the hero touching two tiles: make one by removing a tile
    removed = game.tiles.pop(next(i for i, t in enumerate(game.tiles) if t.kind == "far"))
    for field in map_board.tile_fields(game.tiles[0].pos)[1:]:
        if removed.pos in map_board.placeable(game, field):
            hero.field = field
            break
    else:
        pytest.skip("layout has no such position")
    pool = list(game.pools[0])
    state = act(state, 0, mc.PlaceTile(pos=removed.pos, rotation=0))
    game = state.map
    assert game is not None
    placed = map_board.tile_at(game, removed.pos)
    assert placed is not None and placed.tile == pool[0] and placed.revealed
    assert game.pools[0] == [] and map_turns.hero_of(game, 0, "main").mp == 2


@pytest.mark.rule("homm3turn:gained-mp")
@pytest.mark.rule("homm3core:revisitable-fields")
def test_stables_mp_last_only_this_turn_and_revisit_costs_one() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    hero = map_turns.hero_of(game, 0, "main")
    stables = field_with(state, "stables", hero.field)
    state = act(state, 0, mc.MapMove(field=stables))
    assert map_turns.hero_of(state.map, 0, "main").mp == 3  # type: ignore[arg-type]  # 3 - 1 + 1
    state = act(state, 0, mc.Revisit())
    assert map_turns.hero_of(state.map, 0, "main").mp == 3  # type: ignore[arg-type]  # - 1 + 1
    state = act(state, 0, c.EndTurn())
    assert map_turns.hero_of(state.map, 0, "main").mp == 0  # type: ignore[arg-type]
    state = refreshed(state)
    state = act(state, 1, c.EndTurn())
    # next round: back to 3, the gained MP did not carry over
    assert map_turns.hero_of(state.map, 0, "main").mp == 3  # type: ignore[arg-type]


@pytest.mark.rule("homm3turn:tracking-allies")
@pytest.mark.rule("homm3turn:population-token")
@pytest.mark.rule("homm3core:secondary-heroes")
def test_secondary_hero_tracked_apart_and_allies_pass_through() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    main = map_turns.hero_of(game, 0, "main")
    empty = field_with(state, "empty", main.field)
    state = act(state, 0, mc.MapMove(field=empty))
    town = town_of(state, 0)
    gold = state.player(0).resources.gold
    state = act(state, 0, mc.HireHero(field=town))
    game = state.map
    assert game is not None
    assert state.player(0).resources.gold == gold - 10
    assert not state.player(0).tokens.population
    second = map_turns.hero_of(game, 0, "secondary")
    assert second.field == town and second.mp == 2
    assert map_turns.hero_of(game, 0, "main").mp == 2
    # the Secondary hero steps onto the Main hero's Field: it does not Visit, and the turn
    # cannot end while both stand there
    state, events = RULES.apply(state, 0, mc.MapMove(hero="secondary", field=empty))
    assert any(e.kind == "pass_through" for e in events)
    with pytest.raises(RuleViolation):
        act(state, 0, c.EndTurn())
    assert c.EndTurn() not in RULES.legal_commands(state, 0)
    onward = next(
        f
        for f in map_board.neighbours(empty)
        if map_turns.move_problem(state, map_turns.hero_of(state.map, 0, "secondary"), f) is None  # type: ignore[arg-type]
        and f != town
        and not map_turns.heroes_on(state.map, f)  # type: ignore[arg-type]
    )
    spent = map_turns.hero_of(state.map, 0, "secondary").mp  # type: ignore[arg-type]
    state, events = RULES.apply(state, 0, mc.MapMove(hero="secondary", field=onward))
    game = state.map
    assert game is not None
    stables = sum(e.kind == "visit" and e.data.get("kind") == "stables" for e in events)
    assert map_turns.hero_of(game, 0, "secondary").mp == spent - 1 + stables
    assert map_turns.hero_of(game, 0, "main").mp == 2  # tracked separately
    with pytest.raises(IllegalMove):  # only one Secondary hero at a time
        map_turns.hire_hero(state, 0, town)


# ----------------------------------------------------------------- Fields
@pytest.mark.rule("homm3core:mines")
@pytest.mark.rule("homm3core:location-categories")
def test_flagging_a_mine_raises_income_and_pays_once() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    hero = map_turns.hero_of(game, 0, "main")
    mine = next(
        f
        for f in map_board.neighbours(hero.field)
        if (s := map_board.field_spec(game, f)) is not None
        and s.kind == "mine"
        and s.resource == "materials"
    )
    game.marks.pop(mine, None)
    state.player(0).level = 2  # above the guards' Level I: Quick Combat
    before = state.player(0).resources.materials
    state, events = RULES.apply(state, 0, mc.MapMove(field=mine))
    assert any(e.kind == "quick_combat" for e in events)
    player = state.player(0)
    assert player.income.materials == 2 and player.resources.materials == before + 2
    mark = state.map.marks[mine]  # type: ignore[union-attr]
    assert mark.flag == 0 and mark.flagged_once


@pytest.mark.rule("homm3core:map-symbols")
def test_visitable_field_takes_a_black_cube_once() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    hero = map_turns.hero_of(game, 0, "main")
    field = field_with(state, "resource", hero.field)
    state, events = RULES.apply(state, 0, mc.MapMove(field=field))
    assert any(e.kind == "visit" for e in events)
    assert (
        any(e.kind == "die_roll" and e.data.get("purpose") == "resource" for e in events)
        or state.choice
    )
    assert state.map.marks[field].visited  # type: ignore[union-attr]


# ----------------------------------------------------------------- Combat
def _to_guarded(state: Homm3State, level: int = 1) -> tuple[Homm3State, str]:
    game = state.map
    assert game is not None
    hero = map_turns.hero_of(game, 0, "main")
    for field in map_board.neighbours(hero.field):
        if map_turns.guarded(game, field) == level:
            return state, field
    raise AssertionError("no guarded Field next to the Town")


def _start_neutral(state: Homm3State) -> Homm3State:
    state, field = _to_guarded(state)
    state = act(state, 0, mc.MapMove(field=field))
    while RULES.pending(state)[0].kind == "town_reaction":
        seat = RULES.pending(state)[0].seat
        state = act(state, seat, c.StartCombat())
    return state


@pytest.mark.rule("homm3bf:battlefield-in-regular-games")
@pytest.mark.rule("homm3bf:battlefield-in-regular-games.place-obstacles")
@pytest.mark.rule("homm3bf:battlefield-in-regular-games.changes-to-combat-rules.initiative-token")
@pytest.mark.rule("homm3core:difficulty-table")
@pytest.mark.rule("homm3core:combat-setup")
def test_neutral_combat_on_the_battlefield() -> None:
    state = _start_neutral(refreshed(new()))
    board, game = state.board, state.map
    assert board is not None and game is not None and game.battle is not None
    assert board.combat is not None and board.combat.regular
    # Level I at Normal: one Bronze unit, on its Few side, played by the seat to the right
    neutral = [u for u in board.combat.units if u.seat == 1]
    assert len(neutral) == 1 and not neutral[0].pack
    assert game.battle.controllers == (0, 1)
    # the attacker holds the Initiative token and places the first Obstacle
    assert board.combat.token == 0 and board.combat.stage == "obstacles"
    decision = RULES.pending(state)[0]
    assert (decision.seat, decision.kind) == (0, "place_obstacle")
    state = act(state, 0, c.PassObstacles())
    assert RULES.pending(state)[0].seat == 1  # the other side places next


def _deployed(seed: int = 1) -> tuple[Homm3State, list[int]]:
    """Red's Combat against the Level I guards next to its Town, no Obstacles placed, every
    unit placed by the computer; with the seats that placed them, in order."""
    state = _start_neutral(refreshed(new()))
    state = act(state, 0, c.PassObstacles())
    state = act(state, 1, c.PassObstacles())
    rng = random.Random(seed)
    seats = []
    while state.board is not None and RULES.pending(state)[0].kind == "deploy":
        seat = RULES.pending(state)[0].seat
        seats.append(seat)
        state = act(state, seat, RULES.ai_command(state, seat, rng))
    return state, seats


def _printed(unit: object) -> object:
    from engine.homm3.content import load_content

    card = load_content().units[unit.unit]  # type: ignore[attr-defined]
    return card.pack if unit.pack else card.few  # type: ignore[attr-defined]


@pytest.mark.rule("homm3bf:battlefield-in-regular-games.place-units")
@pytest.mark.rule("homm3bf:battlefield-in-regular-games.changes-to-combat-rules.unit-movement")
def test_units_placed_in_turns_from_the_attacker_and_move_their_initiative() -> None:
    state, seats = _deployed()
    # Red's two units and the one Level I guard, in turns from the attacker: Red, the seat
    # playing the guards (Blue), Red; the last unit placed begins the Combat
    assert seats == [0, 1, 0]
    board = state.board
    assert board is not None and board.combat is not None and board.combat.stage == "round"
    for unit in board.combat.units:
        # movement equals Initiative: a unit of Initiative 5 moves up to 5 hexes
        initiative = _printed(unit).initiative  # type: ignore[attr-defined]
        assert combat_attack.movement(unit, board) == initiative
        reach = combat_attack.reachable(board, unit)
        assert max(hexes.distance(unit.hex, h) for h in reach) == initiative  # type: ignore[arg-type]
    # the faction cube: on when an activation ends, off at the next round's start
    rng = random.Random(2)
    first, checked = None, 0
    while state.board is not None and state.board.combat.round == 1:  # type: ignore[union-attr]
        combat = state.board.combat
        assert combat is not None
        if first is None and combat.active is not None:
            first = combat.active
        seat = RULES.pending(state)[0].seat
        state = act(state, seat, RULES.ai_command(state, seat, rng))
        combat = state.board.combat if state.board is not None else None
        if combat is not None and combat.round == 1 and first not in (None, combat.active):
            assert next(u for u in combat.units if u.number == first).activated
            checked += 1
    assert checked
    if state.board is not None:
        assert not any(u.activated for u in state.board.combat.units if u.alive)  # type: ignore[union-attr]


@pytest.mark.rule("homm3bf:battlefield-in-regular-games.changes-to-combat-rules.ranged-units")
def test_a_ranged_unit_in_a_map_combat_suffers_the_penalty_next_to_or_eight_hexes_away() -> None:
    state, _ = _deployed()
    board = state.board
    assert board is not None and board.combat is not None
    shooter = board.combat.units[0]
    shooter.unit, shooter.pack, shooter.hex = "marksmen", False, "A5"
    target = next(u for u in board.combat.units if u.seat == 1)
    for hex_label, distance, penalty in (
        ("B5", 1, True),
        ("F5", 5, False),
        ("H5", 7, False),
        ("I5", 8, True),
        ("J5", 9, True),
    ):
        target.hex = hex_label
        assert hexes.distance("A5", hex_label) == distance
        assert combat_attack._penalty(board, shooter, target) is penalty, hex_label
    assert combat_attack.FAR == 8  # "8 or more hexes away"


@pytest.mark.rule("homm3bf:battlefield-in-regular-games.changes-to-combat-rules")
def test_a_map_combat_round_draws_no_cards_at_its_end() -> None:
    """The core game's Combat rules stay: no draw of 2 at a Combat round's end (the
    Battlefield modes draw 2 then; README "A map Combat keeps the core rules")."""
    state, _ = _deployed()
    rng = random.Random(1)
    rounds = 0
    while state.board is not None:
        seat = RULES.pending(state)[0].seat
        combat = state.board.combat
        assert combat is not None
        before = (combat.round, len(state.player(0).hand), state.player(0).experts)
        legal = RULES.legal_commands(state, seat)
        # round 1 passes without attacks, so a round ends with both sides standing
        waits = [m for m in legal if m.type in ("defend", "end_activation", "pass")]
        command = waits[0] if combat.round == 1 and waits else RULES.ai_command(state, seat, rng)
        state = act(state, seat, command)
        if state.board is not None and state.board.combat.round > before[0]:  # type: ignore[union-attr]
            rounds += 1
            assert len(state.player(0).hand) <= before[1], command
    assert rounds >= 1 and state.map.battle is None  # type: ignore[union-attr]


@pytest.mark.rule("homm3bf:battlefield-in-regular-games.changes-to-combat-rules.initiative-token")
def test_the_attacker_holding_the_token_acts_first_on_a_tie_in_a_map_combat() -> None:
    state, _ = _deployed()
    board = state.board
    assert board is not None and board.combat is not None
    assert board.combat.token == 0  # the attacker's side
    red = [u for u in board.combat.units if u.seat == 0]
    guard = next(u for u in board.combat.units if u.seat == 1)
    # the guard and Red's first unit tie (same card and side); Red's second waits
    guard.unit, guard.pack = red[0].unit, red[0].pack
    for unit in red[1:]:
        unit.activated = True
    board.combat.tie_initiative = board.combat.tie_last = None
    seat, units = combat_flow.due(board)  # type: ignore[misc]
    assert (seat, [u.number for u in units]) == (0, [red[0].number])
    board.combat.token = 1
    assert combat_flow.due(board)[0] == 1  # type: ignore[index]


@pytest.mark.rule("homm3core:combat-time-limits")
@pytest.mark.rule("homm3turn:what-1-mp-buys")
def test_time_limit_costs_one_mp_per_extra_round() -> None:
    state = _start_neutral(refreshed(new(time_limit=True)))
    rng = random.Random(3)
    asked = False
    while state.board is not None:
        decision = RULES.pending(state)[0]
        if decision.kind == "choose_time_limit":
            asked = True
            mp = map_turns.hero_of(state.map, 0, "main").mp  # type: ignore[arg-type]
            if mp:
                state = act(state, 0, c.Choose(option=1))
                assert map_turns.hero_of(state.map, 0, "main").mp == mp - 1  # type: ignore[arg-type]
                continue
        state = act(state, decision.seat, RULES.ai_command(state, decision.seat, rng))
    assert asked or state.map.battle is None  # type: ignore[union-attr]


@pytest.mark.rule("homm3turn:reacting-to-combat")
@pytest.mark.rule("homm3turn:when-you-can-use-them")
def test_reaction_window_and_town_actions_on_any_turn() -> None:
    state = refreshed(new())
    state.player(1).resources.gold = 100
    state.player(1).resources.materials = 50
    # outside a reaction window the other seat owes nothing (the engine takes commands from
    # seats owing a decision; see README)
    with pytest.raises(RuleViolation):
        act(state, 1, c.Build(building="citadel"))
    # the announced Combat asks the seats that can still use a token, from the attacker's left
    state, field = _to_guarded(state)
    state, events = RULES.apply(state, 0, mc.MapMove(field=field))
    assert any(e.kind == "combat_announced" for e in events)
    decision = RULES.pending(state)[0]
    assert (decision.seat, decision.kind) == (1, "town_reaction") and state.board is None
    state = act(state, 1, c.Build(building="citadel"))
    assert "citadel" in state.player(1).buildings and not state.player(1).tokens.build
    while RULES.pending(state)[0].kind == "town_reaction":
        state = act(state, RULES.pending(state)[0].seat, c.StartCombat())
    assert state.board is not None
    with pytest.raises(WrongPhase):  # never during a Combat
        map_turns.town_time(state, 1)


@pytest.mark.rule("homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege")
@pytest.mark.rule("homm3core:combat")
def test_attacking_a_hero_in_a_town_with_a_citadel_is_a_siege() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    enemy_town = town_of(state, 1)
    state.player(1).buildings.append("citadel")
    hero = map_turns.hero_of(game, 0, "main")
    hero.field = next(
        f
        for f in map_board.neighbours(enemy_town)
        if map_board.field_spec(game, f) and map_board.field_spec(game, f).kind != "blocked"
    )  # type: ignore[union-attr]
    for player in state.seats:
        player.tokens.build = player.tokens.population = player.tokens.spellbook = False
    state = act(state, 0, mc.MapMove(field=enemy_town))
    board = state.board
    assert board is not None and board.siege == 1 and board.combat is not None
    assert board.combat.tower is not None and board.combat.stage == "deploy"
    # only the Walls and the Gate stand, in column G: Wall, Wall, Gate, Wall, Wall
    placed = sorted(board.combat.placed, key=lambda p: p.hexes[0])
    assert [(p.kind, p.hexes) for p in placed] == [
        ("wall", ["G1", "G2"]),
        ("wall", ["G3", "G4"]),
        ("gate", ["G5"]),
        ("wall", ["G6", "G7"]),
        ("wall", ["G8", "G9"]),
    ]
    # the defender's units move through the Gate as if it were an empty hex; no one else's
    from engine.homm3 import combat_core

    assert not combat_core.blocked_by_obstacle(board, "G5", 1)
    assert combat_core.blocked_by_obstacle(board, "G5", 0)
    assert combat_core.blocked_by_obstacle(board, "G4", 1)


@pytest.mark.rule(
    "homm3bf:battlefield-in-regular-games.changes-to-combat-rules.morale-decks-in-regular-games"
)
@pytest.mark.rule("homm3turn:morale-cards-battlefield")
def test_morale_in_a_map_game_draws_one_card() -> None:
    from engine.homm3 import morale

    state = new()
    assert (
        len(state.positive_deck) == 7 and len(state.negative_deck) == 6
    )  # no Battlefield-symbol cards
    seat = next(p.seat for p in state.seats if p.faction != "necropolis")
    top = state.positive_deck[0]
    morale.gain(state, seat)
    assert state.player(seat).positive == [top] and seat not in state.choice
    # drawing from an empty deck follows the core rules: the Positive token
    state.positive_deck.clear()
    morale.gain(state, seat)
    assert state.player(seat).positive == [top] and state.player(seat).positive_token
    # a Negative card is drawn when Morale is lost; from an empty deck, the Negative token
    player = state.player(seat)
    player.positive, player.positive_token = [], False
    first_negative = state.negative_deck[0]
    morale.lose(state, seat)
    assert player.negative == [first_negative] and not player.negative_token
    player.negative = []
    state.negative_deck.clear()
    morale.lose(state, seat)
    assert player.negative == [] and player.negative_token


@pytest.mark.rule("homm3core:combat-experience")
@pytest.mark.rule("homm3core:quick-combat")
def test_experience_from_neutral_combat() -> None:
    state = new()
    game = state.map
    assert game is not None
    for diff, level, gain in ((1, 1, 1), (2, 1, 2), (1, 2, 0)):
        assert (2 if diff > level else 1 if diff == level else 0) == gain
    hero = map_turns.hero_of(game, 0, "main")
    assert map_turns.guarded(game, hero.field) == 0


@pytest.mark.rule("homm3core:victory-conditions")
def test_taking_the_enemy_town_wins_at_round_end() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    enemy = map_turns.hero_of(game, 1, "main")
    enemy.field = enemy.last = map_board.neighbours(town_of(state, 1))[3]
    hero = map_turns.hero_of(game, 0, "main")
    hero.field = next(
        f
        for f in map_board.neighbours(town_of(state, 1))
        if f != enemy.field and map_board.field_spec(game, f).kind != "blocked"
    )  # type: ignore[union-attr]
    state, events = RULES.apply(state, 0, mc.MapMove(field=town_of(state, 1)))
    assert any(e.kind == "town_taken" for e in events)
    assert not RULES.result(state).finished
    state = act(state, 0, c.EndTurn())
    state = refreshed(state)
    state = act(state, 1, c.EndTurn())
    assert RULES.result(state).finished and RULES.result(state).winners == (0,)


# ----------------------------------------------------------------- privacy
@pytest.mark.rule("homm3core:placing-and-discovering-tiles")
def test_face_down_tiles_hands_and_decks_stay_hidden() -> None:
    state = refreshed(new())
    game = state.map
    assert game is not None
    secret = [t.tile for t in game.tiles if not t.revealed] + game.pools[0] + game.pools[1]
    public = RULES.public_view(state).model_dump_json()
    for tile_id in secret:
        assert f'"{tile_id}"' not in public
    piles = RULES.hidden_piles(state)
    assert piles["tiles.facedown"] and piles["tiles.pool.0"] == game.pools[0]
    mine = RULES.view(state, 0)
    other = RULES.view(state, 1).model_dump()
    assert [r.number for r in mine.hand] == state.player(0).hand
    assert [r["number"] for r in other["hand"]] == state.player(1).hand
    assert not set(state.player(0).hand) & {r["number"] for r in other["hand"]}
    assert RULES.names_hidden_card(state, 0, mc.RefreshHand(discard=(1,)))


@pytest.mark.slow
@pytest.mark.rule("homm3core:round-structure")
def test_a_whole_game_finishes_with_every_state_round_tripping() -> None:
    for players in (2, 3):
        state = new(players=players, seed=11)
        rng = random.Random(11)
        for _ in range(6000):
            if RULES.result(state).finished:
                break
            seat = RULES.pending(state)[0].seat
            legal = RULES.legal_commands(state, seat)
            command = RULES.ai_command(state, seat, rng)
            assert command in legal or state.board is not None
            state = act(state, seat, command)
            assert RULES.audit(state) == []
        assert RULES.result(state).finished
        dumped = RULES.dump_state(state)
        assert RULES.dump_state(RULES.load_state(dumped)) == dumped


# ----------------------------------------------------------------- computer player
@pytest.mark.rule("homm3core:victory-conditions")
def test_the_computer_heads_for_the_towns_its_victory_needs() -> None:
    from engine.homm3 import map_decisions as md

    state = new()
    game = state.map
    assert game is not None
    # two players: the enemy Town; once held, none; its own Town when an enemy flags it
    assert md.victory_targets(state, 0) == [town_of(state, 1)]
    game.marks[town_of(state, 1)] = FieldMark(flag=0, flagged_once=True)
    assert md.victory_targets(state, 0) == []
    game.marks[town_of(state, 0)] = FieldMark(flag=1, flagged_once=True)
    assert md.victory_targets(state, 0) == [town_of(state, 0)]
    # three players: the Towns of the enemies whose Faction Cube it lacks
    three = new(players=3)
    assert three.map is not None
    three.map.cubes[0] = [1]
    assert md.victory_targets(three, 0) == [town_of(three, 2)]


@pytest.mark.rule("homm3core:field-difficulty")
def test_the_computer_routes_around_guards_above_its_level() -> None:
    from engine.homm3 import map_decisions as md

    state = new()
    game = state.map
    assert game is not None
    for tile in game.tiles:
        tile.revealed = True
    hero = game.heroes[0]
    targets = md.victory_targets(state, 0)
    # Level I: every way to the enemy Town crosses guards of Level II or more
    assert md.step_towards(state, 0, True, targets) is None
    # Level IV fights the Near tiles' Level IV guards; Level V beats them by Quick Combat
    for level in (4, 5):
        state.seats[0].level = level
        step = md.step_towards(state, 0, True, targets)
        assert step in map_board.neighbours(hero.field)
        assert map_turns.move_problem(state, hero, step) is None


# ----------------------------------------------------------------- coverage
def test_every_homm3_section_has_a_test() -> None:
    if not SECTIONS.is_file():
        pytest.skip(f"{SECTIONS} not found")
    ids = [
        line.split("\t")[0]
        for line in SECTIONS.read_text(encoding="utf-8").splitlines()
        if line.startswith(("homm3bf:", "homm3turn:"))
    ]
    marked: set[str] = set()
    for path in (ROOT / "tests" / "homm3").glob("test_*.py"):
        marked |= set(re.findall(r'rule\(\s*"([^"]+)"\s*\)', path.read_text(encoding="utf-8")))
    assert [i for i in ids if i not in marked] == []


_ = (ArmyUnit, FieldMark, MapHero, PlacedTile, map_combat)


@pytest.mark.rule("homm3core:map-tiles")
def test_map_pictures_show_public_facts_only() -> None:
    from rendering.homm3 import api

    state = refreshed(new(players=3))
    view = RULES.view(state, 0)
    whole = api.draw_map(view)
    focus = api.draw_focus(view)
    assert whole.image.size[0] == 800 and focus.image.size[0] == 400
    heroes = {m.key for m in whole.of_kind("hero")}
    assert heroes == {"0:main", "1:main", "2:main"}
    # the focus picture names the Fields around the acting hero at 12 px or more
    names = focus.of_kind("field_name")
    assert names and min(m.size for m in names) >= 12
    assert "Town" in focus.texts()
    secret = {t.tile for t in state.map.tiles if not t.revealed}  # type: ignore[union-attr]
    assert not secret & set(" ".join(whole.texts()).split())
    # during a Combat the board picture is the Battlefield, else the map
    assert api.draw_board(RULES.public_view(state)).of_kind("status")
    state = _start_neutral(refreshed(new()))
    assert state.board is not None
    assert not api.draw_board(RULES.public_view(state)).of_kind("status")


@pytest.mark.rule("homm3core:combat-setup")
def test_the_combat_set_up_names_the_real_attacker_and_who_plays_the_guards() -> None:
    """Blue attacks guards in a 3-player game: the set-up lines name Blue as the attacker
    and the seat playing the Neutral Units by colour (they said "Neutral attacks" and
    "Neutral plays them", the board's own names)."""
    state = refreshed(new(players=3))
    state = refreshed(act(state, 0, c.EndTurn()))
    game = state.map
    assert game is not None and game.active == 1
    hero = map_turns.hero_of(game, 1, "main")
    field = next(f for f in map_board.neighbours(hero.field) if map_turns.guarded(game, f) == 1)
    state, events = RULES.apply(state, 1, mc.MapMove(field=field))
    while RULES.pending(state)[0].kind == "town_reaction":
        state, events = RULES.apply(state, RULES.pending(state)[0].seat, c.StartCombat())
    battle = state.map.battle  # type: ignore[union-attr]
    assert battle is not None and battle.attacker == 1
    player = seat_name(battle.controllers[1])
    texts = {e.kind: e.text for e in events}
    assert texts["combat"].startswith("The Combat is set up on the Battlefield; Blue attacks")
    assert texts["neutrals"].endswith(f"(Few side); {player} plays them.")
    assert battle.controllers[1] != 1


@pytest.mark.rule("homm3bf:battlefield-in-regular-games.changes-to-combat-rules.initiative-token")
def test_the_battlefield_view_names_the_sides_by_the_seats_that_play_them() -> None:
    """Blue attacks guards that Red plays: the view (and so the picture) gives Blue the
    Initiative token and Blue's units, Red the guards (the board's own seats showed the
    attacker as Red)."""
    from rendering.homm3 import api

    state = refreshed(act(refreshed(new()), 0, c.EndTurn()))
    game = state.map
    assert game is not None and game.active == 1
    hero = map_turns.hero_of(game, 1, "main")
    field = next(f for f in map_board.neighbours(hero.field) if map_turns.guarded(game, f) == 1)
    state = act(state, 1, mc.MapMove(field=field))
    while RULES.pending(state)[0].kind == "town_reaction":
        state = act(state, RULES.pending(state)[0].seat, c.StartCombat())
    assert state.map.battle.controllers == (1, 0)  # type: ignore[union-attr]
    view = RULES.public_view(state)
    assert view.combat is not None and view.combat.token == 1
    blue = [a.unit for a in state.player(1).army[:5]]
    assert [u.unit for u in view.combat.units if u.seat == 1] == blue
    assert all(u.seat == 0 for u in view.combat.units if u.unit not in blue)
    assert "Initiative token: Blue" in api.draw_board(view).texts()


@pytest.mark.rule("homm3core:combat-round-structure")
def test_a_neutral_units_activation_offers_only_what_neutral_units_do() -> None:
    """Neutral Units never Defend and play no cards: their prompt says move or attack, the
    player's own units keep the whole list, and a Defend for the guards is refused."""
    from engine.homm3.map_decisions import NEUTRAL_ACTS

    state, _ = _deployed()
    rng = random.Random(3)
    seen: dict[str, str] = {}
    while state.board is not None and len(seen) < 2:
        decision = RULES.pending(state)[0]
        if decision.kind == "activation":
            combat = state.board.combat
            assert combat is not None
            active = next(u for u in combat.units if u.number == combat.active)
            side = "neutral" if active.seat == 1 else "own"
            seen.setdefault(side, decision.prompt)
            if side == "neutral":
                with pytest.raises(RuleViolation, match="Neutral Units cannot Defend"):
                    act(state, decision.seat, c.Defend())
            if side == "own":  # Red's units Defend, so the guards get to act
                state = act(state, decision.seat, c.Defend())
                continue
        state = act(state, decision.seat, RULES.ai_command(state, decision.seat, rng))
    assert seen["neutral"].endswith(f"is activating: {NEUTRAL_ACTS}.")
    assert "Neutral" in seen["neutral"]
    assert seen["own"].endswith("is activating: move, attack, Defend, play cards or end.")


@pytest.mark.rule("homm3turn:tracking-allies")
@pytest.mark.rule("homm3core:main-hero")
def test_the_turn_prompt_says_each_heros_movement_points_left() -> None:
    """A Main hero starts its turn with 3 MP; a step spends 1, and the prompt says so."""
    state = refreshed(new())
    seat = state.map.active  # type: ignore[union-attr]
    prompt = RULES.pending(state)[0].prompt
    assert prompt == (
        f"{seat_name(seat)}'s turn (round 1 of 12; Main hero 3 MP left): "
        "move, explore, build or end the turn."
    )
    after = [
        RULES.pending(act(state, seat, move))[0]
        for move in RULES.legal_commands(state, seat)
        if isinstance(move, mc.MapMove)
    ]
    steps = [d.prompt for d in after if d.kind == "map_turn"]
    left = [int(re.search(r"; Main hero (\d) MP left\)", p).group(1)) for p in steps]  # type: ignore[union-attr]
    # a step costs 1 MP; a Field with the +1 MP symbol gives it back (homm3core:map-symbols)
    assert 2 in left and set(left) <= {2, 3}
