"""`heroes-table backup` of a PostgreSQL store (issue 18): ``pg_dump`` of the repository's
schema from a snapshot whose games it counts, checked with ``pg_restore --list``; restored
into a dropped schema, every game replays to its snapshot. Against the real test server."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
from pathlib import Path

import asyncpg
import pytest

from bot.backup import main
from storage.backup import add_arguments, backup_postgres
from storage.errors import DatabaseUnusable, StorageError
from storage.migrate import POSTGRESQL_MIGRATIONS, load_migrations
from storage.postgres import open_postgres
from storage.replay import verify_game
from tests.postgres_server import fresh_schema, server_url
from tests.storage.helpers import started_game, taken_while_playing

pytestmark = pytest.mark.skipif(
    shutil.which("pg_dump") is None or shutil.which("pg_restore") is None,
    reason="PostgreSQL: no server tools (pg_dump, pg_restore)",
)


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="heroes-table backup")
    add_arguments(parser)
    return parser.parse_args(argv)


async def _schema_of(url: str) -> str:
    conn = await asyncpg.connect(url)
    try:
        return str(await conn.fetchval("SELECT current_schema()"))
    finally:
        await conn.close()


async def test_a_dump_taken_while_games_are_played_restores_and_replays(tmp_path: Path) -> None:
    async with fresh_schema() as url:
        repo = await open_postgres(url)
        try:
            games, report, played = await taken_while_playing(
                repo, lambda: backup_postgres(url, tmp_path / "dumps" / "heroes.dump")
            )
            live = {g.id: (await repo.get_game(g.id)).version for g in games}
        finally:
            await repo.close()
        assert min(played) >= 3
        assert report.path == tmp_path / "dumps" / "heroes.dump"
        assert (report.games, report.schema) == (3, len(load_migrations(POSTGRESQL_MIGRATIONS)))
        assert report.size_bytes == report.path.stat().st_size
        assert sorted(p.name for p in report.path.parent.iterdir()) == ["heroes.dump"]
        listing = subprocess.run(
            ["pg_restore", "--list", str(report.path)], capture_output=True, text=True, check=True
        ).stdout
        assert " TABLE " in listing and " games " in listing

        # Restore: drop the schema (the bots stopped), let pg_restore make it again.
        schema = await _schema_of(url)
        admin = await asyncpg.connect(server_url())
        try:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            await admin.close()
        subprocess.run(
            ["pg_restore", "--no-owner", f"--dbname={server_url()}", str(report.path)],
            capture_output=True,
            text=True,
            check=True,
        )
        restored = await open_postgres(url)
        try:
            for game in games:
                copied = await restored.get_game(game.id)
                assert 3 <= copied.version <= live[game.id]
                assert (await verify_game(restored, game.id)).ok
        finally:
            await restored.close()


async def test_an_existing_destination_is_never_overwritten(tmp_path: Path) -> None:
    async with fresh_schema() as url:
        repo = await open_postgres(url)
        await repo.close()
        target = tmp_path / "precious.dump"
        target.write_text("do not touch")
        with pytest.raises(StorageError, match="already exists"):
            await backup_postgres(url, target)
        assert target.read_text() == "do not touch"


async def test_a_schema_that_is_not_ours_is_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    async with fresh_schema() as url:
        with pytest.raises(DatabaseUnusable, match="no Heroes Table database"):
            await backup_postgres(url, tmp_path / "out.dump")
    assert list(tmp_path.iterdir()) == []


async def test_an_unreachable_server_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnusable, match="Cannot open the database"):
        await backup_postgres("postgresql://heroes@127.0.0.1:1/none", tmp_path / "out.dump")
    assert list(tmp_path.iterdir()) == []


async def test_without_pg_dump_it_says_what_to_run_and_writes_nothing(tmp_path: Path) -> None:
    async with fresh_schema() as url:
        with pytest.raises(StorageError) as caught:
            await backup_postgres(url, tmp_path / "out.dump", pg_dump="no-such-pg-dump")
    assert "pg_dump was not found" in str(caught.value)
    assert f"pg_dump --format=custom --file={tmp_path / 'out.dump'}" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_the_cli_dumps_the_configured_postgresql_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def make(url: str) -> None:
        repo = await open_postgres(url)
        await started_game(repo, 1)
        await repo.close()

    async def scenario() -> str:
        async with fresh_schema() as url:
            await make(url)
            monkeypatch.setenv("HEROES_DATABASE_URL", url)
            monkeypatch.chdir(tmp_path)
            code = await asyncio.to_thread(main, parse("out.dump"))
            assert code == 0
            return url

    url = asyncio.run(scenario())
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert out.startswith(f"Backed up {url} to out.dump: 1 games, ")
    assert (tmp_path / "out.dump").is_file()
