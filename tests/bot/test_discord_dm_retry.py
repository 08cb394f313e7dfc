"""Closed DMs are tried again at the start of each of the player's turns, once per turn:
cara (DMs closed: 403/50007) plays against the computer through the real bot and the fake
Discord. While her DMs stay closed each new turn costs one refused DM and no new channel
notice (she still gets her cards ephemerally when she acts); once she opens them, the next
turn's DM arrives and her seat is marked reachable again."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from engine.homm4 import RULESET as HOMM4
from tests.bot.discord_driver import Driver
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

SEED = 7
"""The game's seed: a game that lasts well past cara's third turn (an unseeded game could
end first)."""


async def test_closed_dms_are_retried_once_per_turn(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    table = Table.create(fake_discord)
    cara, channel = table.cara, table.channel
    dm_channel = fake_discord.dm_channel(cara)

    def refused_dms() -> int:
        path = f"/channels/{dm_channel.id}/messages"
        return sum(1 for r in fake_discord.requests_to("POST", path) if r.status == 403)

    def notices() -> int:
        return sum(
            1 for m in channel.public_messages() if "cannot send you direct messages" in m.content
        )

    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        driver = Driver(table, heroes_bot(runner), RecordingRenderer())
        await driver.slash(cara, "game new", where="here", players=2)
        await driver.slash(cara, "game add-ai")
        await driver.slash(cara, "game start")
        assert (refused_dms(), notices()) == (1, 1), "one attempt at the start, one notice"

        async def play_until_cara_starts_a_turn() -> None:
            for _ in range(400):
                _, before = await driver.state()
                await driver.step()
                _, after = await driver.state()
                if after.active == 0 and (before.active != 0 or before.turn != after.turn):
                    return
                assert HOMM4.pending(after), "the game ended first"
            raise AssertionError("cara's turn never began")

        for turn in (1, 2):
            attempts = refused_dms()
            await play_until_cara_starts_a_turn()
            assert refused_dms() == attempts + 1, f"turn {turn}: one retry"
            assert notices() == 1, "no new notice while the DMs stay closed"
            seats = await driver.bot.service.repo.seats(1)
            assert seats[0].dm_reachable is False

        fake_discord.open_dms(cara)
        await play_until_cara_starts_a_turn()
        assert any("your cards" in m.content for m in fake_discord.dms(cara))
        assert (await driver.bot.service.repo.seats(1))[0].dm_reachable is True
        assert notices() == 1
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
