"""The Abilities, the Spell and the Dungeon building added to the core-box content: Eagle
Eye, Ballista (Siege only), Resurrection's data, the Mana Vortex; Pathfinding and the
Portal of Summoning stay out (readings in engine/homm3/README.md)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm3.content import load_content
from engine.homm3.state import CombatUnit
from tests.homm3.helpers import apply, battle, card, new, unit
from tests.homm3.test_siege import SIEGE, _siege

COMBAT = "homm3bf:battlefield-combat.changes-to-combat-rules"
SETUP = "homm3bf:battlefield-setup.adventure-mode"


def _top(state, *card_ids: str) -> list[int]:  # type: ignore[no-untyped-def]
    """Put a new card of each id on top of the Spell deck, in that order."""
    picked = [_new_card(state, i) for i in card_ids]
    state.spell_deck[:0] = picked
    return picked


# ------------------------------------------------------------------- Eagle Eye
@pytest.mark.rule(COMBAT)
def test_eagle_eye_turns_over_spells_until_a_basic_one() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["eagle_eye"]},
    )
    fireball, chain, haste = _top(state, "fireball", "chain_lightning", "haste")
    size = len(state.spell_deck)
    state, events = apply(state, 0, {"type": "play", "card": card(state, 0, "eagle_eye")})
    turned = next(e for e in events if e.kind == "eagle_eye")
    assert turned.data["count"] == 3 and "Haste" not in turned.text  # named privately
    assert state.looking[0] == [haste] and state.choice[0].private
    assert {fireball, chain} <= set(state.spell_deck) and len(state.spell_deck) == size - 1
    state, _ = apply(state, 0, {"type": "choose", "option": 0})
    assert haste in state.player(0).hand and not state.looking


@pytest.mark.rule(COMBAT)
def test_expert_eagle_eye_finds_an_expert_spell_which_may_be_discarded() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["eagle_eye"]},
    )
    _haste, fireball = _top(state, "haste", "fireball")
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "eagle_eye"), "option": 1})
    assert state.looking[0] == [fireball]
    state, _ = apply(state, 0, {"type": "choose", "option": 1})
    assert state.spell_discard[0] == fireball and fireball not in state.player(0).hand


# --------------------------------------------------------------------- Ballista
@pytest.mark.rule(SIEGE)
def test_ballista_destroys_a_wall_or_the_gate_and_its_expert_effect_the_tower() -> None:
    state = _siege([(0, "griffins", False, "B5"), (1, "skeletons", False, "L5")])
    for _ in range(2):
        state.player(0).hand.append(_new_card(state, "ballista"))
    assert state.combat is not None
    state.combat.units.append(CombatUnit(number=3, seat=1, unit="arrow_tower", pack=False))
    state.combat.tower = 3
    first, second = [c for c in state.player(0).hand if state.cards[c] == "ballista"]
    state, _ = apply(state, 0, {"type": "play", "card": first, "hex": "G5"})
    assert state.combat is not None
    assert [p.kind for p in state.combat.placed] == ["wall", "wall", "wall", "wall"]
    state, events = apply(state, 0, {"type": "play", "card": second, "option": 1})
    assert not unit(state, 3).alive
    assert any("Arrow Tower falls" in e.text for e in events)


def _new_card(state, card_id: str) -> int:  # type: ignore[no-untyped-def]
    from engine.homm3 import zones

    return zones.new_instance(state, card_id)


@pytest.mark.rule(SIEGE)
def test_ballista_is_dealt_only_when_the_final_combat_is_a_siege() -> None:
    plain = new(heroes=("catherine", "mutare"), size="large")
    siege = new(heroes=("catherine", "mutare"), size="large", siege=True)
    assert "ballista" not in plain.cards.values()
    assert list(siege.cards.values()).count("ballista") == 1
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["ballista"]},
    )
    with pytest.raises(IllegalMove, match="in a Siege"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "ballista"), "hex": "G5"})


# ----------------------------------------------------------------- Resurrection
@pytest.mark.rule(COMBAT)
def test_resurrection_data_is_an_expert_earth_spell_with_empower_zero_two_four() -> None:
    spell = load_content().cards["resurrection"]
    assert (spell.school, spell.level) == ("earth", "expert")
    assert spell.spell is not None and spell.spell.levels == ((0, 1), (2, 2), (4, 3))
    resistance = load_content().cards["resistance"]
    assert resistance.basic is not None and resistance.basic.amount == 1  # at most 1 Empower


# ------------------------------------------------------------------ Mana Vortex
@pytest.mark.rule("homm3turn:build-token")
def test_the_dungeon_builds_the_mana_vortex_not_the_portal_of_summoning() -> None:
    dungeon = load_content().factions["dungeon"]
    vortex = dungeon.get("vortex")
    assert vortex is not None and vortex.name == "Mana Vortex"
    assert (vortex.cost.gold, vortex.cost.materials, vortex.cost.valuables) == (6, 4, 1)
    assert all("Portal" not in b.name for b in dungeon.building)
    assert len(dungeon.building) == 7


@pytest.mark.rule(COMBAT)
def test_the_mana_vortex_recycles_the_discard_pile_and_searches_three() -> None:
    state = battle(
        [(0, "troglodytes", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["attack", "defense"]},
        heroes=("mutare", "catherine"),
        buildings={0: ["vortex"]},
        first_active=False,
    )
    player = state.player(0)
    player.discard.append(player.deck.pop())
    pool = len(player.deck) + len(player.discard) + 1
    choice = state.choice[0]
    assert choice.kind == "mana_vortex" and choice.private
    assert choice.options[-1] == "Do not use the Mana Vortex" and len(choice.options) == 3
    attack = card(state, 0, "attack")
    state, events = apply(state, 0, {"type": "choose", "option": 0})
    assert any(e.kind == "vortex" and f"#{attack}" in e.text for e in events)
    player = state.player(0)
    looked = state.looking[0]
    assert len(looked) == 3 and state.choice[0].kind == "vortex_pick"
    assert player.discard == [] and len(player.deck) == pool - 3
    state, _ = apply(state, 0, {"type": "choose", "option": 1})
    player = state.player(0)
    assert looked[1] in player.hand and sorted(player.discard) == sorted([looked[0], looked[2]])
    assert len(player.hand) == 2  # the Defense card and the card taken


def test_no_mana_vortex_offer_with_an_empty_hand() -> None:
    state = battle(
        [(0, "troglodytes", False, "B5"), (1, "skeletons", True, "L5")],
        heroes=("mutare", "catherine"),
        buildings={0: ["vortex"]},
    )
    assert 0 not in state.choice


# ------------------------------------------------- cards that stay out of play
@pytest.mark.rule(SETUP)
def test_pathfinding_is_never_dealt_diplomacy_and_logistics_neither() -> None:
    decks = load_content().decks
    for absent in ("pathfinding", "diplomacy", "logistics"):
        assert absent not in decks["ability"]
    for present in ("intelligence", "resistance", "luck", "eagle_eye", "ballista"):
        assert present in decks["ability"]
    assert "resurrection" in decks["spell"]
