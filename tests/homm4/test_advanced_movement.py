"""Advanced movement: Flying Armies, Native Lands, and the underground map with its paired
entrances (homm4:advanced-rules.flying-armies, homm4:advanced-rules.native-and-special-lands,
homm4:terrain-map-sections-with-underground)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine.core.errors import IllegalMove
from engine.homm4 import board, lands, maps, movement, scouting, zones
from engine.homm4.hexes import Hex, distance, neighbours
from engine.homm4.maps import MapData
from engine.homm4.options import Homm4Options
from engine.homm4.state import Army, ChipIn, Homm4State
from tests.homm4.adventure_helpers import (
    add_card,
    apply,
    clear_board,
    decline_all_sites,
    new_game,
    place_army,
    started,
)

WALLED = [
    "gr gr gr gr",
    "gr gr gr gr gr",
    "gr gr gr gr gr gr",
    "mt mt mt mt mt mt gr",
    "fo fo fo fo fo fo",
    "sw sw sw sw sw",
    "cw cw sn sn",
]
CAVE = [
    "sb sb sb sb",
    "sb sb sb sb sb",
    "sb sb cw sb sb sb",
    "sb sb sb sb sb sb sb",
    "sb sb sb cw sb sb",
    "sb sb sb sb sb",
    "sb sb sb sb",
]


def _section(section_id: str, rows: list[str], underground: bool = False) -> dict[str, Any]:
    return {
        "id": section_id,
        "name": section_id.replace("_", " ").title(),
        "underground": underground,
        "rows": rows,
        "sites": [
            {"kind": "town", "at": [0, -2]},
            {"kind": "object", "at": [2, -3]},
            {"kind": "object", "at": [-3, 1]},
        ],
    }


def _lab_maps() -> MapData:
    shipped = maps.load_maps()
    terrain = {"terrain": [t.model_dump(mode="json") for t in shipped.terrain.values()]}
    sections = [_section(f"walled_{n}", WALLED) for n in "abcd"]
    sections += [_section(f"cave_{n}", CAVE, underground=True) for n in "ab"]
    return maps.parse_maps(terrain, {"sections": sections})


LAB = _lab_maps()


@pytest.fixture(autouse=True)
def lab_map(monkeypatch: pytest.MonkeyPatch) -> Iterator[MapData]:
    """Play these tests on four walled sections (and two caves underground)."""
    monkeypatch.setattr(board, "map_data", lambda: LAB)
    yield LAB


def _game(**options: Any) -> Homm4State:
    state = started(
        players=2, seed=5, decks=[{"deck": "deck_haven"}, {"deck": "deck_asylum"}], **options
    )
    clear_board(state)
    decline_all_sites(state)
    state.phase, state.active = "movement", 0
    return state


def _army(state: Homm4State, where: Hex, *card_ids: str, seat: int = 0) -> Army:
    cards = [add_card(state, seat, c) for c in card_ids]
    army = place_army(state, seat, where, cards)
    army.mp2 = movement.army_rules.full_mp2(state, army)
    return army


def _code(state: Homm4State, where: Hex) -> str | None:
    return board.board_of(state).terrain.get(where)


def _over_the_wall(state: Homm4State) -> tuple[Hex, Hex, Hex]:
    """(A, X, B): grass A, a Mountain X next to it, grass B beyond X in a straight line,
    with no site within 1 of A or B."""
    shape = board.board_of(state)
    for a in shape.order:
        if _code(state, a) != "gr" or any(distance(s.hex, a) <= 1 for s in state.sites):
            continue
        for x in neighbours(a):
            if _code(state, x) != "mt":
                continue
            b = (2 * x[0] - a[0], 2 * x[1] - a[1])
            if _code(state, b) in ("fo", "gr") and not any(
                distance(s.hex, b) <= 1 for s in state.sites
            ):
                return a, x, b
    raise AssertionError("no mountain to fly over")


# ------------------------------------------------------------------ Flying Armies
@pytest.mark.rule("homm4:advanced-rules.flying-armies")
def test_a_flying_army_crosses_a_mountain_at_1_mp_per_hex_but_cannot_stop_on_it() -> None:
    state = _game(flying=True)
    a, x, b = _over_the_wall(state)
    griffins = _army(state, a, "griffin", "griffin")  # Nature flyers, 5 Movement Points
    assert lands.army_flies(state, griffins)
    tree = movement.reachable(state, griffins)
    assert tree[x][0] == 2 and tree[b][0] == 4, "1 MP per hex, the mountain included"
    with pytest.raises(IllegalMove, match="fly over it but not stop"):
        apply(state, 0, {"type": "move", "army": griffins.id, "to": board.label(state, x)})
    assert all(
        m.to != board.label(state, x)
        for m in movement.move_options(state, 0)
        if m.army == griffins.id
    )
    state, _ = apply(state, 0, {"type": "move", "army": griffins.id, "to": board.label(state, b)})
    moved = zones.army(state, griffins.id)
    assert moved.hex == b and moved.mp2 == griffins.mp2 - 4


@pytest.mark.rule("homm4:advanced-rules.flying-armies")
def test_flyers_pay_1_mp_on_grass_and_never_cross_cave_walls() -> None:
    state = _game(flying=True, native_lands=True)
    a, _, _ = _over_the_wall(state)
    angels = _army(state, a, "angel")  # Life flyer: Grass would cost natives 1/2, flyers 1
    cost = lands.step_cost_fn(state, angels)
    grass = next(n for n in neighbours(a) if _code(state, n) == "gr")
    assert cost(a, grass) == 2
    walls = [h for h in board.board_of(state).order if _code(state, h) == "cw"]
    assert walls and all(cost(a, w) is None for w in walls)


@pytest.mark.rule("homm4:advanced-rules.flying-armies")
def test_without_the_rule_or_with_a_hero_flyers_walk() -> None:
    state = _game()
    a, x, _ = _over_the_wall(state)
    griffins = _army(state, a, "griffin")
    assert x not in movement.reachable(state, griffins)
    state.options = Homm4Options(flying=True)
    led = _army(state, a, "elowen", "griffin")  # a Hero card cannot fly
    assert not lands.army_flies(state, led)
    assert x not in movement.reachable(state, led)


# ------------------------------------------------------------------- Native Lands
@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
@pytest.mark.parametrize(
    ("code", "unit", "native_mp2", "normal_mp2"),
    [
        ("gr", "squire", 1, 2),  # Life on Grass: 1/2 MP instead of 1
        ("fo", "wolf", 2, 4),  # Nature in Forest: 1 MP instead of 2
        ("sw", "bandit", 4, 6),  # Chaos in Swamp: 2 MP instead of 3
        ("sn", "dwarf", 4, 6),  # Order on Snow: 2 MP instead of 3
    ],
)
def test_native_armies_pay_the_native_lands_table(
    code: str, unit: str, native_mp2: int, normal_mp2: int
) -> None:
    state = _game(native_lands=True)
    shape = board.board_of(state)
    here, there = next(
        (h, n)
        for h in shape.order
        for n in neighbours(h)
        if _code(state, n) == code and _code(state, h)
    )
    natives = _army(state, here, unit, unit)
    assert lands.step_cost_fn(state, natives)(here, there) == native_mp2
    mixed = _army(state, here, unit, "peasant")  # a neutral card: not all natives
    assert lands.step_cost_fn(state, mixed)(here, there) == normal_mp2
    state.options = Homm4Options()
    assert lands.step_cost_fn(state, natives)(here, there) == normal_mp2


# ---------------------------------------------------------------------- Underground
def _underground_game(**options: Any) -> Homm4State:
    return _game(underground=2, **options)


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_the_underground_is_a_separate_map_with_two_pairs_of_entrances() -> None:
    state = new_game(2, 3, underground=2, decks=[{"deck": "deck_haven"}, {"deck": "deck_asylum"}])
    shape = board.board_of(state)
    below = shape.underground
    assert len(below) == 2 * 37 and len(shape.terrain) == 6 * 37
    assert not any(n in below for h in shape.terrain if h not in below for n in neighbours(h))
    pairs = {}
    for site in state.sites:
        if site.entrance is not None:
            pairs.setdefault(site.entrance, []).append(site.hex in below)
            assert site.kind == "object" and site.card is None
    assert sorted(pairs) == [1, 2]
    assert all(sorted(ends) == [False, True] for ends in pairs.values())
    assert setup_hexes_on_surface(state)


def setup_hexes_on_surface(state: Homm4State) -> bool:
    from engine.homm4 import setup

    hexes = setup.army_hexes(state, state.active)
    return bool(hexes) and not any(h in board.board_of(state).underground for h in hexes)


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_finding_an_entrance_chips_in_a_guard_without_identifying() -> None:
    state = _underground_game()
    entrance = next(
        s for s in state.sites if s.entrance == 1 and s.hex not in board.board_of(state).underground
    )
    start = next(
        h
        for h in neighbours(entrance.hex)
        if board.step_cost2(state, h) is not None and zones.site_at(state, h) is None
    )
    entrance.declined = []
    army = _army(state, start, "squire")
    work = state.model_copy(deep=True)
    seen = scouting.sites_in_sight(work, zones.army(work, army.id))
    assert entrance.id in [s.id for s in seen]
    events = scouting.open_offers(work, zones.army(work, army.id), [work.sites[entrance.id]])
    assert [e.kind for e in events][:2] == ["entrance_found", "chip_in"]
    assert work.sites[entrance.id].found and work.sites[entrance.id].card is None
    assert isinstance(work.interrupts[0], ChipIn)
    assert not [i for i in work.interrupts if getattr(i, "kind", "") == "scout"]


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_armies_travel_between_found_entrances_without_movement_points() -> None:
    state = _underground_game()
    shape = board.board_of(state)
    up = next(s for s in state.sites if s.entrance == 1 and s.hex not in shape.underground)
    down = next(s for s in state.sites if s.entrance == 1 and s.hex in shape.underground)
    for site in (up, down):
        site.found = True
        site.guard = []
    army = _army(state, up.hex, "squire")
    tree = movement.reachable(state, army)
    assert tree[down.hex][0] == 0
    beyond = next(n for n in neighbours(down.hex) if board.step_cost2(state, n) == 2)
    assert tree[beyond][0] == 2, "1 MP on Subterranean after the free passage"
    state, _ = apply(
        state, 0, {"type": "move", "army": army.id, "to": board.label(state, down.hex)}
    )
    moved = zones.army(state, army.id)
    assert moved.hex == down.hex and moved.mp2 == army.mp2
    other = _underground_game()
    unfound = [s for s in other.sites if s.entrance == 1]
    walker = _army(other, unfound[0].hex, "squire")
    assert unfound[1].hex not in movement.reachable(other, walker), "not found yet"


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_a_guarded_entrance_is_fought_on_arrival() -> None:
    state = _underground_game()
    shape = board.board_of(state)
    up = next(s for s in state.sites if s.entrance == 2 and s.hex not in shape.underground)
    down = next(s for s in state.sites if s.entrance == 2 and s.hex in shape.underground)
    up.found = down.found = True
    guard = add_card(state, 1, "orc")
    down.guard, down.guard_player = [guard], 1
    army = _army(state, up.hex, "squire", "squire")
    state, events = apply(
        state, 0, {"type": "move", "army": army.id, "to": board.label(state, down.hex)}
    )
    assert state.battle is not None and state.battle.defender_kind == "guard"
    assert state.battle.hex == down.hex
    assert [e.kind for e in events][-1] == "battle_start"
