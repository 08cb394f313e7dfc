"""The ids of messages the bot edits in place (schema 3): get, put, forget, survival across
a reopen, and the upgrade of a database that still has the table the bot once created
itself (bot/discord_refs.py before schema 3)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite

from storage.migrate import migrate, schema_version
from storage.records import MessageRef
from storage.repository import Repository
from storage.sqlite import open_repository

AD_HOC_TABLE = """
CREATE TABLE IF NOT EXISTS discord_message_refs (
    scope       TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
)
"""
"""What bot/discord_refs.py created in the game database before schema 3."""


async def test_a_ref_is_put_read_replaced_and_forgotten(repo: Repository) -> None:
    assert await repo.message_ref("post:5", "status") is None
    await repo.put_message_ref("post:5", "status", MessageRef(5, 100))
    await repo.put_message_ref("dm:7:1", "hand", MessageRef(70, 200))
    assert await repo.message_ref("post:5", "status") == MessageRef(5, 100)
    await repo.put_message_ref("post:5", "status", MessageRef(5, 101))
    assert await repo.message_ref("post:5", "status") == MessageRef(5, 101)
    await repo.forget_message_ref("post:5", "status")
    await repo.forget_message_ref("post:5", "status")  # forgetting twice is fine
    assert await repo.message_ref("post:5", "status") is None
    assert await repo.message_ref("dm:7:1", "hand") == MessageRef(70, 200)


async def test_refs_survive_a_reopen(db_path: Path) -> None:
    snowflake = 1_234_567_890_123_456_789  # Discord ids need SQLite's 64-bit INTEGER
    repo = await open_repository(db_path)
    await repo.put_message_ref("dm:1:2", "decision", MessageRef(snowflake, snowflake + 1))
    await repo.close()
    repo = await open_repository(db_path)
    try:
        assert await repo.message_ref("dm:1:2", "decision") == MessageRef(snowflake, snowflake + 1)
    finally:
        await repo.close()


async def test_a_schema_2_database_with_the_old_ad_hoc_table_keeps_its_ids(tmp_path: Path) -> None:
    fresh, old = tmp_path / "fresh.db", tmp_path / "old.db"
    await (await open_repository(fresh)).close()
    conn = await aiosqlite.connect(old, isolation_level=None)
    await migrate(conn, target=2)
    await conn.execute(AD_HOC_TABLE)
    await conn.execute(
        "INSERT INTO discord_message_refs VALUES ('post:9', 'lobby', 9, 900, 1700000000000)"
    )
    assert await schema_version(conn) == 2
    await conn.close()

    repo = await open_repository(old)
    try:
        assert await repo.message_ref("post:9", "lobby") == MessageRef(9, 900)
    finally:
        await repo.close()
    assert _schema(old) == _schema(fresh)


def _schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name"
        ).fetchall()
    conn.close()
    return [(t, n, s) for t, n, s in rows]
