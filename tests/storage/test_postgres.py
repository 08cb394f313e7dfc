"""What only the PostgreSQL backend has (issue 18): its migrations twin SQLite's, opening
refuses bad URLs, unreachable servers and foreign schemas in one line, and claims and
leader locks hold across repositories (each stands for a bot process: its own pool)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from datetime import timedelta

import asyncpg
import pytest

from storage.errors import DatabaseUnusable
from storage.migrate import load_migrations
from storage.postgres import open_postgres, redact_url, schema_version_pg
from storage.records import DeadlineSpec
from storage.repository import Repository
from tests.postgres_server import fresh_schema, server_url
from tests.storage.conftest import START, OpenStore
from tests.storage.helpers import started_game

ON_POSTGRES = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
"""Run a test (that takes ``store``, ``repo`` or ``open_store``) on PostgreSQL only."""


@ON_POSTGRES
async def test_a_fresh_schema_gets_every_migration_once_even_from_two_openers(
    store: str,
) -> None:
    first, second = await asyncio.gather(open_postgres(store), open_postgres(store))
    try:
        conn = await asyncpg.connect(store)
        try:
            versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_version")]
            assert sorted(versions) == list(range(1, len(load_migrations()) + 1))
            assert await schema_version_pg(conn) == len(load_migrations())
        finally:
            await conn.close()
    finally:
        await first.close()
        await second.close()


@ON_POSTGRES
async def test_a_schema_of_another_program_is_refused_and_left_alone(store: str) -> None:
    conn = await asyncpg.connect(store)
    try:
        await conn.execute("CREATE TABLE invoices (id int)")
        with pytest.raises(DatabaseUnusable, match="another program's tables"):
            await open_postgres(store)
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
        assert [r[0] for r in tables] == ["invoices"]
    finally:
        await conn.close()


@ON_POSTGRES
async def test_a_schema_from_a_newer_version_is_refused(store: str) -> None:
    repo = await open_postgres(store)
    await repo.close()
    conn = await asyncpg.connect(store)
    try:
        await conn.execute("INSERT INTO schema_version VALUES (999, 'future', 0)")
        with pytest.raises(DatabaseUnusable, match="newer Heroes Table"):
            await open_postgres(store)
    finally:
        await conn.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://root@localhost/heroes", "not a PostgreSQL URL"),
        ("postgresql://nobody@127.0.0.1:{port}/heroes", "cannot be reached"),
        ("postgresql://nobody:s3cret@127.0.0.1:99999/heroes", "the URL is malformed"),
        # A host name, not an address: the driver took 99999 as 99999 - 65536 = 34463.
        ("postgresql://nobody:s3cret@localhost:99999/heroes", "port 99999 is out of range"),
        ("postgresql://nobody@localhost:5432,localhost:70000/heroes", "port 70000 is out"),
        ("postgresql://nobody:s3cret@127.0.0.1:port/heroes", "the URL is malformed"),
        ("postgresql://nobody@127.0.0.1/heroes?sslmode=sometimes", "the URL is malformed"),
    ],
)
async def test_bad_urls_and_unreachable_servers_get_one_line(url: str, says: str) -> None:
    with pytest.raises(DatabaseUnusable, match=says) as caught:
        await open_postgres(url.format(port=free_port()), connect_timeout=5)
    assert "\n" not in str(caught.value)
    assert "s3cret" not in str(caught.value)
    assert str(caught.value).endswith("Nothing was changed.")


async def test_a_missing_database_is_named() -> None:
    base = server_url()
    missing = base.rsplit("/", 1)[0] + "/no_such_database_here"
    with pytest.raises(DatabaseUnusable, match="no such database"):
        await open_postgres(missing)


def test_passwords_never_reach_messages() -> None:
    assert (
        redact_url("postgresql://bot:s3cret@db:5432/heroes")
        == "postgresql://bot:***@db:5432/heroes"
    )
    assert redact_url("postgresql://bot@db/heroes") == "postgresql://bot@db/heroes"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # A password given as a query parameter (libpq's and asyncpg's ``password=``).
        (
            "postgresql://bot@db/heroes?sslmode=require&password=s3cret",
            "postgresql://bot@db/heroes?sslmode=require&password=***",
        ),
        # Unescaped '@', '/' or '?' in the password: still all of it hidden.
        ("postgresql://bot:s3c@ret@db/heroes", "postgresql://bot:***@db/heroes"),
        ("postgresql://bot:s3c/ret@db:5432/heroes", "postgresql://bot:***@db:5432/heroes"),
        ("postgresql://bot:s3c?ret@db/heroes", "postgresql://bot:***@db/heroes"),
    ],
)
def test_every_form_of_password_is_hidden(url: str, shown: str) -> None:
    assert redact_url(url) == shown


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://nobody:s3cret/x@127.0.0.1:5x/heroes",  # the driver reads s3cret as a port
        "postgresql://nobody@127.0.0.1:5x/heroes?password=s3cret",
    ],
)
async def test_a_malformed_url_never_shows_its_password(url: str) -> None:
    with pytest.raises(DatabaseUnusable, match="the URL is malformed") as caught:
        await open_postgres(url, connect_timeout=5)
    assert "s3cret" not in str(caught.value)


@ON_POSTGRES
async def test_a_leader_lock_is_held_by_one_process_at_a_time(
    repo: Repository, open_store: OpenStore
) -> None:
    other = await open_store()
    try:
        async with repo.leader_lock("startup") as first:
            assert first is True
            async with other.leader_lock("startup") as second:
                assert second is False
            async with other.leader_lock("command-sync") as unrelated:
                assert unrelated is True
        async with other.leader_lock("startup") as after:
            assert after is True
    finally:
        await other.close()


@ON_POSTGRES
async def test_leader_locks_of_two_schemas_do_not_meet(repo: Repository) -> None:
    async with fresh_schema() as url:
        elsewhere = await open_postgres(url)
        try:
            async with (
                repo.leader_lock("startup") as here,
                elsewhere.leader_lock("startup") as there,
            ):
                assert (here, there) == (True, True)
        finally:
            await elsewhere.close()


@ON_POSTGRES
async def test_a_due_deadline_is_claimed_once_across_processes(
    repo: Repository, open_store: OpenStore
) -> None:
    others = [await open_store() for _ in range(3)]
    try:
        game = await started_game(repo, 1)
        await repo.set_deadline(game.id, DeadlineSpec(0, "turn", START + timedelta(hours=1)))
        (due,) = await repo.due_deadlines(START + timedelta(hours=2))
        claims = await asyncio.gather(
            *(
                store.claim_deadline(due, missed=True, then=DeadlineSpec(0, "reminder", START))
                for store in [repo, *others]
                for _ in range(5)
            )
        )
        assert claims.count(True) == 1
        assert (await repo.seats(game.id))[0].missed == 1
        assert [d.kind for d in await repo.deadlines(game.id)] == ["reminder"]
    finally:
        for store in others:
            await store.close()


@ON_POSTGRES
async def test_held_messages_are_taken_by_one_process(
    repo: Repository, open_store: OpenStore
) -> None:
    other = await open_store()
    try:
        for number in range(3):
            await repo.hold_direct_message(7, 1, "notice", f'{{"n": {number}}}')
        taken = await asyncio.gather(repo.take_held_messages(7), other.take_held_messages(7))
        assert sorted(len(t) for t in taken) == [0, 3]
    finally:
        await other.close()


@ON_POSTGRES
async def test_many_leader_locks_at_once_leave_the_pool_free(
    repo: Repository, open_store: OpenStore
) -> None:
    """Recovery holds a lock per shard for its whole run: 32 of them at once (more than
    the pool's 10 connections) still leave every read and write working, and another
    process gets none of them until they are released."""
    other = await open_store()
    try:
        async with contextlib.AsyncExitStack() as stack:
            held = [
                await stack.enter_async_context(repo.leader_lock(f"recovery:shard:{n}"))
                for n in range(32)
            ]
            assert all(held)
            async with repo.leader_lock("recovery:shard:3") as again:
                assert again is False  # held in this process already
            game = await started_game(repo, 1)
            assert (await repo.get_game(game.id)).version == 0
            async with other.leader_lock("recovery:shard:31") as elsewhere:
                assert elsewhere is False
        async with other.leader_lock("recovery:shard:31") as after:
            assert after is True
    finally:
        await other.close()
