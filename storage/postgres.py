"""The PostgreSQL `Repository` on asyncpg: one pool shared by every task, for one or many
bot processes on one server (issue 18).

Chosen by ``HEROES_DATABASE_URL=postgresql://user@host:port/database`` (`open_postgres`).
The semantics are the SQLite repository's, tested by the same suite:

- *A commit is one statement*, ``SELECT commit_move(...)`` (schema 5's function): the
  guarded ``UPDATE games ... WHERE version = $expected AND status = 'active'`` first (it
  takes the game's row lock; a racing commit that got there first makes it match nothing),
  then, holding the lock, the next seq, the log entry (whose triggers keep the seat's
  presence and the news owed, as in SQLite) and the deadlines. A statement is its own
  transaction: it lands wholly or not at all, and of two racing commits, in one process or
  two, exactly one lands and the other raises `StaleState`.
- *Every other write* is one READ COMMITTED transaction that first locks the game's row
  (``SELECT ... FOR NO KEY UPDATE``) where SQLite relies on ``BEGIN IMMEDIATE``; writers
  of one game therefore run one after another and always lock in the same order (game
  row first), so they never deadlock.
- *Claims* (`claim_deadline`, `take_held_messages`) are one ``DELETE ... RETURNING`` (or a
  ``DELETE`` whose row count decides) inside that transaction: of two processes claiming
  the same due deadline, exactly one deletes the row and acts on it.
- *Reads* are single statements on the pool (their own snapshot); a read of two things
  (`game_with_seats`, `deadline_settings`) is one REPEATABLE READ read-only transaction.
- `leader_lock` is ``pg_try_advisory_lock`` on a connection kept for the block (released
  when the block ends, or by the server when the process dies).

Several installations (or test runs) may share one database in separate schemas: the
repository uses the connection's ``search_path`` (e.g. ``?options=-csearch_path%3Dname`` in
the URL), and its advisory locks are keyed by the schema too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, NoReturn

import asyncpg

from engine.core.model import Command, Event, GameState, Result
from engine.core.ruleset import Ruleset
from storage.errors import (
    AlreadySeated,
    ChannelBusy,
    DatabaseBusy,
    DatabaseFull,
    DatabaseNotWritable,
    DatabaseReadOnly,
    DatabaseUnusable,
    ExtensionRefused,
    GameNotFound,
    MigrationError,
    NothingToUndo,
    SeatNotFound,
    StorageError,
    WrongGameStatus,
)
from storage.migrate import POSTGRESQL_MIGRATIONS, Migration, check_sequence, load_migrations
from storage.records import (
    ENDED_STATUSES,
    OPEN_STATUSES,
    SENT,
    CampaignHero,
    Deadline,
    DeadlineSpec,
    DigestMark,
    Extension,
    Game,
    GameSettings,
    GameStatus,
    GameSummary,
    GuildSettings,
    HeldMessage,
    LogEntry,
    LogKind,
    LogPage,
    MessageRef,
    ModeratorAction,
    ModeratorChange,
    NotifySettings,
    PingMode,
    PostSettle,
    Seat,
    UndoRequest,
    UserSeat,
)
from storage.repository import DEFAULT_PAGE
from storage.rows import (
    GAME_COLUMNS,
    HELD_COLUMNS,
    IN_EFFECT,
    INT64,
    LOG_COLUMNS,
    PRESENCE_COLUMNS,
    Row,
    channel_busy,
    deadline_row,
    dump_events,
    from_ms,
    game,
    held,
    log_entry,
    seat_row,
    seconds,
    stale,
    status_error,
    summary,
    to_json,
    to_ms,
)
from storage.sql import SqlRepository, numbered

log = logging.getLogger(__name__)

Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
"""A connection: one of the pool's (a proxy) or one opened on its own."""

_COMMIT_SQL = (
    "SELECT commit_move($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
)
"""A whole commit in one statement (schema 5's function)."""
_COMMIT_REFUSALS = frozenset(
    {
        "commit refused: no such game",
        "commit refused: the game is not active",
        "commit refused: stale version",
    }
)
_NOT_SAVED = (
    "so this was not saved; everything saved before it is kept. Please tell the bot's "
    "operator, and send it again once that is fixed."
)
_URL = re.compile(r"^postgres(?:ql)?://", re.IGNORECASE)
_PASSWORD = re.compile(r"(://[^:/@]*:)[^@/]*@")


def is_postgres_url(text: str) -> bool:
    """Whether ``text`` is a PostgreSQL connection URL (``postgresql://`` or
    ``postgres://``) rather than an SQLite file path."""
    return _URL.match(text.strip()) is not None


def redact_url(url: str) -> str:
    """``url`` without its password (for messages and logs); works on malformed URLs too."""
    return _PASSWORD.sub(r"\1***@", url)


def _count(status: str) -> int:
    """The row count of a command tag such as ``DELETE 3``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _translate(error: Exception) -> Exception:
    """Map a server or connection failure to a `StorageError` (one line for players), else
    return ``error`` unchanged."""
    translated: StorageError
    if isinstance(error, asyncpg.DiskFullError):
        translated = DatabaseFull(f"The bot's storage is full (no space left), {_NOT_SAVED}")
    elif isinstance(error, asyncpg.ReadOnlySQLTransactionError):
        translated = DatabaseReadOnly(f"The bot's database has become read-only, {_NOT_SAVED}")
    elif isinstance(error, asyncpg.DeadlockDetectedError | asyncpg.SerializationError):
        translated = DatabaseBusy(
            "The bot's database was busy with another change to the same game; nothing "
            "was changed. Try again in a moment."
        )
    elif isinstance(
        error,
        asyncpg.PostgresConnectionError | asyncpg.CannotConnectNowError | ConnectionError | OSError,
    ):
        translated = DatabaseNotWritable(
            f"The bot's database server could not be reached, {_NOT_SAVED}"
        )
    else:
        return error
    log.warning("PostgreSQL: %s (%s: %s)", type(translated).__name__, type(error).__name__, error)
    return translated


_TRANSLATED: tuple[type[BaseException], ...] = (
    asyncpg.DiskFullError,
    asyncpg.ReadOnlySQLTransactionError,
    asyncpg.DeadlockDetectedError,
    asyncpg.SerializationError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    ConnectionError,
    OSError,
)


# ------------------------------------------------------------------- migrations
async def schema_version_pg(conn: Connection) -> int:
    """The schema version of the connection's schema (0 without our ``schema_version``)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def migrate_postgres(
    conn: Connection,
    migrations: Sequence[Migration] | None = None,
    *,
    target: int | None = None,
    clock: Callable[[], datetime] | None = None,
) -> list[int]:
    """Bring the connection's schema up to ``target`` (default: the newest migration of
    ``storage/migrations/postgresql``), each step in its own transaction together with its
    ``schema_version`` row, under a transaction-level advisory lock of the schema (two
    processes starting at once apply each step once).

    :returns: the versions applied, in order.
    :raises MigrationError: if a step fails (rolled back; the schema stays at the step
        before) or the schema is newer than ``target``.
    """
    steps = tuple(load_migrations(POSTGRESQL_MIGRATIONS) if migrations is None else migrations)
    check_sequence(steps)
    goal = len(steps) if target is None else target
    now = clock or (lambda: datetime.now(UTC))
    applied: list[int] = []
    for migration in steps[:goal]:
        label = f"{migration.version:04d}_{migration.name}"
        try:
            async with conn.transaction():
                await conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || "
                    "'/heroes-table migrate', 0))"
                )
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
                )
                current = await schema_version_pg(conn)
                if current >= migration.version:
                    continue
                if current != migration.version - 1:
                    raise MigrationError(
                        f"Cannot apply migration {label} to a database at schema {current}."
                    )
                await conn.execute(migration.sql)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    to_ms(now()),
                )
        except asyncpg.PostgresError as error:
            raise MigrationError(
                f"Migration {label} failed ({error}); the database was left at schema "
                f"{migration.version - 1}."
            ) from error
        applied.append(migration.version)
    return applied


