"""Rulebook examples not covered elsewhere, played with the shipped card pool, and the
byte-for-byte replay of whole games (same seed + same commands => same game).

Each test names the section whose example it plays (../shared/rules/SECTIONS.txt).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core.errors import IllegalMove
from engine.homm4 import battle
from engine.homm4.commands import Attack, Defend, SupportCreature
from tests.homm4.adventure_helpers import R
from tests.homm4.battle_fixtures import (
    Builder,
    act,
    begin,
    cid,
    deploy,
    fight,
    set_rolls,
    small_pool,
)
from tests.homm4.test_playout import all_options

__all__ = ["small_pool"]


# ------------------------------------------------------------ tactical deployment
@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_bandits_orcs_an_ifrit_and_two_heroes_are_5_creatures_split_up_to_7() -> None:
    """3 Bandits, 2 Orcs, an Ifrit, a Sorcerer Hero and a Rogue Hero: 5 Creatures; the
    Bandits or the Orcs or both may be split until there are 7, never more."""
    b = Builder()
    bandits = b.cards("bandit", 0, 3)
    orcs = b.cards("orc", 0, 2)
    ifrit = b.card("efreet", 0)
    sorcerer = b.card("ashkara", 0)
    rogue = b.card("kestrel", 0)
    everything = [sorcerer, rogue, *bandits, *orcs, ifrit]
    begin(b, everything, b.cards("minotaur", 1, 1))

    as_five = [(bandits, "melee"), (orcs, "melee"), ([ifrit], "melee")]
    as_five += [([sorcerer], "melee"), ([rogue], "melee")]
    probe = Builder()
    probe.state = b.state.model_copy(deep=True)
    deploy(probe, 0, as_five)
    assert probe.state.battle is not None
    assert len([c for c in probe.state.battle.creatures if c.side == 0]) == 5

    with pytest.raises(IllegalMove, match="Hero fights alone"):
        together = [(bandits, "melee"), (orcs, "melee"), ([ifrit], "melee")]
        deploy(b, 0, [*together, ([sorcerer, rogue], "melee")])
    split_both = [([c], "melee") for c in bandits + orcs] + [([ifrit], "melee")]
    split_both += [([sorcerer], "melee"), ([rogue], "melee")]
    with pytest.raises(IllegalMove, match="at most 7"):
        deploy(b, 0, split_both)  # 3 + 2 + 1 + 2 = 8 Creatures

    split_bandits = [([c], "melee") for c in bandits] + [(orcs, "melee"), ([ifrit], "melee")]
    split_bandits += [([sorcerer], "melee"), ([rogue], "melee")]
    deploy(b, 0, split_bandits)  # 3 + 1 + 1 + 2 = 7 Creatures
    assert b.state.battle is not None
    assert len([c for c in b.state.battle.creatures if c.side == 0]) == 7


# ------------------------------------------------------------------------ defense
@pytest.mark.rule("homm4:battles.defense")
@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_six_golems_in_front_must_lose_four_before_the_halflings_move_up() -> None:
    """6 Golden Golems split into 6 Creatures on the Melee Line and 6 Halflings as one
    Stack on the Ranged Line: the opponent must kill 4 Golems before the Halflings reach
    the front, and then they move up by themselves (no decision asked)."""
    b = Builder()
    killers = [b.card(kind, 0) for kind in ("bandit", "kestrel", "efreet", "ashkara", "orc")]
    golems = b.cards("golden_golem", 1, 6)
    halflings = b.cards("halfling", 1, 6)
    begin(b, killers, [*golems, *halflings])
    deploy(b, 0, [([c], "melee") for c in killers])
    deploy(b, 1, [*[([g], "melee") for g in golems], (halflings, "ranged")])
    stack = battle.creature(b.state, cid(b, halflings[0]))
    assert stack.line == "ranged"

    killed = 0
    golem_creatures = [cid(b, g) for g in golems]
    for _ in range(60):
        assert b.state.battle is not None
        if killed == 4:
            break
        due = battle.due_creatures(b.state)
        if b.state.battle.to_act == 1:
            act(b, Defend(creature=due[0].id))  # the Halflings (Phase 4) hold their fire
            continue
        attacker = due[0]
        alive = {c.id for c in b.state.battle.creatures if c.cards}
        target = next(g for g in golem_creatures if g in alive)
        set_rolls(b.state, [10])  # every Attack value + 10 beats a Golem, defending or not
        act(b, Attack(creature=attacker.id, mode="melee", targets=(target,)))
        killed += 1
        front = [
            c for c in b.state.battle.creatures if c.side == 1 and c.cards and c.line == "melee"
        ]
        halfling_line = battle.creature(b.state, stack.id).line
        if killed < 4:
            assert len(front) == 6 - killed and halfling_line == "ranged", killed
        else:
            assert len(front) == 3 and halfling_line == "melee"
            assert b.state.battle.stage != "fill_front", "one back Creature moves up by itself"
    assert killed == 4


# ----------------------------------------------------------------- determinism
def _play_logged(
    players: int, seed: int, options: dict[str, Any], limit: int
) -> tuple[Any, list[tuple[int, dict[str, Any]]], list[str]]:
    state, events = R.new_game(R.parse_options(options), players, seed)
    rng = random.Random(seed)
    log: list[tuple[int, dict[str, Any]]] = []
    lines = [e.model_dump_json() for e in events]
    while not R.result(state).finished and len(log) < limit:
        seat = R.pending(state)[0].seat
        command = R.ai_command(state, seat, rng)
        state, events = R.apply(state, seat, command)
        log.append((seat, command.model_dump()))
        lines += [e.model_dump_json() for e in events]
    return state, log, lines


@pytest.mark.rule("homm4:game-process")
@pytest.mark.parametrize(("players", "with_options"), [(3, False), (4, True)])
@pytest.mark.slow
def test_same_seed_and_commands_replay_the_game_byte_for_byte(
    players: int, with_options: bool
) -> None:
    options = all_options(players) if with_options else {}
    state, log, lines = _play_logged(players, 4242, options, limit=4000)
    assert R.result(state).finished
    again = R.replay(R.parse_options(options), players, 4242, log)
    assert R.dump_state(again) == R.dump_state(state)
    # the events too: replaying command by command gives the same lines
    replayed, events = R.new_game(R.parse_options(options), players, 4242)
    relines = [e.model_dump_json() for e in events]
    for seat, raw in log:
        replayed, events = R.apply(replayed, seat, raw)
        relines += [e.model_dump_json() for e in events]
    assert relines == lines
    # a different seed is a different game
    other, _ = R.new_game(R.parse_options(options), players, 4243)
    first, _ = R.new_game(R.parse_options(options), players, 4242)
    assert R.dump_state(other) != R.dump_state(first)


@pytest.mark.rule("homm4:game-process")
def test_apply_never_changes_the_state_it_is_given() -> None:
    state, _ = R.new_game(R.parse_options(all_options(2)), 2, 31)
    rng = random.Random(31)
    for _ in range(300):
        if R.result(state).finished:
            break
        seat = R.pending(state)[0].seat
        before = R.dump_state(state)
        after, _ = R.apply(state, seat, R.ai_command(state, seat, rng))
        assert R.dump_state(state) == before
        state = after


# ------------------------------------------------------- Support for spellcasters
@pytest.mark.rule("homm4:battles.making-support")
@pytest.mark.usefixtures("small_pool")
def test_golems_support_a_mages_spell_attack_with_6_only_against_the_front_line() -> None:
    """Spellcasters' attack spells take Support "just as ... an ordinary attack": 3 Golden
    Golems add 6 to a Mage's Magic Fist (4) at a front-line target, nothing at the back."""
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    mage = b.card("mage", 0)
    pike = b.card("pikeman", 0)
    bandit = b.card("bandit", 0)
    enemy_front = [b.card("troll", 1), b.card("cerberus", 1), b.card("golden_golem", 1)]
    halfling = b.card("halfling", 1)
    fight(
        b,
        [(golems, "melee"), ([pike], "melee"), ([bandit], "melee"), ([mage], "ranged")],
        [*[([c], "melee") for c in enemy_front], ([halfling], "ranged")],
    )
    for target, value in ((cid(b, enemy_front[0]), 4 + 6), (cid(b, halfling), 4)):
        _pass_until(b, cid(b, golems[0]))
        act(b, SupportCreature(creature=cid(b, golems[0]), target=cid(b, mage)))
        _pass_until(b, cid(b, mage))  # the next Round's Phase 4
        set_rolls(b.state, [1])
        events, _ = act(b, Attack(creature=cid(b, mage), mode="spell", targets=(target,)))
        found = [e.data for e in events if e.kind == "battle_attack"]
        assert found and found[0]["attack_value"] == value


def _pass_until(b: Builder, creature: int) -> None:
    """Let every other due Creature defend until ``creature`` is due."""
    for _ in range(100):
        assert b.state.battle is not None and b.state.battle.stage == "fight"
        due = [c.id for c in battle.due_creatures(b.state)]
        if creature in due:
            return
        act(b, Defend(creature=due[0]))
    raise AssertionError("creature never became due")
