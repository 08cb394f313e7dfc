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

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new snowflake, as `next`, whose guild would be on ``shard_id`` of
        ``shard_count`` (Discord: ``(id >> 22) % shard_count``): its timestamp is moved up
        to the next millisecond of that shard (at most ``shard_count - 1`` ms later).

        :raises ValueError: for a shard that is not one of ``shard_count``.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count}")
        candidate = self.next()
        millis = candidate >> 22
        millis += (shard_id - millis) % shard_count
        self._last = max(self._last, (millis << 22) | (candidate & 0x3FFFFF))
        return self._last
