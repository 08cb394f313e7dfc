"""Random playouts through the public API: invariants after every command, every listed
legal command applies, states round-trip through JSON, and games end by victory."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.heroforge.audit import problems
from engine.heroforge.state import HeroforgeState
from tests.heroforge.helpers import R


def _play(
    players: int, seed: int, *, options: dict[str, Any] | None = None, wild: float = 0.0
) -> HeroforgeState:
    """Play one game; with probability ``wild`` a command is any legal one at random."""
    state, _ = R.new_game(R.parse_options(options or {}), players, seed)
    rng = random.Random(seed)
    commands = 0
    while not R.result(state).finished:
        assert commands < 8000, f"seed={seed} did not end"
        seat = R.pending(state)[0].seat
        legal = R.legal_commands(state, seat)
        assert legal, f"seed={seed}: {R.pending(state)[0]} has no legal command"
        if commands % 37 == 0:
            for option in legal:  # every listed command is accepted
                R.apply(state, seat, option)
        command = rng.choice(legal) if rng.random() < wild else R.ai_command(state, seat, rng)
        state, events = R.apply(state, seat, command)
        commands += 1
        assert problems(state) == [], f"seed={seed} after {command!r}"
        assert all(not e.private for e in events)
        if commands % 50 == 0:
            assert R.load_state(R.dump_state(state)) == state
            R.view(state, seat).model_dump_json()
    assert R.pending(state) == [] and len(state.living()) == 1
    return state


@pytest.mark.rule("heroforge:basic-rules")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_computer_games_end_with_one_hero_left(players: int) -> None:
    for seed in range(8):
        state = _play(players, 100 * players + seed)
        assert state.winners == state.living()


@pytest.mark.rule("heroforge:turns")
def test_games_with_random_choices_keep_every_invariant() -> None:
    for seed in range(6):
        _play(3, 900 + seed, wild=0.3)


@pytest.mark.rule("heroforge:enchantment-lists")
def test_other_boards_and_lists_play_to_the_end() -> None:
    _play(5, 7, options={"layout": "frontier", "list1": "shifting_sands"})
    _play(2, 8, options={"grid": "PL B . / . S B / B . PL", "heroes": ["tobin", "marra"]})


@pytest.mark.rule("heroforge:what-you-will-need-to-play-hero-forge")
def test_moves_use_a_d6_and_everything_else_a_d10_every_roll_logged_and_replayable() -> None:
    state, _ = R.new_game(R.parse_options({}), 3, 41)
    rng = random.Random(41)
    log: list[tuple[int, Any]] = []
    sides: dict[str, set[int]] = {}
    while not R.result(state).finished:
        seat = R.pending(state)[0].seat
        command = R.ai_command(state, seat, rng)
        state, events = R.apply(state, seat, command)
        log.append((seat, command))
        for event in events:
            if event.kind == "die_roll":
                purpose = "move" if event.data["purpose"] == "move" else "other"
                sides.setdefault(purpose, set()).add(event.data["sides"])
                assert 1 <= event.data["result"] <= event.data["sides"]
    assert sides == {"move": {6}, "other": {10}}
    again = R.replay(R.parse_options({}), 3, 41, log)
    assert R.dump_state(again) == R.dump_state(state)
