"""Rerolling dice: the Positive Morale token "reroll any Die you have thrown"
(homm3turn:spending-positive-morale; the tokens stand in when a Morale deck is empty,
homm3bf:...morale-decks-in-regular-games) and the Luck Ability (its Expert effect: each
die you throw this Combat round may be rerolled once; its basic effect's Treasure and
Resource dice are never thrown in Combat)."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalMove
from engine.homm3 import dice
from tests.homm3.helpers import (
    ATTACK_FACE,
    RULES,
    apply,
    attack_dice,
    battle,
    card,
    force_dice,
    new,
    play_until,
    unit,
)

SPEND = "homm3turn:spending-positive-morale"
COMBAT = "homm3bf:battlefield-combat.changes-to-combat-rules"


def _result(events):  # type: ignore[no-untyped-def]
    return [e.data for e in events if e.kind == "attack_result"]


@pytest.mark.rule(SPEND)
def test_the_defender_rerolls_its_defense_die_with_the_token() -> None:
    # Red (Necropolis) attacks; Blue's Halberdiers Defend and Blue holds the token.
    state = battle(
        [(0, "skeletons", False, "E5"), (1, "halberdiers", False, "F5")],
        heroes=("tamika", "catherine"),
        token=0,
    )
    unit(state, 2).defending = True
    state.player(0).positive_token = True  # Necropolis ignores Morale: never offered
    state.player(1).positive_token = True
    attack_dice(state, [0, -1, 1, 0])  # attack 0, Defense die -1, reroll +1, Retaliation 0
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    state, _ = apply(state, 1, {"type": "pass"})  # the token may be used: Blue is asked
    choice = state.choice[1]
    assert choice.kind == "reroll" and choice.options == [
        "Keep -1",
        "Reroll (-1) with the Positive Morale token",
    ]
    assert 0 not in state.choice
    state, events = apply(state, 1, {"type": "choose", "option": 1})
    first = _result(events)[0]
    assert (first["attack"], first["defense"], first["damage"]) == (2, 1 + 1, 0)
    assert not state.player(1).positive_token and state.player(0).positive_token


@pytest.mark.rule(SPEND)
def test_a_reroll_under_the_ranged_penalty_replaces_one_of_the_two_dice() -> None:
    # Marksmen next to their target roll two dice and keep the lower; rerolling the -1
    # into a +1 leaves the other die's 0 as the lower one.
    state = battle(
        [(0, "marksmen", False, "E5"), (1, "skeletons", False, "F5")],
        heroes=("catherine", "tamika"),
        token=0,
    )
    state.player(0).positive_token = True
    attack_dice(state, [0, -1, 1])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    choice = state.choice[0]
    assert choice.options == [
        "Keep +0, -1",
        "Reroll die 1 (+0) with the Positive Morale token",
        "Reroll die 2 (-1) with the Positive Morale token",
    ]
    state, events = apply(state, 0, {"type": "choose", "option": 2})
    assert _result(events)[0]["die"] == 0
    assert unit(state, 2).damage == 2 + 0 - 1


@pytest.mark.rule(SPEND)
def test_no_offer_when_the_die_is_already_the_best() -> None:
    state = battle(
        [(0, "griffins", True, "E5"), (1, "skeletons", True, "F5")],
        token=0,
    )
    state.player(0).positive_token = True
    attack_dice(state, [1, 0])
    state, events = apply(state, 0, {"type": "attack", "target": 2})
    assert not state.choice and state.player(0).positive_token
    assert _result(events)[0]["die"] == 1


@pytest.mark.rule(SPEND)
def test_the_hourglass_die_is_rerolled_towards_zero() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["hourglass"]},
    )
    state.player(0).positive_token = True
    force_dice(state, [ATTACK_FACE[1], ATTACK_FACE[0]])
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "hourglass"), "option": 1})
    assert state.choice[0].kind == "reroll"
    state, _ = apply(state, 0, {"type": "choose", "option": 1})
    # The token is spent on the reroll; the 0 gains Morale: Search(2) the Positive deck.
    assert not state.player(0).positive_token
    assert state.choice[0].kind == "morale_search"


@pytest.mark.rule(SPEND)
def test_the_astrologers_resource_die_may_be_rerolled() -> None:
    state = play_until(
        new(mode="adventure", heroes=("catherine", "mutare")),
        lambda s: any(c.kind == "astrologers" for c in s.choice.values()),
    )
    seat = min(s for s, c in state.choice.items() if c.kind == "astrologers")
    state.player(seat).positive_token = True
    before = state.player(seat).model_copy(deep=True)
    force_dice(state, [1, 6])  # 3 Gold, rerolled to 2 Valuables
    state, _ = apply(state, seat, {"type": "choose", "option": 3})
    assert state.choice[seat].kind == "reroll"
    assert state.choice[seat].options[1] == "Reroll (3 Gold) with the Positive Morale token"
    state, _ = apply(state, seat, {"type": "choose", "option": 1})
    player = state.player(seat)
    assert player.income.valuables == before.income.valuables + 1  # one tier
    assert player.resources.valuables == before.resources.valuables + 1  # its basic income
    assert player.income.gold == before.income.gold


# ------------------------------------------------------------------------ Luck
@pytest.mark.rule(COMBAT)
def test_basic_luck_has_no_die_to_reroll_in_combat() -> None:
    state = battle(
        [(0, "griffins", True, "E5"), (1, "skeletons", True, "F5")],
        hands={0: ["luck"]},
        token=0,
    )
    with pytest.raises(IllegalMove, match="neither is thrown in Combat"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "luck")})


@pytest.mark.rule(COMBAT)
def test_expert_luck_rerolls_each_die_once_this_round() -> None:
    state = battle(
        [(0, "griffins", True, "E5"), (1, "skeletons", True, "F5")],
        hands={0: ["luck"]},
        token=0,
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "luck"), "option": 1})
    assert state.combat is not None and state.combat.luck == {0: 1}
    assert state.player(0).experts == 0
    attack_dice(state, [-1, 0, 0])  # -1, rerolled to 0 (no second Luck reroll), Retaliation
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    assert state.choice[0].options == ["Keep -1", "Reroll (-1) with Luck"]
    state, events = apply(state, 0, {"type": "choose", "option": 1})
    assert not state.choice  # that die was rerolled once already
    assert _result(events)[0]["die"] == 0
    assert state.combat is not None
    state.combat.round += 1
    assert not dice.luck_running(state, 0)  # only this Combat round


def test_a_reroll_answers_only_its_choice() -> None:
    state = battle(
        [(0, "griffins", True, "E5"), (1, "skeletons", True, "F5")],
        token=0,
    )
    state.player(0).positive_token = True
    attack_dice(state, [-1, 1])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    assert [d.kind for d in RULES.pending(state)] == ["choose_reroll"]
    state, _ = apply(state, 0, {"type": "choose", "option": 0})  # keep the -1
    assert state.player(0).positive_token


@pytest.mark.rule(SPEND)
def test_a_game_saved_at_the_old_attack_die_reroll_loads_and_goes_on() -> None:
    state = battle(
        [(0, "griffins", True, "E5"), (1, "skeletons", True, "F5")],
        token=0,
    )
    state.player(0).positive_token = True
    attack_dice(state, [-1, 1, 0])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    old = json.loads(RULES.dump_state(state))
    window = old["combat"]["window"]
    for key in ("stage", "rolls", "guard", "blow", "gaze", "damage", "attack_value"):
        window.pop(key, None)
    old["choice"]["0"] = {
        "kind": "reroll",
        "prompt": "Red rolled -1: keep it or spend the Positive Morale token to reroll.",
        "options": ["Keep -1", "Spend the Positive token and reroll"],
        "private": False,
        "data": {},
    }
    loaded = RULES.load_state(old)
    assert loaded.combat is not None and loaded.combat.window is not None
    assert loaded.combat.window.stage == "rolled"
    state, events = apply(loaded, 0, {"type": "choose", "option": 1})
    assert _result(events)[0]["die"] == 1 and not state.player(0).positive_token
