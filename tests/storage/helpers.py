"""Shared test helpers: start a Dice Race game and play moves the way the GameService will."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from storage.records import Game, LogEntry
from storage.repository import Repository
from tests.storage.dice_race import DICE_RACE, Options, RaceState

T = TypeVar("T")

HOST = 100
"""The Discord user id of the host in these tests; players are 1000 + seat."""


def player(seat: int) -> int:
    """The Discord user id of the player in ``seat``."""
    return 1000 + seat


async def started_game(
    repo: Repository,
    channel_id: int,
    *,
    players: int = 3,
    seed: int = 20240601,
    options: Mapping[str, Any] | None = None,
    guild_id: int | None = 1,
) -> Game:
    """Create a lobby in ``channel_id``, seat ``players`` players and start the game."""
    game = await repo.create_game(
        channel_id,
        ruleset=DICE_RACE.id,
        guild_id=guild_id,
        host_user_id=HOST,
        options=options or {"target": 40},
        seed=seed,
    )
    for seat in range(players):
        await repo.join_game(game.id, user_id=player(seat), display_name=f"Player {seat}")
    parsed = DICE_RACE.parse_options(game.options)
    assert isinstance(parsed, Options)
    state, events = DICE_RACE.new_game(parsed, players, game.seed)
    return await repo.start_game(
        game.id, state=state, events=events, options=parsed, actor_user_id=HOST
    )


def load(game: Game) -> RaceState:
    """The engine state of a started game."""
    assert game.state_json is not None
    state = DICE_RACE.load_state(game.state_json)
    assert isinstance(state, RaceState)
    return state


async def play_one(repo: Repository, game_id: int, rng: random.Random) -> LogEntry:
    """Load the game, let the seat to move choose at random, apply and commit.

    :raises StaleState: when another task committed between the load and the commit.
    """
    game = await repo.get_game(game_id)
    state = load(game)
    seat = DICE_RACE.pending(state)[0].seat
    command = DICE_RACE.ai_command(state, seat, rng)
    new_state, events = DICE_RACE.apply(state, seat, command, expected_version=game.version)
    return await repo.commit(
        game_id,
        expected_version=game.version,
        seat=seat,
        command=command,
        state=new_state,
        events=events,
        actor_user_id=player(seat),
        result=DICE_RACE.result(new_state),
    )


async def taken_while_playing(
    repo: Repository, take: Callable[[], Awaitable[T]]
) -> tuple[list[Game], T, list[int]]:
    """Start 3 games and keep each playing while ``take()`` (a backup) runs; it starts once
    every game has committed 3 moves (waited for as events, set after the third commit or
    when a player fails, never for a time). Returns (the games, take's result, the moves
    each game played in all)."""
    games = [await started_game(repo, c, seed=c, options={"target": 100_000}) for c in range(3)]
    stop = asyncio.Event()
    moved = {g.id: asyncio.Event() for g in games}

    async def keep_playing(game_id: int) -> int:
        rng, moves = random.Random(game_id), 0
        try:
            while not stop.is_set():
                await play_one(repo, game_id, rng)
                moves += 1
                if moves >= 3:
                    moved[game_id].set()
        finally:
            moved[game_id].set()
        return moves

    players = [asyncio.create_task(keep_playing(g.id)) for g in games]
    await asyncio.gather(*(event.wait() for event in moved.values()))
    try:
        result = await take()
    finally:
        stop.set()
        played = await asyncio.gather(*players)
    return games, result, list(played)
