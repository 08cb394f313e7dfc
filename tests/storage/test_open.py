"""Opening the database: created with its folder; a bad file gives one clear line, untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.backup import backup_database
from storage.errors import DatabaseUnusable
from storage.sqlite import open_repository


def assert_one_line(error: DatabaseUnusable, *fragments: str) -> None:
    message = str(error)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message


async def test_folder_and_file_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "heroes.db"
    repo = await open_repository(path)
    await repo.close()
    assert path.is_file()


async def test_a_text_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("my shopping list\n" * 50)
    with pytest.raises(DatabaseUnusable) as caught:
        await open_repository(path)
    assert_one_line(caught.value, str(path), "not a SQLite database", "Nothing was changed")
    assert path.read_text() == "my shopping list\n" * 50
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


async def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        conn.execute("INSERT INTO invoices (total) VALUES (9.5)")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseUnusable) as caught:
        await open_repository(path)
    assert_one_line(caught.value, "another program's SQLite database", "Nothing was changed")
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


async def test_a_damaged_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "heroes.db"
    repo = await open_repository(path)
    for channel in range(300):
        await repo.create_game(channel, ruleset="dice_race", options={"pad": "x" * 200})
    await repo.close()
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    assert len(data) > 8 * page_size
    for offset in range(3 * page_size, 6 * page_size):  # scribble over b-tree pages
        data[offset] = (offset * 7) % 251
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseUnusable) as caught:
        await open_repository(path)
    assert_one_line(caught.value, str(path), "damaged", "restore it from a backup")


async def test_a_folder_in_place_of_the_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnusable) as caught:
        await open_repository(tmp_path)
    assert_one_line(caught.value, "is a folder")


async def test_a_file_in_place_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("not a folder")
    with pytest.raises(DatabaseUnusable) as caught:
        await open_repository(tmp_path / "data" / "heroes.db")
    assert_one_line(caught.value, "cannot create its folder")


async def test_an_empty_file_becomes_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    repo = await open_repository(path)
    game = await repo.create_game(1, ruleset="dice_race")
    await repo.close()
    assert game.id == 1


async def test_pragmas_are_set_on_every_connection(db_path: Path) -> None:
    repo = await open_repository(db_path, busy_timeout=2.5)
    try:
        for conn in (repo._writer, repo._reader):
            rows = {
                pragma: (await conn.execute_fetchall(f"PRAGMA {pragma}"))
                for pragma in ("journal_mode", "foreign_keys", "busy_timeout")
            }
            values = {k: next(iter(v))[0] for k, v in rows.items()}
            assert values == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 2500}
        reader_query_only = next(iter(await repo._reader.execute_fetchall("PRAGMA query_only")))
        writer_sync = next(iter(await repo._writer.execute_fetchall("PRAGMA synchronous")))
        assert (reader_query_only[0], writer_sync[0]) == (1, 2)  # query_only on, FULL
    finally:
        await repo.close()


def _deny(monkeypatch: pytest.MonkeyPatch, denied: Path, mode: int) -> None:
    """Make ``os.access`` answer as for a user without ``mode`` on
    ``denied`` (the tests run as root, whom file permissions do not stop)."""
    import os

    real = os.access

    def access(path: object, wanted: int, **kwargs: object) -> bool:
        if Path(str(path)) == denied and wanted & mode:
            return False
        return real(path, wanted)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)


async def test_a_read_only_database_is_refused_before_the_first_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    path = tmp_path / "heroes.db"
    repo = await open_repository(path)
    await repo.create_game(1, ruleset="dice_race")
    await repo.close()
    before = path.read_bytes()
    _deny(monkeypatch, path, os.W_OK)
    with pytest.raises(DatabaseUnusable) as caught:
        await open_repository(path)
    assert str(caught.value) == (
        f"Cannot open the database {path}: this user may not write it (file permissions). "
        "Nothing was changed."
    )
    assert path.read_bytes() == before


async def test_an_unreadable_file_or_a_read_only_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    path = tmp_path / "heroes.db"
    path.write_bytes(b"")
    _deny(monkeypatch, path, os.R_OK)
    with pytest.raises(DatabaseUnusable) as caught:
        await open_repository(path)
    assert_one_line(caught.value, "this user may not read it")
    with pytest.raises(DatabaseUnusable, match=r"Cannot read the database .*file permissions"):
        await backup_database(path, tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()
    monkeypatch.undo()
    _deny(monkeypatch, tmp_path / "sub", os.W_OK)
    with pytest.raises(DatabaseUnusable) as caught:
        await open_repository(tmp_path / "sub" / "new.db")
    assert_one_line(caught.value, "may not write in its folder", "-wal and -shm")
    assert list((tmp_path / "sub").iterdir()) == []
