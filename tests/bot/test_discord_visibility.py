"""Every command's "thinking…" placeholder has the visibility of its reply, so the reply
fills it and it is never deleted and sent again (a visible flash): the lobby commands,
/game start, every /mod command and /settings answer privately and announce in the
channel; /game status answers publicly. And /game rules: a private embed, topics
suggested as you type."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.commands import spec_for
from tests.bot.discord_helpers import Table, deleted_placeholders, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


async def test_replies_fill_their_placeholder_with_the_tables_visibility(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    channel = table.channel
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)

        async def run(who: FakeUser, command: str, /, **options: Any) -> str:
            result = await fake_discord.slash(who, channel, command, **options)
            await bot.wait_idle()
            message = await result.final_message()
            want = spec_for(tuple(command.split())).ephemeral
            assert result.response is not None and result.response.name == "deferred message"
            assert result.response.ephemeral == want, command
            assert result.original is message and not message.deleted, command
            assert message.ephemeral == want and not message.loading, command
            return message.content

        assert "is open" in await run(table.ann, "game new", where="here", players=2)
        await run(table.bob, "game join")
        assert "started" in await run(table.ann, "game start")
        assert "Game #1" in await run(table.bob, "game status")
        await run(table.bob, "game log")
        await run(table.ann, "hand")
        await run(table.bob, "game rules", topic="homm4:battles.grouping")
        announced = len(channel.public_messages())
        for command, options in (
            ("mod pause", {"reason": "lunch"}),
            ("mod resume", {}),
            ("mod deadline", {"hours": 5}),
            ("mod skip", {}),
            ("mod undo", {}),
            ("mod verify", {}),
            ("mod replace", {"seat": "Blue", "user": table.cara}),
            ("mod kick", {"seat": "Blue"}),
            ("mod end", {"reason": "test over"}),
        ):
            await run(table.mod, command, **options)
            news = channel.public_messages()[announced:]
            assert any(m.content.startswith("🛡️ Moderator morgan") for m in news), command
            announced = len(channel.public_messages())
        assert "Moderator role" in await run(table.mod, "settings", **{"deadline-hours": 24})
        runner.assert_no_errors()
    assert deleted_placeholders(fake_discord) == []
    fake_discord.assert_no_violations()


async def test_game_rules_answers_with_a_private_embed_and_suggests_topics(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        typed = await fake_discord.autocomplete(
            table.bob, table.channel, "game rules", "topic", topic="swarm"
        )
        first = typed.choices[0]
        assert first == {"name": "Battles: Grouping", "value": "homm4:battles.grouping"}
        result = await fake_discord.slash(
            table.bob, table.channel, "game rules", topic=first["value"]
        )
        message = await result.final_message()
        assert message.ephemeral and len(message.embeds) == 1
        embed = message.embeds[0]
        assert embed["title"] == "Battles: Grouping" and "/battle group" in embed["description"]
        closest = await fake_discord.slash(table.bob, table.channel, "game rules", topic="grupping")
        shown = await closest.final_message()
        assert shown.ephemeral and "closest" in shown.content
        assert shown.embeds[0]["title"] == "Battles: Grouping"
        refused = await fake_discord.slash(table.bob, table.channel, "game rules", topic="xyzzyq")
        assert "no homm4 rule topic" in (await refused.final_message()).content
        runner.assert_no_errors()
    assert table.channel.public_messages() == []
    assert deleted_placeholders(fake_discord) == []
    fake_discord.assert_no_violations()