async def check_postgres_schema(
    conn: Connection, where: str, migrations: Sequence[Migration]
) -> None:
    """Refuse a schema that holds another program's tables or a newer Heroes Table's.

    :raises DatabaseUnusable: naming why; nothing is changed.
    """
    version = await schema_version_pg(conn)
    if version == 0:
        tables = await conn.fetchval(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        )
        if tables:
            raise DatabaseUnusable(
                f"Cannot open the database {where}: its schema holds another program's "
                "tables, not a Heroes Table database. Nothing was changed; choose another "
                "database or schema."
            )
        return
    if version > len(migrations):
        raise DatabaseUnusable(
            f"Cannot open the database {where}: it was written by a newer Heroes Table "
            f"(schema {version}; this version knows up to {len(migrations)}). Nothing was changed."
        )


async def connect_failure(url: str, error: BaseException) -> DatabaseUnusable:
    """The one-line error for a server that cannot be reached or refuses us."""
    where = redact_url(url)
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        why = "the server has no such database"
    elif isinstance(
        error, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError
    ):
        why = f"the server refused the login ({error})"
    elif isinstance(error, OSError | asyncpg.CannotConnectNowError | TimeoutError):
        why = f"the server cannot be reached ({error or type(error).__name__})"
    else:
        why = f"{type(error).__name__}: {error}"
    return DatabaseUnusable(f"Cannot open the database {where}: {why}. Nothing was changed.")


async def open_postgres(
    url: str,
    *,
    clock: Callable[[], datetime] | None = None,
    min_size: int = 1,
    max_size: int = 10,
    connect_timeout: float = 10.0,
    migrate: bool = True,
) -> PostgresRepository:
    """Connect to the PostgreSQL database at ``url``, migrate its schema, return the repository.

    :param url: ``postgresql://user[:password]@host[:port]/database[?options=...]``.
    :param max_size: the most connections this process keeps (one per concurrent write).
    :param migrate: apply the missing migrations (False: the schema must be current or empty).
    :raises DatabaseUnusable: with one line when the URL is not PostgreSQL's, the server
        cannot be reached or refuses the login, or the schema is foreign or newer.
    :raises MigrationError: if a migration fails (the schema stays at the last version).
    """
    if not is_postgres_url(url):
        raise DatabaseUnusable(
            f"Cannot open the database {redact_url(url)}: not a PostgreSQL URL (want "
            "postgresql://user@host:port/database). Nothing was changed."
        )
    try:
        pool = await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, timeout=connect_timeout
        )
    except (asyncpg.PostgresError, OSError, TimeoutError, ValueError) as error:
        raise await connect_failure(url, error) from error
    except asyncpg.InterfaceError as error:
        raise await connect_failure(url, error) from error
    try:
        migrations = load_migrations(POSTGRESQL_MIGRATIONS)
        async with pool.acquire() as conn:
            await check_postgres_schema(conn, redact_url(url), migrations)
            if migrate:
                applied = await migrate_postgres(conn, migrations, clock=clock)
                if applied:
                    log.info("Database %s migrated to schema %d", redact_url(url), applied[-1])
    except BaseException:
        await pool.close()
        raise
    return PostgresRepository(pool, url=url, clock=clock)


