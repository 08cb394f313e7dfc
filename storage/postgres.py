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
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, NoReturn

import asyncpg

from storage.errors import (
    DatabaseBusy,
    DatabaseFull,
    DatabaseNotWritable,
    DatabaseReadOnly,
    DatabaseUnusable,
    GameNotFound,
    MigrationError,
    StorageError,
    WrongGameStatus,
)
from storage.migrate import POSTGRESQL_MIGRATIONS, Migration, check_sequence, load_migrations
from storage.records import (
    GameStatus,
)
from storage.rows import (
    GAME_COLUMNS,
    Row,
    stale,
    status_error,
    summary,
    to_ms,
)
from storage.sql import COMMIT_REFUSALS, PendingCommit, SqlRepository, numbered

log = logging.getLogger(__name__)

Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
"""A connection: one of the pool's (a proxy) or one opened on its own."""

_COMMIT_SQL = (
    "SELECT commit_move($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
)
"""A whole commit in one statement (schema 5's function)."""
_NOT_SAVED = (
    "so this was not saved; everything saved before it is kept. Please tell the bot's "
    "operator, and send it again once that is fixed."
)
_URL = re.compile(r"^postgres(?:ql)?://", re.IGNORECASE)
_SCHEME = re.compile(r"^\s*[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_QUERY_PASSWORD = re.compile(r"([?&]password=)([^&#]*)", re.IGNORECASE)


def is_postgres_url(text: str) -> bool:
    """Whether ``text`` is a PostgreSQL connection URL (``postgresql://`` or
    ``postgres://``) rather than an SQLite file path."""
    return _URL.match(text.strip()) is not None


def _userinfo_end(url: str, start: int) -> int:
    """Where the ``@`` that ends ``url``'s user information is (-1: none), its host part
    starting at ``start``: the last ``@`` before the query (else the last one)."""
    query = url.find("?", start)
    before_query = url.rfind("@", start, len(url) if query == -1 else query)
    return before_query if before_query != -1 else url.rfind("@", start)


def _passwords(url: str) -> list[tuple[int, int]]:
    """Where ``url``'s passwords are, as ``(start, end)`` spans: the user information's
    (after its first ``:``, up to the ``@`` before the host: the last one before the query,
    so that an unescaped ``@``, ``/`` or ``?`` in it is hidden too) and each ``password=``
    query parameter's value."""
    spans = [match.span(2) for match in _QUERY_PASSWORD.finditer(url)]
    scheme = _SCHEME.match(url)
    if scheme is not None:
        start = scheme.end()
        at = _userinfo_end(url, start)
        colon = url.find(":", start, at) if at != -1 else -1
        if colon != -1:
            spans = [(colon + 1, at), *(span for span in spans if span[0] > at)]
    return sorted(spans)


def redact_url(url: str) -> str:
    """``url`` with each password (the user information's, a ``password=`` parameter's)
    shown as ``***``, for messages and logs; works on malformed URLs too."""
    shown, end = [], 0
    for start, stop in _passwords(url):
        shown.append(url[end:start] + "***")
        end = stop
    return "".join(shown) + url[end:]


def check_ports(url: str) -> None:
    """Refuse a port above 65535 in ``url``'s host list (``host:port[,host:port]``) or its
    ``port=`` parameter: the driver passes a host name's port on to the resolver, which
    takes it modulo 65536 (``localhost:99999`` would reach port 34463).

    :raises ValueError: naming the port.
    """
    scheme = _SCHEME.match(url)
    if scheme is None:
        return
    start = scheme.end()
    query = url.find("?", start)
    at = url.rfind("@", start, len(url) if query == -1 else query)
    hosts = re.split(r"[/?#]", url[start if at == -1 else at + 1 :], maxsplit=1)[0]
    ports = [entry.rsplit("]", 1)[-1].rpartition(":")[2] for entry in hosts.split(",")]
    if query != -1:  # a port= parameter (a list, one per host)
        for value in re.findall(r"[?&]port=([^&#]*)", url[query:], re.IGNORECASE):
            ports.extend(value.split(","))
    for port in ports:
        if port.isdigit() and int(port) > 65535:
            raise ValueError(f"port {int(port)} is out of range 0..65535")


def _without_passwords(text: str, url: str) -> str:
    """``text`` (a driver's words about ``url``) with ``url``'s passwords as ``***``; when
    a password holds an unescaped ``/``, ``?``, ``@`` or ``#`` (the driver may then have
    read a piece of it as the port or the host, and quote that), words saying so instead."""
    for start, stop in _passwords(url):
        secret = url[start:stop]
        if any(mark in secret for mark in "/?@#"):
            return (
                "the URL is malformed (its password holds an unescaped '/', '?', '@' or "
                "'#'; write it percent-encoded, e.g. '/' as %2F)"
            )
        if secret:
            text = text.replace(secret, "***")
    return text


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


@contextlib.contextmanager
def _translating() -> Iterator[None]:
    """Raise a server or connection failure inside the block as its `StorageError`
    (`_translate`); anything else as it is."""
    try:
        yield
    except _TRANSLATED as error:
        translated = _translate(error)  # type: ignore[arg-type]
        if translated is not error:
            raise translated from error
        raise


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
    elif isinstance(error, ValueError | OverflowError | asyncpg.ClientConfigurationError):
        # The URL's own parts (a port that is no number or out of range, a bad IPv6
        # address, an unknown sslmode); the driver's words name the part, not the password.
        why = f"the URL is malformed ({str(error).rstrip('.')})"
    else:
        why = f"{type(error).__name__}: {error}"
    why = _without_passwords(why, url)
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
        check_ports(url)
        pool = await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, timeout=connect_timeout
        )
    except (
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        OSError,
        TimeoutError,
        ValueError,
        OverflowError,
    ) as error:
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
        with _translating():
            async with self._pool.acquire() as conn, conn.transaction():
                yield conn

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Connection]:
        """One REPEATABLE READ read-only transaction: several reads, one snapshot."""
        with _translating():
            async with (
                self._pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                yield conn

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """One read statement on the pool (its own snapshot)."""
        with _translating():
            return list(await self._pool.fetch(sql, *args))

    async def _statement(self, sql: str, *args: Any) -> int:
        """See `SqlRepository._statement`: on the pool (the ``?`` marks numbered)."""
        with _translating():
            return _count(await self._pool.execute(numbered(sql), *args))

    _LOCK_ROW = " FOR NO KEY UPDATE"
    _UNIQUE_VIOLATION = (asyncpg.UniqueViolationError,)

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

    async def _select(self, sql: str, *args: Any) -> list[Row]:
        """See `SqlRepository._select`: one statement on the pool, its own snapshot."""
        return list(await self._fetch(numbered(sql), *args))

    async def _returning(self, sql: str, *args: Any) -> list[Row]:
        """See `SqlRepository._returning`: one statement on the pool, its own transaction."""
        return list(await self._fetch(numbered(sql), *args))

    def _any(self, column: str, values: Sequence[Any], sql_type: str) -> tuple[str, list[Any]]:
        """See `SqlRepository._any`: one array argument."""
        return f"{column} = ANY(CAST(? AS {sql_type}[]))", [list(values)]

    async def _xact_lock(self, conn: Connection, name: str) -> None:
        """See `SqlRepository._xact_lock`: ``pg_advisory_xact_lock`` keyed by the schema and
        ``name``."""
        await conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || $1, 0))", name
        )

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

    # ---------------------------------------------------------------- commits
    async def _commit_move(self, move: PendingCommit) -> int:
        """See `SqlRepository._commit_move`: ``SELECT commit_move(...)`` (schema 5) on the
        pool, the deadlines as three arrays."""
        try:
            with _translating():
                seq = await self._pool.fetchval(
                    _COMMIT_SQL,
                    *move.leading(),
                    move.replace_deadlines,
                    [d.seat for d in move.deadlines],
                    [d.kind for d in move.deadlines],
                    [to_ms(d.due_at) for d in move.deadlines],
                    move.now,
                )
        except asyncpg.RaiseError as error:
            if error.message not in COMMIT_REFUSALS:
                raise
            await self._explain_refusal(move.game_id, move.expected_version, error.message)
        return int(seq)

    async def _explain_refusal(self, game_id: int, expected_version: int, message: str) -> NoReturn:
        """Raise the error a refused commit stands for, worded from the game as it is now.

        :raises GameNotFound | WrongGameStatus | StaleState:
        """
        row = await self._select_one(f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = ?", game_id)
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
