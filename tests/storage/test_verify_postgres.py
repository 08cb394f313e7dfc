"""`heroes-table verify` on a PostgreSQL store (issue 18): every started game replays from
its seed and log to its snapshot; a tampered snapshot is named by game and path, never by
value; an unreachable server or a foreign schema is one line; nothing is written."""

from __future__ import annotations

import asyncio
import json
import random

import asyncpg
import pytest

from bot import cli
from storage.postgres import open_postgres
from tests.postgres_server import fresh_schema
from tests.storage.helpers import play_one, started_game


async def _verify(argv: list[str]) -> int:
    return await asyncio.to_thread(cli.main, ["verify", *argv])


async def test_every_game_replays_and_a_tampered_one_is_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    async with fresh_schema() as url:
        repo = await open_postgres(url)
        try:
            games = [await started_game(repo, c, seed=c) for c in range(3)]
            rng = random.Random(7)
            for game in games:
                for _ in range(4):
                    await play_one(repo, game.id, rng)
            await repo.create_game(99, ruleset="dice_race")  # a lobby: nothing to replay
            versions = {g.id: (await repo.get_game(g.id)).version for g in games}
        finally:
            await repo.close()

        assert await _verify(["--db", url]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"{url}: sound (3 games replayed to their snapshots, ")

        tampered = games[1]
        conn = await asyncpg.connect(url)
        try:
            state = json.loads(
                await conn.fetchval("SELECT state FROM games WHERE id = $1", tampered.id)
            )
            state["positions"][0] += 1000
            await conn.execute(
                "UPDATE games SET state = $1 WHERE id = $2", json.dumps(state), tampered.id
            )
            log_rows = await conn.fetchval("SELECT count(*) FROM game_log")
        finally:
            await conn.close()
        assert await _verify(["--db", url]) == 1
        err = capsys.readouterr().err
        assert err.splitlines() == [
            f"heroes-table verify: {url}: 1 of 3 games do not replay to their snapshots:",
            f"  game #{tampered.id}: first difference at positions[0]",
        ]
        # It only reads: versions and the log are as they were.
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT count(*) FROM game_log") == log_rows
            for game_id, version in versions.items():
                assert (
                    await conn.fetchval("SELECT version FROM games WHERE id = $1", game_id)
                    == version
                )
        finally:
            await conn.close()


async def test_the_configured_store_is_verified_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async with fresh_schema() as url:
        repo = await open_postgres(url)
        try:
            await started_game(repo, 1)
        finally:
            await repo.close()
        monkeypatch.setenv("HEROES_DATABASE_URL", url)
        assert await _verify([]) == 0
    assert "sound (1 games replayed" in capsys.readouterr().out


async def test_a_foreign_schema_or_no_server_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    async with fresh_schema() as url:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("CREATE TABLE games (id integer)")
        finally:
            await conn.close()
        assert await _verify(["--db", url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("heroes-table verify: ")
    assert await _verify(["--db", "postgresql://heroes:secret@127.0.0.1:1/none"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Cannot open the database" in err
    assert "secret" not in err
