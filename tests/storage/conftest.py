"""Fixtures: a fresh repository on each backend, SQLite (a real file in the test's own
folder) and PostgreSQL (a fresh schema on the test server, `tests.postgres_server`).

``repo`` runs a test on both; ``open_store`` opens another repository on the same store
(a reopen, a second process's view); ``sqlite_repo`` is for the SQLite-only tests (files,
pragmas, backup).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage.postgres import open_postgres
from storage.repository import Repository
from storage.sql import numbered
from storage.sqlite import SqliteRepository, open_repository
from tests.postgres_server import fresh_schema

START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

BACKENDS = ("sqlite", "postgresql")

OpenStore = Callable[..., Awaitable[Repository]]
"""``await open_store(clock=...)``: another repository on the test's store."""

RawSql = Callable[..., Awaitable[None]]
"""``await raw_sql("UPDATE games SET state = ? WHERE id = ?", text, 1)``: one statement
run on the store directly, behind the repository's back (``?`` marks on both backends)."""

RAW_ERRORS = (sqlite3.IntegrityError, asyncpg.PostgresError)
"""What a statement `raw_sql` runs raises when the schema refuses it."""


class Clock:
    """A settable clock for deterministic timestamps."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        """Move time forward by ``delta``."""
        self.now += delta


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test's database lives (inside a folder that does not exist yet)."""
    return tmp_path / "data" / "heroes-table.db"


@pytest.fixture
def clock() -> Clock:
    """A clock starting at 2025-03-01 12:00 UTC."""
    return Clock()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Which backend the test runs on: ``sqlite`` or ``postgresql``."""
    return str(request.param)


@pytest.fixture
async def store(backend: str, db_path: Path) -> AsyncIterator[str]:
    """The test's fresh store: an SQLite file path, or a PostgreSQL URL of a fresh schema."""
    if backend == "sqlite":
        yield str(db_path)
        return
    async with fresh_schema() as url:
        yield url


@pytest.fixture
def open_store(backend: str, store: str, clock: Clock) -> OpenStore:
    """Open another repository on the test's store (the caller closes it)."""

    async def opener(*, clock: Callable[[], datetime] | None = clock) -> Repository:
        if backend == "sqlite":
            return await open_repository(store, clock=clock)
        return await open_postgres(store, clock=clock)

    return opener


@pytest.fixture
def raw_sql(backend: str, store: str) -> RawSql:
    """Run one SQL statement on the test's store directly (tampering, schema checks)."""

    async def run(sql: str, *params: Any) -> None:
        if backend == "sqlite":
            with sqlite3.connect(store) as conn:
                conn.execute(sql, params)
            conn.close()
            return
        conn = await asyncpg.connect(store)
        try:
            await conn.execute(numbered(sql), *params)
        finally:
            await conn.close()

    return run


@pytest.fixture
async def repo(open_store: OpenStore) -> AsyncIterator[Repository]:
    """An open repository on a fresh store, once per backend."""
    repository = await open_store()
    try:
        yield repository
    finally:
        await repository.close()


@pytest.fixture
async def sqlite_repo(db_path: Path, clock: Clock) -> AsyncIterator[SqliteRepository]:
    """An open SQLite repository on a fresh database file (SQLite-only tests)."""
    repository = await open_repository(db_path, clock=clock)
    try:
        yield repository
    finally:
        await repository.close()
