"""Battles through the public `Ruleset` API with the shipped card pool (homm4:battles)."""

from __future__ import annotations

import random

import pytest

import engine.rulesets  # noqa: F401  (registers homm4)
from engine.core.errors import WrongPhase
from engine.core.ruleset import Ruleset, get_ruleset
from engine.homm4 import battle
from engine.homm4.commands import Attack, Counterattack, EndMovement
from engine.homm4.state import Homm4State
from tests.homm4.battle_fixtures import Builder, act, cid, fight, set_rolls, zone_count


def _until_battle() -> tuple[Ruleset[Homm4State], Homm4State]:
    ruleset: Ruleset[Homm4State] = get_ruleset("homm4")  # type: ignore[assignment]
    for seed in range(40):
        state, _ = ruleset.new_game(ruleset.parse_options({}), 2, seed)
        rnd = random.Random(seed)
        for _ in range(3000):
            if state.battle is not None:
                return ruleset, state
            if ruleset.result(state).finished:
                break
            (decision, *_) = ruleset.pending(state)
            state, _ = ruleset.apply(
                state, decision.seat, ruleset.ai_command(state, decision.seat, rnd)
            )
    raise AssertionError("no battle in 40 games")


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_a_battle_through_ruleset_apply() -> None:
    ruleset, state = _until_battle()
    assert state.battle is not None
    (decision,) = ruleset.pending(state)
    assert decision.kind == "battle_deploy"
    assert decision.seat == state.battle.attacker
    assert ruleset.legal_commands(state, decision.seat) == battle.battle_legal(state, decision.seat)
    assert ruleset.default_command(state, decision.seat) == battle.battle_default(
        state, decision.seat
    )
    with pytest.raises(WrongPhase):
        ruleset.apply(state, decision.seat, EndMovement())
    view = ruleset.public_view(state)
    assert view.battle is not None and view.battle.stage == "deploy"
    kinds: list[str] = []
    for _ in range(2000):
        if state.battle is None:
            break
        (decision,) = ruleset.pending(state)
        before = state.model_copy(deep=True)
        command = ruleset.default_command(state, decision.seat)
        new_state, events = ruleset.apply(state, decision.seat, command)
        assert state == before  # apply never changes its input
        assert new_state.version == state.version + 1
        state = new_state
        kinds.extend(e.kind for e in events)
        assert set(zone_count(state).values()) == {1}
        for event in events:
            if event.kind == "die_roll":
                assert event.data["sides"] == 10 and 1 <= event.data["result"] <= 10
    assert state.battle is None
    assert "battle_end" in kinds and "battle_attack" in kinds


@pytest.mark.rule("homm4:battles.counterattack")
def test_rulebook_counterattack_example_with_the_shipped_cards() -> None:
    # Bandit (Melee 1) rolls 7: 8 kills the top Golden Golem (Defense 7); the rest strike back
    b = Builder()
    bandit = b.card("bandit", 0)
    golems = b.cards("golden_golem", 1, 3)
    fight(b, [([bandit], "melee")], [(golems, "melee")])
    set_rolls(b.state, [7])
    events, _ = act(b, Attack(creature=cid(b, bandit), mode="melee", targets=(cid(b, golems[0]),)))
    data = next(e.data for e in events if e.kind == "battle_attack")
    assert (data["attack_value"], data["roll"], data["total"], data["defense"]) == (1, 7, 8, 7)
    assert data["killed"] == [golems[0]]
    assert b.state.battle is not None and b.state.battle.stage == "counter"
    g = battle.creature(b.state, cid(b, golems[1]))
    assert battle.melee_value(b.state, g) + battle.stack_bonus(b.state, g) == 3 + 2
    act(b, Counterattack(strike=True))
    assert g.countered
