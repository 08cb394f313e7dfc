"""The shipped Terrain Map legend and Terrain Map Sections.

Rule sections: homm4:terrain-map-sections, homm4:movement-phase.movement-points-and-terrain,
homm4:movement-phase.scouting-terrain, homm4:advanced-rules.native-and-special-lands,
homm4:start-of-the-game.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.homm4.cards import Faction, HeroCard, UnitCard, load_card_pool
from engine.homm4.hexes import SECTION_HEXES, SECTION_RADIUS, Hex, distance, neighbours
from engine.homm4.maps import MapData, MapSection, load_maps

# The rulebook's Native Lands table: terrain name -> Movement Points a native pays per hex.
NATIVE_COST = {
    "Volcanic Ground": 1.0,
    "Swamp": 2.0,
    "Snow": 2.0,
    "Grass": 0.5,
    "Dirt": 0.5,
    "Forest": 1.0,
    "Wasteland": 1.0,
    "Cursed Ground": 1.0,
}
NATIVE_FACTION = {
    "Volcanic Ground": Faction.DEATH,
    "Swamp": Faction.CHAOS,
    "Snow": Faction.ORDER,
    "Grass": Faction.LIFE,
    "Dirt": Faction.LIFE,
    "Forest": Faction.NATURE,
    "Wasteland": Faction.MIGHT,
    "Cursed Ground": Faction.DEATH,
}
SPECIAL = {
    "Enchanted Stone": Faction.ORDER,
    "Fields of Glory": Faction.MIGHT,
    "Fields of Life": Faction.LIFE,
    "Magic Garden": Faction.NATURE,
    "Scorched Earth": Faction.CHAOS,
}


@pytest.fixture(scope="module")
def maps() -> MapData:
    return load_maps()


def passable(maps: MapData, section: MapSection) -> set[Hex]:
    return {h for h, code in section.terrain().items() if maps.terrain[code].passable}


def reachable(start: Hex, allowed: set[Hex]) -> set[Hex]:
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


# ------------------------------------------------------------------ legend
@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_legend_has_passable_lands_and_the_impassable_x_terrains(maps: MapData) -> None:
    by_name = {t.name: t for t in maps.terrain.values()}
    for name in NATIVE_COST:
        assert by_name[name].passable, name
    for name in ("Water", "Mountains", "Lava", "Volcano", "Cave Wall"):
        assert by_name[name].cost == 0 and not by_name[name].passable, name
    assert by_name["Cave Wall"].cave_wall
    assert [t.name for t in maps.terrain.values() if t.cave_wall] == ["Cave Wall"]
    assert all(1 <= t.cost <= 3 for t in maps.terrain.values() if t.passable)


@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
def test_base_costs_leave_room_for_the_native_lands_table(maps: MapData) -> None:
    by_name = {t.name: t for t in maps.terrain.values()}
    for name, native_cost in NATIVE_COST.items():
        terrain = by_name[name]
        assert terrain.native is NATIVE_FACTION[name], name
        assert not terrain.special, name
        assert terrain.cost > native_cost, name  # natives gain something
    assert (by_name["Swamp"].cost, by_name["Snow"].cost, by_name["Grass"].cost) == (3, 3, 1)


@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
def test_special_lands_are_passable_and_belong_to_their_faction(maps: MapData) -> None:
    by_name = {t.name: t for t in maps.terrain.values()}
    for name, faction in SPECIAL.items():
        terrain = by_name[name]
        assert terrain.special and terrain.native is faction, name
        assert terrain.cost in (1, 2), name
    assert {t.name for t in maps.terrain.values() if t.special} == set(SPECIAL)


@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_every_army_can_enter_any_passable_hex_at_the_start_of_its_turn(maps: MapData) -> None:
    dearest = max(t.cost for t in maps.terrain.values() if t.passable)
    pool = load_card_pool()
    slowest = min(c.movement for c in pool.cards.values() if isinstance(c, UnitCard | HeroCard))
    assert slowest >= dearest == 3


# ------------------------------------------------------------------ sections
@pytest.mark.rule("homm4:terrain-map-sections")
def test_seven_surface_sections_of_37_hexes(maps: MapData) -> None:
    surface = [s for s in maps.sections.values() if not s.underground]
    assert len(surface) >= 7
    for section in maps.sections.values():
        assert len(section.terrain()) == 37 == len(SECTION_HEXES)
        assert [len(row.split()) for row in section.rows] == [4, 5, 6, 7, 6, 5, 4]


@pytest.mark.rule("homm4:terrain-map-sections")
def test_every_passable_hex_of_a_section_reaches_every_other(maps: MapData) -> None:
    for section in maps.sections.values():
        open_hexes = passable(maps, section)
        assert reachable(min(open_hexes), open_hexes) == open_hexes, section.id
        assert len(open_hexes) >= 30, section.id


@pytest.mark.rule("homm4:start-of-the-game")
def test_outer_ring_is_passable_so_sections_connect(maps: MapData) -> None:
    ring = [h for h in SECTION_HEXES if distance(h, (0, 0)) == SECTION_RADIUS]
    assert len(ring) == 18
    for section in maps.sections.values():
        open_hexes = passable(maps, section)
        assert sum(h in open_hexes for h in ring) >= 15, section.id


@pytest.mark.rule("homm4:movement-phase.scouting-terrain")
def test_icons_stand_on_passable_hexes(maps: MapData) -> None:
    for section in maps.sections.values():
        open_hexes = passable(maps, section)
        for icon in section.sites:
            assert icon.at in open_hexes, (section.id, icon)


@pytest.mark.rule("homm4:movement-phase.scouting-terrain")
def test_icon_counts_per_section_and_in_all(maps: MapData) -> None:
    totals: Counter[str] = Counter()
    for section in maps.sections.values():
        kinds = Counter(icon.kind for icon in section.sites)
        assert 1 <= kinds["town"] <= 2, section.id
        assert 1 <= kinds["dwelling"] <= 2, section.id
        assert 2 <= kinds["object"] <= 4, section.id
        totals.update(kinds)
    assert totals["town"] >= 8  # six players can each find a Town on 7 sections
    assert totals["dwelling"] >= 7
    assert totals["object"] >= 14


@pytest.mark.rule("homm4:terrain-map-sections")
def test_each_section_has_a_terrain_theme(maps: MapData) -> None:
    themes = set()
    for section in maps.sections.values():
        costs = Counter(section.terrain().values())
        code, count = costs.most_common(1)[0]
        themes.add(code)
        assert count >= 12, section.id
    assert len(themes) >= 6  # a different main terrain almost everywhere


@pytest.mark.rule("homm4:advanced-rules.native-and-special-lands")
def test_every_faction_finds_native_land_on_the_map(maps: MapData) -> None:
    natives = {
        maps.terrain[code].native
        for section in maps.sections.values()
        for code in section.terrain().values()
    }
    assert {f for f in Faction if f is not Faction.NEUTRAL} <= natives
