"""Crash-test child: commit Dice Race moves (and some undos) in a loop until it is killed.

Run as ``python -m tests.storage.crash_child STORE GAMES`` (an SQLite path or a
PostgreSQL URL). After each acknowledged
write it prints ``GAME_ID VERSION`` and flushes, so the parent knows what was committed
before it sent SIGKILL.
"""

from __future__ import annotations

import asyncio
import random
import sys

from storage.opening import open_database
from storage.replay import undo_last_command
from tests.storage.helpers import HOST, play_one, started_game


async def run(store: str, games: int) -> None:
    """Open (or reopen) the store, make sure ``games`` games exist, play forever."""
    repo = await open_database(store)
    ids = []
    for channel in range(games):
        existing = await repo.game_in_channel(channel)
        game = existing or await started_game(
            repo, channel, seed=channel, options={"target": 100_000}
        )
        ids.append(game.id)
    print("ready", flush=True)
    rng = random.Random()
    step = 0
    while True:
        game_id = ids[step % len(ids)]
        step += 1
        if step % 25 == 0:
            version = (await repo.get_game(game_id)).version
            entry = await undo_last_command(
                repo, game_id, expected_version=version, moderator_user_id=HOST, reason="test"
            )
        else:
            entry = await play_one(repo, game_id, rng)
        print(game_id, entry.version_after, flush=True)


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2])))
