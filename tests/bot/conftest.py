"""Bot tests play reproducible games: a new game's seed is fixed unless a test sets its own.

Storage draws a game's seed from `secrets.randbits`; an unseeded test game would differ on
every run, so a test that passes on most seeds could fail now and then. Tests that need a
particular game still patch `secrets.randbits` themselves (their patch wins).
"""

from __future__ import annotations

import secrets

import pytest

DEFAULT_GAME_SEED = 11


@pytest.fixture(autouse=True)
def _reproducible_game_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: DEFAULT_GAME_SEED)
