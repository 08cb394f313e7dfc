"""Storage figures: a commit against a bare insert of the same bytes; loading a game by channel.

Workload: the commands of complete 4-player homm4 AI games, committed in order to a real
SQLite file in a temporary folder (`SqliteRepository.commit`: the guarded version bump
with the new snapshot and the log entry at the next seq, in one autocommit statement, an
``INSERT`` into the view ``commit_requests``), exactly as the bot stores a move.

Floors, measured in the same run and interleaved command by command with the commit, each
writing the same bytes (snapshot JSON, command JSON and events JSON) into a one-table
database of its own on the same disk (WAL, the same ``synchronous``):

- the bare insert in the commit's transaction mode: one ``INSERT`` as one autocommit
  statement, through aiosqlite as the repository is (its thread hop included: the bot may
  not block the event loop). The target compares the commit with this one;
- the same insert inside ``BEGIN IMMEDIATE`` ... ``COMMIT`` through aiosqlite (three
  round trips to its thread; the floor of the commit before schema 5 made it one
  statement, kept for comparison);
- the same autocommit insert through the standard library's ``sqlite3`` on the calling
  thread (no thread hop), as a third reference;
- loading a game: a bare ``SELECT`` of the same snapshot bytes by primary key;
- one reminder-loop tick (`GameService.due_reminders`) over 10,000 stored active games
  with deadlines: a bare ``SELECT`` of the due rows through the ``due_at`` index, on the
  same file.

PostgreSQL (issue 18), when a server is given (``HEROES_BENCH_DATABASE_URL``, else
``HEROES_TEST_DATABASE_URL``: run ``.ci/postgres.sh python -m benchmarks --only storage``):
`PostgresRepository.commit` (one statement, ``SELECT commit_move(...)``) beside a bare
``INSERT`` of the same bytes into a one-table schema on the same server, through the same
asyncpg pool kind, interleaved in a random order. Each runs in a fresh schema, dropped
afterwards.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from benchmarks.bench_engine import FIRST_SEED, _ruleset
from benchmarks.report import AreaResult, Figure, ratio_at_most
from benchmarks.stats import Stat
from engine.core.model import Command, Event
from engine.homm4.state import Homm4State
from storage.postgres import open_postgres
from storage.records import GuildSettings
from storage.repository import Repository
from storage.sqlite import Synchronous, open_repository

PLAYERS = 4


@dataclass
class Step:
    """One command of a recorded game, ready to commit."""

    seat: int
    command: Command
    state: Homm4State
    events: list[Event]


@dataclass
class RecordedGame:
    """A complete AI game: its seed, initial state and set-up events, and every step."""

    seed: int
    initial: Homm4State
    setup_events: list[Event]
    steps: list[Step]


def record_game(seed: int) -> RecordedGame:
    """Play a 4-player homm4 AI game and keep every new state and its events."""
    import random

    rules = _ruleset()
    rng = random.Random(seed)
    state, setup_events = rules.new_game(rules.parse_options({}), PLAYERS, seed)
    game = RecordedGame(seed, state, setup_events, [])
    while not rules.result(state).finished:
        seat = rules.pending(state)[0].seat
        command = rules.ai_command(state, seat, rng)
        state, events = rules.apply(state, seat, command)
        game.steps.append(Step(seat, command, state, events))
    return game


async def start_game(repo: Repository, channel_id: int, game: RecordedGame) -> int:
    """Create, seat and start ``game`` in ``channel_id``; return the game id."""
    rules = _ruleset()
    row = await repo.create_game(
        channel_id, ruleset="homm4", guild_id=1, host_user_id=1, seed=game.seed
    )
    for seat in range(PLAYERS):
        await repo.join_game(row.id, user_id=1000 + seat, display_name=f"player {seat}")
    await repo.start_game(
        row.id,
        state=game.initial,
        events=game.setup_events,
        options=rules.parse_options({}),
        actor_user_id=1,
    )
    return row.id


BARE_TABLE = "CREATE TABLE IF NOT EXISTS bare (id INTEGER PRIMARY KEY, state TEXT, log TEXT)"


def _log_bytes(step: Step) -> str:
    events = "[" + ",".join(e.model_dump_json() for e in step.events) + "]"
    return step.command.model_dump_json() + events


async def _open_bare(path: Path, synchronous: Synchronous) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute(f"PRAGMA synchronous = {synchronous}")
    await conn.execute(BARE_TABLE)
    return conn


def _open_plain(path: Path, synchronous: Synchronous) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute(BARE_TABLE)
    return conn


BARE_INSERT = "INSERT INTO bare (state, log) VALUES (?, ?)"


async def _single_insert(conn: aiosqlite.Connection, state: str, log: str) -> None:
    await conn.execute_fetchall(BARE_INSERT, (state, log))


async def _bare_insert(conn: aiosqlite.Connection, state: str, log: str) -> None:
    await conn.execute("BEGIN IMMEDIATE")
    await conn.execute(BARE_INSERT, (state, log))
    await conn.execute("COMMIT")


def _plain_insert(conn: sqlite3.Connection, state: str, log: str) -> None:
    conn.execute(BARE_INSERT, (state, log))


@dataclass
class CommitSamples:
    """Milliseconds per commit and per floor insert, in the same order.

    Attributes:
        commits: `SqliteRepository.commit`.
        single: the bare insert as one autocommit statement (aiosqlite).
        bare: the bare insert in ``BEGIN IMMEDIATE`` ... ``COMMIT`` (aiosqlite).
        plain: the bare insert as one autocommit statement (stdlib sqlite3).
    """

    commits: list[float]
    single: list[float]
    bare: list[float]
    plain: list[float]


async def commit_samples(
    folder: Path, games: Sequence[RecordedGame], synchronous: Synchronous, count: int
) -> CommitSamples:
    """Commit ``count`` recorded steps (game after game); with each, insert the same bytes
    bare three ways (see `CommitSamples`). The four run in a random order each time, so
    none is favoured by running right after another (a warm thread, a flushed disk)."""
    rules = _ruleset()
    repo = await open_repository(folder / f"commits-{synchronous}.db", synchronous=synchronous)
    single = await _open_bare(folder / f"single-{synchronous}.db", synchronous)
    bare = await _open_bare(folder / f"bare-{synchronous}.db", synchronous)
    plain = _open_plain(folder / f"plain-{synchronous}.db", synchronous)
    samples = CommitSamples([], [], [], [])
    order = random.Random(len(synchronous))
    try:
        channel = 0
        while len(samples.commits) < count:
            game = games[channel % len(games)]
            channel += 1
            game_id = await start_game(repo, 10_000 + channel, game)
            for step in game.steps:
                if len(samples.commits) >= count:
                    break
                state_json = rules.dump_state(step.state)
                log = _log_bytes(step)
                outcome = rules.result(step.state)

                async def commit(
                    step: Step = step, outcome: Any = outcome, game_id: int = game_id
                ) -> None:
                    await repo.commit(
                        game_id,
                        expected_version=step.state.version - 1,
                        seat=step.seat,
                        command=step.command,
                        state=step.state,
                        events=step.events,
                        actor_user_id=1000 + step.seat,
                        result=outcome,
                    )

                async def single_insert(state: str = state_json, log: str = log) -> None:
                    await _single_insert(single, state, log)

                async def bare_insert(state: str = state_json, log: str = log) -> None:
                    await _bare_insert(bare, state, log)

                async def plain_insert(state: str = state_json, log: str = log) -> None:
                    _plain_insert(plain, state, log)

                runs: list[tuple[Callable[[], Awaitable[None]], list[float]]] = [
                    (commit, samples.commits),
                    (single_insert, samples.single),
                    (bare_insert, samples.bare),
                    (plain_insert, samples.plain),
                ]
                order.shuffle(runs)
                for run, into in runs:
                    started = time.perf_counter()
                    await run()
                    into.append((time.perf_counter() - started) * 1000)
    finally:
        plain.close()
        await bare.close()
        await single.close()
        await repo.close()
    return samples


def postgres_url() -> str | None:
    """The server the PostgreSQL figures use (``HEROES_BENCH_DATABASE_URL``, else
    ``HEROES_TEST_DATABASE_URL``), or None."""
    for name in ("HEROES_BENCH_DATABASE_URL", "HEROES_TEST_DATABASE_URL"):
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


async def postgres_commit_samples(
    url: str, games: Sequence[RecordedGame], count: int
) -> tuple[list[float], list[float], str]:
    """Commit ``count`` recorded steps into a fresh schema on the server at ``url`` and,
    with each, insert the same bytes bare into a one-table schema beside it (random order).

    :returns: the commit and bare-insert milliseconds, and the server's version.
    """
    rules = _ruleset()
    suffix = f"{os.getpid()}_{random.randrange(1 << 30)}"
    schemas = (f"bench_commit_{suffix}", f"bench_bare_{suffix}")
    admin = await asyncpg.connect(url)
    try:
        server = str(await admin.fetchval("SHOW server_version"))
        for schema in schemas:
            await admin.execute(f"CREATE SCHEMA {schema}")
        await admin.execute(
            f"CREATE TABLE {schemas[1]}.bare (id BIGINT GENERATED ALWAYS AS IDENTITY "
            "PRIMARY KEY, state TEXT, log TEXT)"
        )
        repo = await open_postgres(_with_schema(url, schemas[0]))
        bare = await asyncpg.create_pool(_with_schema(url, schemas[1]), min_size=1, max_size=2)
        commits: list[float] = []
        floors: list[float] = []
        order = random.Random(11)
        try:
            channel = 0
            while len(commits) < count:
                game = games[channel % len(games)]
                channel += 1
                game_id = await start_game(repo, 10_000 + channel, game)
                for step in game.steps:
                    if len(commits) >= count:
                        break
                    state_json, log = rules.dump_state(step.state), _log_bytes(step)
                    outcome = rules.result(step.state)

                    async def commit(
                        step: Step = step, outcome: Any = outcome, game_id: int = game_id
                    ) -> None:
                        await repo.commit(
                            game_id,
                            expected_version=step.state.version - 1,
                            seat=step.seat,
                            command=step.command,
                            state=step.state,
                            events=step.events,
                            actor_user_id=1000 + step.seat,
                            result=outcome,
                        )

                    async def insert(state: str = state_json, log: str = log) -> None:
                        await bare.execute(
                            "INSERT INTO bare (state, log) VALUES ($1, $2)", state, log
                        )

                    runs: list[tuple[Callable[[], Awaitable[None]], list[float]]] = [
                        (commit, commits),
                        (insert, floors),
                    ]
                    order.shuffle(runs)
                    for run, into in runs:
                        started = time.perf_counter()
                        await run()
                        into.append((time.perf_counter() - started) * 1000)
        finally:
            await bare.close()
            await repo.close()
    finally:
        for schema in schemas:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()
    return commits, floors, server


def _with_schema(url: str, schema: str) -> str:
    option = f"options=-csearch_path%3D{schema}"
    return f"{url}{'&' if '?' in url else '?'}{option}"


async def read_samples(
    folder: Path, game: RecordedGame, count: int
) -> tuple[list[float], list[float], list[float]]:
    """``game_in_channel`` of a mid-game 4-player game, its ``load_state`` after it, and
    the floor: a bare ``SELECT`` of the same snapshot by primary key (interleaved)."""
    rules = _ruleset()
    repo = await open_repository(folder / "reads.db")
    bare = await _open_bare(folder / "reads-bare.db", "FULL")
    reads: list[float] = []
    parses: list[float] = []
    floors: list[float] = []
    try:
        game_id = await start_game(repo, 42, game)
        middle = game.steps[: len(game.steps) // 2]
        for step in middle:
            await repo.commit(
                game_id,
                expected_version=step.state.version - 1,
                seat=step.seat,
                command=step.command,
                state=step.state,
                events=step.events,
                actor_user_id=None,
            )
        snapshot = rules.dump_state(middle[-1].state)
        await _bare_insert(bare, snapshot, "")
        for _ in range(count):
            started = time.perf_counter()
            found = await repo.game_in_channel(42)
            read = time.perf_counter()
            assert found is not None and found.state_json is not None
            rules.load_state(found.state_json)
            parsed = time.perf_counter()
            async with bare.execute("SELECT state FROM bare WHERE id = 1") as cursor:
                await cursor.fetchone()
            done = time.perf_counter()
            reads.append((read - started) * 1000)
            parses.append((parsed - read) * 1000)
            floors.append((done - parsed) * 1000)
    finally:
        await bare.close()
        await repo.close()
    return reads, parses, floors


TICK_GAMES = 10_000
"""How many stored active games with deadlines the reminder tick runs over."""

DUE_NOW = 10
"""How many of them have a reminder due at the tick in the second tick figure."""


def _clone_games(path: Path, template: int, count: int, start: datetime) -> None:
    """Copy game ``template`` (its row, seats and settings) ``count - 1`` times in one
    transaction, with a turn deadline and a reminder per copy spread over two days after
    ``start`` (none due at ``start``)."""
    conn = sqlite3.connect(path)
    try:
        columns = {
            table: [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            for table in ("games", "seats", "game_settings")
        }

        def copy(table: str, key: str, extra: dict[str, str]) -> None:
            names = columns[table]
            chosen = ", ".join(extra.get(name, f"t.{name}") for name in names)
            conn.execute(
                f"WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                f"INSERT INTO {table} ({', '.join(names)}) SELECT {chosen} FROM n, {table} t "
                f"WHERE t.{key} = ?",
                (count, template),
            )

        conn.execute("BEGIN")
        copy("games", "id", {"id": "n.i", "channel_id": "t.channel_id + n.i"})
        copy("seats", "game_id", {"game_id": "n.i"})
        copy("game_settings", "game_id", {"game_id": "n.i"})
        base = int(start.timestamp() * 1000)
        conn.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            "INSERT INTO deadlines (game_id, seat, kind, due_at, created_at) "
            "SELECT n.i, 0, k.kind, ? + 60000 + (n.i % 2880) * 60000 + k.lead, ? "
            "FROM n, (SELECT 'turn' AS kind, 3600000 AS lead UNION ALL SELECT 'reminder', 0) k "
            "WHERE true ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at",
            (count, base, base),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()


def _arm(path: Path, games: int, moment: datetime) -> None:
    """Make the reminders of games 1..``games`` due at ``moment`` (the tick takes them)."""
    conn = sqlite3.connect(path)
    try:
        due = int(moment.timestamp() * 1000) - 1000
        with conn:
            conn.executemany(
                "INSERT INTO deadlines (game_id, seat, kind, due_at, created_at) "
                "VALUES (?, 0, 'reminder', ?, ?) ON CONFLICT (game_id, seat, kind) "
                "DO UPDATE SET due_at = excluded.due_at",
                [(game, due, due) for game in range(1, games + 1)],
            )
    finally:
        conn.close()


async def tick_samples(
    folder: Path, game: RecordedGame, count: int
) -> tuple[list[float], list[float], list[float], list[float]]:
    """One reminder-loop tick (its posts held, then settled, as `bot.reminders` does) over
    `TICK_GAMES` stored active 4-player homm4 games (the
    game of ``game`` after its first command, copied), and the bare indexed ``SELECT`` of
    the due deadline rows just before each tick: first with nothing due, then with
    `DUE_NOW` reminders due (re-armed before each select, untimed).

    :returns: ``(idle ticks, idle selects, busy ticks, busy selects)`` in ms.
    """
    from bot.service import GameService

    path = folder / "ticks.db"
    start = datetime(2030, 1, 1, tzinfo=UTC)
    repo = await open_repository(path)
    try:
        game_id = await start_game(repo, 7, game)
        await repo.save_guild_settings(GuildSettings(1, None, timedelta(hours=48), None))
    finally:
        await repo.close()
    _clone_games(path, game_id, TICK_GAMES, start)
    repo = await open_repository(path)
    service = GameService(repo, renderer=None, clock=lambda: start)
    bare = await aiosqlite.connect(path)
    sql = "SELECT game_id, seat, kind, due_at FROM deadlines WHERE due_at <= ? ORDER BY due_at"
    samples: tuple[list[float], list[float], list[float], list[float]] = ([], [], [], [])
    try:
        for busy in (False, True):
            for _ in range(count):
                if busy:
                    _arm(path, DUE_NOW, start)
                began = time.perf_counter()
                async with bare.execute(sql, (int(start.timestamp() * 1000),)) as cursor:
                    rows = await cursor.fetchall()
                selected = time.perf_counter()
                out = await service.due_reminders(start, held=True)  # as the loop asks
                await service.deadline_posts_delivered(out.settles)  # and settles
                done = time.perf_counter()
                assert len(list(rows)) == len(out.posts) == (DUE_NOW if busy else 0)
                samples[2 * busy].append((done - selected) * 1000)
                samples[2 * busy + 1].append((selected - began) * 1000)
    finally:
        await bare.close()
        await repo.close()
    return samples


def _commit_figures(samples: CommitSamples, synchronous: Synchronous) -> list[Figure]:
    label = f"synchronous={synchronous}"
    main = Figure(
        f"commit (snapshot + log entry + version), {label}",
        "ms",
        Stat.of(samples.commits),
        "bare insert of the same bytes, one autocommit statement (aiosqlite)",
        Stat.of(samples.single),
        target=ratio_at_most(2.0) if synchronous == "FULL" else None,
    )
    transaction = Figure(
        f"commit, {label}, against an insert in a transaction",
        "ms",
        Stat.of(samples.commits),
        "bare insert of the same bytes in BEGIN IMMEDIATE … COMMIT (aiosqlite)",
        Stat.of(samples.bare),
    )
    plain = Figure(
        f"commit, {label}, against stdlib sqlite3",
        "ms",
        Stat.of(samples.commits),
        "bare insert of the same bytes, one autocommit statement (sqlite3, no thread hop)",
        Stat.of(samples.plain),
    )
    return [main, transaction, plain]


async def measure(quick: bool) -> AreaResult:
    """Run every storage measurement in a temporary folder."""
    started = time.perf_counter()
    games = [record_game(FIRST_SEED + 500 + i) for i in range(1 if quick else 4)]
    count = 120 if quick else 1000
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="heroes-bench-") as name:
        folder = Path(name)
        for synchronous in ("FULL", "NORMAL"):
            samples = await commit_samples(folder, games, synchronous, count)
            figures += _commit_figures(samples, synchronous)
        reads, parses, floors = await read_samples(folder, games[0], 200 if quick else 2000)
        idle, idle_floor, busy, busy_floor = await tick_samples(
            folder, games[0], 20 if quick else 100
        )
    url = postgres_url()
    postgres_note = (
        "No PostgreSQL server was given (HEROES_BENCH_DATABASE_URL or HEROES_TEST_DATABASE_URL; "
        "`.ci/postgres.sh python -m benchmarks --only storage` starts one), so its figure is left out."
    )
    if url is not None:
        pg_commits, pg_floors, server = await postgres_commit_samples(url, games, count)
        figures.append(
            Figure(
                "PostgreSQL commit (snapshot + log entry + version, SELECT commit_move)",
                "ms",
                Stat.of(pg_commits),
                "bare INSERT of the same bytes on the same server (asyncpg)",
                Stat.of(pg_floors),
                target=ratio_at_most(2.0),
            )
        )
        postgres_note = (
            f"PostgreSQL {server} on this machine (127.0.0.1, fsync on, synchronous_commit on, "
            f"the settings of a fresh cluster): {count} commits of the same games, each beside "
            "a bare INSERT of the same bytes into a one-table schema, in a random order."
        )
    figures.append(
        Figure(
            "game_in_channel (row with its snapshot)",
            "ms",
            Stat.of(reads),
            "bare SELECT of the same bytes",
            Stat.of(floors),
            note=f"then load_state of the snapshot: median {Stat.of(parses).median:.3f} ms",
        )
    )
    figures.append(
        Figure(
            f"reminder-loop tick, {TICK_GAMES:,} active games with deadlines, none due",
            "ms",
            Stat.of(idle),
            "bare indexed SELECT of the due deadline rows",
            Stat.of(idle_floor),
        )
    )
    figures.append(
        Figure(
            f"reminder-loop tick, {TICK_GAMES:,} games, {DUE_NOW} reminders due",
            "ms",
            Stat.of(busy),
            f"bare indexed SELECT of the same {DUE_NOW} due rows",
            Stat.of(busy_floor),
            note="each due reminder: the game and seats read, its position (kept or loaded), "
            "the reminder claimed and the next one set in one transaction, a post",
        )
    )
    snapshot = Stat.of([len(_ruleset().dump_state(s.state)) / 1024 for s in games[0].steps])
    result = AreaResult(
        "storage",
        "Storage",
        figures,
        notes=[
            f"{count} commits per mode: the commands of {len(games)} complete 4-player homm4 "
            f"AI games (snapshots {snapshot.min:.0f}–{snapshot.max:.0f} KiB, median "
            f"{snapshot.median:.0f} KiB); with each commit the bare inserts of the same "
            "bytes, the four in a random order each time, so machine noise falls on all.",
            "A commit is one autocommit statement (an INSERT into the view commit_requests, "
            "whose trigger checks the version and writes the log entry, snapshot and version), "
            "so the target's floor is the bare insert as one autocommit statement; the insert "
            "in BEGIN IMMEDIATE … COMMIT (the floor before schema 5) is shown for comparison.",
            "The bot runs with synchronous=FULL (a commit survives power loss); NORMAL is "
            "shown for comparison.",
            postgres_note,
        ],
    )
    result.seconds = time.perf_counter() - started
    return result


def run(quick: bool = False) -> AreaResult:
    """Measure every storage figure (``quick``: fewer commits and reads)."""
    return asyncio.run(measure(quick))
