"""A unit that falls outside its own attack's damage (a card played in an attack's window,
a Fire Shield during a Retaliation) leaves every open moment naming it, the game ends
where the last unit of a side falls, and the views of the finished game build (issue 21:
Frost Ring in the window defeated the attacker, the game was won, and the public view
failed on the attack window of the fallen unit)."""

from __future__ import annotations

import pytest

from engine.homm3 import audit
from engine.homm3.state import AttackWindow, Homm3State
from tests.homm3.helpers import RULES, apply, attack_dice, battle, card, unit

VICTORY = "homm3bf:skirmish-mode.victory-condition"
DECK = "homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic"


def _views_build(state: Homm3State) -> None:
    """The public view and every seat's view build, and the audit holds."""
    RULES.public_view(state)
    for seat in range(state.players):
        RULES.view(state, seat)
    assert RULES.audit(state) == []


def _frost_ring_in_the_window(extra: list[tuple[int, str, bool, str]]) -> Homm3State:
    """Red's Few of Skeletons [1] on F5 attacks Blue's Few of Zombies [2] on G5; Red passes
    the card window and Blue (Adelaide) holds Frost Ring VI with two cards to discard."""
    state = battle(
        [(0, "skeletons", False, "F5"), (1, "zombies", False, "G5"), *extra],
        hands={1: ["adelaide_6", "attack", "defense"]},
        heroes=("tamika", "adelaide"),
    )
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    owed = RULES.pending(state)[0]
    assert (owed.seat, owed.kind) == (1, "attack_window")
    return state


def _play_frost_ring(state: Homm3State) -> tuple[Homm3State, list[str]]:
    """Blue plays Frost Ring VI on E5 (next to the Skeletons on F5, not to the Zombies on
    G5), discarding Attack and Defense."""
    discard = [card(state, 1, "attack"), card(state, 1, "defense")]
    command = {"type": "play", "card": card(state, 1, "adelaide_6"), "hex": "E5"}
    state, events = apply(state, 1, {**command, "discard": discard})
    return state, [e.kind for e in events]


@pytest.mark.rule(VICTORY)
@pytest.mark.rule(DECK)
def test_frost_ring_in_the_window_defeats_the_attacker_and_wins() -> None:
    state = _frost_ring_in_the_window([])
    state, kinds = _play_frost_ring(state)
    # 2 damage on a Few of Skeletons (Health 2): it falls, and Red has no unit left.
    assert kinds[-3:] == ["damage", "defeated", "victory"]
    assert not unit(state, 1).alive and unit(state, 1).hex is None
    assert unit(state, 2).alive and unit(state, 2).damage == 0  # G5 is not next to E5
    assert state.phase == "over" and state.winners == [1]
    assert RULES.result(state).finished and RULES.result(state).winners == (1,)
    assert [state.cards[c] for c in state.player(1).discard] == ["adelaide_6", "attack", "defense"]
    combat = state.combat
    assert combat is not None and combat.stage == "over"
    assert (combat.window, combat.active, combat.reaction, combat.chooser) == (None,) * 4
    view = RULES.public_view(state)
    assert view.combat is not None and view.combat.window is None and view.combat.active is None
    assert view.winners == [1] and view.reason == "Blue has defeated every unit Red deployed."
    assert RULES.pending(state) == []
    _views_build(state)
    assert RULES.audit(RULES.load_state(RULES.dump_state(state))) == []


@pytest.mark.rule(DECK)
def test_frost_ring_defeating_the_attacker_drops_the_attack_and_the_game_goes_on() -> None:
    state = _frost_ring_in_the_window([(0, "zombies", False, "A1")])
    state, kinds = _play_frost_ring(state)
    assert "victory" not in kinds and state.phase == "combat"
    combat = state.combat
    assert combat is not None and combat.window is None
    assert combat.active != 1 and unit(state, 2).damage == 0  # no attack was made
    _views_build(state)


@pytest.mark.rule("homm3bf:battlefield-combat")
def test_medusas_defeated_by_fire_shield_in_their_retaliation_throw_no_gaze_die() -> None:
    # Red's Pack of Griffins [1] under Fire Shield (3 damage) attacks Blue's Few of Medusas
    # [2]: 3 + 0 - 1 = 2 damage; the Medusas retaliate, 3 + 0 - 0 = 3 damage, and suffer 3
    # from the Fire Shield: 5 damage on Health 4, they fall. Blue holds the Positive token,
    # which would be offered for a Stone Gaze die.
    state = battle(
        [(0, "griffins", True, "F5"), (1, "medusas", False, "G5"), (1, "zombies", False, "L9")],
        heroes=("catherine", "mutare"),
    )
    unit(state, 1).flags.append("fire_shield:3")
    state.player(1).positive_token = True
    attack_dice(state, [0, 0, 0])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    state, _ = apply(state, 1, {"type": "pass"})
    state, events = apply(state, 1, {"type": "pass"})
    # The Retaliation's two dice (the Ranged penalty next to the target), both +0: Blue
    # keeps them rather than spend the token.
    assert [e.data["value"] for e in events if e.kind == "die_roll"] == [0, 0]
    assert state.choice[1].kind == "reroll"
    state, events = apply(state, 1, {"type": "choose", "option": 0})
    assert not unit(state, 2).alive
    assert [e for e in events if e.kind == "die_roll"] == []  # no Stone Gaze die
    assert state.choice == {} and state.player(1).positive_token
    assert not unit(state, 1).paralysed and unit(state, 1).damage == 3
    owed = RULES.pending(state)[0]
    assert (owed.seat, owed.kind) == (1, "activation") and state.combat is not None
    assert state.combat.active == 3
    _views_build(state)


@pytest.mark.rule("homm3bf:battlefield-combat")
def test_the_audit_names_a_window_of_a_unit_no_longer_on_the_battlefield() -> None:
    state = _frost_ring_in_the_window([])
    assert RULES.audit(state) == []
    skeletons = unit(state, 1)
    skeletons.alive, skeletons.hex = False, None
    assert "the attack window's attacker [1] is not on the Battlefield" in RULES.audit(state)
    assert "the active unit [1] is not on the Battlefield" in RULES.audit(state)
    zombies = unit(state, 2)
    zombies.alive = False
    assert "the attack window's target [2] is not on the Battlefield" in audit.problems(state)


@pytest.mark.rule(VICTORY)
def test_the_audit_refuses_a_finished_combat_with_an_open_window() -> None:
    state = _frost_ring_in_the_window([])
    state, _ = _play_frost_ring(state)
    assert state.combat is not None
    state.combat.window = AttackWindow(attacker=1, target=2, priority=1)
    assert RULES.audit(state) == [
        "the attack window's attacker [1] is not on the Battlefield",
        "the Combat is over but an attack window is still open",
    ]
    # The view still describes it (a view never refuses; the audit is what fails).
    view = RULES.public_view(state).combat
    assert view is not None and view.window == "[1] Few of Skeletons attacks [2] Few of Zombies"


@pytest.mark.rule(VICTORY)
def test_a_game_stored_with_the_fallen_attackers_window_shows_again() -> None:
    # The state the engine used to store: the game won, the window of the fallen attacker
    # and its activation still open.
    state = _frost_ring_in_the_window([])
    state, _ = _play_frost_ring(state)
    stored = state.model_dump(mode="json")
    stored["combat"]["window"] = AttackWindow(attacker=1, target=2, priority=1).model_dump()
    stored["combat"]["active"] = 1
    loaded = RULES.load_state(stored)
    assert loaded.combat is not None and loaded.combat.window is None
    assert loaded.combat.active is None and loaded.winners == [1]
    _views_build(loaded)
