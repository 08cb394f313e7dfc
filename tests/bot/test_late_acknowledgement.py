"""An acknowledgement Discord refuses as too late (404, code 10062 Unknown interaction) is
no bug: the bot logs a WARNING saying the acknowledgement came too late, logs no ERROR,
and does not run the action — the player was told the application did not respond and
may send it again, which must not apply twice (issue 21)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


async def test_a_late_acknowledgement_is_a_warning_and_the_action_is_not_run(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table.create(fake_discord)
    caplog.set_level(logging.INFO)
    async with running_bot(fake_discord, tmp_path / "late.db") as runner:
        bot = heroes_bot(runner)
        fake_discord.ack_timeout = 0.0  # the window has closed when any callback arrives
        late = await fake_discord.slash(table.ann, table.channel, "game new", where="here")
        await bot.wait_idle()
        assert [(c.status, c.code) for c in late.callbacks] == [(404, 10062)]
        fake_discord.ack_timeout = 3.0

        bot_records = [r for r in caplog.records if r.name.startswith("bot")]
        warnings = [r for r in bot_records if r.levelno == logging.WARNING]
        assert [r.levelno for r in bot_records if r.levelno >= logging.ERROR] == []
        (warning,) = warnings
        text = warning.getMessage()
        assert text.startswith("/game new by user")
        assert "the acknowledgement came too late" in text and "10062" in text
        assert "the action was not run" in text
        assert await bot.service.repo.game_in_channel(table.channel.id) is None

        again = await fake_discord.slash(table.ann, table.channel, "game new", where="here")
        assert "Game #1 is open" in (await again.final_message()).content
        runner.assert_no_errors()
    assert [v.kind for v in fake_discord.violations] == ["late_ack"]
