"""Deadlines that act, through the real bot and the fake Discord with a clock the test
controls (issue 15, `bot.deadlines`): a game in which one player never answers finishes
with no moderator command, in every ruleset; a restart between a deadline's time and its
action fires it once; /game extend and /mod deadline refuse a seat that owes nothing; the
other players' vote to skip plays the default."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.discord_bot import HeroesBot
from storage.records import SENT, DeadlineSpec, Game, GameStatus, LogEntry, LogKind, MessageRef
from tests.bot.discord_helpers import Table, click_raced, heroes_bot, running_bot
from tests.bot.service_helpers import FakeClock
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

TICK = 0.02
"""Seconds between reminder ticks in these tests (a minute in production)."""

WAIT = 60.0
"""Seconds a message is waited for before the test fails: only a bot that hangs takes it."""


async def ticks(bot: HeroesBot, count: int = 2) -> None:
    """Wait until the reminder loop has ticked ``count`` more times (counted, not timed)."""
    loop = bot.reminders
    target = loop.ticks + count
    while loop.ticks < target:
        await asyncio.sleep(TICK)
    await bot.wait_idle()


async def channel_game(bot: HeroesBot, channel_id: int) -> Game:
    """The channel's game (the finished one once it is archived)."""
    repo = bot.service.repo
    found = await repo.game_in_channel(channel_id)
    if found is None:
        archive = await repo.list_games(channel_id=channel_id, limit=1)
        found = await repo.get_game(archive[0].id)
    return found


async def full_log(bot: HeroesBot, game_id: int) -> list[LogEntry]:
    """Every entry of the game's log, oldest first."""
    entries: list[LogEntry] = []
    while True:
        page = await bot.service.repo.read_log_unredacted(
            game_id, after_seq=entries[-1].seq if entries else 0, limit=1000
        )
        entries += page.entries
        if not page.has_more or not page.entries:
            return entries


async def start_game(
    fake: FakeDiscord,
    bot: HeroesBot,
    table: Table,
    new: dict[str, Any],
    *,
    joiners: Sequence[FakeUser] = (),
    ai: int = 0,
) -> None:
    """ann opens a game in the table's channel (``/game new where:here`` with the options
    ``new``, by name), ``ai`` computer players are added (/game add-ai) and ``joiners`` join it, and
    ann starts it; the bot is waited out after each command."""
    channel = table.channel
    await fake.slash(table.ann, channel, "game new", where="here", **new)
    await bot.wait_idle()
    if ai:
        await fake.slash(table.ann, channel, "game add-ai", count=ai)
        await bot.wait_idle()
    for user in joiners:
        await fake.slash(user, channel, "game join")
        await bot.wait_idle()
    await fake.slash(table.ann, channel, "game start")
    await bot.wait_idle()


async def never_answers(
    fake: FakeDiscord,
    tmp_path: Path,
    *,
    ruleset: str,
    players: int,
    policy: str,
    options: dict[str, Any],
) -> tuple[Game, list[str]]:
    """ann opens a game of ``ruleset`` with ``players - 1`` computer players and the
    deadline ``policy``, starts it and never answers; the clock moves an hour at a time.
    Returns the game at the end and the channel's texts."""
    table = Table.create(fake)
    clock = FakeClock()
    channel = table.channel
    async with running_bot(
        fake, tmp_path / "db.sqlite", clock=clock, reminder_interval=TICK
    ) as runner:
        bot = heroes_bot(runner)
        await start_game(
            fake,
            bot,
            table,
            {
                "ruleset": ruleset,
                "players": players,
                "deadline-hours": 1,
                "deadline-policy": policy,
                **options,
            },
            ai=players - 1,
        )
        for _ in range(30):
            game = await channel_game(bot, channel.id)
            if game.status is not GameStatus.ACTIVE:
                break
            clock.advance(minutes=61)
            await ticks(bot)
        game = await channel_game(bot, channel.id)
        entries = await full_log(bot, game.id)
        assert not [e for e in entries if e.kind is LogKind.MODERATOR]
        mine = [e for e in entries if e.kind is LogKind.COMMAND and e.seat == 0]
        assert mine and all(e.actor_user_id is None for e in mine)  # ann never answered
        assert any((e.reason or "").startswith("deadline missed:") for e in mine)
        runner.assert_no_errors()
    fake.assert_no_violations()
    return game, [m.content for m in channel.public_messages()]


async def test_a_four_player_homm4_game_finishes_with_a_player_who_never_answers(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    game, texts = await never_answers(
        fake_discord, tmp_path, ruleset="homm4", players=4, policy="computer", options={}
    )
    assert game.status is GameStatus.FINISHED
    assert any("The game is over" in t for t in texts)
    assert any("ran out: the computer player's answer was played" in t for t in texts)
    assert any("missed 2 deadlines in a row and is away" in t for t in texts)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset", "policy", "options"),
    [
        ("mmh", "default", {"options": "length:quick"}),
        ("homm3", "computer", {}),
        ("heroforge", "default", {}),
    ],
)
async def test_every_ruleset_finishes_with_a_player_who_never_answers(
    fake_discord: FakeDiscord, tmp_path: Path, ruleset: str, policy: str, options: dict[str, Any]
) -> None:
    game, texts = await never_answers(
        fake_discord, tmp_path, ruleset=ruleset, players=2, policy=policy, options=options
    )
    assert game.status is GameStatus.FINISHED
    assert any("The game is over" in t for t in texts)
    assert any("is away" in t for t in texts)


