"""Crash safety: a process killed with SIGKILL mid-commit leaves every game at a committed
state, on both backends."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage.records import LogKind
from storage.replay import read_full_log, verify_game
from tests.storage.conftest import OpenStore
from tests.storage.dice_race import DICE_RACE

ROOT = Path(__file__).resolve().parents[2]
GAMES = 3
ROUNDS = 4

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


def run_child_until_killed(store: str, rng: random.Random) -> dict[int, int]:
    """Start the child, let it commit for a while, SIGKILL it at a random moment.

    :returns: the highest version the child reported as committed, per game.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_child", store, str(GAMES)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acknowledged: dict[int, int] = {}
    wanted = rng.randint(40, 160)
    try:
        assert child.stdout.readline().strip() == "ready"
        for _ in range(wanted):
            game_id, version = map(int, child.stdout.readline().split())
            acknowledged[game_id] = max(version, acknowledged.get(game_id, 0))
        time.sleep(rng.uniform(0, 0.004))  # land somewhere inside a later transaction
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        out, err = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL, err
    for line in out.splitlines():  # lines flushed just before the kill
        game_id, version = map(int, line.split())
        acknowledged[game_id] = max(version, acknowledged.get(game_id, 0))
    return acknowledged


async def check_every_game(open_store: OpenStore, acknowledged: dict[int, int]) -> None:
    repo = await open_store()
    try:
        for game_id, version in acknowledged.items():
            game = await repo.get_game(game_id)
            assert game.version >= version  # nothing acknowledged was lost
            entries = await read_full_log(repo, game_id)
            assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
            changes = [e for e in entries if e.kind is LogKind.COMMAND or e.undoes is not None]
            assert len(changes) == game.version  # snapshot and log agree on the version
            verification = await verify_game(repo, game_id, DICE_RACE)
            assert verification.ok, verification
    finally:
        await repo.close()


@pytest.mark.slow
async def test_sigkill_mid_commit_leaves_every_game_committed_and_replayable(
    backend: str, store: str, open_store: OpenStore
) -> None:
    rng = random.Random(2025)
    best: dict[int, int] = {}
    for _ in range(ROUNDS):
        acknowledged = await asyncio.to_thread(run_child_until_killed, store, rng)
        if backend == "sqlite":
            assert Path(f"{store}-wal").exists()  # it died with a live write-ahead log
        for game_id, version in acknowledged.items():
            best[game_id] = max(version, best.get(game_id, 0))
        await check_every_game(open_store, best)
    assert len(best) == GAMES
    if backend == "sqlite":
        with sqlite3.connect(store) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()
