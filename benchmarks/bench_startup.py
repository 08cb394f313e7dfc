"""Start-up figures: from opening the database to ready, at 1,000 / 10,000 / 100,000 stored games.

Workload: a database of ``stored`` games, a tenth of them active (homm4, two seats, in the
middle of the game), the rest finished. Of the active games, `COMPUTER_SHARE` have a
computer seat (a human against the computer) and as many again have a standing order (a
seat's battle orders): the games a restart may owe work. The games are made the way
players make them, through `GameService` (a few of each kind), then copied row for row
(game, seats, whole log, standing orders) under new ids and channels with plain SQL, as
`benchmarks.e2e_fixture` builds its archive.

Measured: what the bot does before it serves (`bot.app.open_service`: open and migrate
the database, build the `GameService`) and its first task once connected (`recover`:
finish the automatic moves a crash left), in wall time and in the process's CPU time
(which the machine's other load does not inflate), once per database, each the median of
`REPEATS` starts. The floor is opening the same file with `sqlite3` and reading one row:
less than any start-up can do. Also reported: the integrity check (``PRAGMA
quick_check``), which the bot runs in the background after start (and `heroes-table
verify` on demand), and the file's size.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.e2e_fixture import Table, _advance, _open_game, count_games
from benchmarks.report import AreaResult, Figure, Target
from benchmarks.stats import Stat

SIZES = ((1_000, 100), (10_000, 1_000), (100_000, 10_000))
"""(stored games, active games) of each database measured in a full run."""

QUICK_SIZES = ((1_000, 100),)
"""The same in a quick run."""

COMPUTER_SHARE = 0.02
"""The share of the active games with a computer seat (as many again have standing orders)."""

REPEATS = 3
"""Starts per database (the median is reported)."""

TARGET_S = 2.0
"""Start-up to ready with 100,000 stored games, 10,000 of them active (seconds)."""

GUILD = 1


def _copy_games(conn: sqlite3.Connection, template: int, copies: int, first_channel: int) -> None:
    """Copy game ``template`` (its row, seats, log and standing orders) ``copies`` times."""
    tables = ("games", "seats", "game_log", "standing_orders")
    columns = {t: [row[1] for row in conn.execute(f"PRAGMA table_info({t})")] for t in tables}
    game_cols = ", ".join(c for c in columns["games"] if c not in ("id", "channel_id"))
    for index in range(copies):
        cursor = conn.execute(
            f"INSERT INTO games (channel_id, {game_cols}) SELECT ?, {game_cols} FROM games "
            "WHERE id = ?",
            (first_channel + index, template),
        )
        new_id = cursor.lastrowid
        for table in tables[1:]:
            cols = ", ".join(c for c in columns[table] if c != "game_id")
            conn.execute(
                f"INSERT INTO {table} (game_id, {cols}) SELECT ?, {cols} FROM {table} "
                "WHERE game_id = ?",
                (new_id, template),
            )


async def _templates(path: Path) -> dict[str, int]:
    """Play one game of each kind through the service; return their ids by kind."""
    from bot.actors import Actor
    from bot.service import GameService
    from storage import open_repository
    from storage.records import GameStatus

    repo = await open_repository(path, synchronous="NORMAL")
    service = GameService(repo, renderer=None)
    made: dict[str, int] = {}
    try:
        seed = 7_000
        for kind in ("humans", "orders", "finished"):
            while kind not in made:
                seed += 1
                table = Table(10_000 + seed, ((1, "ann"), (2, "bob")))
                game_id = await _open_game(service, GUILD, table, seed)
                await _advance(service, game_id, to_middle=kind != "finished")
                status = (await repo.get_game(game_id)).status
                if (status is GameStatus.ACTIVE) == (kind != "finished"):
                    made[kind] = game_id
        game_id = made["orders"]
        await repo.set_standing_order(game_id, 0, "retreat", "never")
        while "computer" not in made:  # a human against the computer, waiting for the human
            seed += 1
            channel = 10_000 + seed
            host = Actor(1, "ann")
            await service.new_game(host, channel, guild_id=GUILD, players=2, seed=seed)
            await service.add_ai(host, channel)
            await service.start(host, channel)
            game = await repo.game_in_channel(channel)
            if game is not None and game.status is GameStatus.ACTIVE:
                made["computer"] = game.id
    finally:
        await repo.close()
    return made


async def build(path: Path, stored: int, active: int) -> None:
    """Create the database at ``path``: ``stored`` games, ``active`` of them active."""
    made = await _templates(path)
    there = count_games(path)  # the templates, and any game that ended before its middle
    special = max(1, round(active * COMPUTER_SHARE))
    plan = [
        (made["computer"], special - 1),
        (made["orders"], special - 1),
        (made["humans"], active - 2 * special - there.get("active", 0) + 2),
        (made["finished"], stored - active - sum(there.values()) + there.get("active", 0)),
    ]
    if min(copies for _, copies in plan) < 0:
        raise ValueError(f"{stored} stored games, {active} active: too few for the templates")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        channel = 1_000_000
        for template, copies in plan:
            _copy_games(conn, template, copies, channel)
            channel += copies
        conn.execute("COMMIT")
    finally:
        conn.close()


async def start_once(path: Path) -> tuple[float, float]:
    """Start the way the bot does (open, build the service, recover) and stop again.
    Returns (wall seconds, CPU seconds of this process)."""
    from bot.app import open_service

    wall, cpu = time.perf_counter(), time.process_time()
    service, closers = await open_service(path)
    await service.recover()
    spent = time.perf_counter() - wall, time.process_time() - cpu
    for close in reversed(closers):
        await close()
    return spent


def _within_target(figure: Figure) -> bool:
    value = figure.value
    median = value.median if isinstance(value, Stat) else value
    return median <= TARGET_S * 1000


def _floor(path: Path) -> float:
    wall = time.perf_counter()
    conn = sqlite3.connect(path)
    conn.execute("SELECT id FROM games ORDER BY id LIMIT 1").fetchall()
    conn.close()
    return time.perf_counter() - wall


def _quick_check(path: Path) -> float:
    wall = time.perf_counter()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA quick_check(3)").fetchall()
    conn.close()
    return time.perf_counter() - wall


def measure(sizes: Sequence[tuple[int, int]], repeats: int = REPEATS) -> AreaResult:
    """Build each database and measure its start-ups (see the module docstring)."""
    result = AreaResult("startup", "Start-up")
    with tempfile.TemporaryDirectory(prefix="heroes-startup-") as folder:
        for stored, active in sizes:
            path = Path(folder) / f"startup-{stored}.sqlite"
            asyncio.run(build(path, stored, active))
            walls, cpus, floors = [], [], []
            for _ in range(repeats):
                wall, cpu = asyncio.run(start_once(path))
                walls.append(wall * 1000)
                cpus.append(cpu * 1000)
                floors.append(_floor(path) * 1000)
            label = f"{stored:,} stored games, {active:,} active"
            target = None
            if (stored, active) == SIZES[-1]:
                target = Target(f"median ≤ {TARGET_S:g} s", _within_target)
            result.figures.append(
                Figure(
                    f"start-up to ready, {label}",
                    "ms",
                    Stat.of(walls),
                    "open the file and read one row (sqlite3)",
                    Stat.of(floors),
                    target,
                )
            )
            result.figures.append(Figure(f"CPU of the start-up, {label}", "ms", Stat.of(cpus)))
            result.figures.append(
                Figure(f"integrity check (quick_check), {label}", "ms", _quick_check(path) * 1000)
            )
            size = path.stat().st_size / 2**20
            result.figures.append(Figure(f"database file, {label}", "MiB", size))
    special = max(1, round(SIZES[-1][1] * COMPUTER_SHARE))
    result.notes.append(
        f"Each database: a tenth of its games active (homm4, two seats, mid-game), "
        f"{COMPUTER_SHARE:.0%} of those with a computer seat and as many with a standing order "
        f"({special:,} each at 10,000 active); {repeats} starts each (median). Start-up: "
        "bot.app.open_service (open and migrate, the GameService) and GameService.recover."
    )
    result.notes.append(
        "The integrity check runs in the background once the bot is ready, and on demand "
        "with `heroes-table verify`; it is not part of the start-up."
    )
    return result


def run(quick: bool = False) -> AreaResult:
    """Measure the start-up figures (``quick``: the 1,000-game database only)."""
    random.seed(0)
    started = time.perf_counter()
    result = measure(QUICK_SIZES if quick else SIZES)
    result.seconds = time.perf_counter() - started
    return result
