"""Where the computer players think: their levels per seat, their time budget, and the
worker processes that run their search so the bot's event loop never waits on it.

A computer seat plays at its stored level (`storage.records.Seat.ai_level`; a seat stored
before schema 11 has none and plays ``easy``, as it always did). A person's seat played
for them (away, or a passed deadline with the ``computer`` policy) plays at
``HEROES_AI_AWAY_LEVEL`` (`AWAY_LEVEL` by default: ``easy``). ``normal`` and ``hard``
search (`engine.core.search`) for ``HEROES_AI_BUDGET_S`` seconds (default 1 s) in one of
the drawing processes (`bot.render.PictureRenderer.compute`), else in a thread; ``easy``
answers at once in a thread as before. The generator is seeded from the game's seed, the
state's version and the seat, so an ``easy`` seat (and a search with an iteration budget)
chooses the same again after a restart.
"""

from __future__ import annotations

import asyncio
import functools
import random
from dataclasses import dataclass, field
from typing import Any

from bot.render import PictureRenderer, Renderer
from engine.core.model import Command, GameState
from engine.core.ruleset import Ruleset, get_ruleset
from engine.core.search import Budget, Level, choose, parse_level

AWAY_LEVEL: Level = "easy"
"""The level that plays a person's seat while they are away (or past a deadline whose
policy is ``computer``), unless ``HEROES_AI_AWAY_LEVEL`` names another."""

SEAT_LEVEL: Level = "easy"
"""The level of a computer seat stored without one (before schema 11)."""


@dataclass(frozen=True)
class ComputerPlayers:
    """How the computer players of one bot process play.

    Attributes:
        budget: each ``normal`` / ``hard`` decision's search budget (``HEROES_AI_BUDGET_S``
            seconds; an iteration cap for reproducible runs).
        away_level: the level that plays a person's seat for them.
        seat_level: the level of a computer seat added without one (``/game add-ai``
            without ``level``, the lobby's button; ``HEROES_AI_LEVEL``).
    """

    budget: Budget = field(default_factory=Budget)
    away_level: Level = AWAY_LEVEL
    seat_level: Level = AWAY_LEVEL

    def level_of(self, stored: str | None, *, is_ai: bool) -> Level:
        """The level a seat plays at: a computer seat's stored level (`SEAT_LEVEL` when
        none), a person's seat (played for them) `away_level`.

        :raises InvalidInput: for a stored level that is not a level.
        """
        if not is_ai:
            return self.away_level
        return parse_level(stored) if stored else SEAT_LEVEL


def _choose_in_worker(
    ruleset: str, state_json: str, seat: int, seed: int, level: str, budget: Budget
) -> str:
    """The worker side: read the state, choose, return the command's JSON."""
    import engine.rulesets  # noqa: F401  (registers the rulesets in a fresh worker)

    rules = get_ruleset(ruleset)
    state = rules.load_state(state_json)
    rng = random.Random(f"{seed}:{state.version}:{seat}")
    return choose(rules, state, seat, parse_level(level), rng, budget).model_dump_json()


async def computer_command(
    rules: Ruleset[Any],
    state: GameState,
    seat: int,
    seed: int,
    level: Level,
    *,
    renderer: Renderer | None = None,
    budget: Budget | None = None,
) -> Command:
    """``seat``'s command at ``level``, chosen off the event loop: ``easy`` in a thread,
    a search in ``renderer``'s worker processes when it has them (else in a thread).

    :raises NotYourDecision: if ``seat`` owes nothing.
    """
    spend = budget or Budget()
    if level == "easy":
        rng = random.Random(f"{seed}:{state.version}:{seat}")
        return await asyncio.to_thread(rules.ai_command, state, seat, rng)
    work = functools.partial(
        _choose_in_worker, rules.id, rules.dump_state(state), seat, seed, level, spend
    )
    if isinstance(renderer, PictureRenderer):
        found = await asyncio.to_thread(renderer.compute, work)
    else:
        found = await asyncio.to_thread(work)
    return rules.parse_command(found)
