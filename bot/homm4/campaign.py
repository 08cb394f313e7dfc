"""Campaigns in the bot: the Heroes that survive a finished homm4 game are stored for its
channel, and the channel's next game created with ``options:campaign`` gives them back to
the same people (rule section: homm4:game-variants.campaigns).

The engine says who survived (`engine.homm4.variants.survivors`: each living Hero with its
Skills, Spells and Artifacts); storage keeps them per channel and person
(`Repository.save_campaign_heroes`); at ``/game start`` each person's Heroes join the seat
that person holds (computer seats and people who did not play the last game get none).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.model import GameState
from engine.homm4 import variants
from engine.homm4.state import Homm4State
from storage.records import Game, Seat
from storage.repository import Repository


async def save_survivors(
    repo: Repository, game: Game, state: GameState, seats: Sequence[Seat]
) -> int:
    """Store the living Heroes of a finished homm4 game for its channel, keyed by the
    person whose seat holds each (computer seats' Heroes are not kept). Replaces what the
    channel's previous game left. :returns: how many Heroes were stored (0 for a state
    that is not homm4's)."""
    if not isinstance(state, Homm4State):
        return 0
    people = {s.seat: s.user_id for s in seats if s.user_id is not None and not s.is_ai}
    kept: list[tuple[int, dict[str, Any]]] = []
    for hero in variants.survivors(state):
        user = people.get(hero.seat)
        if user is not None:
            kept.append((user, hero.model_dump(mode="json", exclude={"seat", "label"})))
    await repo.save_campaign_heroes(game.channel_id, game.id, kept)
    return len(kept)


async def carried_heroes(
    repo: Repository, channel_id: int, seats: Sequence[Seat]
) -> list[dict[str, Any]]:
    """The `CarriedHero` dicts for a new game in ``channel_id``: every Hero stored for the
    channel whose person holds a seat now, given to that seat (labelled with the name)."""
    by_user = {s.user_id: s for s in seats if s.user_id is not None and not s.is_ai}
    found: list[dict[str, Any]] = []
    for saved in await repo.campaign_heroes(channel_id):
        seat = by_user.get(saved.user_id)
        if seat is not None:
            found.append({**saved.hero, "seat": seat.seat, "label": seat.display_name})
    return found
