"""Random playouts: whole games between computer seats through the public API, with the
conservation audit and the JSON round trip after every command; every game ends by the
rules' victory condition."""

from __future__ import annotations

import random

import pytest

from engine.homm3 import decisions
from tests.homm3.helpers import RULES


@pytest.mark.rule("homm3bf:skirmish-mode.victory-condition")
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"size": "medium"},
        {"size": "large"},
        {"size": "medium", "siege": True},
        {"mode": "adventure"},
        {"mode": "adventure", "size": "medium", "siege": True},
    ],
)
@pytest.mark.slow
def test_random_playouts_finish_and_stay_sound(options: dict[str, object]) -> None:
    for seed in range(3):
        state, _ = RULES.new_game(RULES.parse_options(options), 2, 100 + seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if RULES.result(state).finished:
                break
            decision = RULES.pending(state)[0]
            command = RULES.ai_command(state, decision.seat, rng)
            state, _ = RULES.apply(state, decision.seat, command)
            assert RULES.audit(state) == []
            dumped = RULES.dump_state(state)
            assert RULES.dump_state(RULES.load_state(dumped)) == dumped
        result = RULES.result(state)
        assert result.finished and len(result.winners) == 1


@pytest.mark.slow
def test_every_listed_command_is_accepted() -> None:
    # Fuzz: pick uniformly among the legal commands (not the AI's choice) for a while.
    for seed in range(4):
        state, _ = RULES.new_game(
            RULES.parse_options({"mode": "adventure" if seed % 2 else "skirmish"}), 2, seed
        )
        rng = random.Random(seed)
        for _ in range(250):
            if RULES.result(state).finished:
                break
            decision = RULES.pending(state)[0]
            options = decisions.legal_commands(state, decision.seat)
            assert options, decision
            command = rng.choice(options)
            state, _ = RULES.apply(state, decision.seat, command)
            assert RULES.audit(state) == []


def test_default_command_is_legal() -> None:
    state, _ = RULES.new_game(RULES.parse_options({}), 2, 9)
    rng = random.Random(9)
    for _ in range(60):
        if RULES.result(state).finished:
            break
        decision = RULES.pending(state)[0]
        state, _ = RULES.apply(state, decision.seat, RULES.default_command(state, decision.seat))
        if rng.random() < 0.5 and not RULES.result(state).finished:
            decision = RULES.pending(state)[0]
            state, _ = RULES.apply(
                state, decision.seat, RULES.ai_command(state, decision.seat, rng)
            )
