"""The Siege on the Battlefield (homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege),
used for the final Combat with the ``siege`` option."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm3 import combat_attack, combat_flow
from engine.homm3 import combat_core as core
from engine.homm3.state import CombatUnit, Placed
from tests.homm3.helpers import answer_choices, apply, attack_dice, battle, new, unit

SIEGE = "homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege"


def _walls() -> list[Placed]:
    return [
        Placed(token=1, kind="wall", name="Wall", hexes=["G1", "G2"]),
        Placed(token=2, kind="wall", name="Wall", hexes=["G3", "G4"]),
        Placed(token=3, kind="gate", name="Gate", hexes=["G5"]),
        Placed(token=4, kind="wall", name="Wall", hexes=["G6", "G7"]),
        Placed(token=5, kind="wall", name="Wall", hexes=["G8", "G9"]),
    ]


@pytest.mark.rule(SIEGE)
def test_siege_setup_places_only_walls_and_gate_and_the_tower() -> None:
    state = answer_choices(new(heroes=("catherine", "mutare"), siege=True))
    combat = state.combat
    assert combat is not None and combat.stage == "deploy" and not combat.pool
    assert [(p.kind, p.hexes) for p in combat.placed] == [(p.kind, p.hexes) for p in _walls()]
    assert combat.siege == 1 - state.first
    tower = core.get_unit(state, combat.tower or 0)
    assert tower.unit == core.TOWER and tower.seat == combat.siege and tower.hex is None
    assert core.base(tower) == (4, 2, 3, 9)


def _siege(units, token=0):  # type: ignore[no-untyped-def]
    state = battle(units, token=token, first_active=False)
    assert state.combat is not None
    state.combat.siege = 1
    state.combat.placed = _walls()
    from engine.homm3.ruleset import settle

    settle(state)
    return state


@pytest.mark.rule(SIEGE)
def test_defenders_pass_the_gate_attackers_do_not() -> None:
    state = _siege([(0, "halberdiers", False, "F5"), (1, "skeletons", False, "H5")], token=1)
    skeletons = unit(state, 2)
    assert state.combat is not None and state.combat.active == 2
    reach = combat_attack.reachable(state, skeletons)
    assert "G5" in reach and "F6" in reach  # through the Gate
    halberdiers = unit(state, 1)
    assert "H5" not in combat_attack.reachable(state, halberdiers)
    assert "G5" not in combat_attack.reachable(state, halberdiers)


@pytest.mark.rule(SIEGE)
def test_an_adjacent_attack_destroys_a_wall_and_the_tower_falls_with_the_last() -> None:
    state = _siege([(0, "crusaders", False, "F3"), (1, "skeletons", False, "L5")], token=0)
    assert state.combat is not None
    state.combat.units.append(
        CombatUnit(number=3, seat=1, unit=core.TOWER, pack=False, activated=True)
    )
    state.combat.tower = 3
    state.combat.placed = [p for p in state.combat.placed if p.token in (2, 3)]
    state, events = apply(state, 0, {"type": "attack_wall", "hex": "G3"})
    assert [p.kind for p in state.combat.placed] == ["gate"]
    assert any(e.kind == "wall" for e in events) and unit(state, 3).alive
    state.combat.placed = []
    state.combat.placed.append(Placed(token=3, kind="gate", name="Gate", hexes=["G5"]))
    state.combat.active = 1
    unit(state, 1).hex = "F5"
    unit(state, 1).activated = False
    state, events = apply(state, 0, {"type": "attack_wall", "hex": "G5"})
    assert not unit(state, 3).alive
    assert any("Arrow Tower falls" in e.text for e in events)


@pytest.mark.rule(SIEGE)
def test_ranged_units_cannot_break_walls() -> None:
    state = _siege([(0, "marksmen", False, "F3"), (1, "skeletons", False, "L5")], token=0)
    with pytest.raises(IllegalMove, match="Ground or Flying"):
        apply(state, 0, {"type": "attack_wall", "hex": "G3"})


@pytest.mark.rule(SIEGE)
def test_walls_protect_defenders_from_ranged_attacks() -> None:
    state = _siege([(0, "zealots", False, "C5"), (1, "skeletons", False, "J5")], token=0)
    attack_dice(state, [1])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    result = next(e for e in events if e.kind == "attack_result")
    assert result.data["damage"] == 3 + 1 - 1 - 1  # the Wall takes 1
    assert "Wall protects" in result.text


def test_siege_deploy_starts_without_obstacles() -> None:
    state = answer_choices(new(heroes=("catherine", "mutare"), siege=True))
    assert state.combat is not None
    first = state.combat.placing
    number = combat_flow.undeployed(state, first)[0].number
    state, _ = apply(state, first, {"type": "deploy", "unit": number, "hex": "A5"})
    assert state.combat.zones[first] == "west"


@pytest.mark.rule(SIEGE)
def test_the_arrow_tower_falls_only_to_ranged_attacks_and_cards() -> None:
    from tests.homm3.helpers import card

    state = battle(
        [
            (0, "crusaders", False, "F5"),
            (0, "marksmen", False, "B5"),
            (1, "skeletons", False, "L5"),
        ],
        hands={0: ["lightning_bolt"]},
        token=0,
        first_active=False,
    )
    assert state.combat is not None
    state.combat.siege = 1
    state.combat.units.append(
        CombatUnit(number=4, seat=1, unit=core.TOWER, pack=False, activated=True)
    )
    state.combat.tower = 4
    from engine.homm3.ruleset import settle

    settle(state)
    assert state.combat.active == 1
    assert unit(state, 4) not in combat_attack.targets(state, unit(state, 1), None)
    state, _ = apply(
        state, 0, {"type": "play", "card": card(state, 0, "lightning_bolt"), "unit": 4}
    )
    assert unit(state, 4).damage == 2
    state, _ = apply(state, 0, {"type": "defend"})
    assert state.combat is not None and state.combat.active == 2
    assert unit(state, 4) in combat_attack.targets(state, unit(state, 2), None)
