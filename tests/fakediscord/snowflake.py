"""Snowflake ids for the fake Discord: real-looking ids whose timestamp discord.py can decode."""

from __future__ import annotations

import itertools
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Hands out unique, increasing snowflakes built like Discord's (ms timestamp << 22 | counter).

    Ids are strictly increasing even when several are made in the same millisecond, so the
    order of ids is the order of creation, as on Discord.
    """

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        """Return a new snowflake (a positive int) greater than every one returned before."""
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (millis << 22) | (next(self._counter) & 0xFFF)
        self._last = max(candidate, self._last + 1)
        return self._last
