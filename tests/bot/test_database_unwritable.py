"""A database that fills up or turns read-only while the bot runs (issue 21).

SQLite's own limits stand in for the disk: ``PRAGMA max_page_count`` at the file's size
makes a write that needs one more page fail with ``SQLITE_FULL`` exactly as a full disk
does, and ``PRAGMA query_only`` makes every write fail with ``SQLITE_READONLY``. A player
typing a move then reads what happened (no file path, no SQLite text), the game is where
it was, and once the database can be written again the same move applies.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest

from bot.homm4.commands import slash_for
from engine.homm4 import RULESET as HOMM4
from storage.sqlite import SqliteRepository
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

FULL = "The bot's storage is full (no space left), so this was not saved"
READ_ONLY = "The bot's database has become read-only, so this was not saved"


async def _writer_pragma(repo: Any, pragma: str) -> Any:
    """Run ``PRAGMA <pragma>`` on the repository's writing connection (test access)."""
    assert isinstance(repo, SqliteRepository)
    async with repo._write_lock:
        rows = await repo._writer.execute_fetchall(f"PRAGMA {pragma}")
    return list(rows)


@pytest.mark.parametrize(
    ("limit", "lift", "message"),
    [
        ("max_page_count = {pages}", "max_page_count = 1073741823", FULL),
        ("query_only = 1", "query_only = 0", READ_ONLY),
    ],
    ids=["full", "read-only"],
)
async def test_a_move_on_an_unwritable_database_says_so_and_changes_nothing(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    limit: str,
    lift: str,
    message: str,
) -> None:
    table = Table.create(fake_discord)
    caplog.set_level(logging.WARNING, logger="storage")
    db = tmp_path / "secret-folder" / "heroes.db"
    async with running_bot(fake_discord, db) as runner:
        bot = heroes_bot(runner)
        repo = bot.service.repo
        channel = table.channel
        for command, options in (
            ("game new", {"players": 2, "where": "here"}),
            ("game add-ai", {"count": 1}),
            ("game start", {}),
        ):
            await (await fake_discord.slash(table.ann, channel, command, **options)).final_message()
        await bot.wait_idle()
        rng = random.Random(2)
        for _ in range(10):  # a write that fits in the file's free space is no test
            game = await repo.game_in_channel(channel.id)
            assert game is not None
            state = HOMM4.load_state(game.state_json or "")
            path, options = slash_for(HOMM4.ai_command(state, 0, rng))
            ((pages,),) = await _writer_pragma(repo, "page_count")
            await _writer_pragma(repo, limit.format(pages=pages))
            result = await fake_discord.slash(table.ann, channel, " ".join(path), **options)
            reply = (await result.final_message()).content
            await bot.wait_idle()
            if message in reply:
                break
            await _writer_pragma(repo, lift)
        else:
            pytest.fail("no write needed a new page")
        assert result.response is not None and (await result.final_message()).ephemeral
        assert "everything saved before it is kept" in reply
        assert "tell the bot's operator" in reply
        assert str(tmp_path) not in reply and "secret-folder" not in reply
        assert "sqlite" not in reply.lower()
        unchanged = await repo.get_game(game.id)
        assert unchanged.version == game.version and unchanged.state_json == game.state_json
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert str(db) in logged, "the operator's log names the file"

        await _writer_pragma(repo, lift)
        again = await fake_discord.slash(table.ann, channel, " ".join(path), **options)
        assert (await again.final_message()).content.startswith("✅")
        await bot.wait_idle()
        moved = await repo.get_game(game.id)
        assert moved.version > game.version
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
