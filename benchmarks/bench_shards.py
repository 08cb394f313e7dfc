"""Several bot processes (issue 18): 2 processes × 250 active games on PostgreSQL beside
1 process × 500 on SQLite, in one run.

Set-up (shared with `benchmarks.bench_e2e`, whose pieces it reuses): a fake Discord in this
process with two guilds whose ids fall on shard 0 and shard 1 of 2, half the game channels
in each, two players per channel. The database (`benchmarks.e2e_fixture`) holds `STORED`
homm4 games, `ACTIVE` of them active in Round 3, built once as SQLite and copied for each
scenario:

- *SQLite, one process*: the fake announces one shard; one unsharded bot process
  (`benchmarks.e2e_bot`, the real bot as ``heroes-table run`` builds it) on a copy of the
  file serves all `ACTIVE` games.
- *PostgreSQL, two processes*: the fake announces two shards; the file is copied into a
  fresh schema on the server (`storage.transfer.copy_sqlite_to_postgres`, the
  ``migrate-db`` path), and two bot processes with ``HEROES_SHARD_COUNT=2`` and
  ``HEROES_SHARD_IDS`` 0 and 1 on ``HEROES_DATABASE_URL`` serve half the games each (each
  guild's interactions reach the process of its shard, as on Discord). The server is
  ``HEROES_BENCH_DATABASE_URL``, else ``HEROES_TEST_DATABASE_URL`` (``.ci/postgres.sh``
  starts one); without one the scenario is reported as not measured.

Load, as `bench_e2e`'s many-games run: every game runs its own loop; each round the move
due and ``/game status`` are sent at once, then the players think `THINK` s ±50 %.
Measured per interaction on the shared monotonic clock: dispatch → accepted
acknowledgement, and dispatch → everything delivered for the interactions that posted a
picture ("final image post"). Targets: acknowledgement p99 < 100 ms, final image post
p99 < 500 ms, in both scenarios. The machine's load average (``os.getloadavg``) is noted
before and after each scenario, with the cores other processes kept busy meanwhile: the
machine is shared, and two processes' figures mean little on a machine with no core left.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from benchmarks.bench_e2e import (
    DONE_TIMEOUT,
    BotProcess,
    RunResult,
    World,
    _game_loop,
    _heroes_round,
    _stat,
    machine_busy_seconds,
    snapshot_source,
)
from benchmarks.e2e_fixture import Table, build_database, count_games
from benchmarks.report import AreaResult, Figure, p99_under

ACTIVE = 500
"""Active games driven at once in each scenario (the full run): 2 × 250 or 1 × 500."""
STORED = 1000
"""Games in the database (the full run): `ACTIVE` active, the rest finished."""
ROUNDS = 6
"""Rounds per game (a move and /game status at once) in the full run."""
THINK = 10.0
"""Mean seconds between a game's rounds."""

PROCESSES = 2
"""Bot processes (and shards) of the PostgreSQL scenario."""


@dataclass
class Scenario:
    """One scenario's interactions (over all its processes) and the machine meanwhile."""

    name: str
    processes: int
    run: RunResult = field(default_factory=RunResult)
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)
    measured: bool = True
    why_not: str = ""

    def load_text(self) -> str:
        """The load averages (1, 5, 15 min) before and after, and the others' cores."""
        before = "/".join(f"{x:.1f}" for x in self.load_before)
        after = "/".join(f"{x:.1f}" for x in self.load_after)
        return (
            f"load average {before} before, {after} after; other processes kept "
            f"{self.run.others_cores:.2f} of {os.cpu_count()} cores busy"
        )


def build_sharded_world(fake: Any, tables: int, shards: int) -> tuple[World, dict[int, int]]:
    """``shards`` guilds, guild k on shard k of ``shards``; ``tables`` channels spread over
    them in turn, two members each. Returns the world and each channel's guild id."""
    guilds = [fake.create_guild(f"Benchmark Tavern {k}", shard=k) for k in range(shards)]
    channels: dict[int, Any] = {}
    users: dict[int, Any] = {}
    made: list[Table] = []
    guild_of: dict[int, int] = {}
    for index in range(tables):
        guild = guilds[index % shards]
        channel = guild.create_text_channel(f"game-{index}")
        pair = [fake.create_user(f"p{index}{side}") for side in "ab"]
        for user in pair:
            guild.add_member(user)
            users[user.id] = user
        channels[channel.id] = channel
        guild_of[channel.id] = guild.id
        made.append(Table(channel.id, ((pair[0].id, pair[0].name), (pair[1].id, pair[1].name))))
    return World(fake, guilds[0], channels, users, made), guild_of


def regroup(path: Path, guild_of: dict[int, int]) -> None:
    """Give each active game in the fixture ``path`` the guild of its channel (the fixture
    builder puts every game in one guild)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "UPDATE games SET guild_id = ? WHERE channel_id = ?",
            [(guild, channel) for channel, guild in guild_of.items()],
        )
        conn.execute("COMMIT")
    finally:
        conn.close()


@contextlib.contextmanager
def environment(values: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``values`` while a bot process is spawned."""
    with mock.patch.dict(os.environ, values):
        yield


