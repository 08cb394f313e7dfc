"""Bot tests play reproducible games: a new game's seed is fixed unless a test sets its own.

Storage draws a game's seed from `secrets.randbits`; an unseeded test game would differ on
every run, so a test that passes on most seeds could fail now and then. Tests that need a
particular game still patch `secrets.randbits` themselves (their patch wins).
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.service_helpers import FakeClock, Served, make_service

DEFAULT_GAME_SEED = 11


@pytest.fixture(autouse=True)
def _reproducible_game_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: DEFAULT_GAME_SEED)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    """A fake clock, a repository on a fresh SQLite file in ``tmp_path`` and a service on
    it reading the clock (`Served`); the repository is closed after the test."""
    clock = FakeClock()
    repo, service = await make_service(tmp_path, clock=clock)
    try:
        yield Served(clock, repo, service)
    finally:
        await repo.close()
