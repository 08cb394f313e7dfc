"""Shared checks of `Ruleset.information_set` and `Ruleset.determinize` (issue 19), used by
the cross-ruleset test (tests/core/test_determinize.py) and each game's own test.

`positions` samples the states of one computer-played game; `check_position` makes, for
one state and seat, the checks every ruleset must pass: the information set hides what
the seat may not know (a determinized world has the same information set), keeps what it
sees (its view of every world is its view of the state), every world is sound (its audit
is empty, its pending seats have legal commands) and determinizing is a function of the
given generator. `play_out` plays a world to its end with the computer players.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.model import GameState
from engine.core.ruleset import Ruleset


def positions(
    rules: Ruleset[Any],
    options: dict[str, Any],
    players: int,
    seed: int,
    *,
    every: int,
    limit: int,
) -> list[GameState]:
    """The states of a game played by the computer players (random choices from ``seed``),
    one every ``every`` commands, for at most ``limit`` commands or until the game ends."""
    state, _ = rules.new_game(rules.parse_options(options), players, seed)
    chooser = random.Random(seed)
    found: list[GameState] = [state]
    for step in range(1, limit + 1):
        pending = rules.pending(state)
        if rules.result(state).finished or not pending:
            break
        seat = pending[step % len(pending)].seat
        state, _ = rules.apply(state, seat, rules.ai_command(state, seat, chooser))
        if step % every == 0:
            found.append(state)
    return found


def dump(rules: Ruleset[Any], state: GameState) -> str:
    """The canonical JSON of ``state`` (what "equal states" means here)."""
    return rules.dump_state(state)


def check_position(
    rules: Ruleset[Any], state: GameState, seat: int, seed: int, worlds: int = 1
) -> list[GameState]:
    """Make the shared checks for ``seat`` at ``state`` and return the worlds made.

    :raises AssertionError: naming the check that failed.
    """
    before = dump(rules, state)
    info = rules.information_set(state, seat)
    assert dump(rules, state) == before, "information_set changed its input"
    key = dump(rules, info)
    seen = rules.view(state, seat)
    made: list[GameState] = []
    for index in range(worlds):
        world = rules.determinize(info, seat, random.Random(seed * 31 + index))
        again = rules.determinize(info, seat, random.Random(seed * 31 + index))
        assert dump(rules, world) == dump(rules, again), "determinize is not a function of rng"
        assert dump(rules, info) == key, "determinize changed its input"
        assert rules.view(world, seat) == seen, "the seat's view of a world differs"
        assert dump(rules, rules.information_set(world, seat)) == key, (
            "a world has another information set"
        )
        assert rules.audit(world) == [], rules.audit(world)
        for decision in rules.pending(world):
            assert rules.legal_commands(world, decision.seat), f"no command for {decision}"
        made.append(world)
    return made


def play_out(rules: Ruleset[Any], world: GameState, seed: int, limit: int) -> GameState:
    """Play ``world`` with the computer players (choices from ``seed``) until it ends or
    ``limit`` commands were made; the audit is checked after every command.

    :raises AssertionError: when the audit finds a problem.
    """
    chooser = random.Random(seed)
    for _ in range(limit):
        pending = rules.pending(world)
        if rules.result(world).finished or not pending:
            break
        seat = pending[0].seat
        world, _ = rules.apply(world, seat, rules.ai_command(world, seat, chooser))
        assert rules.audit(world) == [], rules.audit(world)
    return world
