"""Fixtures: a fresh repository on a real SQLite file in the test's own folder."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage.sqlite import SqliteRepository, open_repository

START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


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


@pytest.fixture
async def repo(db_path: Path, clock: Callable[[], datetime]) -> AsyncIterator[SqliteRepository]:
    """An open repository on a fresh database file."""
    repository = await open_repository(db_path, clock=clock)
    try:
        yield repository
    finally:
        await repository.close()
