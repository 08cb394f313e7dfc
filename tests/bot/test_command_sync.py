"""Commands are synced only when the command tree changed (issue 16): `HeroesBot.sync_commands`
keeps the tree's hash per scope in the database (schema 10, ``command_syncs``), so a restart
with the same commands sends Discord no overwrite."""

from __future__ import annotations

from pathlib import Path

from bot import registry
from bot.discord_bot import command_tree_hash
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.example_game.bot import GAME
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


async def test_commands_are_synced_only_when_the_tree_changed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The tree's hash is kept in the database: a second start with the same commands
    sends no sync; a start with another tree (a game added to the registry) syncs it,
    and so does going back; the dev guild is a scope of its own."""
    table = Table.create(fake_discord)
    db = tmp_path / "heroes.db"
    async with running_bot(fake_discord, db) as runner:
        assert len(heroes_bot(runner).synced) == len(fake_discord.commands()) > 0
    shipped = fake_discord.commands()
    assert fake_discord.command_syncs == 1
    async with running_bot(fake_discord, db) as runner:
        assert heroes_bot(runner).synced == []
        runner.assert_no_errors()
    assert fake_discord.command_syncs == 1 and fake_discord.commands() == shipped
    registry.add(GAME)
    try:
        async with running_bot(fake_discord, db):
            pass
        assert fake_discord.command_syncs == 2
        assert "pig" in {c["name"] for c in fake_discord.commands()}
        async with running_bot(fake_discord, db):
            pass
        assert fake_discord.command_syncs == 2
    finally:
        registry.remove(GAME.ruleset)
    async with running_bot(fake_discord, db):
        pass
    assert fake_discord.command_syncs == 3
    assert [c["name"] for c in fake_discord.commands()] == [c["name"] for c in shipped]
    async with running_bot(fake_discord, db, dev_guild_id=table.guild.id):
        pass
    assert fake_discord.command_syncs == 4 and len(fake_discord.commands(table.guild.id)) > 0
    fake_discord.assert_no_violations()


def test_the_hash_follows_the_commands_not_their_order() -> None:
    one = {"name": "game", "type": 1, "description": "Open a game", "options": []}
    two = {"name": "card", "type": 1, "description": "Show a card", "options": []}
    assert command_tree_hash([one, two]) == command_tree_hash([two, one])
    assert command_tree_hash([one, two]) != command_tree_hash([one, {**two, "description": "x"}])
    assert len(command_tree_hash([])) == 64


async def test_the_repository_keeps_one_hash_per_scope(tmp_path: Path) -> None:
    from storage import open_repository

    repo = await open_repository(tmp_path / "h.db")
    try:
        assert await repo.command_tree_hash("global:1") is None
        await repo.save_command_tree_hash("global:1", "a" * 64)
        await repo.save_command_tree_hash("guild:1:7", "b" * 64)
        await repo.save_command_tree_hash("global:1", "c" * 64)
        assert await repo.command_tree_hash("global:1") == "c" * 64
        assert await repo.command_tree_hash("guild:1:7") == "b" * 64
    finally:
        await repo.close()