async def test_a_restart_between_the_deadline_and_its_action_fires_it_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    clock = FakeClock()
    channel = table.channel
    db = tmp_path / "db.sqlite"
    async with running_bot(fake_discord, db, clock=clock, reminder_interval=TICK) as runner:
        bot = heroes_bot(runner)
        await start_game(
            fake_discord,
            bot,
            table,
            {"players": 2, "deadline-hours": 2, "deadline-policy": "default"},
            joiners=[table.bob],
        )
        runner.assert_no_errors()
    clock.advance(hours=3)  # the deadline passes while the bot is down
    for _ in range(2):  # the first start acts; the second finds nothing left to do
        async with running_bot(fake_discord, db, clock=clock, reminder_interval=TICK) as runner:
            bot = heroes_bot(runner)
            await ticks(bot, 3)
            runner.assert_no_errors()
    ran_out = [m for m in channel.public_messages() if "time for a decision" in m.content]
    assert len(ran_out) == 1 and "the default answer was played" in ran_out[0].content
    fake_discord.assert_no_violations()


def last_with(messages: list[FakeMessage], words: str) -> FakeMessage:
    """The newest of ``messages`` containing ``words``."""
    return next(m for m in reversed(messages) if words in m.content)


async def test_refusals_for_a_seat_owing_nothing_and_a_vote_to_skip_by_majority(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    clock = FakeClock()
    channel = table.channel
    async with running_bot(
        fake_discord, tmp_path / "db.sqlite", clock=clock, reminder_interval=TICK
    ) as runner:
        bot = heroes_bot(runner)
        await start_game(
            fake_discord,
            bot,
            table,
            {"players": 4, "deadline-hours": 1},
            joiners=[table.bob, table.cara, table.mod],
        )
        # Red (ann) owes the first decision; Blue (bob) owes nothing.
        extend = await fake_discord.slash(table.bob, channel, "game extend")
        await bot.wait_idle()
        assert any(m.ephemeral and "owe no decision" in m.content for m in extend.messages), extend
        late = await fake_discord.slash(table.mod, channel, "mod deadline", hours=5, seat="Blue")
        await bot.wait_idle()
        assert any(
            m.ephemeral and "Blue owes no decision now" in m.content for m in late.messages
        ), late
        game = await channel_game(bot, channel.id)
        deadlines = await bot.service.repo.deadlines(game.id)
        assert {(d.seat, d.kind) for d in deadlines} == {(0, "turn"), (0, "reminder")}
        clock.advance(minutes=61)
        await ticks(bot)
        notice = last_with(channel.public_messages(), "has run out")
        assert "2 of 3 votes" in notice.content
        vote = notice.find_component(label="Vote: play Red's default now")["custom_id"]
        first = await fake_discord.click(table.bob, notice, vote)
        await bot.wait_idle()
        assert any("1 of 2 needed" in m.content for m in first.messages)
        before = (await channel_game(bot, channel.id)).version
        second = await fake_discord.click(table.cara, notice, vote)
        await bot.wait_idle()
        assert any("Your vote decided" in m.content for m in second.messages)
        assert (
            "2 of 3 players voted" in last_with(channel.public_messages(), "players voted").content
        )
        after = await channel_game(bot, channel.id)
        assert after.version > before
        skipped = [
            e for e in await full_log(bot, after.id) if (e.reason or "").startswith("vote to skip")
        ]
        assert len(skipped) == 1 and skipped[0].seat == 0
        # the vote is over: its button is taken off; a click still on its way is stale
        assert not notice.components and "has run out" in notice.content
        shown = notice.edits[-1]["components"]
        stale = await click_raced(fake_discord, table.mod, notice, vote, shown)
        await bot.wait_idle()
        assert any(m.ephemeral and "move" in m.content for m in stale.messages), stale
        assert (await channel_game(bot, channel.id)).version == after.version
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_a_reminder_whose_confirmation_was_lost_is_edited_in_place_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    clock = FakeClock()
    channel = table.channel
    db = tmp_path / "db.sqlite"
    async with running_bot(fake_discord, db, clock=clock, reminder_interval=TICK) as runner:
        bot = heroes_bot(runner)
        await start_game(
            fake_discord, bot, table, {"players": 2, "deadline-hours": 8}, joiners=[table.bob]
        )
        mark = fake_discord.world.message_seq
        clock.advance(hours=6, minutes=1)
        reminder = await fake_discord.wait_for_message(
            channel, check=lambda m: "waiting for you" in m.content, after=mark, timeout=WAIT
        )
        await ticks(bot)
        repo = bot.service.repo
        game = await channel_game(bot, channel.id)
        assert {d.kind for d in await repo.deadlines(game.id)} == {"turn"}  # confirmed
        # As if the bot had stopped after posting and before confirming: the held reminder
        # and the post's reference, as the delivery left them.
        await repo.set_deadline(
            game.id, DeadlineSpec(0, "reminder" + SENT, clock.now + timedelta(minutes=5))
        )
        await repo.put_message_ref(
            f"post:{channel.id}",
            f"deadline:{game.id}:0:reminder",
            MessageRef(channel.id, int(reminder.id)),
        )
        runner.assert_no_errors()
    clock.advance(minutes=6)
    async with running_bot(fake_discord, db, clock=clock, reminder_interval=TICK) as runner:
        bot = heroes_bot(runner)
        await ticks(bot, 3)
        assert {d.kind for d in await bot.service.repo.deadlines(game.id)} == {"turn"}
        runner.assert_no_errors()
    reminders = [m for m in channel.public_messages() if "waiting for you" in m.content]
    assert len(reminders) == 1 and reminders[0].id == reminder.id
    assert len(reminders[0].edits) == 1  # posted again in place, not a second message
    fake_discord.assert_no_violations()