def server_url() -> str | None:
    """The PostgreSQL server to measure on (see the module docstring), or None."""
    for name in ("HEROES_BENCH_DATABASE_URL", "HEROES_TEST_DATABASE_URL"):
        url = os.environ.get(name, "").strip()
        if url:
            return url
    return None


@asynccontextmanager
async def fresh_schema(url: str) -> AsyncIterator[str]:
    """A new empty schema on the server at ``url`` (dropped afterwards): its URL."""
    from tests.postgres_server import fresh_schema as make

    async with make(url) as schema_url:
        yield schema_url


async def drive(
    scenario: Scenario,
    world: World,
    route: dict[int, BotProcess],
    repo: Any,
    rounds: int,
    think: float,
) -> None:
    """Play ``rounds`` rounds of every game of ``world`` at once, each table's interactions
    answered by ``route[channel id]``; fill ``scenario.run``."""
    result = scenario.run
    bots = list(dict.fromkeys(route.values()))
    for bot in bots:  # one unrecorded round per process: imports, fonts, caches
        table = next(t for t in world.tables if route[t.channel_id] is bot)
        await _heroes_round(world, bot, repo, table, RunResult())
    for bot in bots:
        await bot.mark()
    rng = random.Random(len(world.tables) * 7919 + rounds)
    scenario.load_before = os.getloadavg()
    started = time.perf_counter()
    cpu_before = sum(bot.cpu_seconds() for bot in bots)
    main_before = sum(bot.cpu_seconds(own=True) for bot in bots)
    driver_before = time.process_time()
    machine_before = machine_busy_seconds()
    loops = []
    for table in world.tables:
        bot = route[table.channel_id]

        def play(t: Table = table, b: BotProcess = bot) -> Any:
            return _heroes_round(world, b, repo, t, result)

        loops.append(_game_loop(play, rounds, think, random.Random(rng.random())))
    await asyncio.gather(*loops)
    result.seconds = time.perf_counter() - started
    result.cpu_seconds = sum(bot.cpu_seconds() for bot in bots) - cpu_before
    result.main_cpu_seconds = sum(bot.cpu_seconds(own=True) for bot in bots) - main_before
    result.driver_cpu_seconds = time.process_time() - driver_before
    result.machine_cpu_seconds = machine_busy_seconds() - machine_before
    scenario.load_after = os.getloadavg()


async def stop(bots: list[BotProcess], scenario: Scenario) -> None:
    """Stop the scenario's processes and add up their errors and loop lags."""
    for bot in bots:
        await bot.stop()
        scenario.run.errors += int(bot.errors.get("count", 0))
        scenario.run.first_error = scenario.run.first_error or str(bot.errors.get("first", ""))
    lags = [bot.lag.get("p99", 0.0) for bot in bots]
    scenario.run.loop_lag = {"p99": max(lags, default=0.0)}


async def sqlite_scenario(
    world: World, fixture: Path, folder: Path, source: Path, rounds: int, think: float
) -> Scenario:
    """One unsharded bot process on a copy of the SQLite fixture."""
    from storage import open_repository

    scenario = Scenario(f"SQLite, 1 process × {len(world.tables)} games", 1)
    world.fake.shard_count = 1
    db = folder / "sqlite.db"
    shutil.copyfile(fixture, db)
    unsharded = {"HEROES_SHARD_COUNT": "", "HEROES_SHARD_IDS": "", "HEROES_DATABASE_URL": ""}
    with environment(unsharded):
        bot = await BotProcess.start(world.fake, "heroes", db, folder / "sqlite.log", [], source)
    repo = await open_repository(db, check_integrity=False)
    try:
        await drive(scenario, world, dict.fromkeys(world.channels, bot), repo, rounds, think)
    finally:
        await repo.close()
        await stop([bot], scenario)
    return scenario


async def postgres_scenario(
    world: World,
    guild_of: dict[int, int],
    fixture: Path,
    folder: Path,
    source: Path,
    rounds: int,
    think: float,
) -> Scenario:
    """Two bot processes, one shard each, on a copy of the fixture in PostgreSQL."""
    per = len(world.tables) // PROCESSES
    scenario = Scenario(f"PostgreSQL, {PROCESSES} processes × {per} games", PROCESSES)
    url = server_url()
    if url is None:
        scenario.measured = False
        scenario.why_not = (
            "no PostgreSQL server (set HEROES_BENCH_DATABASE_URL, or run under .ci/postgres.sh)"
        )
        return scenario
    from storage.postgres import open_postgres
    from storage.transfer import copy_sqlite_to_postgres

    world.fake.shard_count = PROCESSES
    copy = folder / "for-postgres.db"
    shutil.copyfile(fixture, copy)
    async with fresh_schema(url) as schema:
        await copy_sqlite_to_postgres(copy, schema)
        bots: dict[int, BotProcess] = {}
        for shard in range(PROCESSES):
            env = {
                "HEROES_DATABASE_URL": schema,
                "HEROES_SHARD_COUNT": str(PROCESSES),
                "HEROES_SHARD_IDS": str(shard),
            }
            with environment(env):
                bots[shard] = await BotProcess.start(
                    world.fake, "heroes", copy, folder / f"pg-{shard}.log", [], source
                )
        route = {
            channel: bots[world.fake.gateway.shard_of(guild)] for channel, guild in guild_of.items()
        }
        repo = await open_postgres(schema)
        try:
            await drive(scenario, world, route, repo, rounds, think)
        finally:
            await repo.close()
            await stop(list(bots.values()), scenario)
    return scenario