# --------------------------------------------------------------------- repository
class PostgresRepository(SqlRepository[Connection]):
    """`Repository` on a PostgreSQL server; build it with `open_postgres`.

    Attributes:
        url: the connection URL it was opened with (may hold a password: show
            `redact_url` of it).
    """

    def __init__(
        self, pool: asyncpg.Pool, *, url: str, clock: Callable[[], datetime] | None = None
    ) -> None:
        self.url = url
        self._pool = pool
        self._clock = clock or (lambda: datetime.now(UTC))
        self._closed = False
        self._leaders: set[str] = set()
        self._lock_guard = asyncio.Lock()
        self._lock_conn: asyncpg.Connection | None = None

    def _now(self) -> int:
        return to_ms(self._clock())

    async def close(self) -> None:
        """Close the pool (waits for the connections in use to be released) and the lock
        connection (which releases any leader lock still held)."""
        if self._closed:
            return
        self._closed = True
        if self._lock_conn is not None:
            with contextlib.suppress(Exception):
                await self._lock_conn.close()
            self._lock_conn = None
        await self._pool.close()

    # ------------------------------------------------------------ transactions
    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Connection]:
        """One READ COMMITTED transaction on a pool connection; rolled back on any error."""
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                yield conn
        except _TRANSLATED as error:
            translated = _translate(error)  # type: ignore[arg-type]
            if translated is not error:
                raise translated from error
            raise

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Connection]:
        """One REPEATABLE READ read-only transaction: several reads, one snapshot."""
        try:
            async with (
                self._pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                yield conn
        except _TRANSLATED as error:
            translated = _translate(error)  # type: ignore[arg-type]
            if translated is not error:
                raise translated from error
            raise

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """One read statement on the pool (its own snapshot)."""
        try:
            return list(await self._pool.fetch(sql, *args))
        except _TRANSLATED as error:
            translated = _translate(error)  # type: ignore[arg-type]
            if translated is not error:
                raise translated from error
            raise

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        rows = await self._fetch(sql, *args)
        return rows[0] if rows else None

    async def _statement(self, sql: str, *args: Any) -> int:
        """One writing statement (its own transaction); returns the rows it changed."""
        try:
            return _count(await self._pool.execute(sql, *args))
        except _TRANSLATED as error:
            translated = _translate(error)  # type: ignore[arg-type]
            if translated is not error:
                raise translated from error
            raise

    _LOCK_ROW = " FOR NO KEY UPDATE"

    def _read(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """See `SqlRepository._read`: `_snapshot`."""
        return self._snapshot()

    async def _query(self, conn: Connection, sql: str, *args: Any) -> list[Row]:
        """See `SqlRepository._query` (the ``?`` marks numbered)."""
        return list(await conn.fetch(numbered(sql), *args))

    async def _run(self, conn: Connection, sql: str, *args: Any) -> int:
        """See `SqlRepository._run` (the ``?`` marks numbered)."""
        return _count(await conn.execute(numbered(sql), *args))

    async def _run_many(self, conn: Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """See `SqlRepository._run_many` (the ``?`` marks numbered)."""
        await conn.executemany(numbered(sql), list(rows))

    async def started_games(self) -> list[int]:
        """The ids of every game with a snapshot (started: active, paused or ended), in
        order: what replay can check (``migrate-db``, ``verify``)."""
        rows = await self._fetch("SELECT id FROM games WHERE state IS NOT NULL ORDER BY id")
        return [int(row[0]) for row in rows]

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool for the block, for tools that need SQL of their own
        (``migrate-db``, benchmarks); released (and reset) afterwards."""
        async with self._pool.acquire() as conn:
            yield conn

    @asynccontextmanager
    async def leader_lock(self, name: str) -> AsyncIterator[bool]:
        """See `Repository.leader_lock`: ``pg_try_advisory_lock`` (keyed by the schema and
        ``name``) on this repository's one lock connection, opened beside the pool while
        any lock is held (however many are: recovery holds one per shard, and each taking
        a pool connection would starve the pool) and closed with the last. The server drops
        a dead process's locks with its connection. A session holds its advisory locks
        re-entrantly, so the names held in this process are also kept here: a second block
        for a held name gets False, as another process's would.
        """
        if name in self._leaders:
            yield False
            return
        self._leaders.add(name)
        key = 0
        holding = False
        try:
            async with self._lock_guard:
                if self._lock_conn is None or self._lock_conn.is_closed():
                    self._lock_conn = await asyncpg.connect(self.url)
                key = int(
                    await self._lock_conn.fetchval(
                        "SELECT hashtextextended(current_schema() || '/leader/' || $1, 0)", name
                    )
                )
                holding = bool(
                    await self._lock_conn.fetchval("SELECT pg_try_advisory_lock($1)", key)
                )
            yield holding
        finally:
            self._leaders.discard(name)
            async with self._lock_guard:
                conn = self._lock_conn
                if conn is not None and not conn.is_closed():
                    if holding:
                        with contextlib.suppress(Exception):
                            await conn.execute("SELECT pg_advisory_unlock($1)", key)
                    if not self._leaders:
                        self._lock_conn = None
                        with contextlib.suppress(Exception):
                            await conn.close()

    # ---------------------------------------------------------- shared checks
    @staticmethod
    async def _lock_game(conn: Connection, game_id: int) -> bool:
        """Lock the game's row for this transaction; False when there is no such game."""
        found = await conn.fetchval("SELECT 1 FROM games WHERE id = $1 FOR NO KEY UPDATE", game_id)
        return found is not None

    # ------------------------------------------------------------------ games
    async def create_game(
        self,
        channel_id: int,
        *,
        ruleset: str,
        guild_id: int | None = None,
        host_user_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> Game:
        """See `Repository.create_game`."""
        chosen_seed = secrets.randbits(63) if seed is None else seed
        if chosen_seed not in INT64:
            raise ValueError(f"seed must fit a signed 64-bit integer, got {chosen_seed}")
        options_json, now = to_json(dict(options or {})), self._now()
        async with self._write() as conn:
            busy = await conn.fetchrow(
                "SELECT id, ruleset, status FROM games WHERE channel_id = $1 "
                "AND status IN ('lobby', 'active', 'paused')",
                channel_id,
            )
            if busy is not None:
                raise channel_busy(busy["id"], busy["ruleset"], busy["status"])
            try:
                async with conn.transaction():  # a savepoint: the error leaves the rest usable
                    row = await conn.fetchrow(
                        "INSERT INTO games (channel_id, guild_id, ruleset, options, seed, "
                        "host_user_id, status, version, created_at, updated_at) "
                        f"VALUES ($1, $2, $3, $4, $5, $6, 'lobby', 0, $7, $7) "
                        f"RETURNING {GAME_COLUMNS.replace('g.', '')}, state",
                        channel_id,
                        guild_id,
                        ruleset,
                        options_json,
                        chosen_seed,
                        host_user_id,
                        now,
                    )
            except asyncpg.UniqueViolationError as error:  # created by another process
                raise ChannelBusy("This channel already has an open game.") from error
            assert row is not None
            return game(row)

    async def get_game(self, game_id: int) -> Game:
        """See `Repository.get_game`."""
        row = await self._fetchrow(
            f"SELECT {GAME_COLUMNS}, g.state FROM games g WHERE g.id = $1", game_id
        )
        if row is None:
            raise GameNotFound(f"There is no game #{game_id}.")
        return game(row)

    async def game_with_seats(self, game_id: int) -> tuple[Game, list[Seat]]:
        """See `Repository.game_with_seats`: both in one snapshot."""
        async with self._snapshot() as conn:
            found = await self._load_game(conn, game_id)
            rows = await conn.fetch(
                f"SELECT {PRESENCE_COLUMNS} FROM seats s WHERE s.game_id = $1 ORDER BY s.seat",
                game_id,
            )
        return found, [seat_row(row, presence=True) for row in rows]

    async def game_in_channel(self, channel_id: int) -> Game | None:
        """See `Repository.game_in_channel`."""
        row = await self._fetchrow(
            f"SELECT {GAME_COLUMNS}, g.state FROM games g WHERE g.channel_id = $1 "
            "AND g.status IN ('lobby', 'active', 'paused')",
            channel_id,
        )
        return None if row is None else game(row)

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        statuses: frozenset[GameStatus] | None = None,
        before_id: int | None = None,
        limit: int = 25,
    ) -> list[GameSummary]:
        """See `Repository.list_games`."""
        if not 1 <= limit <= 500:
            raise ValueError(f"limit must be 1..500, got {limit}")
        where: list[str] = ["TRUE"]
        params: list[Any] = []
        for column, value in (("g.guild_id", guild_id), ("g.channel_id", channel_id)):
            if value is not None:
                params.append(value)
                where.append(f"{column} = ${len(params)}")
        if before_id is not None:
            params.append(before_id)
            where.append(f"g.id < ${len(params)}")
        if statuses is not None:
            params.append(sorted(s.value for s in statuses))
            where.append(f"g.status = ANY(${len(params)}::text[])")
        params.append(limit)
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games g WHERE {' AND '.join(where)} "
            f"ORDER BY g.id DESC LIMIT ${len(params)}"
        )
        return [summary(row) for row in await self._fetch(sql, *params)]

    async def count_active_games(self) -> int:
        """See `Repository.count_active_games` (the partial index of the open games)."""
        row = await self._fetchrow(
            "SELECT count(*) FROM games WHERE status IN ('lobby', 'active', 'paused') "
            "AND status = 'active'"
        )
        return int(row[0]) if row is not None else 0

    async def games_to_resume(self) -> list[int]:
        """See `Repository.games_to_resume` (the partial index of the open games)."""
        rows = await self._fetch(
            "SELECT g.id FROM games g "
            "WHERE g.status IN ('lobby', 'active', 'paused') AND g.status = 'active' AND ("
            "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.is_ai) OR "
            "EXISTS (SELECT 1 FROM standing_orders o WHERE o.game_id = g.id) OR "
            "EXISTS (SELECT 1 FROM seat_presence p WHERE p.game_id = g.id "
            "AND (p.missed > 0 OR p.away_until IS NOT NULL))) ORDER BY g.id"
        )
        return [int(row[0]) for row in rows]

    async def games_for_user(
        self, user_id: int, *, statuses: frozenset[GameStatus] = OPEN_STATUSES
    ) -> list[UserSeat]:
        """See `Repository.games_for_user`."""
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS}, {PRESENCE_COLUMNS} FROM seats s JOIN games g "
            "ON g.id = s.game_id WHERE s.user_id = $1 AND g.status = ANY($2::text[]) "
            "ORDER BY g.updated_at DESC, g.id DESC",
            user_id,
            sorted(s.value for s in statuses),
        )
        return [UserSeat(summary(row), seat_row(row, presence=True)) for row in rows]

    # ------------------------------------------------------------------ lobby
    async def seats(self, game_id: int) -> list[Seat]:
        """See `Repository.seats`."""
        rows = await self._fetch(
            f"SELECT {PRESENCE_COLUMNS} FROM seats s WHERE s.game_id = $1 ORDER BY s.seat",
            game_id,
        )
        return [seat_row(row, presence=True) for row in rows]

    async def set_dm_reachable(self, user_id: int, reachable: bool) -> int:
        """See `Repository.set_dm_reachable` (one statement)."""
        return await self._statement(
            "UPDATE seats SET dm_reachable = $1 WHERE user_id = $2 AND game_id IN "
            "(SELECT id FROM games WHERE status IN ('lobby', 'active', 'paused'))",
            reachable,
            user_id,
        )

    # ---------------------------------------------------------------- commits
    async def commit(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        command: Command,
        state: GameState,
        events: Sequence[Event],
        actor_user_id: int | None,
        reason: str | None = None,
        result: Result | None = None,
        deadlines: Sequence[DeadlineSpec] | None = None,
    ) -> LogEntry:
        """See `Repository.commit`: one statement, ``SELECT commit_move(...)`` (schema 5).

        Everything is serialised before it is sent, so a value the server cannot take fails
        before anything is written.
        """
        if state.version != expected_version + 1:
            raise ValueError(
                f"the new state is at version {state.version}, expected {expected_version + 1}"
            )
        finished = result is not None and result.finished
        now = self._now()
        kept = list(deadlines) if deadlines and not finished else []
        command_json = command.model_dump_json()
        try:
            seq = await self._pool.fetchval(
                _COMMIT_SQL,
                game_id,
                expected_version,
                state.version,
                Ruleset.dump_state(state),
                GameStatus.FINISHED.value if finished else GameStatus.ACTIVE.value,
                to_json(result.model_dump(mode="json"))
                if finished and result is not None
                else None,
                now if finished else None,
                seat,
                actor_user_id,
                command_json,
                reason,
                dump_events(events),
                finished or deadlines is not None,
                [d.seat for d in kept],
                [d.kind for d in kept],
                [to_ms(d.due_at) for d in kept],
                now,
            )
        except asyncpg.RaiseError as error:
            if error.message not in _COMMIT_REFUSALS:
                raise
            await self._explain_refusal(game_id, expected_version, error.message)
        except _TRANSLATED as error:
            translated = _translate(error)  # type: ignore[arg-type]
            if translated is not error:
                raise translated from error
            raise
        return LogEntry(
            game_id=game_id,
            seq=int(seq),
            kind=LogKind.COMMAND,
            action=None,
            actor_user_id=actor_user_id,
            seat=seat,
            command_json=command_json,
            reason=reason,
            details={},
            events=tuple(events),
            undoes=None,
            undone_by=None,
            version_after=state.version,
            created_at=from_ms(now),
        )

    async def _explain_refusal(self, game_id: int, expected_version: int, message: str) -> NoReturn:
        """Raise the error a refused commit stands for, worded from the game as it is now.

        :raises GameNotFound | WrongGameStatus | StaleState:
        """
        row = await self._fetchrow(f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1", game_id)
        if row is None:
            raise GameNotFound(f"There is no game #{game_id}.")
        found = summary(row)
        if found.status is not GameStatus.ACTIVE:
            raise status_error(game_id, found.status, "make a move")
        if found.version != expected_version or message.endswith("stale version"):
            raise stale(expected_version, found.version)
        raise WrongGameStatus(
            f"Cannot make a move: game #{game_id} was paused or ended a moment ago; try again.",
            found.status.value,
        )

    async def record_undos(
        self,
        game_id: int,
        *,
        undone_seqs: Sequence[int],
        expected_version: int,
        state: GameState,
        moderator_user_id: int | None,
        reason: str,
        deadlines: Sequence[DeadlineSpec] | None = None,
    ) -> list[LogEntry]:
        """See `Repository.record_undos` (one transaction)."""
        count = len(undone_seqs)
        if count < 1:
            raise ValueError("undone_seqs names no command")
        if state.version != expected_version + count:
            raise ValueError(
                f"the new state is at version {state.version}, expected {expected_version + count}"
            )
        now = self._now()
        allowed = {GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.FINISHED}
        async with self._write() as conn:
            found = await self._require_game(conn, game_id, allowed, "undo", expected_version)
            status = GameStatus.ACTIVE if found.status is GameStatus.FINISHED else found.status
            reopened = status is not found.status
            try:
                async with conn.transaction():
                    await conn.execute(
                        "UPDATE games SET version = $1, state = $2, updated_at = $3, status = $4, "
                        "result = CASE WHEN $5 THEN NULL ELSE result END, "
                        "ended_at = CASE WHEN $5 THEN NULL ELSE ended_at END "
                        "WHERE id = $6 AND version = $7",
                        state.version,
                        Ruleset.dump_state(state),
                        now,
                        status.value,
                        reopened,
                        game_id,
                        expected_version,
                    )
            except asyncpg.UniqueViolationError as error:
                raise ChannelBusy(
                    f"Cannot reopen game #{game_id}: its channel has another open game."
                ) from error
            entries: list[LogEntry] = []
            for number, undone_seq in enumerate(undone_seqs, start=1):
                last = await conn.fetchrow(
                    f"SELECT l.seq, l.seat FROM game_log l WHERE l.game_id = $1 AND {IN_EFFECT} "
                    "ORDER BY l.seq DESC LIMIT 1",
                    game_id,
                )
                if last is None or last["seq"] != undone_seq:
                    raise NothingToUndo(
                        f"Move {undone_seq} is not the last move in effect in game #{game_id}."
                    )
                version = expected_version + number
                entries.append(
                    await self._append(
                        conn,
                        game_id,
                        kind=LogKind.MODERATOR,
                        action=ModeratorAction.UNDO,
                        version_after=version,
                        now=now,
                        actor_user_id=moderator_user_id,
                        seat=last["seat"],
                        reason=reason,
                        details={"undoes": undone_seq},
                        undoes=undone_seq,
                    )
                )
                await conn.execute(
                    "INSERT INTO undelivered_commits (game_id, version, created_at) "
                    "VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    game_id,
                    version,
                    now,
                )
            if deadlines is not None:
                await conn.execute("DELETE FROM deadlines WHERE game_id = $1", game_id)
                await self._write_deadlines(conn, game_id, deadlines, now)
            return entries

    async def moderate(
        self,
        game_id: int,
        action: ModeratorAction,
        *,
        moderator_user_id: int | None,
        reason: str,
        change: ModeratorChange,
        details: Mapping[str, Any] | None = None,
        seat: int | None = None,
    ) -> LogEntry:
        """See `Repository.moderate` (one transaction)."""
        now = self._now()
        async with self._write() as conn:
            found = await self._require_game(
                conn, game_id, change.allowed_from, action.value, change.expected_version
            )
            if change.seat_change is not None:
                await self._change_seat(conn, game_id, change)
            if change.remove_seat is not None:
                status = await conn.execute(
                    "DELETE FROM seats WHERE game_id = $1 AND seat = $2",
                    game_id,
                    change.remove_seat,
                )
                if _count(status) == 0:
                    raise SeatNotFound(f"Game #{game_id} has no seat {change.remove_seat}.")
            await self._change_status(conn, found, change, now)
            if change.deadlines:
                await self._write_deadlines(conn, game_id, change.deadlines, now)
            return await self._append(
                conn,
                game_id,
                kind=LogKind.MODERATOR,
                action=action,
                version_after=found.version,
                now=now,
                actor_user_id=moderator_user_id,
                seat=seat,
                reason=reason,
                details=details,
            )

    @staticmethod
    async def _change_seat(conn: Connection, game_id: int, change: ModeratorChange) -> None:
        target = change.seat_change
        assert target is not None
        if target.user_id is not None and await conn.fetchval(
            "SELECT 1 FROM seats WHERE game_id = $1 AND user_id = $2 AND seat <> $3",
            game_id,
            target.user_id,
            target.seat,
        ):
            raise AlreadySeated(f"That user already has another seat in game #{game_id}.")
        status = await conn.execute(
            "UPDATE seats SET user_id = $1, display_name = $2, is_ai = $3, dm_reachable = NULL "
            "WHERE game_id = $4 AND seat = $5",
            target.user_id,
            target.display_name,
            target.user_id is None,
            game_id,
            target.seat,
        )
        if _count(status) == 0:
            raise SeatNotFound(f"Game #{game_id} has no seat {target.seat}.")
        await conn.execute(
            "DELETE FROM seat_presence WHERE game_id = $1 AND seat = $2", game_id, target.seat
        )

    @staticmethod
    async def _change_status(
        conn: Connection, found: GameSummary, change: ModeratorChange, now: int
    ) -> None:
        status = change.new_status
        if status is None:
            await conn.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now, found.id)
            return
        ended = status in ENDED_STATUSES
        await conn.execute(
            "UPDATE games SET status = $1, updated_at = $2, result = $3, ended_at = $4 "
            "WHERE id = $5",
            status.value,
            now,
            to_json(dict(change.result)) if change.result is not None else None,
            now if ended else None,
            found.id,
        )
        if ended:
            await conn.execute("DELETE FROM deadlines WHERE game_id = $1", found.id)

    # -------------------------------------------------------------------- log
    async def read_log_unredacted(
        self,
        game_id: int,
        *,
        after_seq: int = 0,
        before_seq: int | None = None,
        limit: int = DEFAULT_PAGE,
    ) -> LogPage:
        """See `Repository.read_log_unredacted`."""
        if not 1 <= limit <= 1000:
            raise ValueError(f"limit must be 1..1000, got {limit}")
        if before_seq is None:
            rows = await self._fetch(
                f"SELECT {LOG_COLUMNS} FROM game_log l WHERE l.game_id = $1 AND l.seq > $2 "
                "ORDER BY l.seq LIMIT $3",
                game_id,
                after_seq,
                limit + 1,
            )
        else:
            rows = await self._fetch(
                f"SELECT {LOG_COLUMNS} FROM game_log l WHERE l.game_id = $1 AND l.seq > $2 "
                "AND l.seq < $3 ORDER BY l.seq DESC LIMIT $4",
                game_id,
                after_seq,
                before_seq,
                limit + 1,
            )
        has_more = len(rows) > limit
        rows = rows[:limit]
        if before_seq is not None:
            rows.reverse()
        return LogPage(tuple(log_entry(row) for row in rows), has_more)

    # -------------------------------------------------------------- deadlines
    async def set_deadline(self, game_id: int, deadline: DeadlineSpec) -> None:
        """See `Repository.set_deadline`."""
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, game_id, OPEN_STATUSES, "set a deadline")
            await self._write_deadlines(conn, game_id, (deadline,), now)

    async def clear_deadlines(
        self, game_id: int, *, seat: int | None = None, kind: str | None = None
    ) -> int:
        """See `Repository.clear_deadlines` (one statement)."""
        return await self._statement(
            "DELETE FROM deadlines WHERE game_id = $1 AND ($2::int IS NULL OR seat = $2) "
            "AND ($3::text IS NULL OR kind = $3)",
            game_id,
            seat,
            kind,
        )

    async def _active_deadlines(self, extra: str, *params: Any) -> list[Deadline]:
        rows = await self._fetch(
            "SELECT d.game_id, g.channel_id, g.guild_id, d.seat, d.kind, d.due_at "
            "FROM deadlines d JOIN games g ON g.id = d.game_id "
            f"WHERE g.status = 'active' {extra} ORDER BY d.due_at, d.game_id, d.seat, d.kind",
            *params,
        )
        return [deadline_row(row) for row in rows]

    async def deadlines(self, game_id: int | None = None) -> list[Deadline]:
        """See `Repository.deadlines`."""
        if game_id is None:
            return await self._active_deadlines("")
        return await self._active_deadlines("AND d.game_id = $1", game_id)

    async def due_deadlines(self, now: datetime) -> list[Deadline]:
        """See `Repository.due_deadlines`."""
        return await self._active_deadlines("AND d.due_at <= $1", to_ms(now))

    async def claim_deadline(
        self,
        deadline: Deadline,
        *,
        clear_seat: bool = False,
        then: DeadlineSpec | None = None,
        hold_until: datetime | None = None,
        missed: bool = False,
    ) -> bool:
        """See `Repository.claim_deadline`: one transaction whose ``DELETE`` of the row (with
        the same ``due_at``) decides; across processes exactly one claimer deletes it (the
        others wait for the row lock, then find it gone and get False)."""
        now = self._now()
        async with self._write() as conn:
            if not await self._lock_game(conn, deadline.game_id):
                return False
            status = await conn.execute(
                "DELETE FROM deadlines WHERE game_id = $1 AND seat = $2 AND kind = $3 "
                "AND due_at = $4",
                deadline.game_id,
                deadline.seat,
                deadline.kind,
                to_ms(deadline.due_at),
            )
            if _count(status) != 1:
                return False
            if clear_seat:
                await conn.execute(
                    "DELETE FROM deadlines WHERE game_id = $1 AND seat = $2",
                    deadline.game_id,
                    deadline.seat,
                )
            if missed:
                await conn.execute(
                    "INSERT INTO seat_presence (game_id, seat, missed, updated_at) "
                    "VALUES ($1, $2, 1, $3) ON CONFLICT (game_id, seat) DO UPDATE SET "
                    "missed = seat_presence.missed + 1, updated_at = excluded.updated_at",
                    deadline.game_id,
                    deadline.seat,
                    now,
                )
            kept: list[DeadlineSpec] = [] if then is None else [then]
            if hold_until is not None:
                held_kind = deadline.kind if deadline.kind.endswith(SENT) else deadline.kind + SENT
                kept.append(DeadlineSpec(deadline.seat, held_kind, hold_until))
            await self._write_deadlines(conn, deadline.game_id, kept, now)
            return True

    async def settle_deadline_posts(self, settles: Sequence[PostSettle]) -> None:
        """See `Repository.settle_deadline_posts` (one transaction)."""
        if not settles:
            return
        async with self._write() as conn:
            for game_id in sorted({s.game_id for s in settles}):
                await self._lock_game(conn, game_id)
            await conn.executemany(
                "DELETE FROM deadlines WHERE game_id = $1 AND seat = $2 AND kind = $3",
                [(s.game_id, s.seat, s.kind) for s in settles],
            )
            await conn.executemany(
                "DELETE FROM discord_message_refs WHERE scope = $1 AND key = $2",
                [(s.scope, s.key) for s in settles],
            )

    async def set_away(self, game_id: int, seat: int, until: datetime | None) -> None:
        """See `Repository.set_away`."""
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, game_id, OPEN_STATUSES, "change who is away")
            if until is None:
                await conn.execute(
                    "UPDATE seat_presence SET missed = 0, away_until = NULL, updated_at = $1 "
                    "WHERE game_id = $2 AND seat = $3",
                    now,
                    game_id,
                    seat,
                )
                return
            await conn.execute(
                "INSERT INTO seat_presence (game_id, seat, away_until, updated_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "away_until = excluded.away_until, updated_at = excluded.updated_at",
                game_id,
                seat,
                to_ms(until),
                now,
            )

    async def extend_deadline(
        self,
        game_id: int,
        seat: int,
        *,
        turn: int,
        by: timedelta,
        max_count: int,
        reminder: timedelta | None,
    ) -> Extension:
        """See `Repository.extend_deadline` (one transaction)."""
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, game_id, {GameStatus.ACTIVE}, "extend a deadline")
            due = await conn.fetchval(
                "SELECT due_at FROM deadlines WHERE game_id = $1 AND seat = $2 AND kind = 'turn'",
                game_id,
                seat,
            )
            if due is None:
                raise ExtensionRefused("Your decision has no deadline, so there is none to extend.")
            row = await conn.fetchrow(
                "SELECT extensions_used, extended_turn FROM seat_presence "
                "WHERE game_id = $1 AND seat = $2",
                game_id,
                seat,
            )
            used = 0 if row is None else int(row["extensions_used"])
            if row is not None and row["extended_turn"] == turn:
                raise ExtensionRefused(
                    "You have already extended your deadline this turn (once per turn)."
                )
            if used >= max_count:
                raise ExtensionRefused(
                    f"You have used all {max_count} extension(s) this game allows; a "
                    "moderator can still give more time with /mod deadline."
                )
            new_due = from_ms(due) + by
            await conn.execute(
                "INSERT INTO seat_presence (game_id, seat, extensions_used, extended_turn, "
                "updated_at) VALUES ($1, $2, 1, $3, $4) ON CONFLICT (game_id, seat) DO UPDATE "
                "SET extensions_used = seat_presence.extensions_used + 1, "
                "extended_turn = excluded.extended_turn, updated_at = excluded.updated_at",
                game_id,
                seat,
                turn,
                now,
            )
            specs = [DeadlineSpec(seat, "turn", new_due)]
            if reminder is not None and new_due - reminder > from_ms(now):
                specs.append(DeadlineSpec(seat, "reminder", new_due - reminder))
            else:
                await conn.execute(
                    "DELETE FROM deadlines WHERE game_id = $1 AND seat = $2 AND kind = 'reminder'",
                    game_id,
                    seat,
                )
            await self._write_deadlines(conn, game_id, specs, now)
            return Extension(new_due, used + 1)

    async def record_skip_vote(
        self, game_id: int, seat: int, version: int, voter_user_id: int
    ) -> int:
        """See `Repository.record_skip_vote` (one transaction)."""
        now = self._now()
        async with self._write() as conn:
            await self._lock_game(conn, game_id)
            await conn.execute(
                "DELETE FROM skip_votes WHERE game_id = $1 AND version < $2", game_id, version
            )
            await conn.execute(
                "INSERT INTO skip_votes (game_id, seat, version, voter_user_id, created_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                game_id,
                seat,
                version,
                voter_user_id,
                now,
            )
            votes = await conn.fetchval(
                "SELECT count(*) FROM skip_votes WHERE game_id = $1 AND seat = $2 AND version = $3",
                game_id,
                seat,
                version,
            )
            return int(votes)

    # ------------------------------------------------------------------ decks
    # --------------------------------------------------------- guild settings
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """See `Repository.guild_settings`."""
        async with self._pool.acquire() as conn:
            return await self._guild_settings(conn, guild_id)

    @staticmethod
    async def _guild_settings(conn: Connection, guild_id: int) -> GuildSettings:
        row = await conn.fetchrow(
            "SELECT moderator_role_id, turn_deadline_s, reminder_every_s, deadline_policy, "
            "away_after, away_max_s, extensions, extension_s "
            "FROM guild_settings WHERE guild_id = $1",
            guild_id,
        )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            guild_id=guild_id,
            moderator_role_id=row["moderator_role_id"],
            turn_deadline=None
            if row["turn_deadline_s"] is None
            else timedelta(seconds=row["turn_deadline_s"]),
            reminder_every=None
            if row["reminder_every_s"] is None
            else timedelta(seconds=row["reminder_every_s"]),
            deadline_policy=row["deadline_policy"],
            away_after=row["away_after"],
            away_max=timedelta(seconds=row["away_max_s"]),
            extensions=row["extensions"],
            extension_max=timedelta(seconds=row["extension_s"]),
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """See `Repository.save_guild_settings` (one statement)."""
        for value in (settings.turn_deadline, settings.reminder_every):
            if value is not None and value.total_seconds() < 1:
                raise ValueError(f"deadlines and reminders need at least one second, got {value}")
        await self._statement(
            "INSERT INTO guild_settings (guild_id, moderator_role_id, turn_deadline_s, "
            "reminder_every_s, deadline_policy, away_after, away_max_s, extensions, "
            "extension_s, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
            "ON CONFLICT (guild_id) DO UPDATE SET moderator_role_id = excluded.moderator_role_id, "
            "turn_deadline_s = excluded.turn_deadline_s, "
            "reminder_every_s = excluded.reminder_every_s, "
            "deadline_policy = excluded.deadline_policy, away_after = excluded.away_after, "
            "away_max_s = excluded.away_max_s, extensions = excluded.extensions, "
            "extension_s = excluded.extension_s, updated_at = excluded.updated_at",
            settings.guild_id,
            settings.moderator_role_id,
            seconds(settings.turn_deadline),
            seconds(settings.reminder_every),
            settings.deadline_policy,
            settings.away_after,
            seconds(settings.away_max),
            settings.extensions,
            seconds(settings.extension_max),
            self._now(),
        )

    # ------------------------------------------ game settings and standing orders
    async def game_settings(self, game_id: int) -> GameSettings:
        """See `Repository.game_settings`."""
        async with self._pool.acquire() as conn:
            return await self._game_settings(conn, game_id)

    async def deadline_settings(
        self, game_id: int, guild_id: int | None
    ) -> tuple[GameSettings, GuildSettings]:
        """See `Repository.deadline_settings`: both in one snapshot."""
        async with self._snapshot() as conn:
            settings = await self._game_settings(conn, game_id)
            guild = (
                await self._guild_settings(conn, guild_id)
                if guild_id is not None
                else GuildSettings(0)
            )
        return settings, guild

    @staticmethod
    async def _game_settings(conn: Connection, game_id: int) -> GameSettings:
        row = await conn.fetchrow(
            "SELECT seats_wanted, turn_deadline_s, deck_rule, deadline_policy FROM game_settings "
            "WHERE game_id = $1",
            game_id,
        )
        if row is None:
            return GameSettings(game_id)
        length = row["turn_deadline_s"]
        return GameSettings(
            game_id=game_id,
            seats_wanted=row["seats_wanted"],
            turn_deadline=None if length is None else timedelta(seconds=length),
            deck_rule=row["deck_rule"],
            deadline_policy=row["deadline_policy"],
        )

    async def save_game_settings(self, settings: GameSettings) -> None:
        """See `Repository.save_game_settings`."""
        length = settings.turn_deadline
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, settings.game_id, GameStatus, "change settings")
            await conn.execute(
                "INSERT INTO game_settings (game_id, seats_wanted, turn_deadline_s, deck_rule, "
                "deadline_policy, updated_at) VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT (game_id) DO UPDATE SET seats_wanted = excluded.seats_wanted, "
                "turn_deadline_s = excluded.turn_deadline_s, deck_rule = excluded.deck_rule, "
                "deadline_policy = excluded.deadline_policy, updated_at = excluded.updated_at",
                settings.game_id,
                settings.seats_wanted,
                None if length is None else int(length.total_seconds()),
                settings.deck_rule,
                settings.deadline_policy,
                now,
            )

    async def standing_orders(self, game_id: int) -> dict[int, dict[str, str]]:
        """See `Repository.standing_orders`."""
        rows = await self._fetch(
            "SELECT seat, kind, value FROM standing_orders WHERE game_id = $1 ORDER BY seat, kind",
            game_id,
        )
        orders: dict[int, dict[str, str]] = {}
        for row in rows:
            orders.setdefault(row["seat"], {})[row["kind"]] = row["value"]
        return orders

    async def set_standing_order(
        self, game_id: int, seat: int, kind: str, value: str | None
    ) -> None:
        """See `Repository.set_standing_order`."""
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, game_id, GameStatus, "set standing orders")
            if value is None:
                await conn.execute(
                    "DELETE FROM standing_orders WHERE game_id = $1 AND seat = $2 AND kind = $3",
                    game_id,
                    seat,
                    kind,
                )
                return
            await conn.execute(
                "INSERT INTO standing_orders (game_id, seat, kind, value, updated_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, seat, kind) DO UPDATE SET "
                "value = excluded.value, updated_at = excluded.updated_at",
                game_id,
                seat,
                kind,
                value,
                now,
            )

    # ------------------------------------------------------------- message ids
    async def message_ref(self, scope: str, key: str) -> MessageRef | None:
        """See `Repository.message_ref`."""
        row = await self._fetchrow(
            "SELECT channel_id, message_id FROM discord_message_refs WHERE scope = $1 AND key = $2",
            scope,
            key,
        )
        return None if row is None else MessageRef(row["channel_id"], row["message_id"])

    async def put_message_ref(self, scope: str, key: str, ref: MessageRef) -> None:
        """See `Repository.put_message_ref` (one statement)."""
        await self._statement(
            "INSERT INTO discord_message_refs (scope, key, channel_id, message_id, updated_at) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (scope, key) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "updated_at = excluded.updated_at",
            scope,
            key,
            ref.channel_id,
            ref.message_id,
            self._now(),
        )

    async def forget_message_ref(self, scope: str, key: str) -> None:
        """See `Repository.forget_message_ref` (one statement)."""
        await self._statement(
            "DELETE FROM discord_message_refs WHERE scope = $1 AND key = $2", scope, key
        )

    # --------------------------------------------- news owed and held DMs (schema 8)
    async def undelivered_news(self, limit: int = 1000) -> list[tuple[int, int]]:
        """See `Repository.undelivered_news`."""
        if not 1 <= limit <= 100_000:
            raise ValueError(f"limit must be 1..100000, got {limit}")
        rows = await self._fetch(
            "SELECT game_id, version FROM undelivered_commits ORDER BY game_id, version LIMIT $1",
            limit,
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def news_delivered(self, game_id: int, after_version: int, version: int) -> int:
        """See `Repository.news_delivered`: one DELETE; schema 8's trigger drops the
        message ids of the same versions within it."""
        return await self._statement(
            "DELETE FROM undelivered_commits WHERE game_id = $1 AND version > $2 AND version <= $3",
            game_id,
            after_version,
            version,
        )

    async def hold_direct_message(
        self, user_id: int, game_id: int, slot: str, message: str, *, notices_kept: int = 5
    ) -> None:
        """See `Repository.hold_direct_message` (one transaction)."""
        if slot not in ("hand", "decision", "digest", "notice"):
            raise ValueError(f"unknown DM slot {slot!r}")
        now = self._now()
        async with self._write() as conn:
            # Serialise one user's holds (two processes trimming notices at once).
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || "
                "'/held/' || $1::bigint::text, 0))",
                user_id,
            )
            if slot != "notice":
                await conn.execute(
                    "DELETE FROM held_direct_messages WHERE user_id = $1 AND game_id = $2 "
                    "AND slot = $3",
                    user_id,
                    game_id,
                    slot,
                )
            await conn.execute(
                "INSERT INTO held_direct_messages (user_id, game_id, slot, message, created_at) "
                "VALUES ($1, $2, $3, $4, $5)",
                user_id,
                game_id,
                slot,
                message,
                now,
            )
            if slot == "notice":
                await conn.execute(
                    "DELETE FROM held_direct_messages WHERE user_id = $1 AND slot = 'notice' "
                    "AND id NOT IN (SELECT id FROM held_direct_messages WHERE user_id = $1 "
                    "AND slot = 'notice' ORDER BY id DESC LIMIT $2)",
                    user_id,
                    max(0, notices_kept),
                )

    async def held_messages(self, user_id: int) -> list[HeldMessage]:
        """See `Repository.held_messages`."""
        rows = await self._fetch(
            f"SELECT {HELD_COLUMNS} FROM held_direct_messages WHERE user_id = $1 ORDER BY id",
            user_id,
        )
        return [held(row) for row in rows]

    async def take_held_messages(self, user_id: int) -> list[HeldMessage]:
        """See `Repository.take_held_messages` (one ``DELETE ... RETURNING``)."""
        rows = await self._fetch(
            f"DELETE FROM held_direct_messages WHERE user_id = $1 RETURNING {HELD_COLUMNS}",
            user_id,
        )
        return sorted((held(row) for row in rows), key=lambda h: h.id)

    async def drop_held_message(self, user_id: int, game_id: int, slot: str) -> None:
        """See `Repository.drop_held_message` (one statement)."""
        await self._statement(
            "DELETE FROM held_direct_messages WHERE user_id = $1 AND game_id = $2 AND slot = $3",
            user_id,
            game_id,
            slot,
        )

    async def users_with_held_messages(self) -> set[int]:
        """See `Repository.users_with_held_messages`."""
        rows = await self._fetch("SELECT DISTINCT user_id FROM held_direct_messages")
        return {int(row[0]) for row in rows}

    # ------------------------------------------------------ undo requests (schema 7)
    async def save_undo_request(self, request: UndoRequest) -> None:
        """See `Repository.save_undo_request`."""
        async with self._write() as conn:
            await self._require_game(
                conn, request.game_id, {GameStatus.ACTIVE}, "ask for an undo", request.version
            )
            await conn.execute(
                "INSERT INTO undo_requests (game_id, version, seat, user_id, from_seq, needed, "
                "agreed, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT "
                "(game_id) DO UPDATE SET version = excluded.version, seat = excluded.seat, "
                "user_id = excluded.user_id, from_seq = excluded.from_seq, "
                "needed = excluded.needed, agreed = excluded.agreed, "
                "created_at = excluded.created_at",
                request.game_id,
                request.version,
                request.seat,
                request.user_id,
                request.from_seq,
                json.dumps(sorted(request.needed)),
                json.dumps(sorted(request.agreed)),
                to_ms(request.created_at),
            )

    @staticmethod
    def _undo_request(row: asyncpg.Record) -> UndoRequest:
        return UndoRequest(
            game_id=row["game_id"],
            version=row["version"],
            seat=row["seat"],
            user_id=row["user_id"],
            from_seq=row["from_seq"],
            needed=tuple(json.loads(row["needed"])),
            agreed=tuple(json.loads(row["agreed"])),
            created_at=from_ms(row["created_at"]),
        )

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        """See `Repository.undo_request`."""
        row = await self._fetchrow("SELECT * FROM undo_requests WHERE game_id = $1", game_id)
        return None if row is None else self._undo_request(row)

    async def agree_to_undo(self, game_id: int, *, version: int, seat: int) -> UndoRequest:
        """See `Repository.agree_to_undo` (one transaction, the request's row locked)."""
        async with self._write() as conn:
            row = await conn.fetchrow(
                "SELECT * FROM undo_requests WHERE game_id = $1 AND version = $2 FOR UPDATE",
                game_id,
                version,
            )
            if row is None:
                raise NothingToUndo(
                    f"No undo request of move {version} waits in game #{game_id}: it was "
                    "refused, carried out, or the game moved on."
                )
            request = self._undo_request(row)
            if seat not in request.needed:
                raise NothingToUndo("This undo request does not wait for your seat's answer.")
            agreed = tuple(sorted({*request.agreed, seat}))
            await conn.execute(
                "UPDATE undo_requests SET agreed = $1 WHERE game_id = $2 AND version = $3",
                json.dumps(list(agreed)),
                game_id,
                version,
            )
        return UndoRequest(
            game_id=request.game_id,
            version=request.version,
            seat=request.seat,
            user_id=request.user_id,
            from_seq=request.from_seq,
            needed=request.needed,
            agreed=agreed,
            created_at=request.created_at,
        )

    async def drop_undo_request(self, game_id: int, *, version: int | None = None) -> bool:
        """See `Repository.drop_undo_request` (one statement)."""
        deleted = await self._statement(
            "DELETE FROM undo_requests WHERE game_id = $1 AND ($2::bigint IS NULL OR version = $2)",
            game_id,
            version,
        )
        return deleted > 0

    # ------------------------------------------------ notices and digests (/me)
    async def notify_settings(self, user_ids: Sequence[int]) -> dict[int, NotifySettings]:
        """See `Repository.notify_settings`."""
        wanted = sorted(set(user_ids))
        found = {uid: NotifySettings(uid) for uid in wanted}
        if not wanted:
            return found
        rows = await self._fetch(
            "SELECT user_id, ping, time_zone, quiet_start, quiet_end FROM notify_settings "
            "WHERE user_id = ANY($1::bigint[])",
            wanted,
        )
        for row in rows:
            found[row["user_id"]] = NotifySettings(
                row["user_id"],
                PingMode(row["ping"]),
                row["time_zone"],
                row["quiet_start"],
                row["quiet_end"],
            )
        return found

    async def save_notify_settings(self, settings: NotifySettings) -> None:
        """See `Repository.save_notify_settings` (one statement)."""
        await self._statement(
            "INSERT INTO notify_settings (user_id, ping, time_zone, quiet_start, quiet_end, "
            "updated_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO UPDATE SET "
            "ping = excluded.ping, time_zone = excluded.time_zone, "
            "quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, "
            "updated_at = excluded.updated_at",
            settings.user_id,
            settings.ping.value,
            settings.time_zone,
            settings.quiet_start,
            settings.quiet_end,
            self._now(),
        )

    async def last_own_command(self, game_id: int, seat: int, user_id: int) -> int:
        """See `Repository.last_own_command`."""
        row = await self._fetchrow(
            "SELECT coalesce(max(seq), 0) FROM game_log WHERE game_id = $1 "
            "AND kind = 'command' AND seat = $2 AND actor_user_id = $3 AND reason IS NULL",
            game_id,
            seat,
            user_id,
        )
        return int(row[0]) if row is not None else 0

    async def digest_mark(self, game_id: int, seat: int) -> DigestMark | None:
        """See `Repository.digest_mark`."""
        row = await self._fetchrow(
            "SELECT user_id, since_seq FROM seat_digests WHERE game_id = $1 AND seat = $2",
            game_id,
            seat,
        )
        return None if row is None else DigestMark(row["user_id"], row["since_seq"])

    async def set_digest_mark(self, game_id: int, seat: int, mark: DigestMark) -> None:
        """See `Repository.set_digest_mark`."""
        now = self._now()
        async with self._write() as conn:
            if not await self._lock_game(conn, game_id):
                raise GameNotFound(f"There is no game #{game_id}.")
            await conn.execute(
                "INSERT INTO seat_digests (game_id, seat, user_id, since_seq, updated_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "user_id = excluded.user_id, since_seq = excluded.since_seq, "
                "updated_at = excluded.updated_at",
                game_id,
                seat,
                mark.user_id,
                mark.since_seq,
                now,
            )

    # ---------------------------------------------------------------- campaigns
    async def save_campaign_heroes(
        self, channel_id: int, game_id: int, heroes: Sequence[tuple[int, Mapping[str, Any]]]
    ) -> None:
        """See `Repository.save_campaign_heroes` (one transaction)."""
        now = self._now()
        async with self._write() as conn:
            if not await self._lock_game(conn, game_id):
                raise GameNotFound(f"There is no game #{game_id}.")
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || "
                "'/campaign/' || $1::bigint::text, 0))",
                channel_id,
            )
            await conn.execute("DELETE FROM campaign_heroes WHERE channel_id = $1", channel_id)
            await conn.executemany(
                "INSERT INTO campaign_heroes (channel_id, position, user_id, game_id, hero, "
                "saved_at) VALUES ($1, $2, $3, $4, $5, $6)",
                [
                    (
                        channel_id,
                        position,
                        user_id,
                        game_id,
                        json.dumps(dict(hero), sort_keys=True),
                        now,
                    )
                    for position, (user_id, hero) in enumerate(heroes)
                ],
            )

    async def campaign_heroes(self, channel_id: int) -> list[CampaignHero]:
        """See `Repository.campaign_heroes`."""
        rows = await self._fetch(
            "SELECT user_id, game_id, hero, saved_at FROM campaign_heroes "
            "WHERE channel_id = $1 ORDER BY position",
            channel_id,
        )
        return [
            CampaignHero(
                channel_id=channel_id,
                user_id=row[0],
                game_id=row[1],
                hero=json.loads(row[2]),
                saved_at=from_ms(row[3]),
            )
            for row in rows
        ]

    # ---------------------------------------------------------------- command sync
    async def command_tree_hash(self, scope: str) -> str | None:
        """See `Repository.command_tree_hash`."""
        row = await self._fetchrow("SELECT tree_hash FROM command_syncs WHERE scope = $1", scope)
        return None if row is None else str(row[0])

    async def save_command_tree_hash(self, scope: str, tree_hash: str) -> None:
        """See `Repository.save_command_tree_hash` (one statement)."""
        await self._statement(
            "INSERT INTO command_syncs (scope, tree_hash, synced_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (scope) DO UPDATE SET tree_hash = excluded.tree_hash, "
            "synced_at = excluded.synced_at",
            scope,
            tree_hash,
            self._now(),
        )
