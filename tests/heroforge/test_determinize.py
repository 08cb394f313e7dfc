"""Hero Forge: what a seat may know (issue 19). Nothing is hidden but the dice to come
(heroforge:basic-rules: the board, heroes, inventories and forts lie open)."""

from __future__ import annotations

import random

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from engine.core.ruleset import get_ruleset
from engine.heroforge.state import HeroforgeState
from tests.core.determinize_checks import check_position, dump, play_out, positions

RULES = get_ruleset("heroforge")


def _states(players: int, seed: int) -> list[HeroforgeState]:
    found = positions(RULES, {}, players, seed, every=4, limit=400)
    return [s for s in found if isinstance(s, HeroforgeState)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_passes_the_shared_checks(players: int) -> None:
    """heroforge:basic-rules: every world keeps the seat's view and information set and
    passes the audit."""
    for seed in (1, 2):
        for state in _states(players, seed):
            for seat in range(players):
                check_position(RULES, state, seat, seed)


def test_only_the_generator_is_hidden() -> None:
    """heroforge:turns: the seed and the generator's counter are unknown (future rolls);
    everything else is seen, so a changed economy changes the information set."""
    state = _states(2, 3)[-1]
    info = RULES.information_set(state, 0)
    assert isinstance(info, HeroforgeState)
    assert (info.seed, info.rng.seed, info.rng.counter) == (0, 0, 0)
    rolled = state.model_copy(deep=True)
    rolled.rng.counter += 3
    rolled.rng.seed += 1
    rolled.seed += 1
    assert dump(RULES, RULES.information_set(rolled, 0)) == dump(RULES, info)
    richer = state.model_copy(deep=True)
    richer.players_state[1].economy += 100
    assert dump(RULES, RULES.information_set(richer, 0)) != dump(RULES, info)
    world = RULES.determinize(info, 0, random.Random(4))
    assert isinstance(world, HeroforgeState)
    assert world.rng.seed == world.seed != 0
    assert dump(RULES, RULES.information_set(world, 0)) == dump(RULES, info)


def test_a_world_plays_to_its_end() -> None:
    """heroforge:basic-rules: a random playout from a determinized world finishes."""
    state = _states(3, 2)[-2]
    world = check_position(RULES, state, 1, 2, worlds=1)[0]
    assert RULES.result(play_out(RULES, world, 2, 5000)).finished
