"""Unit special abilities on the Battlefield: the abilities printed on the core units' Few
and Pack sides (the card database's unit list), in our words (engine/homm3/data/units.toml).
Each test plays the ability with forced dice and checks the exact numbers."""

from __future__ import annotations

import pytest

from engine.homm3 import combat_flow, zones
from engine.homm3.ruleset import settle
from engine.homm3.state import ArmyUnit, Homm3State
from tests.homm3.helpers import RULES, apply, attack_dice, battle, card, new, unit

COMBAT = "homm3bf:battlefield-combat.changes-to-combat-rules"


def _pass_windows(state: Homm3State) -> Homm3State:
    """Pass every card window before an attack until something else is owed."""
    while not RULES.result(state).finished:
        decision = RULES.pending(state)[0]
        if decision.kind != "attack_window":
            return state
        state, _ = apply(state, decision.seat, {"type": "pass"})
    return state


def _results(events: list) -> list[dict]:  # type: ignore[type-arg]
    return [e.data for e in events if e.kind == "attack_result"]


@pytest.mark.rule(COMBAT)
@pytest.mark.parametrize(("brace", "damage"), [(True, 3 + 0 - 1), (False, 3 + 1 - 1)])
def test_braced_pikes_discard_a_card_to_make_a_plus_one_count_as_zero(
    brace: bool, damage: int
) -> None:
    state = battle(
        [(0, "crusaders", False, "E5"), (1, "halberdiers", True, "F5")],
        token=0,
        hands={1: ["attack"]},
    )
    attack_dice(state, [1, 0])  # the attack, the Retaliation
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    state = _pass_windows(state)
    choice = state.choice[1]
    assert choice.kind == "braced_pikes" and choice.private
    assert choice.options == ["Keep the die at +1", f"Discard Attack #{card(state, 1, 'attack')}"]
    state, events = apply(state, 1, {"type": "choose", "option": 1 if brace else 0})
    state = _pass_windows(state)
    first = _results(events)[0]
    assert first["die"] == (0 if brace else 1) and first["damage"] == damage
    assert len(state.player(1).hand) == (0 if brace else 1)


