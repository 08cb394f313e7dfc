"""`heroes-table backup PATH`: an online copy of the live database; never overwrites."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from bot.backup import main
from storage import backup
from storage.backup import add_arguments, backup_database
from storage.errors import DatabaseUnusable, StorageError
from storage.migrate import load_migrations
from storage.replay import verify_game
from storage.sqlite import SqliteRepository, open_repository
from tests.storage.helpers import started_game, taken_while_playing


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="heroes-table backup")
    add_arguments(parser)
    return parser.parse_args(argv)


async def test_a_backup_taken_while_games_are_played_is_consistent(
    sqlite_repo: SqliteRepository, tmp_path: Path
) -> None:
    repo = sqlite_repo
    games, report, played = await taken_while_playing(
        repo, lambda: backup_database(repo.path, tmp_path / "copies" / "backup.db")
    )

    assert report.path == tmp_path / "copies" / "backup.db"
    assert (report.games, report.schema) == (3, len(load_migrations()))
    assert report.size_bytes == report.path.stat().st_size
    assert sorted(p.name for p in report.path.parent.iterdir()) == ["backup.db"]
    copy = await open_repository(report.path)
    try:
        for game in games:
            copied = await copy.get_game(game.id)
            assert 3 <= copied.version <= (await repo.get_game(game.id)).version
            assert (await verify_game(copy, game.id)).ok
    finally:
        await copy.close()
    assert min(played) >= 3


async def test_an_existing_destination_is_never_overwritten(
    sqlite_repo: SqliteRepository, tmp_path: Path
) -> None:
    repo = sqlite_repo
    target = tmp_path / "precious.db"
    target.write_text("do not touch")
    with pytest.raises(StorageError, match="already exists"):
        await backup_database(repo.path, target)
    assert target.read_text() == "do not touch"


async def test_a_missing_or_foreign_source_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnusable, match="no database file"):
        await backup_database(tmp_path / "missing.db", tmp_path / "copy.db")
    foreign = tmp_path / "foreign.db"
    foreign.write_bytes(b"\0" * 4096)
    with pytest.raises(DatabaseUnusable):
        await backup_database(foreign, tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()
    assert not list(tmp_path.glob(".*partial"))


def test_the_cli_prints_one_line_and_returns_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "live.db"

    async def make() -> None:
        repo = await open_repository(source)
        await started_game(repo, 1)
        await repo.close()

    asyncio.run(make())
    assert main(parse(str(tmp_path / "out.db"), "--db", str(source))) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and f"to {tmp_path / 'out.db'}: 1 games" in out


def test_the_cli_reports_a_bad_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_text("garbage" * 100)
    assert main(parse(str(tmp_path / "out.db"), "--db", str(garbage))) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("heroes-table backup: Cannot open the database")
    assert "Traceback" not in captured.err


def test_the_cli_uses_the_configured_database_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HEROES_DB_PATH", str(tmp_path / "nowhere.db"))
    assert main(parse("out.db")) == 1
    assert f"There is no database file at {tmp_path / 'nowhere.db'}" in capsys.readouterr().err


def test_storage_alone_asks_for_the_database_and_reads_no_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HEROES_DB_PATH", str(tmp_path / "nowhere.db"))
    assert backup.main(parse("out.db")) == 1
    assert capsys.readouterr().err == "heroes-table backup: give the database to copy with --db.\n"
    assert not (tmp_path / "out.db").exists()
