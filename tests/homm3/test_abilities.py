"""Unit special abilities on the Battlefield (our readings of the card abilities, see
engine/homm3/README.md "Data invented")."""

from __future__ import annotations

import pytest

from engine.homm3 import combat_core as core
from engine.homm3.ruleset import settle
from tests.homm3.helpers import RULES, apply, attack_dice, battle, card, unit

COMBAT = "homm3bf:battlefield-combat.changes-to-combat-rules"


@pytest.mark.rule(COMBAT)
def test_pike_wall_turns_a_plus_one_into_zero() -> None:
    state = battle([(0, "crusaders", False, "E5"), (1, "halberdiers", True, "F5")], token=0)
    attack_dice(state, [1, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    result = next(e for e in events if e.kind == "attack_result")
    assert result.data["die"] == 0 and result.data["damage"] == 3 - 1


@pytest.mark.rule(COMBAT)
def test_twin_strike_attacks_twice() -> None:
    state = battle([(0, "crusaders", True, "E5"), (1, "zombies", True, "F5")], token=0)
    attack_dice(state, [0, 0, 0])  # attack, retaliation, second attack
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    results = [e for e in events if e.kind == "attack_result"]
    assert [r.data["attacker"] for r in results] == [1, 2, 1]


@pytest.mark.rule(COMBAT)
def test_jousting_adds_one_per_three_hexes_moved() -> None:
    state = battle([(0, "champions", True, "B5"), (1, "zombies", False, "H5")], token=0)
    attack_dice(state, [0])
    state, events = apply(state, 0, {"type": "attack", "target": 2, "hex": "G5"})
    result = next(e for e in events if e.kind == "attack_result")
    assert result.data["attack"] == 6 + 5 // 3


@pytest.mark.rule(COMBAT)
def test_life_drain_heals_the_vampires() -> None:
    state = battle(
        [(0, "vampires", False, "E5"), (1, "halberdiers", False, "L5")],
        token=0,
        heroes=("tamika", "catherine"),
    )
    unit(state, 1).damage = 2
    unit(state, 2).hex = "F5"
    attack_dice(state, [0])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    assert unit(state, 1).damage == 0  # 3 damage dealt, 2 healed


@pytest.mark.rule(COMBAT)
def test_disease_lowers_attack_once() -> None:
    state = battle(
        [(0, "zombies", False, "E5"), (1, "halberdiers", True, "F5")],
        token=1,
        heroes=("tamika", "catherine"),
    )
    state, _ = apply(state, 1, {"type": "defend"})
    attack_dice(state, [1, -1, -1])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    halberdiers = unit(state, 2)
    assert "diseased" in halberdiers.flags
    assert core.attack(state, halberdiers) == 3 - 1


@pytest.mark.rule(COMBAT)
def test_mana_drain_takes_an_expert_use() -> None:
    state = battle(
        [(0, "wraiths", False, "B5"), (1, "zombies", False, "L5")],
        token=0,
        level=4,
        heroes=("tamika", "catherine"),
    )
    assert state.player(1).experts == 1  # 2 at Level IV, one drained


@pytest.mark.rule(COMBAT)
def test_dread_presence_paralyses_an_adjacent_bronze_unit() -> None:
    state = battle(
        [
            (0, "ghost_dragons", False, "E5"),
            (1, "halberdiers", False, "F5"),
            (1, "crusaders", False, "E6"),
        ],
        token=0,
        heroes=("tamika", "catherine"),
    )
    assert unit(state, 2).paralysed and not unit(state, 3).paralysed


@pytest.mark.rule(COMBAT)
def test_sightless_troglodytes_cannot_be_paralysed() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "troglodytes", True, "L5")],
        hands={0: ["blind"]},
        heroes=("catherine", "mutare"),
    )
    state, events = apply(state, 0, {"type": "play", "card": card(state, 0, "blind"), "unit": 2})
    assert not unit(state, 2).paralysed and any("cannot be Paralysed" in e.text for e in events)


@pytest.mark.rule(COMBAT)
def test_harpies_fly_back() -> None:
    state = battle(
        [(0, "harpies", False, "B5"), (1, "zombies", False, "F5")],
        token=0,
        heroes=("mutare", "tamika"),
    )
    attack_dice(state, [0, -1])
    state, _ = apply(state, 0, {"type": "attack", "target": 2, "hex": "E5"})
    assert unit(state, 1).hex == "B5"


@pytest.mark.rule(COMBAT)
def test_spell_immune_dragons_take_no_fireball_damage() -> None:
    state = battle(
        [
            (0, "griffins", True, "B5"),
            (1, "black_dragons", False, "H5"),
            (1, "troglodytes", False, "H6"),
        ],
        hands={0: ["fireball"]},
        heroes=("catherine", "mutare"),
        token=1,
    )
    state, _ = apply(state, 1, {"type": "defend"})
    state, _ = apply(
        state, 0, {"type": "play", "card": card(state, 0, "fireball"), "hexes": ["H5", "H6"]}
    )
    assert unit(state, 2).damage == 0 and unit(state, 3).damage == 1


@pytest.mark.rule(COMBAT)
def test_guardian_wings_heal_adjacent_allies_at_round_end() -> None:
    state = battle(
        [
            (0, "archangels", False, "B5"),
            (0, "halberdiers", False, "B6"),
            (1, "zombies", False, "L5"),
        ],
        token=0,
    )
    unit(state, 2).damage = 1
    state, _ = apply(state, 0, {"type": "defend"})
    state, _ = apply(state, 0, {"type": "defend"})
    state, events = apply(state, 1, {"type": "defend"})
    assert unit(state, 2).damage == 0
    assert any("Guardian Wings" in e.text for e in events)


def test_death_cloud_spares_the_undead() -> None:
    state = battle(
        [
            (0, "liches", True, "B5"),
            (1, "halberdiers", False, "H5"),
            (1, "griffins", False, "H6"),
            (0, "skeletons", False, "I5"),
        ],
        token=0,
        heroes=("tamika", "catherine"),
        first_active=False,
    )
    unit(state, 4).activated = True
    settle(state)
    attack_dice(state, [0])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    assert unit(state, 3).damage == 1  # Griffins next to the target
    assert unit(state, 4).damage == 0  # Skeletons are Necropolis
    assert RULES.audit(state) == []
