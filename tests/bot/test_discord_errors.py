"""Errors, rights and suggestions through the real bot: user errors answered ephemerally,
bugs apologised for (and logged without private details), the moderator role honoured,
autocomplete answered from the service."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


async def test_a_user_error_is_an_ephemeral_reply(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        joined = await fake_discord.slash(table.bob, table.channel, "game join")
        message = await joined.final_message()
        assert message.ephemeral and "There is no game in this channel" in message.content
        moved = await fake_discord.slash(table.bob, table.channel, "purchase done")
        message = await moved.final_message()
        assert message.ephemeral and "/game new" in message.content
        runner.assert_no_errors()
    assert table.channel.public_messages() == []
    fake_discord.assert_no_violations()


async def test_a_bug_gets_an_apology_and_a_log_line_without_private_details(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)

        secret = "Archangel #17 in the Risk Stack"

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise KeyError(secret)  # a message naming a private card, built at run time

        monkeypatch.setattr(bot.service, "run", broken)
        with caplog.at_level(logging.ERROR, logger="bot.discord_errors"):
            used = await fake_discord.slash(table.ann, table.channel, "game status")
            message = await used.final_message()
            await bot.wait_idle()
        assert message.ephemeral and "Sorry, something went wrong" in message.content
        assert "the game is unchanged" in message.content
        reference = message.content.split("reference ")[1].rstrip(").")
        records = [r for r in caplog.records if r.name == "bot.discord_errors"]
        assert len(records) == 1
        logged = records[0].getMessage()
        assert reference in logged and "/game status" in logged and str(table.ann.id) in logged
        assert "KeyError" in logged and "Archangel" not in logged and "#17" not in logged
        assert records[0].exc_info is None
    assert [m for m in table.channel.public_messages() if not m.deleted] == []
    fake_discord.assert_no_violations()


async def test_the_moderator_role_counts_as_moderator(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    helper_role = table.guild.create_role("Game helpers", 0)
    helper = fake_discord.create_user("hal")
    table.guild.add_member(helper, roles=[helper_role])
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        await fake_discord.slash(table.ann, table.channel, "game new", where="here")
        await bot.wait_idle()
        refused = await fake_discord.slash(helper, table.channel, "game options", players=3)
        assert "host" in (await refused.final_message()).content.lower()
        await fake_discord.slash(table.mod, table.channel, "settings", role=helper_role)
        await bot.wait_idle()
        settings = await bot.service.repo.guild_settings(table.guild.id)
        assert settings.moderator_role_id == helper_role.id
        allowed = await fake_discord.slash(helper, table.channel, "game options", players=3)
        await bot.wait_idle()
        assert "host" not in (await allowed.final_message()).content.lower()
        assert "3" in next(m for m in table.channel.public_messages() if m.buttons()).content
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_autocomplete_comes_from_the_service(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        cards = await fake_discord.autocomplete(
            table.ann, table.channel, "card", "name", name="ang"
        )
        assert cards.choices and all("ang" in c["name"].lower() for c in cards.choices)
        assert len(cards.choices) <= 25
        await fake_discord.slash(table.ann, table.channel, "game new", where="here", players=2)
        await bot.wait_idle()
        await fake_discord.slash(table.bob, table.channel, "game join")
        await bot.wait_idle()
        await fake_discord.slash(table.ann, table.channel, "game start")
        await bot.wait_idle()
        games = await fake_discord.autocomplete(table.ann, table.channel, "hand", "game", game="")
        assert [c["value"] for c in games.choices] == [1]
        risk = await fake_discord.autocomplete(
            table.ann, table.channel, "setup risk", "cards", cards=""
        )
        assert risk.choices and all(c["value"].startswith("#") for c in risk.choices)
        nothing = await fake_discord.autocomplete(
            table.bob, table.channel, "setup risk", "cards", cards=""
        )
        assert nothing.choices == []
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_a_failing_autocomplete_offers_nothing_and_logs_quietly(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)

        secret = "Archangel"

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError(secret)

        monkeypatch.setattr(bot.service, "autocomplete", broken)
        with caplog.at_level(logging.ERROR):
            found = await fake_discord.autocomplete(
                table.ann, table.channel, "card", "name", name="a"
            )
        assert found.choices == []
        messages = [r.getMessage() for r in caplog.records]
        assert any("autocomplete" in m and "/card" in m for m in messages)
        assert not any("Archangel" in m for m in messages)
        assert not any("Ignoring exception" in m for m in messages)
    fake_discord.assert_no_violations()


async def test_autocomplete_sends_discord_only_names_and_values_it_accepts(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The last guard (`bot.adapters.fit_choices`): whatever a game suggests, an empty
    name shows the value, a long name is clipped to 100 characters at a word, a value
    Discord refuses (empty, over 100 characters: a cut one would be another command) is
    left out with a warning that gives lengths, never the text; at most 25 go out."""
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        secret = "Archangel"

        async def careless(*args: Any, **kwargs: Any) -> list[tuple[str, str]]:
            long_name = f"{secret} and " + "Pikeman " * 20
            return [("", "2 3"), (long_name, "#7"), (secret, ""), (secret, "#1 " * 40)] + [
                (f"Army {n}", str(n)) for n in range(30)
            ]

        monkeypatch.setattr(bot.service, "autocomplete", careless)
        with caplog.at_level(logging.WARNING):
            found = await fake_discord.autocomplete(
                table.ann, table.channel, "card", "name", name=""
            )
        pairs = [(c["name"], c["value"]) for c in found.choices]
        assert len(pairs) == 25 and pairs[0] == ("2 3", "2 3")
        assert len(pairs[1][0]) <= 100 and pairs[1][0].endswith("Pikeman…") and pairs[1][1] == "#7"
        assert pairs[2:] == [(f"Army {n}", str(n)) for n in range(23)]
        messages = [r.getMessage() for r in caplog.records]
        assert any("/card name" in m and "left out 2" in m for m in messages)
        assert not any(secret in m for m in messages)
    fake_discord.assert_no_violations()


async def test_a_slow_action_is_acknowledged_at_once(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        real_run = bot.service.run
        release = asyncio.Event()

        async def slow_run(*args: Any, **kwargs: Any) -> Any:
            # A long render, a busy database...: the action cannot finish before the test
            # has seen the interaction acknowledged (an event, never a time).
            await release.wait()
            return await real_run(*args, **kwargs)

        monkeypatch.setattr(bot.service, "run", slow_run)
        opened = await fake_discord.slash(table.ann, table.channel, "game new", where="here")
        assert opened.response is not None
        assert opened.response.name == "deferred message"
        assert not any("Game #1 is open" in m.content for m in opened.messages)  # not yet
        release.set()
        await bot.wait_idle()
        assert any("Game #1 is open" in m.content for m in opened.messages)
        assert any(m.buttons() for m in table.channel.public_messages())
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
