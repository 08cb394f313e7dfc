"""What one seat may know of a Hero Forge game: everything but the dice to come.

Rule sections: heroforge:basic-rules (the board, the heroes, their inventories and the
forts all lie open on the table), heroforge:turns (the scenario and movement rolls are
made as the turn goes). Hero Forge hides no card: a seat's information set is the state
itself with the game's seed and generator replaced by the canonical ones (the future
rolls are unknown), and a determinization gives it a fresh seed; nothing else changes.
"""

from __future__ import annotations

import random

from engine.core.hidden import canonical_generator, fresh_generator
from engine.heroforge.state import HeroforgeState


def information_set(state: HeroforgeState, seat: int) -> HeroforgeState:
    """``state`` as ``seat`` may know it: a copy with the canonical seed and generator
    (heroforge:basic-rules: nothing else is hidden). Pure: returns a copy."""
    info = state.model_copy(deep=True)
    canonical_generator(info)
    return info


def determinize(info: HeroforgeState, seat: int, rng: random.Random) -> HeroforgeState:
    """One full game behind ``info``: a copy with a fresh seed drawn from ``rng``
    (heroforge:turns: only the rolls to come are unknown). Pure: returns a copy."""
    world = info.model_copy(deep=True)
    fresh_generator(world, rng)
    return world
