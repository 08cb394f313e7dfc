"""/game rules through the GameService: a topic as a private embed, the topic list, close
matches for a typo, and autocomplete from the channel's game's ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rules_help import UnknownTopic
from tests.bot.service_helpers import CHANNEL, GUILD, make_service, person


@pytest.mark.rule("homm4:battles.grouping")
async def test_a_topic_is_a_private_embed_with_its_commands(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        out = await service.run(
            person(1), ("game", "rules"), {"topic": "grouping"}, channel_id=CHANNEL, guild_id=GUILD
        )
        assert out.reply is not None and out.reply.ephemeral and out.posts == []
        (embed,) = out.reply.embeds
        assert embed.title == "Battles: Grouping"
        assert "`/battle group`" in embed.description and len(embed.description) <= 4096
        assert embed.footer.startswith("homm4:battles.grouping")
    finally:
        await repo.close()


async def test_without_a_topic_the_top_level_topics_are_listed(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        out = await service.rules_topic(person(1), CHANNEL)
        assert out.reply is not None and out.reply.ephemeral
        (embed,) = out.reply.embeds
        assert "• Battles" in embed.description and "/game rules topic:" in embed.footer
    finally:
        await repo.close()


async def test_a_typo_shows_the_closest_topic_and_nonsense_is_refused(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        out = await service.rules_topic(person(1), CHANNEL, topic="grupping")
        assert out.reply is not None and out.reply.embeds[0].title == "Battles: Grouping"
        assert out.reply.text.startswith("No topic is called 'grupping'; this is the closest.")
        out = await service.rules_topic(person(1), CHANNEL, topic="movement")
        assert out.reply is not None and out.reply.embeds[0].title == "Movement Phase"
        assert "Also close:" in out.reply.text
        with pytest.raises(UnknownTopic, match="There is no homm4 rule topic 'xyzzyq'"):
            await service.rules_topic(person(1), CHANNEL, topic="xyzzyq")
    finally:
        await repo.close()


async def test_topics_are_suggested_as_you_type(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        await service.new_game(person(1), CHANNEL, guild_id=GUILD, seed=3)
        found = await service.autocomplete(
            person(2), ("game", "rules"), "topic", "swarm", channel_id=CHANNEL
        )
        assert found[0] == ("Battles: Grouping", "homm4:battles.grouping")
        assert 1 <= len(found) <= 25
        anywhere = await service.autocomplete(
            person(2), ("game", "rules"), "topic", "", channel_id=7
        )
        assert anywhere and all(len(name) <= 100 and len(value) <= 100 for name, value in anywhere)
    finally:
        await repo.close()
