"""Might & Magic cards in the Battlefield Combat: Spells, Empower, the one-Spell limit,
Statistic and Ability cards, Artifacts and Specialties."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, InvalidInput
from engine.homm3 import combat_attack
from engine.homm3 import combat_core as core
from tests.homm3.helpers import RULES, apply, attack_dice, battle, card, unit


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic")
def test_magic_arrow_empowered_by_two_flips_a_pack_of_skeletons() -> None:
    # The core example: Magic Arrow empowered by 2 (one Power card's Expert effect) deals 3
    # damage ignoring Defense; the Pack of Skeletons (Health 2) turns to Few with 1 damage.
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["magic_arrow", "power"]},
        level=2,
    )
    arrow, power = card(state, 0, "magic_arrow"), card(state, 0, "power")
    state, _events = apply(
        state,
        0,
        {"type": "play", "card": arrow, "unit": 2, "power": [power], "power_expert": [power]},
    )
    skeletons = unit(state, 2)
    assert not skeletons.pack and skeletons.damage == 1
    assert state.player(0).experts == 0
    assert sorted(state.cards[c] for c in state.player(0).discard) == ["magic_arrow", "power"]


def test_empower_needs_enough_power_for_implosion() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["implosion", "power"]},
    )
    implosion = card(state, 0, "implosion")
    with pytest.raises(IllegalMove, match="at least 1 Empower"):
        apply(state, 0, {"type": "play", "card": implosion, "unit": 2})
    power = card(state, 0, "power")
    state, _ = apply(state, 0, {"type": "play", "card": implosion, "unit": 2, "power": [power]})
    skeletons = unit(state, 2)  # 2 damage: the Pack (Health 2) flips to Few, nothing carried
    assert skeletons.alive and not skeletons.pack and skeletons.damage == 0


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic")
def test_one_spell_per_combat_round_and_knowledge_expert_adds_one() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "crusaders", True, "L5")],
        hands={0: ["magic_arrow", "lightning_bolt", "knowledge"]},
        level=2,
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})
    with pytest.raises(IllegalMove, match="already cast"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "lightning_bolt"), "unit": 2})
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "knowledge"), "option": 1})
    assert "magic_arrow" in [state.cards[c] for c in state.player(0).hand]  # back in hand
    state, _ = apply(
        state, 0, {"type": "play", "card": card(state, 0, "lightning_bolt"), "unit": 2}
    )
    assert unit(state, 2).damage == 1 + 2


def test_spent_spell_discarded_for_empower_and_spell_immunity() -> None:
    state = battle(
        [
            (0, "griffins", True, "B5"),
            (1, "black_dragons", True, "L5"),
            (1, "troglodytes", False, "L6"),
        ],
        hands={0: ["lightning_bolt", "slow"]},
        heroes=("catherine", "mutare"),
        token=1,
    )
    state, _ = apply(state, 1, {"type": "defend"})  # the Black Dragons (15) act first
    bolt, slow = card(state, 0, "lightning_bolt"), card(state, 0, "slow")
    with pytest.raises(IllegalMove, match="immune"):
        apply(state, 0, {"type": "play", "card": bolt, "unit": 2})
    state, _ = apply(state, 0, {"type": "play", "card": bolt, "unit": 3, "power": [slow]})
    assert not unit(state, 3).alive  # 3 damage (level 1) against Health 2


def test_activation_spells_only_before_the_unit_attacks() -> None:
    state = battle(
        [(0, "crusaders", False, "E5"), (1, "skeletons", True, "F5")],
        hands={0: ["magic_arrow", "attack"]},
        token=0,
    )
    attack_dice(state, [-1, -1])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    assert state.combat is not None and state.combat.active == 1
    with pytest.raises(IllegalMove, match=r"before it attacks|Instant"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})


def test_fire_wall_burns_a_ground_unit_passing_through() -> None:
    state = battle(
        [(0, "halberdiers", False, "B5"), (1, "zombies", True, "G5")],
        hands={0: ["fire_wall"]},
        token=0,
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "fire_wall"), "hex": "D5"})
    state, _ = apply(state, 0, {"type": "defend"})
    assert state.combat is not None and state.combat.active == 2
    reach = combat_attack.reachable(state, unit(state, 2))
    assert reach["D5"] == 1 and reach["E5"] == 0
    state, events = apply(state, 1, {"type": "move", "hex": "D5"})
    assert any(e.kind == "damage" and "Fire Wall" in e.text for e in events)
    assert unit(state, 2).damage == 1


def test_blind_reaches_higher_tiers_with_more_empower() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "crusaders", False, "L5")],
        hands={0: ["blind", "power"]},
    )
    blind = card(state, 0, "blind")
    with pytest.raises(IllegalMove, match="Bronze"):
        apply(state, 0, {"type": "play", "card": blind, "unit": 2})
    state, _ = apply(
        state, 0, {"type": "play", "card": blind, "unit": 2, "power": [card(state, 0, "power")]}
    )
    assert unit(state, 2).paralysed


def test_attack_bonus_lasts_until_the_first_attack_resolves() -> None:
    state = battle(
        [(0, "crusaders", False, "E5"), (1, "skeletons", False, "F5")],
        hands={0: ["attack"]},
        token=0,
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "attack"), "unit": 1})
    assert core.attack(state, unit(state, 1)) == 4
    attack_dice(state, [0, 0])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    assert core.attack(state, unit(state, 1)) == 3


def test_specialty_doubles_for_its_unit() -> None:
    state = battle(
        [
            (0, "crusaders", False, "B5"),
            (0, "halberdiers", False, "B6"),
            (1, "zombies", False, "L5"),
        ],
        hands={0: ["catherine_1", "catherine_1"]},
    )
    first, second = state.player(0).hand
    state, _ = apply(state, 0, {"type": "play", "card": first, "unit": 1})
    assert core.attack(state, unit(state, 1)) == 3 + 2
    state, _ = apply(state, 0, {"type": "play", "card": second, "option": 1, "unit": 2})
    assert core.defense(state, unit(state, 2)) == 1 + 1


def test_unknown_option_and_card_not_in_hand() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "zombies", False, "L5")], hands={0: ["attack"]}
    )
    with pytest.raises(InvalidInput):
        apply(state, 0, {"type": "play", "card": 99999, "unit": 1})
    with pytest.raises(InvalidInput, match="no option 2"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "attack"), "option": 2, "unit": 1})
    with pytest.raises(IllegalMove, match="own units"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "attack"), "unit": 2})


def test_legal_card_commands_are_all_accepted() -> None:
    hand = [
        "magic_arrow",
        "fireball",
        "frost_ring",
        "cure",
        "prayer",
        "teleport",
        "haste",
        "stone_skin",
        "power",
        "offense",
        "dragon_scale_armor",
    ]
    state = battle(
        [
            (0, "griffins", True, "E5"),
            (0, "crusaders", False, "E6"),
            (1, "zombies", False, "F5"),
            (1, "skeletons", True, "F6"),
        ],
        hands={0: hand},
        level=4,
        token=0,
    )
    plays = [c for c in RULES.legal_commands(state, 0) if c.type == "play"]
    assert len(plays) > 20
    for command in plays:
        apply(state, 0, command)  # none raises


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic")
def test_playing_a_card_not_in_hand_names_the_hand_cards_to_choose_from() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["magic_arrow", "power"], 1: ["fireball"]},
    )
    arrow, power = card(state, 0, "magic_arrow"), card(state, 0, "power")
    fireball = card(state, 1, "fireball")
    with pytest.raises(InvalidInput) as refused:
        apply(state, 0, {"type": "play", "card": fireball, "unit": 2})
    assert refused.value.message == (
        f"#{fireball} is not in your hand; your hand: Magic Arrow #{arrow}, Power #{power}."
    )
