"""The lobby post's buttons (Join, Leave, Add a computer player, Start) leave the channel
once the lobby is over (issue 16), through the real discord.py bot and the fake Discord:
the start, or a moderator ending the lobby, edits the lobby message in place (key
``lobby``) so it keeps its seat list and has no component left. The edit never posts a
new message: with no lobby message remembered, nothing is sent.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from bot.outbox import ChannelPost, Outbox
from tests.bot.discord_driver import Driver
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


def lobby_message(table: Table) -> FakeMessage:
    """The lobby post: the first public message of the channel (``/game new``'s)."""
    first = table.channel.public_messages()[0]
    assert "(lobby)" in (first.edits[0]["content"] if first.edits else first.content)
    return first


async def test_the_start_takes_the_lobby_posts_buttons_off(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: 4)
    table = Table.create(fake_discord)
    renderer = RecordingRenderer()
    async with running_bot(fake_discord, tmp_path / "heroes.db", renderer=renderer) as runner:
        driver = Driver(table, heroes_bot(runner), renderer)
        await driver.slash(table.ann, "game new", where="here", players=2)
        lobby = lobby_message(table)
        assert [b["label"] for b in lobby.buttons()] == [
            "Join",
            "Leave",
            "Add a computer player",
            "Start (host)",
        ]
        await driver.click(table.cara, lobby, lobby.find_component(label="Join")["custom_id"])
        assert lobby.buttons() and len(lobby.edits) == 1
        posted = len(table.channel.public_messages())
        await driver.slash(table.ann, "game start")
        assert lobby.components == [], "the lobby post kept its buttons after the start"
        assert len(lobby.edits) == 2, "one edit closes the lobby post"
        assert "game #1 (started)" in lobby.content
        assert "ann" in lobby.content and "cara" in lobby.content, "the seat list stays"
        news = table.channel.public_messages()[posted:]
        assert any("Game #1 begins" in m.content for m in news)
        assert all("(started)" not in m.content for m in news), "the edit posted nothing new"
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_a_lobby_ended_by_a_moderator_keeps_no_button(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    renderer = RecordingRenderer()
    async with running_bot(fake_discord, tmp_path / "heroes.db", renderer=renderer) as runner:
        driver = Driver(table, heroes_bot(runner), renderer)
        await driver.slash(table.ann, "game new", where="here", players=2)
        lobby = lobby_message(table)
        assert len(lobby.buttons()) == 4
        await driver.slash(table.mod, "mod end", reason="wrong channel")
        assert lobby.components == []
        assert lobby.content == "Game #1 (lobby ended by a moderator)."
        assert table.channel.public_messages()[-1].content.startswith("🛡️ Moderator morgan")
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_an_edit_only_post_with_nothing_to_edit_sends_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        deliver = heroes_bot(runner).deliverer.deliver
        closing = ChannelPost(table.channel.id, "closed", key="lobby", edit_only=True)
        await deliver(Outbox(posts=[closing]))
        assert table.channel.public_messages() == []
        await deliver(Outbox(posts=[ChannelPost(table.channel.id, "open", key="lobby")]))
        await deliver(Outbox(posts=[closing]))
        (message,) = table.channel.public_messages()
        assert message.content == "closed" and len(message.edits) == 1
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
