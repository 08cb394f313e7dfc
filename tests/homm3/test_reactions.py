"""Cards with their own moment in the Battlefield Combat: Resistance right after an enemy
Spell, Resurrection right after an enemy attack that would bring a unit to 0 Health, and
Intelligence (and Tactics) before any unit activates (readings in engine/homm3/README.md).

The core rules these moments extend stay in force on the Battlefield
(homm3bf:battlefield-combat.changes-to-combat-rules: "The rest of the Combat rules from the
Core Game remain unchanged"): one Spell per Combat round, Expert uses per round."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm3 import cardplay
from engine.homm3.commands import Play
from tests.homm3.helpers import RULES, apply, attack_dice, battle, card, unit

COMBAT = "homm3bf:battlefield-combat.changes-to-combat-rules"
DECK = "homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic"


def _owed(state):  # type: ignore[no-untyped-def]
    return RULES.pending(state)[0]


# ------------------------------------------------------------------ Resistance
@pytest.mark.rule(COMBAT)
def test_resistance_cancels_a_spell_cast_with_at_most_one_empower() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["magic_arrow"], 1: ["resistance"]},
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})
    owed = _owed(state)
    assert (owed.seat, owed.kind, owed.commands) == (1, "spell_reaction", ("play", "pass"))
    assert unit(state, 2).damage == 0  # the effect waits for the answer
    state, events = apply(
        state, 1, {"type": "play", "card": card(state, 1, "resistance"), "option": 0}
    )
    assert any(e.kind == "resisted" for e in events)
    skeletons = unit(state, 2)
    assert skeletons.pack and skeletons.damage == 0
    assert state.combat is not None and state.combat.spells == {0: 1}  # the Spell was cast
    assert [state.cards[c] for c in state.player(0).discard] == ["magic_arrow"]
    assert [state.cards[c] for c in state.player(1).discard] == ["resistance"]
    assert _owed(state).kind == "activation" and _owed(state).seat == 0


@pytest.mark.rule(COMBAT)
def test_a_spell_waiting_for_resistance_reads_back_from_storage_unchanged() -> None:
    # the waiting Play command was kept with tuples, which JSON reads back as lists: the
    # stored game was no longer equal to the one played (found by the property tests)
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["magic_arrow"], 1: ["resistance"]},
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})
    assert state.combat is not None and state.combat.reaction is not None
    assert state.combat.reaction.command["units"] == []
    assert RULES.load_state(RULES.dump_state(state)) == state
    state, _ = apply(state, 1, {"type": "pass"})
    assert unit(state, 2).damage == 1  # the Spell resolves from the kept command


@pytest.mark.rule(COMBAT)
def test_basic_resistance_cannot_answer_two_empower_the_expert_one_can() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["magic_arrow", "power"], 1: ["resistance"]},
        level=2,
    )
    power = card(state, 0, "power")
    state, _ = apply(
        state,
        0,
        {
            "type": "play",
            "card": card(state, 0, "magic_arrow"),
            "unit": 2,
            "power": [power],
            "power_expert": [power],
        },
    )
    resistance = card(state, 1, "resistance")
    with pytest.raises(IllegalMove, match=r"with 2 Empower.*at most 1"):
        apply(state, 1, {"type": "play", "card": resistance, "option": 0})
    state, _ = apply(state, 1, {"type": "play", "card": resistance, "option": 1})
    assert unit(state, 2).damage == 0 and unit(state, 2).pack
    assert state.player(1).experts == 0  # the Expert effect used the Level II Expert use


@pytest.mark.rule(COMBAT)
def test_letting_the_spell_resolve_and_knowledge_right_after() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["magic_arrow", "knowledge"], 1: ["resistance"]},
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})
    state, _ = apply(state, 1, {"type": "pass"})
    assert unit(state, 2).damage == 1  # Magic Arrow at 0 Empower: 1 damage
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "knowledge")})
    assert "magic_arrow" in [state.cards[c] for c in state.player(0).hand]


@pytest.mark.rule(COMBAT)
def test_no_answer_is_asked_of_an_empty_hand() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["magic_arrow"]},
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})
    assert state.combat is not None and state.combat.reaction is None
    assert unit(state, 2).damage == 1


def test_resistance_is_only_an_answer() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["resistance", "magic_arrow"], 1: ["attack"]},
    )
    with pytest.raises(IllegalMove, match="right after the enemy casts a Spell"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "resistance")})
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})
    with pytest.raises(IllegalMove, match="only a card that answers a Spell"):
        apply(state, 1, {"type": "play", "card": card(state, 1, "attack"), "unit": 2})


# ---------------------------------------------------------------- Resurrection
def _lethal(hands: dict[int, list[str]], target: tuple[str, bool] = ("skeletons", False)):  # type: ignore[no-untyped-def]
    # Pack of Griffins (Attack 3) next to a Few of Skeletons (Defense 1, Health 2): a die
    # of 0 deals 2 damage, enough to defeat them.
    return battle(
        [
            (0, "griffins", True, "E5"),
            (1, target[0], target[1], "F5"),
            (1, "zombies", False, "L9"),
        ],
        hands=hands,
        token=0,
    )


@pytest.mark.rule(COMBAT)
def test_resurrection_cancels_an_attack_that_would_defeat_the_unit() -> None:
    state = _lethal({1: ["resurrection"]})
    attack_dice(state, [0, 0])  # the attack, then the Skeletons' Retaliation
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    state, _ = apply(state, 1, {"type": "pass"})  # the attack's card window
    owed = _owed(state)
    assert (owed.seat, owed.kind) == (1, "resurrection_window")
    state, events = apply(state, 1, {"type": "play", "card": card(state, 1, "resurrection")})
    assert any(e.kind == "resurrection" for e in events)
    skeletons = unit(state, 2)
    assert skeletons.alive and skeletons.damage == 0
    assert state.combat is not None and state.combat.spells == {1: 1}
    # The Skeletons survived an attack by an adjacent unit: they retaliate (2 - 0 = 2).
    assert [e.data["attacker"] for e in events if e.kind == "attack_result"] == [2]
    assert unit(state, 1).damage == 2


@pytest.mark.rule(COMBAT)
def test_resurrection_reaches_silver_units_with_two_empower() -> None:
    state = battle(
        [(0, "champions", True, "E5"), (1, "crusaders", False, "F5"), (1, "zombies", False, "L9")],
        hands={1: ["resurrection", "power", "power"]},
        token=0,
    )
    attack_dice(state, [0])  # Attack 6 - Defense 2 = 4: the Crusaders' Health
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    state, _ = apply(state, 1, {"type": "pass"})
    spell = card(state, 1, "resurrection")
    with pytest.raises(IllegalMove, match="Bronze units at most"):
        apply(state, 1, {"type": "play", "card": spell})
    powers = [c for c in state.player(1).hand if state.cards[c] == "power"]
    state, _ = apply(state, 1, {"type": "play", "card": spell, "power": powers})
    assert unit(state, 2).alive and unit(state, 2).damage == 0


@pytest.mark.rule(COMBAT)
def test_no_resurrection_moment_when_the_unit_survives() -> None:
    state = _lethal({1: ["resurrection"]}, target=("skeletons", True))
    attack_dice(state, [-1, 0])  # 3 - 1 - 1 = 1 damage: the Pack (Health 2) holds
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    state, _ = apply(state, 1, {"type": "pass"})
    assert all(d.kind != "resurrection_window" for d in RULES.pending(state))
    assert unit(state, 2).damage == 1 and unit(state, 2).pack


@pytest.mark.rule(COMBAT)
def test_resistance_answers_resurrection_and_the_damage_is_dealt() -> None:
    state = _lethal({0: ["resistance"], 1: ["resurrection"]})
    attack_dice(state, [0])
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    state, _ = apply(state, 1, {"type": "pass"})
    state, _ = apply(state, 1, {"type": "play", "card": card(state, 1, "resurrection")})
    assert _owed(state).kind == "spell_reaction" and _owed(state).seat == 0
    state, events = apply(state, 0, {"type": "play", "card": card(state, 0, "resistance")})
    assert not unit(state, 2).alive
    assert any(e.kind == "defeated" for e in events)


def test_resurrection_outside_its_moment_is_refused() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["resurrection"]},
    )
    with pytest.raises(IllegalMove, match="right after an enemy attack"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "resurrection")})


# ---------------------------------------------------- Intelligence and Tactics
@pytest.mark.rule(DECK)
def test_intelligence_casts_the_first_rounds_spell_before_any_unit_activates() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["intelligence", "magic_arrow", "lightning_bolt"]},
        opening=True,
    )
    owed = _owed(state)
    assert (owed.seat, owed.kind) == (0, "combat_start")
    assert state.combat is not None and state.combat.active is None
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "intelligence")})
    assert "casts a Spell before any unit activates" in _owed(state).prompt
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})
    assert unit(state, 2).damage == 1
    assert state.combat is not None and state.combat.spells == {0: 1}
    state, _ = apply(state, 0, {"type": "pass"})  # Blue has no card: the start closes
    assert state.combat is not None and state.combat.opening is None
    assert _owed(state).kind == "activation"
    with pytest.raises(IllegalMove, match="already cast your Spell"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "lightning_bolt"), "unit": 2})


@pytest.mark.rule(DECK)
def test_expert_intelligence_spell_does_not_count_toward_the_round() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["intelligence", "magic_arrow", "lightning_bolt"]},
        opening=True,
    )
    state, _ = apply(
        state, 0, {"type": "play", "card": card(state, 0, "intelligence"), "option": 1}
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "magic_arrow"), "unit": 2})
    assert state.combat is not None and state.combat.spells == {}
    assert state.player(0).experts == 0  # Level III: 1 Expert use, spent
    state, _ = apply(state, 0, {"type": "pass"})
    state, _ = apply(
        state, 0, {"type": "play", "card": card(state, 0, "lightning_bolt"), "unit": 2}
    )
    skeletons = unit(state, 2)  # 1 + 2 damage on a Pack of Health 2: a Few with 1 damage
    assert skeletons.alive and not skeletons.pack and skeletons.damage == 1


def test_intelligence_needs_a_spell_and_its_moment() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["intelligence", "attack"]},
        opening=True,
    )
    intelligence = card(state, 0, "intelligence")
    with pytest.raises(IllegalMove, match="you hold none"):
        apply(state, 0, {"type": "play", "card": intelligence})
    with pytest.raises(IllegalMove, match="only cards played at the Combat's start"):
        apply(state, 0, {"type": "play", "card": card(state, 0, "attack"), "unit": 1})
    state, _ = apply(state, 0, {"type": "pass"})
    assert _owed(state).kind == "activation"
    assert not cardplay.allowed(state, 0, Play(card=intelligence))


@pytest.mark.rule(DECK)
def test_tactics_swaps_two_units_at_the_start_and_the_other_side_answers() -> None:
    state = battle(
        [
            (0, "griffins", False, "B5"),
            (0, "halberdiers", False, "A1"),
            (1, "skeletons", True, "L5"),
        ],
        hands={0: ["tactics"], 1: ["attack"]},
        opening=True,
    )
    state, _ = apply(state, 0, {"type": "play", "card": card(state, 0, "tactics"), "units": [1, 2]})
    assert (unit(state, 1).hex, unit(state, 2).hex) == ("A1", "B5")
    state, _ = apply(state, 0, {"type": "pass"})
    owed = _owed(state)
    assert (owed.seat, owed.kind) == (1, "combat_start")  # Blue holds a card: asked
    state, _ = apply(state, 1, {"type": "pass"})
    assert _owed(state).kind == "activation"


def test_no_start_of_combat_moment_without_cards() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        opening=True,
    )
    assert state.combat is not None and state.combat.opening is None
    assert _owed(state).kind == "activation"
