"""homm3 content: the numbers the rule texts and the public card facts give."""

from __future__ import annotations

import pytest

from engine.homm3.content import load_content
from engine.homm3.state import Homm3State
from tests.homm3.helpers import new


@pytest.mark.rule("homm3bf:battlefield-setup.adventure-mode")
def test_each_core_faction_has_seven_double_sided_units() -> None:
    content = load_content()
    assert sorted(content.factions) == ["castle", "dungeon", "necropolis"]
    for faction in content.factions:
        units = content.faction_units(faction)
        assert len(units) == 7
        assert [u.tier for u in units].count("bronze") == 3
        assert [u.tier for u in units].count("silver") == 2
        assert [u.tier for u in units].count("gold") == 2


@pytest.mark.rule("homm3bf:battlefield-setup.skirmish-mode")
def test_unit_sides_match_the_card_facts() -> None:
    units = load_content().units
    few = {
        k: (u.few.attack, u.few.defense, u.few.health, u.few.initiative) for k, u in units.items()
    }
    assert few["halberdiers"] == (2, 1, 2, 4)
    assert few["marksmen"] == (2, 0, 2, 4) and units["marksmen"].kind == "ranged"
    assert few["griffins"] == (2, 0, 4, 6) and units["griffins"].kind == "flying"
    assert few["crusaders"] == (3, 2, 4, 5)
    assert few["zealots"] == (3, 1, 5, 5)
    assert few["champions"] == (5, 2, 7, 7)
    assert few["archangels"] == (6, 3, 8, 12)
    assert units["archangels"].pack.initiative == 18


@pytest.mark.rule("homm3bf:component-list")
def test_component_counts() -> None:
    content = load_content()
    adventure = sum(e.copies for e in content.events.values()) + sum(
        c.copies for c in content.combats.values()
    )
    assert adventure == 50
    assert len(content.positive) == 10 and len(content.negative) == 10
    assert len(content.board.token) == 10


@pytest.mark.rule("homm3bf:battlefield-setup.adventure-mode")
def test_diplomacy_and_logistics_are_not_in_the_ability_deck() -> None:
    deck = load_content().decks["ability"]
    assert "diplomacy" not in deck and "logistics" not in deck


@pytest.mark.rule("homm3bf:battlefield-setup")
def test_starting_deck_holds_nine_cards_from_the_hero_card() -> None:
    state: Homm3State = new(heroes=("catherine", "deemer"), mode="adventure")
    ids = sorted(state.cards[c] for c in state.player(0).deck)
    # Catherine: Attack 2, Defense 2, Power 1, Knowledge 1, a Might Hero: 1 Magic Arrow
    assert ids == sorted(
        [
            "attack",
            "attack",
            "defense",
            "defense",
            "power",
            "knowledge",
            "magic_arrow",
            "leadership",
            "catherine_1",
        ]
    )
    deemer = [state.cards[c] for c in state.player(1).deck]
    assert len(deemer) == 9 and deemer.count("magic_arrow") == 2 and deemer.count("power") == 3


@pytest.mark.rule("homm3bf:adventure-mode.resolving-adventure-cards")
def test_adventure_combat_cards_have_three_combat_power_levels() -> None:
    content = load_content()
    assert [lv.power for lv in content.combats["crypt"].levels] == [4, 5, 7]
    assert [lv.power for lv in content.combats["dragon_utopia"].levels] == [6, 10, 12]
    for card in content.combats.values():
        powers = [lv.power for lv in card.levels]
        assert powers == sorted(powers)


@pytest.mark.rule("homm3bf:battlefield-combat.place-obstacles")
def test_obstacle_tokens_have_wall_and_gate_sides_for_the_siege() -> None:
    tokens = load_content().board.token
    sides = [t.siege.kind for t in tokens if t.siege is not None]
    assert sides == ["wall", "wall", "gate", "wall", "wall"]


def test_every_spell_school_has_spells() -> None:
    cards = load_content().cards.values()
    for school in ("air", "earth", "fire", "water"):
        assert sum(1 for c in cards if c.kind == "spell" and c.school == school) >= 5
