"""Deadlines and reminders the bot reads back on start; guild settings with defaults."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from storage.records import (
    DEFAULT_REMINDER_EVERY,
    DEFAULT_TURN_DEADLINE,
    DeadlineKind,
    DeadlineSpec,
    GuildSettings,
)
from storage.repository import Repository
from tests.storage.conftest import START, OpenStore
from tests.storage.dice_race import DICE_RACE
from tests.storage.helpers import HOST, load, player, started_game

HOUR = timedelta(hours=1)


async def test_due_deadlines_come_back_soonest_first_and_survive_a_restart(
    repo: Repository, open_store: OpenStore
) -> None:
    a = await started_game(repo, 10, guild_id=3)
    b = await started_game(repo, 20, guild_id=3)
    await repo.set_deadline(a.id, DeadlineSpec(0, DeadlineKind.TURN, START + 48 * HOUR))
    await repo.set_deadline(a.id, DeadlineSpec(0, DeadlineKind.REMINDER, START + 12 * HOUR))
    await repo.set_deadline(b.id, DeadlineSpec(1, DeadlineKind.TURN, START + 2 * HOUR))
    await repo.set_deadline(b.id, DeadlineSpec(1, DeadlineKind.TURN, START + 3 * HOUR))  # moved

    await repo.close()
    reopened = await open_store()
    try:
        everything = await reopened.deadlines()
        assert [(d.game_id, d.channel_id, d.seat, d.kind, d.due_at) for d in everything] == [
            (b.id, 20, 1, "turn", START + 3 * HOUR),
            (a.id, 10, 0, "reminder", START + 12 * HOUR),
            (a.id, 10, 0, "turn", START + 48 * HOUR),
        ]
        assert [d.game_id for d in await reopened.due_deadlines(START + 3 * HOUR)] == [b.id]
        assert await reopened.due_deadlines(START) == []
        assert len(await reopened.due_deadlines(START + 48 * HOUR)) == 3

        await reopened.pause(b.id, moderator_user_id=HOST, reason="break")
        assert [d.game_id for d in await reopened.due_deadlines(START + 99 * HOUR)] == [a.id] * 2
        assert await reopened.clear_deadlines(a.id, kind="reminder") == 1
        assert [d.kind for d in await reopened.deadlines(a.id)] == ["turn"]
    finally:
        await reopened.close()


async def test_a_commit_replaces_the_games_deadlines_atomically(repo: Repository) -> None:
    game = await started_game(repo, 1, players=2)
    await repo.set_deadline(game.id, DeadlineSpec(0, "turn", START + 48 * HOUR))
    await repo.set_deadline(game.id, DeadlineSpec(0, "reminder", START + 12 * HOUR))
    state = load(game)
    command = DICE_RACE.ai_command(state, 0, random.Random(1))
    new_state, events = DICE_RACE.apply(state, 0, command)
    await repo.commit(
        game.id,
        expected_version=0,
        seat=0,
        command=command,
        state=new_state,
        events=events,
        actor_user_id=player(0),
        deadlines=[DeadlineSpec(1, "turn", START + 50 * HOUR)],
    )
    assert [(d.seat, d.kind, d.due_at) for d in await repo.deadlines(game.id)] == [
        (1, "turn", START + 50 * HOUR)
    ]


async def test_guild_settings_default_and_persist(repo: Repository) -> None:
    assert await repo.guild_settings(9) == GuildSettings(
        9, None, DEFAULT_TURN_DEADLINE, DEFAULT_REMINDER_EVERY
    )
    chosen = GuildSettings(9, moderator_role_id=1234, turn_deadline=24 * HOUR, reminder_every=None)
    await repo.save_guild_settings(chosen)
    assert await repo.guild_settings(9) == chosen
    assert (await repo.guild_settings(10)).moderator_role_id is None
    with pytest.raises(ValueError):
        await repo.save_guild_settings(GuildSettings(9, turn_deadline=timedelta(0)))


async def test_naive_times_are_refused(repo: Repository) -> None:
    game = await started_game(repo, 1)
    with pytest.raises(ValueError, match="timezone-aware"):
        await repo.set_deadline(game.id, DeadlineSpec(0, "turn", START.replace(tzinfo=None)))
