"""Deadlines and reminders: stored with the game, fired by `due_reminders`, kept over a
restart, and a deadline per turn rather than per command."""

from __future__ import annotations

from datetime import timedelta

from bot.service import GameService
from storage.records import GuildSettings
from tests.bot.service_helpers import (
    GUILD,
    Served,
    click_choice,
    current,
    person,
    started_game,
)


async def test_a_reminder_then_the_deadline_post_and_both_survive_a_restart(served: Served) -> None:
    clock, repo, service = served
    await repo.save_guild_settings(GuildSettings(GUILD, 4321, timedelta(hours=8), None))
    game = await started_game(service, seed=31)
    deadlines = {d.kind: d.due_at for d in await repo.deadlines(game.id)}
    assert deadlines["turn"] == clock.now + timedelta(hours=8)
    assert deadlines["reminder"] == clock.now + timedelta(hours=6)  # 75% without a cadence
    assert (await service.due_reminders(clock.advance(hours=5))).posts == []
    restarted = GameService(repo, renderer=None, clock=clock)
    reminder = await restarted.due_reminders(clock.advance(hours=1, minutes=1))
    assert len(reminder.posts) == 1
    assert reminder.posts[0].mention_user_ids == (1,)
    assert "waiting for you" in reminder.posts[0].text and "<t:" in reminder.posts[0].text
    assert (await restarted.due_reminders(clock.advance(hours=1))).posts == []
    passed = await restarted.due_reminders(clock.advance(hours=1))
    assert len(passed.posts) == 1
    text = passed.posts[0].text
    assert "has run out" in text and "<@&4321>" in text and "/mod skip" in text
    assert passed.posts[0].mention_role_ids == (4321,)
    assert (await restarted.due_reminders(clock.advance(hours=10))).posts == []


async def test_reminders_follow_the_guilds_cadence(served: Served) -> None:
    clock, repo, service = served
    await repo.save_guild_settings(
        GuildSettings(GUILD, None, timedelta(hours=48), timedelta(hours=12))
    )
    await started_game(service, seed=32)
    fired = 0
    for _ in range(47):
        fired += len((await service.due_reminders(clock.advance(hours=1))).posts)
    assert fired == 3  # at 12 h, 24 h and 36 h; the deadline itself at 48 h
    last = await service.due_reminders(clock.advance(hours=1))
    assert "Moderators:" in last.posts[0].text


async def test_a_deadline_lasts_the_whole_turn_and_games_can_have_none(served: Served) -> None:
    clock, repo, service = served
    game = await started_game(service, seed=33)
    first = next(d.due_at for d in await repo.deadlines(game.id) if d.kind == "turn")
    clock.advance(minutes=30)
    await click_choice(service, game.id, person(1), 0)
    _, state = await current(service, game.id)
    assert state.setup_step == "army"
    again = next(d.due_at for d in await repo.deadlines(game.id) if d.kind == "turn")
    assert again == first
    await service.new_game(person(5), 777, guild_id=GUILD, deadline_hours=0)
    await service.add_ai(person(5), 777)
    await service.start(person(5), 777)
    other = await repo.game_in_channel(777)
    assert other is not None and await repo.deadlines(other.id) == []