def scenario_figures(scenario: Scenario) -> list[Figure]:
    """The two targeted figures of one scenario."""
    if not scenario.measured:
        return []
    run = scenario.run
    return [
        Figure(
            f"acknowledgement, {scenario.name}",
            "ms",
            _stat(run.samples, "ack_ms"),
            target=p99_under(100),
        ),
        Figure(
            f"final image post, {scenario.name}",
            "ms",
            _stat(run.of("move", "status", images=True), "done_ms"),
            target=p99_under(500),
        ),
    ]


def violation_kinds(violations: Iterable[Any]) -> Counter[str]:
    """How many of the fake Discord's recorded violations (``tests.fakediscord``'s
    ``Violation``: ``kind``, ``route``, ``detail``) there are of each kind, so a run says
    what its violations were (``late_ack``, ``unknown_webhook``, ``limit`` ...), not only
    how many. Details are left out: they may quote message text."""
    return Counter(str(v.kind) for v in violations)


async def measure(quick: bool, think_given: float | None = None) -> AreaResult:
    """Build the world and the fixture, run both scenarios, return the figures
    (``think_given``: mean seconds between a game's rounds instead of `THINK`)."""
    from tests.fakediscord import FakeDiscord

    started = time.perf_counter()
    active, stored = (16, 40) if quick else (ACTIVE, STORED)
    rounds, think = (2, 1.0) if quick else (ROUNDS, THINK)
    if think_given is not None:
        think = think_given
    with tempfile.TemporaryDirectory(prefix="heroes-shards-") as name:
        folder = Path(name)
        source = snapshot_source(folder)
        async with FakeDiscord(
            ack_timeout=3.0, response_timeout=DONE_TIMEOUT, shard_count=PROCESSES
        ) as fake:
            world, guild_of = build_sharded_world(fake, active, PROCESSES)
            fixture = folder / "fixture.db"
            await build_database(fixture, world.guild.id, world.tables, stored=stored)
            regroup(fixture, guild_of)
            counts = count_games(fixture)
            sqlite = await sqlite_scenario(world, fixture, folder, source, rounds, think)
            postgres = await postgres_scenario(
                world, guild_of, fixture, folder, source, rounds, think
            )
            violations = violation_kinds(fake.violations)
    figures = scenario_figures(postgres) + scenario_figures(sqlite)
    notes = [
        f"Database: {sum(counts.values())} homm4 games "
        f"({', '.join(f'{v} {k}' for k, v in sorted(counts.items()))}), the same in both "
        "scenarios; each active game has two human seats in Round 3.",
        f"Load: {rounds} rounds per game (a move and /game status at once), think time "
        f"{think:g} s ±50 %; pictures drawn by each bot process's own workers "
        "(HEROES_RENDER_PROCESSES, default 2).",
    ]
    for scenario in (postgres, sqlite):
        if not scenario.measured:
            notes.append(f"{scenario.name}: not measured, {scenario.why_not}.")
            continue
        run = scenario.run
        rate = len(run.samples) / run.seconds if run.seconds else 0.0
        notes.append(
            f"{scenario.name}: {len(run.samples)} interactions in {run.seconds:.0f} s "
            f"({rate:.1f}/s); moves landed {run.moves_landed} of {run.moves_sent}; "
            f"timeouts {run.timeouts}; errors logged {run.errors}; bot CPU "
            f"{run.cpu_ms_per_interaction:.0f} ms per interaction; event-loop lag p99 "
            f"{run.loop_lag.get('p99', 0):.0f} ms (worst process); {scenario.load_text()}."
        )
        if run.first_error:
            notes.append(f"First error: `{run.first_error.splitlines()[0][:200]}`")
    notes.append(
        f"Discord rules broken (fake's violations): {sum(violations.values())}"
        + (
            " — "
            + ", ".join(f"{kind} {count}" for kind, count in violations.most_common())
            + " (late_ack: an answer after Discord's 3 s window; unknown_webhook: a "
            "follow-up to an interaction never acknowledged in time; limit: a rate limit "
            "hit)"
            if violations
            else ""
        )
        + "."
    )
    result = AreaResult(
        "shards", "Several bot processes (PostgreSQL, 2 shards) beside one (SQLite)", figures
    )
    result.notes = notes
    result.seconds = time.perf_counter() - started
    return result


def run(quick: bool = False, think: float | None = None) -> AreaResult:
    """Measure both scenarios (``quick``: 16 games, 2 rounds; ``think``: mean seconds
    between a game's rounds instead of `THINK`)."""
    return asyncio.run(measure(quick, think))
