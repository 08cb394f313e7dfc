"""``HEROES_DATABASE_URL`` (issue 18): set, the bot keeps its games in PostgreSQL; unset,
in the SQLite file; a URL of another kind is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import cli
from bot.app import open_service, with_database
from bot.settings import Settings, SettingsError, load_settings
from storage.postgres import PostgresRepository
from storage.sqlite import SqliteRepository
from tests.postgres_server import fresh_schema


def test_unset_keeps_the_sqlite_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEROES_DATABASE_URL", raising=False)
    monkeypatch.setenv("HEROES_DB_PATH", "games/here.db")
    settings = load_settings(env_file=None)
    assert settings.database() == Path("games/here.db")


def test_a_postgresql_url_is_the_database_and_stays_out_of_the_repr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HEROES_DATABASE_URL", " postgresql://bot:s3cret@db:5432/heroes ")
    settings = load_settings(env_file=None)
    assert settings.database() == "postgresql://bot:s3cret@db:5432/heroes"
    assert "s3cret" not in repr(settings)


@pytest.mark.parametrize("url", ["sqlite:///data/x.db", "mysql://root@db/heroes", "data/x.db"])
def test_another_kind_of_url_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.setenv("HEROES_DATABASE_URL", url)
    with pytest.raises(
        SettingsError, match=r"^Bad setting HEROES_DATABASE_URL: not a PostgreSQL URL"
    ):
        load_settings(env_file=None)


async def test_the_bot_opens_postgresql_when_the_url_is_set() -> None:
    async with fresh_schema() as url:
        settings = Settings(_env_file=None, database_url=url)
        service, closers = await open_service(settings.database(), renderer=None)
        try:
            assert isinstance(service.repo, PostgresRepository)
            game = await service.repo.create_game(5, ruleset="homm4")
            assert (await service.repo.game_in_channel(5)) == game
        finally:
            for close in reversed(closers):
                await close()


async def test_the_bot_opens_the_sqlite_file_otherwise(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, db_path=tmp_path / "bot.db")
    service, closers = await open_service(settings.database(), renderer=None)
    try:
        assert isinstance(service.repo, SqliteRepository)
    finally:
        for close in reversed(closers):
            await close()


def test_run_db_takes_a_path_or_a_url_over_the_configured_store() -> None:
    configured = Settings(_env_file=None, database_url="postgresql://bot:pw@db:5432/heroes")
    on_file = with_database(configured, "games/other.db")
    assert on_file.database() == Path("games/other.db")
    on_server = with_database(Settings(_env_file=None), " postgresql://bot@db2/heroes ")
    assert on_server.database() == "postgresql://bot@db2/heroes"


@pytest.mark.parametrize("command", ["verify", "backup", "migrate-db"])
def test_the_database_commands_name_a_bad_setting_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("HEROES_DATABASE_URL", "mysql://root:s3cret@db/heroes")
    argv = {
        "verify": ["verify"],
        "backup": ["backup", str(tmp_path / "copy.db")],
        "migrate-db": ["migrate-db", "--to", "postgresql://bot@127.0.0.1:1/heroes"],
    }[command]
    # backup names its own settings' errors (exit 1); the CLI catches the others' (exit 2)
    assert cli.main(argv) == (1 if command == "backup" else 2)
    err = capsys.readouterr().err
    assert err == (
        f"heroes-table {command}: Bad setting HEROES_DATABASE_URL: not a PostgreSQL URL "
        "(write postgresql://user:password@host:5432/database, or leave it unset for the "
        "SQLite file HEROES_DB_PATH).\n"
    )
    assert list(tmp_path.iterdir()) == []
