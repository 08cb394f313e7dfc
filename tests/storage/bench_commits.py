"""Storage measurements quoted in docs/STORAGE.md (not a test): ``python -m tests.storage.bench_commits``.

Measures, on real files in a temporary folder: the latency of `Repository.commit` alone
(1000 commits, ``synchronous`` FULL and NORMAL), a whole move (load + apply + commit), a
``game_in_channel`` read, replay of a 1000-command game, and opening (with
``PRAGMA quick_check``) and backing up a database of many finished games.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from storage.backup import backup_database
from storage.replay import replay_game
from storage.sqlite import Synchronous, open_repository
from tests.storage.dice_race import DICE_RACE
from tests.storage.helpers import load, play_one, player, started_game


def describe(name: str, samples: list[float]) -> str:
    """One line: median and 95th percentile in milliseconds."""
    ordered = sorted(samples)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return (
        f"{name:<44} median {statistics.median(ordered) * 1000:7.3f} ms   p95 {p95 * 1000:7.3f} ms"
    )


async def timed(action: Callable[[], Awaitable[object]]) -> float:
    start = time.perf_counter()
    await action()
    return time.perf_counter() - start


async def commit_latency(folder: Path, synchronous: Synchronous, count: int = 1000) -> list[float]:
    """Time `commit` alone for ``count`` consecutive moves of one game."""
    repo = await open_repository(folder / f"commit-{synchronous}.db", synchronous=synchronous)
    game = await started_game(repo, 1, options={"target": 100_000})
    state, rng, samples = load(game), random.Random(1), []
    for _ in range(count):
        seat = state.turn
        command = DICE_RACE.ai_command(state, seat, rng)
        new_state, events = DICE_RACE.apply(state, seat, command)
        began = time.perf_counter()
        await repo.commit(
            game.id,
            expected_version=state.version,
            seat=seat,
            command=command,
            state=new_state,
            events=events,
            actor_user_id=player(seat),
        )
        samples.append(time.perf_counter() - began)
        state = new_state
    await repo.close()
    return samples


async def whole_moves_and_reads(folder: Path) -> tuple[list[float], list[float], float]:
    """Time 1000 whole moves and 1000 channel reads; then one replay of the game."""
    repo = await open_repository(folder / "moves.db")
    game = await started_game(repo, 7, options={"target": 100_000})
    rng = random.Random(2)
    moves = [await timed(lambda: play_one(repo, game.id, rng)) for _ in range(1000)]
    reads = [await timed(lambda: repo.game_in_channel(7)) for _ in range(1000)]
    replay = await timed(lambda: replay_game(repo, game.id, DICE_RACE))
    await repo.close()
    return moves, reads, replay


async def big_database(folder: Path, games: int = 200, moves: int = 200) -> str:
    """Fill a database with finished-length games; time opening it and backing it up."""
    path = folder / "big.db"
    repo = await open_repository(path, synchronous="NORMAL")
    rng = random.Random(3)
    for channel in range(games):
        game = await started_game(repo, channel, seed=channel, options={"target": 100_000})
        for _ in range(moves):
            await play_one(repo, game.id, rng)
    await repo.close()
    size = path.stat().st_size / 2**20
    start = time.perf_counter()
    await (await open_repository(path)).close()
    opened = time.perf_counter() - start
    start = time.perf_counter()
    await backup_database(path, folder / "big-backup.db")
    copied = time.perf_counter() - start
    return (
        f"{games} games x {moves} moves = {size:.1f} MiB: open with quick_check "
        f"{opened * 1000:.0f} ms, backup {copied * 1000:.0f} ms"
    )


async def main() -> None:
    """Run every measurement and print one line each."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for synchronous in ("FULL", "NORMAL"):
            samples = await commit_latency(folder, synchronous)
            print(describe(f"commit alone, synchronous={synchronous}", samples))
        moves, reads, replay = await whole_moves_and_reads(folder)
        print(describe("whole move (load, apply, commit), FULL", moves))
        print(describe("game_in_channel (with snapshot)", reads))
        print(f"{'replay of a 1000-command game':<44} {replay * 1000:7.1f} ms")
        print(await big_database(folder))


if __name__ == "__main__":
    asyncio.run(main())
