"""A user-installed app (issue 16), through the real bot and the fake Discord: in a group
DM the bot is not in, a player who added the app to their account looks up a card and a
rule and lists their games; the game commands are not offered there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.discord_helpers import Table, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)
from tests.fakediscord.schema import ImpossibleInteraction


async def test_card_and_rules_in_a_group_dm_of_a_user_install(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    fake_discord.install_for(table.ann)
    chat = fake_discord.private_channel(table.ann, table.bob)
    async with running_bot(fake_discord, tmp_path / "heroes.db"):
        typed = await fake_discord.autocomplete(table.ann, chat, "card", "name", name="ang")
        assert typed.response is not None
        [first, *_] = typed.response.choices
        card = await fake_discord.slash(table.ann, chat, "card", name=first["value"])
        shown = await card.final_message()
        assert shown.ephemeral
        assert shown.text.startswith("**Angel** (unit):"), shown.text
        looked = await fake_discord.slash(table.ann, chat, "rules", topic="battle")
        rule = await looked.final_message()
        assert rule.ephemeral and rule.embeds, rule.text
        mine = await (await fake_discord.slash(table.ann, chat, "me games")).final_message()
        assert mine.ephemeral and mine.text.startswith("You sit in no open game."), mine.text
        assert chat.public_messages() == [], "only private replies: the bot is not in the chat"
        with pytest.raises(ImpossibleInteraction, match="not available in private channels"):
            await fake_discord.slash(table.ann, chat, "game status")
        with pytest.raises(ImpossibleInteraction, match="not installed to their account"):
            await fake_discord.slash(table.bob, chat, "card", name=first["value"])
    fake_discord.assert_no_violations()
