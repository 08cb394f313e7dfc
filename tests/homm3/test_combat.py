"""The Battlefield Combat rules (homm3bf:battlefield-combat and its changes to the core rules)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm3 import combat_attack, combat_flow, hexes
from engine.homm3 import combat_core as core
from tests.homm3.helpers import RULES, apply, attack_dice, battle, card, unit


def _active(state) -> int | None:  # type: ignore[no-untyped-def]
    return state.combat.active


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement")
def test_movement_equals_initiative() -> None:
    # Few of Halberdiers: Initiative 4 -> up to 4 hexes.
    state = battle([(0, "halberdiers", False, "B5"), (1, "zombies", False, "M1")])
    reach = combat_attack.reachable(state, unit(state, 1))
    assert max(hexes.distance("B5", h) for h in reach) == 4
    assert "F5" in reach and "G5" not in reach
    with pytest.raises(IllegalMove):
        apply(state, 0, {"type": "move", "hex": "G5"})
    state, _ = apply(state, 0, {"type": "move", "hex": "F5"})
    assert unit(state, 1).hex == "F5"


@pytest.mark.rule("homm3bf:battlefield-combat.place-obstacles")
def test_units_and_obstacles_block_ground_units_but_not_flying_ones() -> None:
    # A wall of units in column C: Halberdiers cannot pass, Griffins fly over.
    wall = [(1, "skeletons", False, f"C{r}") for r in range(1, 10)]
    state = battle([(0, "halberdiers", False, "B5"), *wall], token=0)
    assert all(hexes.column(h) <= 1 for h in combat_attack.reachable(state, unit(state, 1)))
    state = battle([(0, "griffins", False, "B5"), *wall], token=0)
    reach = combat_attack.reachable(state, unit(state, 1))
    assert "F5" in reach and "H5" in reach and "I5" not in reach  # Initiative 6


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units")
def test_ranged_units_move_or_attack_not_both() -> None:
    state = battle([(0, "marksmen", False, "A5"), (1, "zombies", False, "F5")])
    with pytest.raises(IllegalMove):
        apply(state, 0, {"type": "attack", "target": 2, "hex": "B5"})
    state, _ = apply(state, 0, {"type": "move", "hex": "B5"})
    assert state.combat is not None and state.combat.active != 1  # the move ended it


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units")
@pytest.mark.parametrize(("target_hex", "dice"), [("B5", 2), ("F5", 1), ("I5", 2)])
def test_ranged_penalty_adjacent_or_eight_hexes(target_hex: str, dice: int) -> None:
    # Marksmen on A5: an adjacent target (B5) or one 8+ hexes away (I5) means two dice.
    state = battle([(0, "marksmen", False, "A5"), (1, "zombies", False, target_hex)])
    assert hexes.distance("A5", target_hex) in (1, 5, 8)
    attack_dice(state, [1, -1] if dice == 2 else [1])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    shot = events[: next(i for i, e in enumerate(events) if e.kind == "attack_result")]
    rolls = [e for e in shot if e.kind == "die_roll" and e.data["purpose"] == "attack"]
    assert len(rolls) == dice
    result = next(e for e in events if e.kind == "attack_result")
    assert result.data["die"] == (-1 if dice == 2 else 1)


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.initiative-token")
def test_ties_alternate_from_the_token_holder_then_the_token_passes() -> None:
    # Two Red and one Blue unit at Initiative 4; Blue holds the token: Blue, Red, Red;
    # then the token passes to Red.
    units = [
        (0, "halberdiers", False, "B4"),
        (0, "skeletons", False, "B6"),
        (1, "troglodytes", False, "L5"),
    ]
    state = battle(units, token=1, heroes=("catherine", "mutare"))
    assert state.combat is not None
    assert state.combat.active == 3
    state, _ = apply(state, 1, {"type": "defend"})
    decision = RULES.pending(state)[0]
    assert decision.seat == 0 and decision.kind == "activate"
    state, _ = apply(state, 0, {"type": "activate", "unit": 2})
    state, _ = apply(state, 0, {"type": "defend"})
    assert state.combat.active == 1
    state, events = apply(state, 0, {"type": "defend"})
    assert any(e.kind == "initiative_token" for e in events)
    assert state.combat.token == 0


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.initiative-token")
def test_higher_initiative_first() -> None:
    state = battle([(0, "halberdiers", False, "B5"), (1, "griffins", False, "L5")], token=0)
    assert state.combat is not None and state.combat.active == 2


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules")
def test_core_combat_example_zombies_against_griffins() -> None:
    # Zombies +1 Attack card (2 -> 3) against Griffins +1 Defense card (0 -> 1); the die
    # rolls +1: 3 + 1 - 1 = 3 damage; Griffins (Health 4) are not flipped and retaliate.
    state = battle(
        [(0, "zombies", False, "E5"), (1, "griffins", True, "F5")],
        hands={0: ["attack"], 1: ["defense"]},
        heroes=("tamika", "catherine"),
        token=1,
    )
    assert state.combat is not None
    state, _ = apply(state, 1, {"type": "end_activation"})  # the Griffins (Initiative 9) go first
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "attack"), "unit": 1})
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    state, _ = apply(state, 1, {"type": "play", "card": card(state, 1, "defense"), "unit": 2})
    attack_dice(state, [1, 0])
    state, events = apply(state, 1, {"type": "pass"})
    result = next(e for e in events if e.kind == "attack_result")
    assert (result.data["attack"], result.data["defense"], result.data["damage"]) == (4, 1, 3)
    griffins = unit(state, 2)
    assert griffins.pack and griffins.damage == 3
    assert any(e.kind == "retaliation" for e in events)


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules")
def test_retaliation_once_per_round_and_griffins_every_time() -> None:
    state = battle(
        [
            (0, "crusaders", False, "E5"),
            (0, "halberdiers", False, "E6"),
            (1, "skeletons", False, "F5"),
        ],
        token=0,
    )
    attack_dice(state, [-1, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 3})
    assert any(e.kind == "retaliation" for e in events)
    state, _ = (
        apply(state, 0, {"type": "end_activation"}) if state.combat.active == 1 else (state, [])
    )
    # the Skeletons (Initiative 4) and the Halberdiers tie; whoever goes, a second attack
    # on the Skeletons this round brings no Retaliation
    while state.combat.active != 2:
        decision = RULES.pending(state)[0]
        if decision.kind == "activate":
            state, _ = apply(state, decision.seat, {"type": "activate", "unit": 2})
        else:
            state, _ = apply(state, decision.seat, {"type": "defend"})
    if unit(state, 3).alive:
        attack_dice(state, [-1])
        state, events = apply(state, 0, {"type": "attack", "target": 3})
        assert not any(e.kind == "retaliation" for e in events)
    griffin_state = battle(
        [
            (0, "halberdiers", False, "E5"),
            (0, "skeletons", False, "G5"),
            (1, "griffins", False, "F5"),
        ],
        token=1,
    )
    assert griffin_state.combat is not None and griffin_state.combat.active == 3
    assert core.ability(unit(griffin_state, 3)) == "unlimited_retaliation"


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units")
def test_a_shot_from_afar_brings_no_retaliation_one_next_to_the_target_does() -> None:
    state = battle([(0, "zealots", False, "B5"), (1, "halberdiers", False, "F5")], token=0)
    attack_dice(state, [0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert not any(e.kind == "retaliation" for e in events)
    # core: "if the defending unit was adjacent to the attacker, it retaliates"
    state = battle([(0, "zealots", False, "E5"), (1, "zombies", False, "F5")], token=0)
    attack_dice(state, [0, 0, 0])  # two dice (the penalty), then the Retaliation
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    results = [e.data for e in events if e.kind == "attack_result"]
    assert [r["attacker"] for r in results] == [1, 2]
    # Zealots 3 against Defense 1: 2 damage; Zombies 2 against Defense 1: 1 damage
    assert [r["damage"] for r in results] == [2, 1]


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules")
def test_defend_token_adds_one_on_a_plus_one() -> None:
    state = battle(
        [(0, "skeletons", False, "E5"), (1, "crusaders", False, "F5")],
        token=1,
        heroes=("tamika", "catherine"),
    )
    state, _ = apply(state, 1, {"type": "defend"})
    assert unit(state, 2).defending
    attack_dice(state, [1, 1])  # the attack +1, the Defense token roll +1
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    result = next(e for e in events if e.kind == "attack_result")
    assert result.data["defense"] == 2 + 1
    assert result.data["damage"] == max(0, 2 + 1 - 3)


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules")
def test_paralysed_unit_skips_its_activation() -> None:
    state = battle(
        [(0, "skeletons", False, "B5"), (1, "zombies", False, "L5")], token=0, first_active=False
    )
    unit(state, 1).paralysed = True
    from engine.homm3.ruleset import settle

    events = settle(state)
    assert any(e.kind == "paralysis" for e in events)
    assert unit(state, 1).activated and not unit(state, 1).paralysed
    assert state.combat is not None and state.combat.active == 2


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic")
def test_round_end_draws_two_and_regains_one_expert() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "zombies", False, "L5")], token=0, level=6, experts=1
    )
    before = [len(p.hand) for p in state.seats]
    state, _ = apply(state, 0, {"type": "defend"})
    state, events = apply(state, 1, {"type": "defend"})
    assert any(e.kind == "combat_round_end" for e in events)
    assert [len(p.hand) for p in state.seats] == [n + 2 for n in before]
    assert state.player(0).experts == 2  # regained one, limit 3 at Level VI
    assert state.combat is not None and state.combat.round == 2


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic")
def test_expert_uses_are_limited() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "zombies", False, "L5")],
        hands={0: ["attack", "attack"]},
        level=2,
        experts=1,
    )
    first, second = state.player(0).hand
    state, _ = apply(state, 0, {"type": "play", "card": first, "option": 1, "unit": 1})
    assert core.attack(state, unit(state, 1)) == 2 + 2
    with pytest.raises(IllegalMove):
        apply(state, 0, {"type": "play", "card": second, "option": 1, "unit": 1})


@pytest.mark.rule("homm3bf:adventure-mode.victory-condition")
def test_defeating_every_deployed_unit_wins() -> None:
    state = battle([(0, "champions", True, "E5"), (1, "skeletons", False, "F5")], token=0)
    attack_dice(state, [1])
    state, _events = apply(state, 0, {"type": "attack", "target": 2})
    result = RULES.result(state)
    assert result.finished and result.winners == (0,)
    assert "defeated every unit" in result.reason


def test_pack_flips_to_few_with_the_excess_damage() -> None:
    state = battle([(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")])
    skeletons = unit(state, 2)
    events = core.deal_damage(state, skeletons, 3, "test")
    assert not skeletons.pack and skeletons.damage == 1 and skeletons.alive
    assert [e.kind for e in events] == ["damage", "flip"]


@pytest.mark.rule("homm3bf:battlefield-combat.place-units")
def test_deploy_first_unit_chooses_the_zone() -> None:
    from tests.homm3.helpers import answer_choices, new

    state = answer_choices(new(heroes=("catherine", "deemer")))
    assert state.combat is not None
    first = state.combat.placing
    state, _ = apply(state, first, {"type": "pass_obstacles"})
    state, _ = apply(state, 1 - first, {"type": "pass_obstacles"})
    assert state.combat.stage == "deploy" and state.combat.placing == first
    mine = combat_flow.undeployed(state, first)[0]
    state, _ = apply(state, first, {"type": "deploy", "unit": mine.number, "hex": "M3"})
    assert state.combat.zones == {first: "east", 1 - first: "west"}
    theirs = combat_flow.undeployed(state, 1 - first)[0]
    with pytest.raises(IllegalMove):
        apply(state, 1 - first, {"type": "deploy", "unit": theirs.number, "hex": "L4"})
    state, _ = apply(state, 1 - first, {"type": "deploy", "unit": theirs.number, "hex": "A4"})
    assert state.combat.placing == first


@pytest.mark.rule("homm3bf:battlefield-combat.place-obstacles")
def test_obstacles_keep_away_from_zones_and_each_other() -> None:
    from tests.homm3.helpers import answer_choices, new

    state = answer_choices(new(heroes=("catherine", "deemer")))
    assert state.combat is not None
    seat = state.combat.placing
    with pytest.raises(IllegalMove):
        apply(state, seat, {"type": "place_obstacle", "token": 1, "hex": "C5"})  # next to B5
    state, _ = apply(state, seat, {"type": "place_obstacle", "token": 1, "hex": "E5"})
    assert state.combat.placing == 1 - seat
    with pytest.raises(IllegalMove):
        apply(state, 1 - seat, {"type": "place_obstacle", "token": 2, "hex": "F5"})  # next to E5
    state, _ = apply(state, 1 - seat, {"type": "place_obstacle", "token": 2, "hex": "H5"})
    state, _ = apply(state, seat, {"type": "pass_obstacles"})
    assert state.combat.stage == "obstacles"
    state, _ = apply(state, 1 - seat, {"type": "pass_obstacles"})
    assert state.combat.stage == "deploy"
