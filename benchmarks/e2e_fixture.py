"""The database the end-to-end benchmark starts from: active mid-game games and an archive.

Active games are made the way players make them, through `GameService` (``/game new``,
``join``, ``start``, then moves chosen by the engine's AI for whoever owes a decision),
with pictures off (``renderer=None``): only the database matters here. Each is played
into Round `MID_ROUND` (homm4) or for `MID_COMMANDS` commands (the other rulesets) so the
pictures and states are mid-game sized. Every ruleset is built the same way
(``ruleset=``): the moves are its engine's AI (`ai_choice`).

The archive (finished games) would take minutes to play one by one, so a few complete
games are played through the service and then copied row for row (game, seats, whole log)
under new ids and channels with plain SQL — the same bytes a real archive holds.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.actors import Actor
from bot.service import GameService
from engine.core.model import Command, GameState
from engine.core.ruleset import get_ruleset
from storage import open_repository
from storage.records import GameStatus

MID_ROUND = 3
"""Active games are advanced until this Round has begun."""

MAX_SETUP_COMMANDS = 150
"""At most this many commands are played to advance one active game."""

MID_COMMANDS = 40
"""A ruleset without homm4's Rounds: active games are advanced by this many commands."""


@dataclass(frozen=True)
class Table:
    """One game's channel and its two players (Discord ids and names)."""

    channel_id: int
    users: tuple[tuple[int, str], tuple[int, str]]


def ai_choice(state: GameState, seat: int, seed: int) -> Command:
    """The engine's AI command for ``seat``, with a generator seeded from the game's seed,
    version and seat (as `bot.homm4.adapter.ai_choice`: the same position chooses the same)."""
    rng = random.Random(f"{seed}:{state.version}:{seat}")
    return get_ruleset(state.ruleset).ai_command(state, seat, rng)


def _mid_game(state: Any, played: int) -> bool:
    """Whether an active game being built has reached the middle of the game."""
    if played >= MAX_SETUP_COMMANDS:
        return True
    if state.ruleset == "homm4":
        return bool(state.round >= MID_ROUND and state.battle is None)
    return played >= MID_COMMANDS


async def _open_game(
    service: GameService, guild_id: int, table: Table, seed: int, ruleset: str = "homm4"
) -> int:
    (host_id, host_name), (other_id, other_name) = table.users
    host = Actor(host_id, host_name)
    await service.new_game(
        host, table.channel_id, guild_id=guild_id, players=2, seed=seed, ruleset=ruleset
    )
    await service.join(Actor(other_id, other_name), table.channel_id)
    await service.start(host, table.channel_id)
    game = await service.repo.game_in_channel(table.channel_id)
    assert game is not None
    return game.id


async def _advance(service: GameService, game_id: int, *, to_middle: bool) -> int:
    """Play AI-chosen moves for whoever owes a decision; stop in the middle of the game
    (`_mid_game`) when ``to_middle``, else at its end. Returns the commands played."""
    played = 0
    while True:
        game = await service.repo.get_game(game_id)
        if game.status is not GameStatus.ACTIVE or game.state_json is None:
            return played
        rules = get_ruleset(game.ruleset)
        state = rules.load_state(game.state_json)
        if to_middle and _mid_game(state, played):
            return played
        seat = rules.pending(state)[0].seat
        seats = {s.seat: s.user_id for s in await service.repo.seats(game_id)}
        command = ai_choice(state, seat, game.seed)
        await service.act(game_id, seat, command, actor_user_id=seats[seat])
        played += 1


def _clone(path: Path, template_ids: Sequence[int], copies: int, first_channel: int) -> None:
    """Copy finished games (row, seats, log) ``copies`` times under new ids and channels."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        columns = {
            table: [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            for table in ("games", "seats", "game_log")
        }
        game_cols = [c for c in columns["games"] if c not in ("id", "channel_id")]
        seat_cols = [c for c in columns["seats"] if c != "game_id"]
        log_cols = [c for c in columns["game_log"] if c != "game_id"]
        conn.execute("BEGIN IMMEDIATE")
        for index in range(copies):
            template = template_ids[index % len(template_ids)]
            cursor = conn.execute(
                f"INSERT INTO games (channel_id, {', '.join(game_cols)}) "
                f"SELECT ?, {', '.join(game_cols)} FROM games WHERE id = ?",
                (first_channel + index, template),
            )
            new_id = cursor.lastrowid
            conn.execute(
                f"INSERT INTO seats (game_id, {', '.join(seat_cols)}) "
                f"SELECT ?, {', '.join(seat_cols)} FROM seats WHERE game_id = ?",
                (new_id, template),
            )
            conn.execute(
                f"INSERT INTO game_log (game_id, {', '.join(log_cols)}) "
                f"SELECT ?, {', '.join(log_cols)} FROM game_log WHERE game_id = ?",
                (new_id, template),
            )
        conn.execute("COMMIT")
    finally:
        conn.close()


async def build_database(
    path: Path,
    guild_id: int,
    tables: Sequence[Table],
    *,
    stored: int,
    templates: int = 4,
    ruleset: str = "homm4",
) -> dict[int, int]:
    """Create the database at ``path``: one active mid-game game of ``ruleset`` per table,
    and finished games (of the same ruleset) up to ``stored`` games in all. Returns
    ``{channel id: game id}`` of the active ones.
    """
    repo = await open_repository(path, synchronous="NORMAL")
    service = GameService(repo, renderer=None)
    active: dict[int, int] = {}
    try:
        seed = 7_000
        for table in tables:
            while table.channel_id not in active:  # a game may end before Round 3: next seed
                seed += 1
                game_id = await _open_game(service, guild_id, table, seed, ruleset)
                await _advance(service, game_id, to_middle=True)
                if (await repo.get_game(game_id)).status is GameStatus.ACTIVE:
                    active[table.channel_id] = game_id
        archived = max(0, stored - sum(count_games(path).values()))
        finished: list[int] = []
        for index in range(min(templates, archived)):
            fake_users = ((9_000 + 2 * index, "archived a"), (9_001 + 2 * index, "archived b"))
            table = Table(8_000_000 + index, fake_users)
            game_id = await _open_game(service, guild_id, table, 8_000 + index, ruleset)
            await _advance(service, game_id, to_middle=False)
            finished.append(game_id)
    finally:
        await repo.close()
    if archived > len(finished):
        _clone(path, finished, archived - len(finished), first_channel=8_100_000)
    return active


def count_games(path: Path) -> dict[str, Any]:
    """How many games the database holds, by status."""
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT status, count(*) FROM games GROUP BY status").fetchall())
    finally:
        conn.close()
