"""A DM that could not be delivered waits for its player's next interaction — but only
while they still hold a seat: a kicked or replaced player never sees their old hand
(privacy, homm4:card-types: Hands are private to their seat's player)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.outbox import DirectMessage, Outbox
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


@pytest.mark.rule("homm4:card-types")
@pytest.mark.parametrize(
    ("action", "options"),
    [("mod replace", {"seat": "Blue", "user": "bob"}), ("mod kick", {"seat": "Blue"})],
)
async def test_a_player_who_lost_the_seat_is_not_shown_the_undelivered_hand(
    fake_discord: FakeDiscord, tmp_path: Path, action: str, options: dict[str, Any]
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        await fake_discord.slash(table.ann, table.channel, "game new", where="here", players=3)
        await bot.wait_idle()
        await fake_discord.slash(table.cara, table.channel, "game join")
        await bot.wait_idle()
        hand = DirectMessage(
            table.cara.id, 1, "hand", "Your Hand: #12 Angel", fallback_channel_id=table.channel.id
        )
        notice = DirectMessage(table.cara.id, 1, "notice", "Game #1: your refused choice #12")
        report = await bot.deliverer.deliver(Outbox(dms=[hand, notice]))
        assert report.closed_dms == [table.cara.id], "cara's DMs are closed"
        assert len(await bot.deliverer.undelivered(table.cara.id)) == 2
        if "user" in options:
            options = {**options, "user": table.bob}
        await fake_discord.slash(table.mod, table.channel, action, **options)
        await bot.wait_idle()
        seats = await bot.service.repo.seats(1)
        assert all(s.user_id != table.cara.id for s in seats)
        helped = await fake_discord.slash(table.cara, table.channel, "help")
        await bot.wait_idle()
        texts = [m.content for m in helped.messages]
        assert not any("#12" in t or "Angel" in t for t in texts), texts
        assert await bot.deliverer.undelivered(table.cara.id) == []
    fake_discord.assert_no_violations()


async def test_a_seated_player_still_sees_the_undelivered_hand(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        await fake_discord.slash(table.ann, table.channel, "game new", where="here", players=3)
        await bot.wait_idle()
        await fake_discord.slash(table.cara, table.channel, "game join")
        await bot.wait_idle()
        mine = DirectMessage(table.cara.id, 1, "hand", "Your Hand: #12 Angel")
        await bot.deliverer.deliver(Outbox(dms=[mine]))
        helped = await fake_discord.slash(table.cara, table.channel, "help")
        await bot.wait_idle()
        private = [m.content for m in helped.messages if m.content.startswith("Your Hand")]
        assert private == ["Your Hand: #12 Angel"]
        assert await bot.deliverer.reachability.holds_seat(table.cara.id, 1)
        assert not await bot.deliverer.reachability.holds_seat(table.bob.id, 1)
        assert not await bot.deliverer.reachability.holds_seat(table.cara.id, 99)
    fake_discord.assert_no_violations()
