"""The mmh content matches the rulebook's component list and numbers."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.mmh.content import (
    CONTROLLABLE,
    EXPLORABLE,
    MAGIC_SCHOOLS,
    MIGHT_SCHOOLS,
    STARTING_ABILITIES,
    Faction,
    load_content,
)

C = load_content()


@pytest.mark.rule("mmh:game-material.markers")
def test_forty_three_encounter_markers_in_three_colours() -> None:
    assert len(C.encounters) == 43
    colours = Counter(e.colour for e in C.encounters)
    assert set(colours) == {"yellow", "purple", "gold"}
    assert sum(colours.values()) == 43
    names = {a for e in C.encounters for a in e.abilities}
    assert {"annihilator", "battle_fury", "regeneration"} <= names


@pytest.mark.rule("mmh:game-material.markers")
def test_one_hundred_and_four_creature_markers_and_four_elements() -> None:
    assert sum(c.markers for c in C.creatures) == 104
    for faction in Faction:
        assert sum(c.markers for c in C.faction_creatures(faction)) == 26
    assert len(C.elements) == 4


@pytest.mark.rule("mmh:game-material.cards")
def test_card_counts() -> None:
    assert len(C.skills) == 64
    assert len(C.scrolls) == 20
    assert len(C.artefacts) == 20
    assert len(C.treasures) == 15
    assert len(C.weeks) == 15


@pytest.mark.rule("mmh:game-setup.setting-up-the-player-areas")
def test_each_faction_has_eight_might_and_eight_magic_skill_cards() -> None:
    for faction in Faction:
        might = C.faction_skills(faction, "might")
        magic = C.faction_skills(faction, "magic")
        assert len(might) == 8 and len(magic) == 8
        assert {s.school for s in might} <= set(MIGHT_SCHOOLS)
        assert {s.school for s in magic} <= set(MAGIC_SCHOOLS)
        assert any(s.name == "Forced Attack" for s in might)


@pytest.mark.rule("mmh:game-material.sheets")
def test_twelve_hero_sheets_three_per_faction() -> None:
    assert len(C.heroes) == 12
    for faction in Faction:
        assert len(C.faction_heroes(faction)) == 3
    assert sorted(h.ability for h in C.heroes) == sorted(STARTING_ABILITIES)
    masters = {h.master for h in C.heroes if h.master}
    leaders = {h.leader for h in C.heroes if h.leader}
    assert masters == {"dreamwalker", "griffin", "kenshi", "vampire"}
    assert leaders == {"orc", "crossbowman", "shark_soldier", "skeleton"}


@pytest.mark.rule("mmh:course-of-play.build")
def test_nine_buildings_per_faction_with_the_faction_abilities() -> None:
    effects = {}
    for faction in Faction:
        buildings = C.faction_buildings(faction)
        assert len(buildings) == 9
        own = [b for b in buildings if b.faction == faction]
        effects[faction.value] = own[0].effect
    assert effects == {
        "haven": "guardian_angel",
        "necropolis": "necromancy",
        "stronghold": "blood_rage",
        "sanctuary": "honor",
    }
    temple = C.building("temple_of_asha")
    assert (temple.resources, temple.gold, temple.vp) == (12, 12, 3)
    town_hall = C.building("town_hall")
    assert town_hall.either and town_hall.resources == 3


@pytest.mark.rule("mmh:game-setup.assembling-the-starting-army")
def test_capital_boards_and_starting_creatures() -> None:
    for faction in Faction:
        creatures = C.faction_creatures(faction)
        assert [c.level for c in creatures] == [1, 2, 3, 4]
        assert creatures[0].elite.might == 2 and creatures[1].elite.might == 3
        # mmh:other-game-rules.overwhelm-markers: elite might 5 from capital level IV
        assert creatures[3].elite.might == 5
        assert all(c.elite.might < 5 for c in creatures[:3])
        board = C.faction(faction).capital
        assert [col.level for col in board] == [1, 2, 3, 4]
        assert all(col.elite_gold > col.basic_gold for col in board)


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_artefacts_in_five_categories_and_named_cards() -> None:
    categories = Counter(a.category for a in C.artefacts)
    assert categories == {"clothing": 4, "armor": 4, "weapon": 4, "jewelry": 4, "item": 4}
    names = {a.name for a in C.artefacts}
    assert {"Tear of Asha", "Ring of Misfortune", "Gauntlet of the Giant Slayer"} <= names


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_scrolls_have_a_school_and_levels_one_to_five() -> None:
    assert {s.level for s in C.scrolls} == {1, 2, 3, 4, 5}
    assert {s.school for s in C.scrolls} == set(MAGIC_SCHOOLS)
    assert any(s.name == "Dispel" for s in C.scrolls)


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_treasure_cards_have_four_fields_one_artefact() -> None:
    for card in C.treasures:
        kinds = [f.kind for f in card.fields]
        assert len(kinds) == 4 and kinds.count("artefact") == 1


@pytest.mark.rule("mmh:game-setup.preparing-card-decks")
def test_week_cards_five_per_moon_phase_some_dark() -> None:
    moons = Counter(w.moon for w in C.weeks)
    assert moons == {"crescent": 5, "half": 5, "full": 5}
    assert sum(1 for w in C.weeks if w.event.dark_times) >= 2


@pytest.mark.rule("mmh:game-setup.setting-up-the-game-board")
def test_sixteen_tiles_of_sixteen_spaces_with_red_capital_tiles() -> None:
    assert sorted(t.number for t in C.tiles) == list(range(1, 17))
    assert all(len(t.spaces) == 16 for t in C.tiles)
    for players, last in ((2, 9), (3, 12), (4, 16)):
        red = [t.number for t in C.tiles if t.capital and t.number <= last]
        assert len(red) >= players
    assert sum(1 for t in C.tiles if t.portal is not None) >= 4


@pytest.mark.rule("mmh:description-of-the-game-board.game-board-locations")
def test_every_location_appears_and_explorable_ones_start_guarded() -> None:
    found = Counter(s.location for t in C.tiles for s in t.spaces if s.location)
    assert set(found) == set(CONTROLLABLE) | set(EXPLORABLE) | {"portal"}
    assert CONTROLLABLE["sawmill"] == (1, 0, 3)
    assert CONTROLLABLE["mine"] == (2, 0, 2)
    assert CONTROLLABLE["crystal_cavern"] == (3, 0, 1)
    assert CONTROLLABLE["gold_mine"] == (0, 4, 0)
    assert CONTROLLABLE["dragon_nexus"] == (4, 0, 0)
    symbols = Counter(s.encounter for t in C.tiles for s in t.spaces if s.encounter)
    markers = Counter(e.colour for e in C.encounters)
    for colour, count in symbols.items():
        assert count <= markers[colour]


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_every_card_has_text_generated_from_its_effects() -> None:
    from engine.mmh.text import card_text

    for table in (C.skills, C.scrolls, C.artefacts, C.treasures, C.weeks):
        for card in table:
            lines = card_text(card.id)
            assert len(lines) >= 2 and all(lines)
    assert card_text("arcane_bolt")[1] == "In Battle: deal 1 damage to an enemy stack or encounter"
    assert card_text("arcane_bolt")[2].startswith("OR (Primal Magic): ")
