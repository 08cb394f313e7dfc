"""``heroes-table migrate-db``: a live SQLite install copied into PostgreSQL, every game
verified by replay; bad URLs, unreachable servers and filled targets change nothing (issue 18)."""

from __future__ import annotations

import argparse
import hashlib
import random
import socket
from datetime import timedelta
from pathlib import Path

import asyncpg
import pytest

from bot import migrate_db
from storage.errors import DatabaseUnusable
from storage.postgres import open_postgres
from storage.records import DeadlineSpec, GameStatus, MessageRef
from storage.replay import undo_last_command, verify_game
from storage.sqlite import SqliteRepository
from storage.transfer import copy_sqlite_to_postgres
from tests.storage.conftest import START
from tests.storage.dice_race import DICE_RACE
from tests.storage.helpers import HOST, play_one, started_game

ON_POSTGRES = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def an_install(repo: SqliteRepository) -> dict[str, int]:
    """Fill ``repo`` the way a running bot does; return a few ids to look for."""
    rng = random.Random(7)
    playing = await started_game(repo, 1, options={"target": 100_000})
    for _ in range(12):
        await play_one(repo, playing.id, rng)
    await undo_last_command(
        repo, playing.id, expected_version=12, moderator_user_id=HOST, reason="oops"
    )
    await play_one(repo, playing.id, rng)
    await repo.set_deadline(playing.id, DeadlineSpec(1, "turn", START + timedelta(hours=48)))
    ended = await started_game(repo, 2, players=2, options={"target": 12})
    while (await repo.get_game(ended.id)).status is GameStatus.ACTIVE:
        await play_one(repo, ended.id, rng)
    lobby = await repo.create_game(3, ruleset=DICE_RACE.id, host_user_id=HOST)
    await repo.join_game(lobby.id, user_id=55, display_name="Lobbyist")
    await repo.add_ai_seat(lobby.id, display_name="Computer")
    deck = await repo.save_deck(55, ruleset=DICE_RACE.id, name="fast", cards=["a", "b"])
    await repo.put_message_ref("post:1", "status", MessageRef(1, 999))
    await repo.hold_direct_message(1001, playing.id, "hand", '{"text": "your hand"}')
    return {"playing": playing.id, "ended": ended.id, "lobby": lobby.id, "deck": deck.id}


@ON_POSTGRES
async def test_an_install_is_copied_whole_and_every_game_replays(
    sqlite_repo: SqliteRepository, db_path: Path, store: str
) -> None:
    ids = await an_install(sqlite_repo)
    before = await sqlite_repo.read_log_unredacted(ids["playing"], limit=1000)
    seats_before = await sqlite_repo.seats(ids["lobby"])
    lines: list[str] = []
    report = await copy_sqlite_to_postgres(
        db_path, store, ruleset_for=lambda _id: DICE_RACE, progress=lines.append
    )
    assert report.ok
    assert report.games_verified == 2  # the lobby has no snapshot yet
    assert report.rows["games"] == 3 and report.rows["game_log"] == len(before.entries) + (
        len((await sqlite_repo.read_log_unredacted(ids["ended"], limit=1000)).entries)
    )
    assert any(line.startswith("copied game_log") for line in lines)
    copy = await open_postgres(store)
    try:
        assert await copy.read_log_unredacted(ids["playing"], limit=1000) == before
        assert await copy.seats(ids["lobby"]) == seats_before
        assert await copy.get_game(ids["ended"]) == await sqlite_repo.get_game(ids["ended"])
        assert await copy.deadlines() == await sqlite_repo.deadlines()
        assert await copy.message_ref("post:1", "status") == MessageRef(1, 999)
        assert [h.message for h in await copy.held_messages(1001)] == ['{"text": "your hand"}']
        assert (await copy.get_deck(ids["deck"])).cards == ("a", "b")
        # The copy goes on where the original stopped: next ids, next moves, news owed.
        assert await copy.undelivered_news() == await sqlite_repo.undelivered_news()
        fresh = await copy.create_game(4, ruleset=DICE_RACE.id)
        assert fresh.id == ids["lobby"] + 1
        entry = await play_one(copy, ids["playing"], random.Random(3))
        assert entry.seq == before.entries[-1].seq + 1
        assert (await verify_game(copy, ids["playing"], DICE_RACE)).ok
    finally:
        await copy.close()


@ON_POSTGRES
async def test_a_target_with_games_is_refused_unless_replaced(
    sqlite_repo: SqliteRepository, db_path: Path, store: str
) -> None:
    await an_install(sqlite_repo)
    other = await open_postgres(store)
    kept = await other.create_game(77, ruleset=DICE_RACE.id)
    await other.close()
    with pytest.raises(DatabaseUnusable, match="already holds data"):
        await copy_sqlite_to_postgres(db_path, store, ruleset_for=lambda _id: DICE_RACE)
    conn = await asyncpg.connect(store)
    try:
        assert [r[0] for r in await conn.fetch("SELECT id FROM games")] == [kept.id]
    finally:
        await conn.close()
    report = await copy_sqlite_to_postgres(
        db_path, store, replace=True, ruleset_for=lambda _id: DICE_RACE
    )
    assert report.ok and report.rows["games"] == 3


def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"postgresql://heroes@127.0.0.1:{port}/heroes"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("sqlite:///elsewhere.db", "not a PostgreSQL URL"),
        ("postgresql://heroes@[::1", "Cannot open the database"),
        (None, "cannot be reached"),
    ],
)
def test_the_command_refuses_bad_urls_in_one_line_and_changes_nothing(
    sqlite_repo: SqliteRepository,
    db_path: Path,
    url: str | None,
    says: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = digest(db_path)
    args = argparse.Namespace(to=url or closed_port_url(), db=db_path, replace=False)
    assert migrate_db.main(args) == 1
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert err.startswith("heroes-table migrate-db: ")
    assert digest(db_path) == before


def test_a_missing_source_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(to=closed_port_url(), db=tmp_path / "none.db", replace=False)
    assert migrate_db.main(args) == 1
    assert "there is no such file" in capsys.readouterr().err


@ON_POSTGRES
def test_the_command_copies_and_says_what_it_did(
    sqlite_repo: SqliteRepository, db_path: Path, store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = argparse.Namespace(to=store, db=db_path, replace=False)
    assert migrate_db.main(args) == 0
    out = capsys.readouterr().out
    assert "migrate-db: copied games: 0 rows" in out
    assert out.strip().splitlines()[-1].endswith("Set HEROES_DATABASE_URL to use it.")
