"""The reads a move needs, together: a game with its seats, the settings of its deadlines,
and the game row a commit leaves (`Repository.committed_game`), which the service uses
instead of reading the game again."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from storage.errors import GameNotFound
from storage.records import GameSettings, GameStatus, GuildSettings
from storage.repository import Repository
from tests.storage.dice_race import DICE_RACE
from tests.storage.helpers import load, player, started_game


async def test_a_game_is_read_with_its_seats(repo: Repository) -> None:
    game = await started_game(repo, 1, players=3, seed=5)
    read, seats = await repo.game_with_seats(game.id)
    assert read == await repo.get_game(game.id)
    assert seats == await repo.seats(game.id)
    assert [(s.seat, s.user_id) for s in seats] == [(0, player(0)), (1, player(1)), (2, player(2))]
    with pytest.raises(GameNotFound):
        await repo.game_with_seats(game.id + 99)


async def test_deadline_settings_are_the_games_and_its_guilds(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2, guild_id=7)
    assert await repo.deadline_settings(game.id, 7) == (GameSettings(game.id), GuildSettings(7))
    assert await repo.deadline_settings(game.id, None) == (GameSettings(game.id), GuildSettings(0))
    await repo.save_game_settings(GameSettings(game.id, turn_deadline=timedelta(hours=2)))
    await repo.save_guild_settings(
        GuildSettings(7, turn_deadline=timedelta(days=1), reminder_every=timedelta(hours=6))
    )
    own, guild = await repo.deadline_settings(game.id, 7)
    assert own == await repo.game_settings(game.id)
    assert own.turn_deadline == timedelta(hours=2)
    assert guild == await repo.guild_settings(7)
    assert (guild.turn_deadline, guild.reminder_every) == (timedelta(days=1), timedelta(hours=6))


async def test_the_committed_game_is_the_row_get_game_reads_after_the_commit(
    repo: Repository,
) -> None:
    """Every commit of a whole Dice Race (target 5: a few moves, the last one ends it):
    the row built from the row before and the commit's entry equals the row read back."""
    game = await started_game(repo, 1, players=2, seed=3, options={"target": 5})
    rng = random.Random(4)
    row = game
    finished = False
    for _ in range(200):
        state = load(row)
        seat = DICE_RACE.pending(state)[0].seat
        command = rng.choice(DICE_RACE.legal_commands(state, seat))
        new_state, events = DICE_RACE.apply(state, seat, command)
        result = DICE_RACE.result(new_state)
        entry = await repo.commit(
            game.id,
            expected_version=state.version,
            seat=seat,
            command=command,
            state=new_state,
            events=events,
            actor_user_id=player(seat),
            result=result,
        )
        built = repo.committed_game(row, entry, new_state, result)
        row = await repo.get_game(game.id)
        assert built == row
        if result.finished:
            finished = True
            break
    assert finished
    assert row.status is GameStatus.FINISHED and row.ended_at is not None
    assert row.result is not None and list(row.result["winners"]) == list(result.winners)