@pytest.mark.rule(COMBAT)
def test_double_shot_twice_at_a_distant_target_once_next_to_it() -> None:
    state = battle([(0, "marksmen", True, "B5"), (1, "zombies", False, "H5")], token=0)
    attack_dice(state, [0, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert [r["attacker"] for r in _results(events)] == [1, 1]
    assert unit(state, 2).damage == 2  # 2 - 1 Defense, twice
    state = battle([(0, "marksmen", True, "G5"), (1, "zombies", False, "H5")], token=0)
    attack_dice(state, [0, 0, 0])  # two dice (the penalty next to the target), Retaliation
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert [r["attacker"] for r in _results(events)] == [1, 2]  # one shot, then Retaliation


@pytest.mark.rule(COMBAT)
def test_crusade_rerolls_a_zero_and_rotting_hide_answers_a_plus_one() -> None:
    state = battle([(0, "crusaders", True, "E5"), (1, "zombies", False, "F5")], token=0)
    attack_dice(state, [0, 1])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    choice = state.choice[0]
    assert choice.kind == "reroll" and choice.options == ["Keep +0", "Reroll (+0) with Crusade"]
    state, events = apply(state, 0, {"type": "choose", "option": 1})
    result = _results(events)[0]
    # Attack 4 + 1 against Defense 1 + 1 (Rotting Hide on a +1): 3 damage kills the Few
    assert (result["attack"], result["defense"], result["damage"]) == (5, 2, 3)
    assert not unit(state, 2).alive


@pytest.mark.rule(COMBAT)
def test_rotting_hide_of_a_pack_answers_a_zero_too() -> None:
    state = battle([(0, "skeletons", False, "E5"), (1, "zombies", True, "F5")], token=1)
    state, _ = apply(state, 1, {"type": "defend"})  # the Zombies (4) act first
    attack_dice(state, [0, 0])  # the attack, the Defense token's die
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    result = _results(events)[0]
    assert (result["attack"], result["defense"], result["damage"]) == (2, 2, 0)


@pytest.mark.rule(COMBAT)
def test_charge_rerolls_one_die_after_moving() -> None:
    state = battle([(0, "champions", True, "B5"), (1, "zombies", False, "H5")], token=0)
    attack_dice(state, [-1, -1])
    state, _ = apply(state, 0, {"type": "attack", "target": 2, "hex": "G5"})
    assert state.choice[0].options == ["Keep -1", "Reroll (-1) with Charge"]
    state, events = apply(state, 0, {"type": "choose", "option": 1})
    assert 0 not in state.choice  # Charge rerolls once
    result = _results(events)[0]
    assert (result["die"], result["attack"], result["damage"]) == (-1, 5, 4)
    state = battle([(0, "champions", True, "G5"), (1, "zombies", False, "H5")], token=0)
    attack_dice(state, [-1])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    assert 0 not in state.choice  # no move, no Charge


@pytest.mark.rule("homm3bf:battlefield-combat.draw-cards")
def test_herald_of_light_draws_a_card_when_the_combat_begins() -> None:
    state = new(mode="adventure", heroes=("catherine", "tamika"))
    state.player(0).army = [ArmyUnit(unit="archangels", pack=False)]
    state.player(1).army = [ArmyUnit(unit="skeletons", pack=False)]
    for player in state.seats:
        player.deck += [zones.new_instance(state, "attack") for _ in range(3)]
    events = combat_flow.begin(state)
    assert [len(p.hand) for p in state.seats] == [4 + 1, 4]
    assert any(e.text == "Herald of Light: Red draws 1 card." for e in events)


@pytest.mark.rule(COMBAT)
def test_guardian_angel_cancels_one_lethal_attack_per_combat() -> None:
    state = battle(
        [
            (0, "crusaders", False, "E5"),
            (1, "halberdiers", False, "F5"),
            (1, "archangels", True, "L5"),
        ],
        token=0,
    )
    state, _ = apply(state, 1, {"type": "defend"})  # the Archangels (18) act first
    attack_dice(state, [0, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert state.choice[1].kind == "guardian_angel"
    assert _results(events)[0]["damage"] == 2  # Attack 3 - Defense 1: the Few would fall
    state, events = apply(state, 1, {"type": "choose", "option": 0})
    assert unit(state, 2).alive and unit(state, 2).damage == 0
    assert "angel_used" in unit(state, 3).flags
    assert [r["attacker"] for r in _results(events)] == [2]  # it still retaliates


@pytest.mark.rule(COMBAT)
def test_regeneration_and_haunting_when_the_wraiths_activate() -> None:
    state = battle(
        [(0, "wraiths", True, "B5"), (1, "zombies", False, "L5")],
        token=0,
        hands={1: ["attack", "defense", "power"]},
        heroes=("tamika", "catherine"),
        first_active=False,
    )
    unit(state, 1).damage = 2
    events = settle(state)
    assert unit(state, 1).damage == 1
    assert len(state.player(1).hand) == 2 and len(state.player(1).discard) == 1
    assert any(e.kind == "die_roll" for e in events)  # the random card is rolled for


@pytest.mark.rule(COMBAT)
def test_vampires_bring_no_retaliation_and_a_pack_feasts() -> None:
    state = battle(
        [(0, "vampires", True, "E5"), (1, "zombies", True, "F5")],
        token=0,
        heroes=("tamika", "catherine"),
    )
    unit(state, 1).damage = 3
    attack_dice(state, [0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert [r["attacker"] for r in _results(events)] == [1]
    assert any("cannot retaliate" in e.text for e in events)
    assert unit(state, 1).damage == 1  # Blood Feast removes 2


@pytest.mark.rule(COMBAT)
def test_death_cloud_strikes_a_unit_next_to_the_target_with_attack_two() -> None:
    state = battle(
        [
            (0, "liches", True, "B5"),
            (1, "halberdiers", False, "H5"),
            (1, "griffins", False, "H6"),
            (0, "skeletons", False, "I5"),
        ],
        token=0,
        heroes=("tamika", "catherine"),
    )
    attack_dice(state, [0, 0])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    choice = state.choice[0]
    assert choice.kind == "death_cloud"
    assert choice.options == [
        "Attack no other unit",
        "Attack [3] Few of Griffins on H6",
        "Attack [4] Few of Skeletons on I5",
    ]
    state, events = apply(state, 0, {"type": "choose", "option": 1})
    result = _results(events)[0]
    assert (result["target"], result["attack"], result["damage"]) == (3, 2, 2)
    assert unit(state, 4).damage == 0
    assert RULES.audit(state) == []


@pytest.mark.rule(COMBAT)
def test_dread_makes_the_retaliation_keep_the_lower_of_two_dice() -> None:
    state = battle(
        [(0, "dread_knights", False, "E5"), (1, "zombies", True, "F5")],
        token=0,
        heroes=("tamika", "catherine"),
    )
    attack_dice(state, [-1, 1, -1])  # the attack; the Retaliation's two dice
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    results = _results(events)
    assert [r["attacker"] for r in results] == [1, 2]
    assert results[1]["die"] == -1
    assert any(e.text.startswith("Dread:") for e in events)


@pytest.mark.rule(COMBAT)
@pytest.mark.parametrize(("die", "attack"), [(-1, 5), (0, 7), (1, 8)])
def test_cursed_blade_adds_one_on_zero_or_plus_one(die: int, attack: int) -> None:
    state = battle(
        [(0, "dread_knights", True, "E5"), (1, "crusaders", False, "F5")],
        token=0,
        heroes=("tamika", "catherine"),
    )
    attack_dice(state, [die, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert _results(events)[0]["attack"] == attack


@pytest.mark.rule(COMBAT)
def test_terror_takes_a_positive_morale_card_and_terror_strike_adds_one() -> None:
    state = battle(
        [(0, "ghost_dragons", True, "E5"), (1, "crusaders", False, "F5")],
        token=0,
        heroes=("tamika", "catherine"),
        first_active=False,
    )
    positive = zones.new_instance(state, "second_wind")
    state.player(1).positive.append(positive)
    settle(state)
    assert not state.player(1).positive and state.positive_deck[-1] == positive
    attack_dice(state, [-1, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    result = _results(events)[0]
    assert (result["die"], result["attack"]) == (0, 7)


@pytest.mark.rule(COMBAT)
@pytest.mark.parametrize(
    ("pack", "dice", "paralysed"),
    [(False, [0, 0, 0, 0], True), (False, [0, 0, 0, 1], False), (True, [0, 0], True)],
)
def test_medusas_gaze_when_they_retaliate(pack: bool, dice: list[int], paralysed: bool) -> None:
    state = battle(
        [(0, "crusaders", False, "E5"), (1, "medusas", pack, "F5")],
        token=0,
        heroes=("catherine", "mutare"),
    )
    if pack:  # the Pack (6) acts first
        state, _ = apply(state, 1, {"type": "end_activation"})
    # the attack; the Retaliation (two dice for a Few: it shoots an adjacent unit); Stone
    # Gaze's die (Few)
    attack_dice(state, dice)
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert [r["attacker"] for r in _results(events)] == [1, 2]
    assert unit(state, 1).paralysed is paralysed


@pytest.mark.rule(COMBAT)
def test_fury_draws_a_card_on_a_minus_one() -> None:
    state = battle(
        [(0, "minotaurs", False, "E5"), (1, "halberdiers", False, "L5")],
        token=0,
        heroes=("mutare", "catherine"),
    )
    unit(state, 2).hex = "F5"
    before = len(state.player(0).hand) + len(state.player(0).deck)
    hand = len(state.player(0).hand)
    attack_dice(state, [-1, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert any(e.text == "Fury: Red draws a card." for e in events)
    assert len(state.player(0).hand) == hand + 1
    assert len(state.player(0).hand) + len(state.player(0).deck) == before


@pytest.mark.rule(COMBAT)
def test_piercing_sting_ignores_the_printed_defense() -> None:
    state = battle(
        [(0, "manticores", True, "E5"), (1, "crusaders", False, "F5")],
        token=0,
        heroes=("mutare", "catherine"),
    )
    attack_dice(state, [0, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    result = _results(events)[0]
    assert (result["attack"], result["defense"], result["damage"]) == (5, 0, 5)


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
def test_harpies_fly_back_and_a_pack_takes_no_retaliation() -> None:
    state = battle(
        [(0, "harpies", False, "B5"), (1, "zombies", False, "F5")],
        token=0,
        heroes=("mutare", "tamika"),
    )
    attack_dice(state, [0, -1])
    state, events = apply(state, 0, {"type": "attack", "target": 2, "hex": "E5"})
    assert unit(state, 1).hex == "B5"
    assert [r["attacker"] for r in _results(events)] == [1, 2]
    state = battle(
        [(0, "harpies", True, "B5"), (1, "zombies", True, "F5")],
        token=0,
        heroes=("mutare", "tamika"),
    )
    attack_dice(state, [0])
    state, events = apply(state, 0, {"type": "attack", "target": 2, "hex": "E5"})
    assert unit(state, 1).hex == "B5"
    assert [r["attacker"] for r in _results(events)] == [1]


@pytest.mark.rule(COMBAT)
def test_black_dragons_magic_immunity_and_dragon_hide() -> None:
    state = battle(
        [
            (0, "griffins", True, "B5"),
            (1, "black_dragons", True, "H5"),
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
    state = battle(
        [(0, "griffins", True, "B5"), (1, "black_dragons", False, "H5")],
        hands={0: ["lightning_bolt"]},
        heroes=("catherine", "mutare"),
        token=1,
        level=7,
    )
    state, _ = apply(state, 1, {"type": "defend"})
    bolt = card(state, 0, "lightning_bolt")
    state, events = apply(state, 0, {"type": "play", "card": bolt, "unit": 2})
    assert unit(state, 2).damage == 0  # 2 damage, 2 less
    assert any("takes no damage" in e.text for e in events)
