"""Nothing a commit owes the players is lost (issue 15, `bot.news`): the news of a commit
is owed in storage from the commit's own statement until the deliverer confirms it; a bot
that stopped before confirming delivers it again at its next start, editing the posts that
went out instead of posting them twice; DMs that could not reach a closed inbox wait in the
database for the player's next interaction, across a restart. Played through the fake
Discord with the real bot (`bot.app.build_bot`); the moves are homm4's Risk Stack choices
(homm4:start-of-the-game)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.homm4 import adapter
from bot.outbox import DirectMessage, Outbox, Receipt
from engine.homm4 import RULESET as HOMM4
from tests.bot.discord_driver import Driver, message_texts, named_cards
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


def bot_posts(table: Table) -> list[FakeMessage]:
    """The bot's public messages in the game channel, oldest first."""
    return [m for m in table.channel.public_messages() if m.author is table.fake.bot_user]


async def two_player_game(driver: Driver) -> None:
    """ann opens a two-player homm4 game, bob joins, ann starts it."""
    table = driver.table
    await driver.slash(table.ann, "game new", where="here", players=2)
    await driver.slash(table.bob, "game join")
    await driver.slash(table.ann, "game start")


@pytest.mark.rule("homm4:start-of-the-game")
async def test_a_move_is_owed_from_its_commit_until_its_news_went_out(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        repo = bot.service.repo
        driver = Driver(table, bot, RecordingRenderer())
        await two_player_game(driver)
        assert await repo.undelivered_news() == [], "the start's news was confirmed"

        # The commit's own statement leaves the note (no delivery in between).
        game, state = await driver.state()
        seat = HOMM4.pending(state)[0].seat
        _, command = driver.choose(state, seat)
        new_state, events = HOMM4.apply(state, seat, command)
        await repo.commit(
            game.id,
            expected_version=game.version,
            seat=seat,
            command=command,
            state=new_state,
            events=events,
            actor_user_id=None,
        )
        assert await repo.undelivered_news() == [(game.id, game.version + 1)]
        assert await repo.news_delivered(game.id, game.version, game.version + 1) == 1
        assert await repo.news_delivered(game.id, game.version, game.version + 1) == 0

        # A move played through Discord is confirmed once its messages went out.
        await driver.step()
        assert await repo.undelivered_news() == []
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


@pytest.mark.rule("homm4:start-of-the-game")
async def test_news_not_confirmed_is_delivered_again_at_start_without_posting_twice(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, db = Table.create(fake_discord), tmp_path / "heroes.db"
    async with running_bot(fake_discord, db) as runner:
        bot = heroes_bot(runner)
        driver = Driver(table, bot, RecordingRenderer())
        await two_player_game(driver)

        async def stopped_before_confirming(receipt: Receipt) -> None:
            """The bot dies after handing the messages to Discord, before confirming."""

        monkeypatch.setattr(bot.service, "news_delivered", stopped_before_confirming)
        before, _ = await driver.state()
        await driver.step()
        game, state = await driver.state()
        owed = await bot.service.repo.undelivered_news()
        assert owed == [(game.id, v) for v in range(before.version + 1, game.version + 1)]
        posts = bot_posts(table)
        news = posts[-1]
        dms = {
            u.id: sum(not m.deleted for m in fake_discord.dms(u)) for u in (table.ann, table.bob)
        }

    async with running_bot(fake_discord, db) as runner:  # the restart
        bot = heroes_bot(runner)
        driver.use(bot)
        await bot.started_up.wait()
        await bot.wait_idle()
        assert await bot.service.repo.undelivered_news() == [], "redelivered and confirmed"
        again = bot_posts(table)
        assert [m.id for m in again] == [m.id for m in posts], "nothing was posted twice"
        assert news.edited_at is not None, "the move's post was edited in place"
        for pending in HOMM4.pending(state):
            user = await driver.user_of(pending.seat)
            assert f"<@{user.id}>" in news.content, "the player who owes a decision is pinged"
        # DMs edit their slot's message (a new decision is sent anew, the old one deleted):
        # nobody has more DMs on screen than before, none is there twice.
        for user in (table.ann, table.bob):
            live = [m.content for m in fake_discord.dms(user) if not m.deleted]
            assert len(live) == len(set(live)), f"{user.name} got a DM twice: {live}"
            assert len(live) <= dms[user.id], f"{user.name} got a DM the first time did not"
        # Privacy (homm4:card-types): the redelivered post names no card of a Hand or Risk Stack.
        hidden = adapter.private_cards(state)
        for text in message_texts(news):
            assert not named_cards(text) & hidden, text
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


@pytest.mark.rule("homm4:card-types")
async def test_a_dm_to_a_closed_inbox_waits_in_the_database_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, db = Table.create(fake_discord), tmp_path / "heroes.db"
    async with running_bot(fake_discord, db) as runner:
        bot = heroes_bot(runner)
        await fake_discord.slash(table.ann, table.channel, "game new", where="here", players=3)
        await bot.wait_idle()
        await fake_discord.slash(table.cara, table.channel, "game join")
        await bot.wait_idle()
        hand = DirectMessage(table.cara.id, 1, "hand", "Your Hand: #12 Angel")
        old = DirectMessage(table.cara.id, 1, "decision", "Choose: #7 or #9")
        new = DirectMessage(table.cara.id, 1, "decision", "Choose: #30 or #31")
        report = await bot.deliverer.deliver(Outbox(dms=[hand, old, new]))
        assert report.closed_dms == [table.cara.id], "cara's DMs are closed"
        held = await bot.deliverer.undelivered(table.cara.id)
        assert [dm.text for dm in held] == ["Your Hand: #12 Angel", "Choose: #30 or #31"]

    async with running_bot(fake_discord, db) as runner:  # the restart
        bot = heroes_bot(runner)
        helped = await fake_discord.slash(table.cara, table.channel, "help")
        await bot.wait_idle()
        shown = [
            m.content
            for m in helped.messages
            if m.ephemeral and m.content.startswith(("Your Hand", "Choose"))
        ]
        assert shown == ["Your Hand: #12 Angel", "Choose: #30 or #31"]
        assert await bot.deliverer.undelivered(table.cara.id) == [], "shown once"
        again = await fake_discord.slash(table.cara, table.channel, "help")
        await bot.wait_idle()
        assert not any("#12" in m.content for m in again.messages)
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


def test_storage_keeps_no_channel_text_and_dms_apart(tmp_path: Path) -> None:
    """The news owed is kept as (game, version) only — no message text, so no channel
    text to keep free of private cards (house rule 6) — and the held DMs in a table of
    their own whose rows are DMs by type (hand, decision, notice)."""
    import asyncio

    from storage import open_repository

    async def columns() -> None:
        repo = await open_repository(tmp_path / "heroes.db")
        await repo.close()

    asyncio.run(columns())
    conn = sqlite3.connect(tmp_path / "heroes.db")
    try:
        owed = [row[1] for row in conn.execute("PRAGMA table_info(undelivered_commits)")]
        held = [row[1] for row in conn.execute("PRAGMA table_info(held_direct_messages)")]
        assert owed == ["game_id", "version", "created_at"]
        assert held == ["id", "user_id", "game_id", "slot", "message", "created_at"]
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO held_direct_messages (user_id, game_id, slot, message, created_at) "
                "VALUES (1, 1, 'post', '{}', 0)"
            )
    finally:
        conn.close()


@pytest.mark.rule("homm4:start-of-the-game")
async def test_the_console_confirms_the_news_it_printed(tmp_path: Path) -> None:
    """At the terminal the news is delivered when printed (`bot.local.Console`): nothing is
    left owed to be posted by a Discord bot started later on the same database."""
    from bot import local
    from bot.service import GameService
    from storage import open_repository

    repo = await open_repository(tmp_path / "local.db", synchronous="NORMAL")
    try:
        service = GameService(repo, renderer=None)
        console = local.Console(service, 1, 1, tmp_path / "images", seed=17)
        text = await console.start()
        assert "Game #1 begins" in text
        assert await repo.undelivered_news() == []
        pressed = await console.handle("!3")  # a Risk Stack choice, then the computer's
        assert "✅ Risk Stack" in pressed
        game = await repo.get_game(console.game_id or 0)
        assert game.version >= 1
        assert await repo.undelivered_news() == []
    finally:
        await repo.close()
