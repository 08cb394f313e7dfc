"""The SQLite `Repository` on aiosqlite: WAL, one writer and one reader connection.

Concurrency model. SQLite allows one writer at a time per database file, and any number of
readers alongside it in WAL mode. The repository therefore holds two aiosqlite connections
(each runs its SQL on its own thread, so the event loop never blocks on disk):

- the *writer*, behind an `asyncio.Lock`: every write is one ``BEGIN IMMEDIATE`` ...
  ``COMMIT`` transaction taken under the lock, so statements of two tasks never interleave
  inside one transaction. ``BEGIN IMMEDIATE`` takes SQLite's write lock at once, which also
  serialises writers in *other processes* (a second bot shard, the backup tool); they wait
  up to ``busy_timeout`` and then get `DatabaseBusy`.
- the *reader* (``PRAGMA query_only``), behind its own lock: reads run in a short ``BEGIN``
  ... ``ROLLBACK`` snapshot and never wait for the writer.

A commit (a move: the log entry, the new snapshot and version, the deadlines) is the one
write that is not a ``BEGIN`` ... ``COMMIT``: it is a single statement, an ``INSERT`` into
the view ``commit_requests`` (schema 5), run in autocommit mode under the writer's lock. A
statement is its own transaction and takes the write lock before it reads anything, so it
is atomic and serialised exactly like ``BEGIN IMMEDIATE`` ... ``COMMIT``, in one round trip
to the writer's thread instead of four. The view's trigger checks the game's version in
SQL, so the check holds however many connections or processes write: exactly one of two
racing commits lands, the other raises `StaleState` and writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, NoReturn

import aiosqlite

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
    NothingToUndo,
    SeatNotFound,
    StorageError,
    WrongGameStatus,
)
from storage.migrate import APPLICATION_ID, Migration, load_migrations, migrate, schema_version
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
    GAME_COLUMNS as _GAME_COLUMNS,
)
from storage.rows import (
    HELD_COLUMNS as _HELD_COLUMNS,
)
from storage.rows import (
    IN_EFFECT as _IN_EFFECT,
)
from storage.rows import (
    INT64,
    Row,
)
from storage.rows import (
    LOG_COLUMNS as _LOG_COLUMNS,
)
from storage.rows import (
    PRESENCE_COLUMNS as _PRESENCE_COLUMNS,
)
from storage.rows import (
    channel_busy as _channel_busy,
)
from storage.rows import (
    deadline_row as _deadline,
)
from storage.rows import (
    dump_events as _dump_events,
)
from storage.rows import (
    from_ms as _from_ms,
)
from storage.rows import (
    game as _game,
)
from storage.rows import (
    held as _held,
)
from storage.rows import (
    log_entry as _log_entry,
)
from storage.rows import (
    placeholders as _placeholders,
)
from storage.rows import (
    seat_row as _seat,
)
from storage.rows import (
    seconds as _seconds,
)
from storage.rows import (
    stale as _stale,
)
from storage.rows import (
    summary as _summary,
)
from storage.rows import (
    to_json as _json,
)
from storage.rows import (
    to_ms as _to_ms,
)
from storage.sql import SqlRepository

log = logging.getLogger(__name__)

Synchronous = Literal["FULL", "NORMAL"]


_COMMIT_SQL = (
    "INSERT INTO commit_requests (game_id, expected_version, version, state, status, result, "
    "ended_at, seat, actor_user_id, command, reason, events, replace_deadlines, deadlines, "
    "now, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
    "(SELECT coalesce(max(seq), 0) + 1 FROM game_log WHERE game_id = ?)) RETURNING seq"
)
"""A whole commit in one statement (schema 5): the view's trigger checks and writes it all."""
_COMMIT_REFUSALS = frozenset(
    {
        "commit refused: no such game",
        "commit refused: the game is not active",
        "commit refused: stale version",
    }
)
"""The trigger's ``RAISE(ABORT, ...)`` messages that a caller's outdated view explains (the
others mean a wrong request: the repository's own error, raised as it is)."""

# SQLite primary result codes (``sqlite3.Error.sqlite_errorcode & 0xFF``).
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_CORRUPT, _SQLITE_NOTADB = 5, 6, 11, 26
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL = 8, 10, 13

_NOT_SAVED = (
    "so this was not saved; everything saved before it is kept. Please tell the bot's "
    "operator, and send it again once that is fixed."
)


def _translate(error: sqlite3.Error, path: Path) -> Exception:
    """Map an SQLite error of a running repository to a `StorageError` where one fits,
    else return it unchanged.

    The messages are for players (the bot replies with them): they name no file and no
    SQLite text. The storage log (WARNING, ERROR for damage) names the file and the code
    for the operator.
    """
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    translated: StorageError
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        translated = DatabaseBusy(
            "The bot's database is busy (another process holds its write lock); nothing "
            "was changed. Try again in a moment."
        )
    elif code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        translated = DatabaseUnusable(
            "The bot's database is damaged, so nothing was changed; the operator must "
            "restore it from a backup."
        )
    elif code == _SQLITE_FULL:
        translated = DatabaseFull(f"The bot's storage is full (no space left), {_NOT_SAVED}")
    elif code == _SQLITE_READONLY:
        translated = DatabaseReadOnly(f"The bot's database has become read-only, {_NOT_SAVED}")
    elif code == _SQLITE_IOERR:
        translated = DatabaseNotWritable(
            f"The bot's database could not be written (a disk error), {_NOT_SAVED}"
        )
    else:
        return error
    level = logging.ERROR if isinstance(translated, DatabaseUnusable) else logging.WARNING
    log.log(
        level,
        "database %s: %s (SQLite %s, code %s)",
        path,
        type(translated).__name__,
        getattr(error, "sqlite_errorname", "?"),
        getattr(error, "sqlite_errorcode", "?"),
    )
    return translated


async def _rows(
    conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()
) -> list[sqlite3.Row]:
    """Run a query and fetch every row in one round trip to the connection's thread."""
    return list(await conn.execute_fetchall(sql, params))


async def _row(
    conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()
) -> sqlite3.Row | None:
    rows = await _rows(conn, sql, params)
    return rows[0] if rows else None


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back, even if the calling task is being cancelled; never masks the first error."""
    with contextlib.suppress(sqlite3.Error, ValueError):
        await asyncio.shield(conn.rollback())


async def _settle(conn: aiosqlite.Connection) -> None:
    """Wait until every statement queued on ``conn`` has run, even while being cancelled.

    aiosqlite runs a connection's statements in order on its thread, and a statement whose
    caller was cancelled still runs; a no-op queued behind them finishes after them.
    """
    with contextlib.suppress(sqlite3.Error, ValueError):
        await asyncio.shield(conn.execute_fetchall("SELECT 1"))


# ------------------------------------------------------------------------ opening
async def connect(path: Path, busy_timeout: float) -> aiosqlite.Connection:
    """Open an autocommit aiosqlite connection with ``sqlite3.Row`` rows and a busy timeout.

    :raises sqlite3.Error: when SQLite cannot open the file.
    """
    conn = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
    conn.row_factory = sqlite3.Row
    await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
    return conn


async def check_database(
    conn: aiosqlite.Connection,
    path: Path,
    *,
    check_integrity: bool,
    migrations: Sequence[Migration] | None = None,
) -> None:
    """Refuse a file that is not (or not yet safely) a Heroes Table database; read only.

    :raises DatabaseUnusable: naming why (foreign, newer, damaged).
    """
    # One statement, so one snapshot: read apart, another opener's first migration could
    # commit between the two reads (application id 0 and tables: taken for a foreign file).
    row = await _row(
        conn,
        "SELECT (SELECT application_id FROM pragma_application_id), "
        "(SELECT count(*) FROM sqlite_master)",
    )
    app_id, objects = (row[0], row[1]) if row is not None else (0, 0)
    if objects == 0 and app_id in (0, APPLICATION_ID):
        return  # a new, empty database
    if app_id != APPLICATION_ID:
        raise DatabaseUnusable(
            f"Cannot open the database {path}: it is another program's SQLite database, "
            "not a Heroes Table one. Nothing was changed; choose another file (HEROES_DB_PATH, or --db)."
        )
    known = migrations if migrations is not None else await asyncio.to_thread(load_migrations)
    version, latest = await schema_version(conn), len(known)
    if version > latest:
        raise DatabaseUnusable(
            f"Cannot open the database {path}: it was written by a newer Heroes Table "
            f"(schema {version}; this version knows up to {latest}). Nothing was changed."
        )
    if check_integrity:
        problems = await _rows(conn, "PRAGMA quick_check(3)")
        if [tuple(p) for p in problems] != [("ok",)]:
            first = str(problems[0][0]).replace("\n", " ")
            raise DatabaseUnusable(
                f"Cannot open the database {path}: it is damaged ({first}). "
                "Nothing was changed; restore it from a backup."
            )


async def integrity_problems(path: str | Path, *, thorough: bool = False) -> list[str]:
    """Check the database file at ``path`` for damage; read only, on its own connection in
    a worker thread (the bot keeps serving meanwhile).

    ``PRAGMA quick_check`` by default (the pages and the rows' format: seconds per GiB); with
    ``thorough``, ``PRAGMA integrity_check``, which also compares every index with its
    table. The bot runs the quick one in the background once it is ready (``heroes-table
    verify`` runs either on demand), so that a start-up does not read the whole file.

    :returns: at most three problems as SQLite words them, one line each; empty when the
        file is sound.
    :raises DatabaseUnusable: when the file is missing or is not an SQLite database.
    """
    where = Path(path).expanduser()
    if not where.is_file():
        raise DatabaseUnusable(f"Cannot check the database {where}: there is no such file.")
    pragma = "integrity_check" if thorough else "quick_check"

    def check() -> list[str]:
        conn = sqlite3.connect(f"{where.resolve().as_uri()}?mode=ro", uri=True)
        try:
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
            except sqlite3.DatabaseError as error:
                raise DatabaseUnusable(
                    f"Cannot check the database {where}: {error}. It is not a readable SQLite file."
                ) from error
            try:
                rows = conn.execute(f"PRAGMA {pragma}(3)").fetchall()
            except sqlite3.DatabaseError as error:  # a page too damaged to walk
                return [str(error)]
        finally:
            conn.close()
        found = [str(row[0]).replace("\n", " ") for row in rows]
        return [] if found == ["ok"] else found

    return await asyncio.to_thread(check)


async def _prepare_writer(
    conn: aiosqlite.Connection, path: Path, synchronous: Synchronous, busy_timeout: float
) -> None:
    mode_row = await _switch_to_wal(conn, busy_timeout)
    if mode_row is None or str(mode_row[0]).lower() != "wal":
        log.warning("SQLite refused WAL mode for %s (got %r)", path, mode_row and mode_row[0])
    await conn.execute(f"PRAGMA synchronous = {synchronous}")
    await conn.execute("PRAGMA foreign_keys = ON")


async def _switch_to_wal(conn: aiosqlite.Connection, busy_timeout: float) -> Any:
    """Run ``PRAGMA journal_mode = WAL`` and return its row. SQLite answers "database is
    locked" at once, without its busy handler, while another connection is opening or
    migrating the same new file; so that is retried (every 10 ms) for up to
    ``busy_timeout`` seconds, like any other lock. (A bounded loop of one statement: not
    worth a retry library such as tenacity.)

    :raises sqlite3.OperationalError: when the file is still locked after ``busy_timeout``.
    """
    deadline = asyncio.get_running_loop().time() + busy_timeout
    while True:
        try:
            return await _row(conn, "PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as error:
            locked = "locked" in str(error) or "busy" in str(error)
            if not locked or asyncio.get_running_loop().time() >= deadline:
                raise
        await asyncio.sleep(0.01)


async def _prepare_reader(conn: aiosqlite.Connection) -> None:
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA query_only = ON")


async def _close_quietly(*connections: aiosqlite.Connection | None) -> None:
    for conn in connections:
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()


async def open_repository(
    path: str | Path,
    *,
    clock: Callable[[], datetime] | None = None,
    synchronous: Synchronous = "FULL",
    busy_timeout: float = 5.0,
    check_integrity: bool = True,
) -> SqliteRepository:
    """Open (creating if missing) the database at ``path``, migrate it, return the repository.

    The folder is created if missing. An existing file is first inspected read-only: a file
    that is not SQLite, another program's database, a database from a newer version or a
    damaged one (``PRAGMA quick_check``) is refused and left untouched.

    :param clock: the time source for timestamps (default: now, UTC); tests pass their own.
    :param synchronous: ``FULL`` (default: a commit survives power loss) or ``NORMAL``
        (faster; a commit survives a process crash but may be lost on power loss).
    :param busy_timeout: seconds to wait for another process's write lock.
    :param check_integrity: run ``PRAGMA quick_check`` on an existing database.
    :raises DatabaseUnusable: with one readable line saying what is wrong with the file.
    :raises MigrationError: if a migration fails (the database stays at the last version).
    """
    where = Path(path).expanduser()
    writer: aiosqlite.Connection | None = None
    reader: aiosqlite.Connection | None = None
    try:
        await asyncio.to_thread(_prepare_folder, where)
        migrations = await asyncio.to_thread(load_migrations)
        writer = await connect(where, busy_timeout)
        await check_database(writer, where, check_integrity=check_integrity, migrations=migrations)
        await _prepare_writer(writer, where, synchronous, busy_timeout)
        applied = await migrate(writer, migrations, clock=clock)
        if applied:
            log.info("Database %s migrated to schema %d", where, applied[-1])
        reader = await connect(where, busy_timeout)
        await _prepare_reader(reader)
    except sqlite3.Error as error:
        await _close_quietly(writer, reader)
        raise open_failure(error, where) from error
    except BaseException:
        await _close_quietly(writer, reader)
        raise
    return SqliteRepository(where, writer, reader, clock=clock)


def _prepare_folder(path: Path) -> None:
    """Create the database's folder; refuse a path this process cannot use as its database.

    A read-only file would open and then fail at the first move, so it is refused here.

    :raises DatabaseUnusable: when the folder cannot be created, ``path`` is a folder, or
        this user may not read and write the file or write in its folder.
    """
    if path.is_dir():
        raise DatabaseUnusable(f"Cannot open the database {path}: it is a folder, not a file.")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseUnusable(
            f"Cannot open the database {path}: cannot create its folder ({error.strerror})."
        ) from error
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise DatabaseUnusable(
            f"Cannot open the database {path}: this user may not "
            f"{'read' if not os.access(path, os.R_OK) else 'write'} it (file permissions). "
            "Nothing was changed."
        )
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise DatabaseUnusable(
            f"Cannot open the database {path}: this user may not write in its folder "
            "(SQLite keeps its -wal and -shm files beside the database). Nothing was changed."
        )


def open_failure(error: sqlite3.Error, path: Path) -> StorageError:
    """The one-line error for an SQLite failure while opening ``path``.

    :returns: `DatabaseBusy` when another process holds the lock, else `DatabaseUnusable`.
    """
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return DatabaseBusy(
            f"Cannot open the database {path}: another process holds its lock; try again."
        )
    if code == _SQLITE_NOTADB:
        why = "it is not a SQLite database (or it is encrypted)"
    elif code == _SQLITE_CORRUPT:
        why = f"it is damaged ({error}); restore it from a backup"
    else:
        why = f"SQLite says: {error}"
    return DatabaseUnusable(f"Cannot open the database {path}: {why}. Nothing was changed.")


# --------------------------------------------------------------------- repository
class SqliteRepository(SqlRepository[aiosqlite.Connection]):
    """`Repository` on one SQLite file; build it with `open_repository`.

    Attributes:
        path: the database file.
    """

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        *,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._clock = clock or (lambda: datetime.now(UTC))
        self._closed = False
        self._leaders: set[str] = set()

    # ------------------------------------------------------------ transactions
    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction on the writer; rolled back on any exception.

        Cancellation-safe: aiosqlite runs a connection's statements in FIFO order on its
        thread, and a statement whose caller was cancelled still runs. So on any exception
        (including `CancelledError` at any await, even ``BEGIN`` or ``COMMIT``) a
        ``ROLLBACK`` is queued behind it before the lock is released; it is a no-op when no
        transaction is open. A transaction therefore lands wholly or not at all.
        """
        async with self._write_lock:
            conn = self._writer
            try:
                await conn.execute("BEGIN IMMEDIATE")
                yield conn
                await conn.execute("COMMIT")
            except BaseException as error:
                await _rollback(conn)
                if isinstance(error, sqlite3.Error):
                    translated = _translate(error, self.path)
                    if translated is not error:
                        raise translated from error
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """One read snapshot (``BEGIN`` ... ``ROLLBACK``) on the reader connection."""
        async with self._read_lock:
            conn = self._reader
            try:
                await conn.execute("BEGIN")
                yield conn
            except sqlite3.Error as error:
                translated = _translate(error, self.path)
                if translated is not error:
                    raise translated from error
                raise
            finally:
                await _rollback(conn)

    async def _statement(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one writing statement on its own (autocommit: a statement is its own
        transaction, atomic without ``BEGIN`` ... ``COMMIT``) under the writer's lock: one
        round trip instead of three. Cancellation-safe as `commit` is.

        :returns: the number of rows it changed.
        """
        async with self._write_lock:
            conn = self._writer
            try:
                cursor = await conn.execute(sql, params)
            except asyncio.CancelledError:
                await _settle(conn)
                raise
            except sqlite3.Error as error:
                translated = _translate(error, self.path)
                if translated is not error:
                    raise translated from error
                raise
            return int(cursor.rowcount)

    def _now(self) -> int:
        return _to_ms(self._clock())

    async def _query(self, conn: aiosqlite.Connection, sql: str, *args: Any) -> list[Row]:
        """See `SqlRepository._query`."""
        return list(await _rows(conn, sql, args))

    async def _run(self, conn: aiosqlite.Connection, sql: str, *args: Any) -> int:
        """See `SqlRepository._run`."""
        cursor = await conn.execute(sql, args)
        return int(cursor.rowcount)

    async def _run_many(
        self, conn: aiosqlite.Connection, sql: str, rows: Iterable[Sequence[Any]]
    ) -> None:
        """See `SqlRepository._run_many`."""
        await conn.executemany(sql, list(rows))

    @asynccontextmanager
    async def leader_lock(self, name: str) -> AsyncIterator[bool]:
        """See `Repository.leader_lock`. One SQLite file serves one bot process, so this is a
        lock of this repository: True unless another task holds ``name`` right now."""
        if name in self._leaders:
            yield False
            return
        self._leaders.add(name)
        try:
            yield True
        finally:
            self._leaders.discard(name)

    async def close(self) -> None:
        """Close both connections (SQLite checkpoints the WAL when the last one closes)."""
        if self._closed:
            return
        self._closed = True
        async with self._write_lock, self._read_lock:
            await _close_quietly(self._reader, self._writer)

    # ---------------------------------------------------------- shared checks
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
        options_json, now = _json(dict(options or {})), self._now()
        async with self._write() as conn:
            busy = await _row(
                conn,
                "SELECT id, ruleset, status FROM games WHERE channel_id = ? "
                "AND status IN ('lobby', 'active', 'paused')",
                (channel_id,),
            )
            if busy is not None:
                raise _channel_busy(busy["id"], busy["ruleset"], busy["status"])
            try:
                cursor = await conn.execute(
                    "INSERT INTO games (channel_id, guild_id, ruleset, options, seed, "
                    "host_user_id, status, version, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?)",
                    (
                        channel_id,
                        guild_id,
                        ruleset,
                        options_json,
                        chosen_seed,
                        host_user_id,
                        now,
                        now,
                    ),
                )
            except sqlite3.IntegrityError as error:  # an open game created by another process
                raise ChannelBusy("This channel already has an open game.") from error
            game_id = cursor.lastrowid
            if game_id is None:  # pragma: no cover - SQLite always sets it after an INSERT
                raise StorageError("SQLite did not report the new game's id.")
            return await self._load_game(conn, game_id)

    async def get_game(self, game_id: int) -> Game:
        """See `Repository.get_game`."""
        async with self._read() as conn:
            return await self._load_game(conn, game_id)

    async def game_with_seats(self, game_id: int) -> tuple[Game, list[Seat]]:
        """See `Repository.game_with_seats`: both in one read snapshot."""
        async with self._read() as conn:
            game = await self._load_game(conn, game_id)
            rows = await _rows(
                conn,
                f"SELECT {_PRESENCE_COLUMNS} FROM seats s WHERE s.game_id = ? ORDER BY s.seat",
                (game_id,),
            )
        return game, [_seat(row, presence=True) for row in rows]

    async def game_in_channel(self, channel_id: int) -> Game | None:
        """See `Repository.game_in_channel`."""
        async with self._read() as conn:
            row = await _row(
                conn,
                f"SELECT {_GAME_COLUMNS}, g.state FROM games g WHERE g.channel_id = ? "
                "AND g.status IN ('lobby', 'active', 'paused')",
                (channel_id,),
            )
        return None if row is None else _game(row)

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
        where: list[str] = ["1 = 1"]
        params: list[Any] = []
        for column, value in (("g.guild_id", guild_id), ("g.channel_id", channel_id)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if before_id is not None:
            where.append("g.id < ?")
            params.append(before_id)
        if statuses is not None:
            where.append(f"g.status IN ({_placeholders(len(statuses))})")
            params.extend(sorted(s.value for s in statuses))
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE {' AND '.join(where)} "
            "ORDER BY g.id DESC LIMIT ?"
        )
        async with self._read() as conn:
            rows = await _rows(conn, sql, [*params, limit])
        return [_summary(row) for row in rows]

    async def count_active_games(self) -> int:
        """See `Repository.count_active_games` (the index named as in `games_to_resume`)."""
        async with self._read() as conn:
            row = await _row(
                conn,
                "SELECT count(*) FROM games INDEXED BY games_one_open_per_channel "
                "WHERE status IN ('lobby', 'active', 'paused') AND status = 'active'",
            )
        return int(row[0]) if row is not None else 0

    async def games_to_resume(self) -> list[int]:
        """See `Repository.games_to_resume`. The partial index of the open games
        (``games_one_open_per_channel``, schema 1) is named, so the query never scans the
        archive; the condition repeats the index's own, which SQLite requires to use it."""
        sql = (
            "SELECT g.id FROM games g INDEXED BY games_one_open_per_channel "
            "WHERE g.status IN ('lobby', 'active', 'paused') AND g.status = 'active' AND ("
            "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.is_ai = 1) OR "
            "EXISTS (SELECT 1 FROM standing_orders o WHERE o.game_id = g.id) OR "
            "EXISTS (SELECT 1 FROM seat_presence p WHERE p.game_id = g.id "
            "AND (p.missed > 0 OR p.away_until IS NOT NULL)))"
        )
        async with self._read() as conn:
            rows = await _rows(conn, sql)
        return sorted(row[0] for row in rows)

    async def games_for_user(
        self, user_id: int, *, statuses: frozenset[GameStatus] = OPEN_STATUSES
    ) -> list[UserSeat]:
        """See `Repository.games_for_user`."""
        sql = (
            f"SELECT {_GAME_COLUMNS}, {_PRESENCE_COLUMNS} FROM seats s JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = ? AND g.status IN ({_placeholders(len(statuses))}) "
            "ORDER BY g.updated_at DESC, g.id DESC"
        )
        async with self._read() as conn:
            rows = await _rows(conn, sql, [user_id, *sorted(s.value for s in statuses)])
        return [UserSeat(_summary(row), _seat(row, presence=True)) for row in rows]

    # ------------------------------------------------------------------ lobby
    async def seats(self, game_id: int) -> list[Seat]:
        """See `Repository.seats`."""
        async with self._read() as conn:
            rows = await _rows(
                conn,
                f"SELECT {_PRESENCE_COLUMNS} FROM seats s WHERE s.game_id = ? ORDER BY s.seat",
                (game_id,),
            )
        return [_seat(row, presence=True) for row in rows]

    async def set_dm_reachable(self, user_id: int, reachable: bool) -> int:
        """See `Repository.set_dm_reachable`."""
        async with self._write() as conn:
            cursor = await conn.execute(
                "UPDATE seats SET dm_reachable = ? WHERE user_id = ? AND game_id IN "
                "(SELECT id FROM games WHERE status IN ('lobby', 'active', 'paused'))",
                (int(reachable), user_id),
            )
            return int(cursor.rowcount)

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
        """See `Repository.commit`.

        One statement (`_COMMIT_SQL`, see the module docstring): one round trip to the
        writer's thread, atomic on its own. Everything is serialised before it is sent, so a
        value SQLite cannot take fails before anything is written.
        """
        if state.version != expected_version + 1:
            raise ValueError(
                f"the new state is at version {state.version}, expected {expected_version + 1}"
            )
        finished = result is not None and result.finished
        now = self._now()
        replace_deadlines = finished or deadlines is not None
        new_deadlines = (
            _json([[d.seat, d.kind, _to_ms(d.due_at)] for d in deadlines])
            if deadlines and not finished
            else None
        )
        command_json = command.model_dump_json()
        params = (
            game_id,
            expected_version,
            state.version,
            Ruleset.dump_state(state),
            GameStatus.FINISHED.value if finished else GameStatus.ACTIVE.value,
            _json(result.model_dump(mode="json")) if finished and result is not None else None,
            now if finished else None,
            seat,
            actor_user_id,
            command_json,
            reason,
            _dump_events(events),
            int(replace_deadlines),
            new_deadlines,
            now,
            game_id,
        )
        async with self._write_lock:
            conn = self._writer
            try:
                inserted = await _rows(conn, _COMMIT_SQL, params)
            except asyncio.CancelledError:
                await _settle(conn)  # the statement runs anyway: let it land or fail first
                raise
            except sqlite3.IntegrityError as error:
                if str(error) not in _COMMIT_REFUSALS:
                    raise
                await self._explain_refusal(conn, game_id, expected_version, str(error))
            except sqlite3.Error as error:
                translated = _translate(error, self.path)
                if translated is not error:
                    raise translated from error
                raise
        return LogEntry(
            game_id=game_id,
            seq=int(inserted[0][0]),
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
            created_at=_from_ms(now),
        )

    async def _explain_refusal(
        self, conn: aiosqlite.Connection, game_id: int, expected_version: int, message: str
    ) -> NoReturn:
        """Raise the error a refused commit stands for, read from the game as it is now.

        The commit statement was refused as a whole (nothing of it was written); this read
        (one statement, on the writer under its lock) only words the error. Should the game
        have changed back meanwhile (another process resumed it), the refusal's own reason
        is used.

        :raises GameNotFound | WrongGameStatus | StaleState:
        """
        game = await self._require_game(
            conn, game_id, {GameStatus.ACTIVE}, "make a move", expected_version
        )
        if message.endswith("stale version"):
            raise _stale(expected_version, game.version)
        raise WrongGameStatus(
            f"Cannot make a move: game #{game_id} was paused or ended a moment ago; try again.",
            game.status.value,
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
            game = await self._require_game(conn, game_id, allowed, "undo", expected_version)
            status = GameStatus.ACTIVE if game.status is GameStatus.FINISHED else game.status
            try:
                await conn.execute(
                    "UPDATE games SET version = ?, state = ?, updated_at = ?, status = ?, "
                    "result = CASE WHEN ? THEN NULL ELSE result END, "
                    "ended_at = CASE WHEN ? THEN NULL ELSE ended_at END "
                    "WHERE id = ? AND version = ?",
                    (
                        state.version,
                        Ruleset.dump_state(state),
                        now,
                        status.value,
                        status is not game.status,
                        status is not game.status,
                        game_id,
                        expected_version,
                    ),
                )
            except sqlite3.IntegrityError as error:
                raise ChannelBusy(
                    f"Cannot reopen game #{game_id}: its channel has another open game."
                ) from error
            entries: list[LogEntry] = []
            for number, undone_seq in enumerate(undone_seqs, start=1):
                last = await _row(
                    conn,
                    f"SELECT l.seq, l.seat FROM game_log l WHERE l.game_id = ? AND {_IN_EFFECT} "
                    "ORDER BY l.seq DESC LIMIT 1",
                    (game_id,),
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
                # An undo's news (the post, the prompts) is owed like a move's (schema 8's
                # trigger covers only commands): written in this same transaction.
                await conn.execute(
                    "INSERT OR IGNORE INTO undelivered_commits (game_id, version, created_at) "
                    "VALUES (?, ?, ?)",
                    (game_id, version, now),
                )
            if deadlines is not None:
                await conn.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
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
        """See `Repository.moderate`."""
        now = self._now()
        async with self._write() as conn:
            game = await self._require_game(
                conn, game_id, change.allowed_from, action.value, change.expected_version
            )
            if change.seat_change is not None:
                await self._change_seat(conn, game_id, change)
            if change.remove_seat is not None:
                cursor = await conn.execute(
                    "DELETE FROM seats WHERE game_id = ? AND seat = ?",
                    (game_id, change.remove_seat),
                )
                if cursor.rowcount == 0:
                    raise SeatNotFound(f"Game #{game_id} has no seat {change.remove_seat}.")
            await self._change_status(conn, game, change, now)
            if change.deadlines:
                await self._write_deadlines(conn, game_id, change.deadlines, now)
            return await self._append(
                conn,
                game_id,
                kind=LogKind.MODERATOR,
                action=action,
                version_after=game.version,
                now=now,
                actor_user_id=moderator_user_id,
                seat=seat,
                reason=reason,
                details=details,
            )

    async def _change_seat(
        self, conn: aiosqlite.Connection, game_id: int, change: ModeratorChange
    ) -> None:
        target = change.seat_change
        assert target is not None
        if target.user_id is not None and await _row(
            conn,
            "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ? AND seat <> ?",
            (game_id, target.user_id, target.seat),
        ):
            raise AlreadySeated(f"That user already has another seat in game #{game_id}.")
        cursor = await conn.execute(
            "UPDATE seats SET user_id = ?, display_name = ?, is_ai = ?, dm_reachable = NULL "
            "WHERE game_id = ? AND seat = ?",
            (
                target.user_id,
                target.display_name,
                int(target.user_id is None),
                game_id,
                target.seat,
            ),
        )
        if cursor.rowcount == 0:
            raise SeatNotFound(f"Game #{game_id} has no seat {target.seat}.")
        # The seat's new holder starts afresh: no missed deadlines, away period or
        # extensions of the one before (schema 6).
        await conn.execute(
            "DELETE FROM seat_presence WHERE game_id = ? AND seat = ?", (game_id, target.seat)
        )

    async def _change_status(
        self, conn: aiosqlite.Connection, game: GameSummary, change: ModeratorChange, now: int
    ) -> None:
        status = change.new_status
        if status is None:
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game.id))
            return
        ended = status in ENDED_STATUSES
        await conn.execute(
            "UPDATE games SET status = ?, updated_at = ?, result = ?, ended_at = ? WHERE id = ?",
            (
                status.value,
                now,
                _json(dict(change.result)) if change.result is not None else None,
                now if ended else None,
                game.id,
            ),
        )
        if ended:
            await conn.execute("DELETE FROM deadlines WHERE game_id = ?", (game.id,))

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
            sql = (
                f"SELECT {_LOG_COLUMNS} FROM game_log l WHERE l.game_id = ? AND l.seq > ? "
                "ORDER BY l.seq LIMIT ?"
            )
            params: tuple[int, ...] = (game_id, after_seq, limit + 1)
        else:
            sql = (
                f"SELECT {_LOG_COLUMNS} FROM game_log l WHERE l.game_id = ? AND l.seq > ? "
                "AND l.seq < ? ORDER BY l.seq DESC LIMIT ?"
            )
            params = (game_id, after_seq, before_seq, limit + 1)
        async with self._read() as conn:
            rows = await _rows(conn, sql, params)
        has_more = len(rows) > limit
        rows = rows[:limit]
        if before_seq is not None:
            rows.reverse()
        return LogPage(tuple(_log_entry(row) for row in rows), has_more)

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
        """See `Repository.clear_deadlines`."""
        sql = "DELETE FROM deadlines WHERE game_id = ?"
        params: list[Any] = [game_id]
        if seat is not None:
            sql += " AND seat = ?"
            params.append(seat)
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        async with self._write() as conn:
            cursor = await conn.execute(sql, params)
            return int(cursor.rowcount)

    async def _active_deadlines(self, extra: str, params: Sequence[Any]) -> list[Deadline]:
        sql = (
            "SELECT d.game_id, g.channel_id, g.guild_id, d.seat, d.kind, d.due_at "
            "FROM deadlines d JOIN games g ON g.id = d.game_id "
            f"WHERE g.status = 'active' {extra} ORDER BY d.due_at, d.game_id, d.seat, d.kind"
        )
        async with self._read() as conn:
            rows = await _rows(conn, sql, params)
        return [_deadline(row) for row in rows]

    async def deadlines(self, game_id: int | None = None) -> list[Deadline]:
        """See `Repository.deadlines`."""
        if game_id is None:
            return await self._active_deadlines("", ())
        return await self._active_deadlines("AND d.game_id = ?", (game_id,))

    async def due_deadlines(self, now: datetime) -> list[Deadline]:
        """See `Repository.due_deadlines`."""
        return await self._active_deadlines("AND d.due_at <= ?", (_to_ms(now),))

    async def claim_deadline(
        self,
        deadline: Deadline,
        *,
        clear_seat: bool = False,
        then: DeadlineSpec | None = None,
        hold_until: datetime | None = None,
        missed: bool = False,
    ) -> bool:
        """See `Repository.claim_deadline`."""
        now = self._now()
        async with self._write() as conn:
            cursor = await conn.execute(
                "DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND kind = ? AND due_at = ?",
                (deadline.game_id, deadline.seat, deadline.kind, _to_ms(deadline.due_at)),
            )
            if cursor.rowcount != 1:
                return False
            if clear_seat:
                await conn.execute(
                    "DELETE FROM deadlines WHERE game_id = ? AND seat = ?",
                    (deadline.game_id, deadline.seat),
                )
            if missed:
                await conn.execute(
                    "INSERT INTO seat_presence (game_id, seat, missed, updated_at) "
                    "VALUES (?, ?, 1, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                    "missed = missed + 1, updated_at = excluded.updated_at",
                    (deadline.game_id, deadline.seat, now),
                )
            kept: list[DeadlineSpec] = [] if then is None else [then]
            if hold_until is not None:
                held = deadline.kind if deadline.kind.endswith(SENT) else deadline.kind + SENT
                kept.append(DeadlineSpec(deadline.seat, held, hold_until))
            if kept:
                await self._write_deadlines(conn, deadline.game_id, kept, now)
            return True

    async def settle_deadline_posts(self, settles: Sequence[PostSettle]) -> None:
        """See `Repository.settle_deadline_posts`."""
        if not settles:
            return
        async with self._write() as conn:
            await conn.executemany(
                "DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND kind = ?",
                [(s.game_id, s.seat, s.kind) for s in settles],
            )
            await conn.executemany(
                "DELETE FROM discord_message_refs WHERE scope = ? AND key = ?",
                [(s.scope, s.key) for s in settles],
            )

    async def set_away(self, game_id: int, seat: int, until: datetime | None) -> None:
        """See `Repository.set_away`."""
        now = self._now()
        away = None if until is None else _to_ms(until)
        async with self._write() as conn:
            await self._require_game(conn, game_id, OPEN_STATUSES, "change who is away")
            if until is None:
                await conn.execute(
                    "UPDATE seat_presence SET missed = 0, away_until = NULL, updated_at = ? "
                    "WHERE game_id = ? AND seat = ?",
                    (now, game_id, seat),
                )
                return
            await conn.execute(
                "INSERT INTO seat_presence (game_id, seat, away_until, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "away_until = excluded.away_until, updated_at = excluded.updated_at",
                (game_id, seat, away, now),
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
        """See `Repository.extend_deadline`."""
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, game_id, {GameStatus.ACTIVE}, "extend a deadline")
            due = await _row(
                conn,
                "SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ? AND kind = 'turn'",
                (game_id, seat),
            )
            if due is None:
                raise ExtensionRefused("Your decision has no deadline, so there is none to extend.")
            row = await _row(
                conn,
                "SELECT extensions_used, extended_turn FROM seat_presence "
                "WHERE game_id = ? AND seat = ?",
                (game_id, seat),
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
            new_due = _from_ms(due["due_at"]) + by
            await conn.execute(
                "INSERT INTO seat_presence (game_id, seat, extensions_used, extended_turn, "
                "updated_at) VALUES (?, ?, 1, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "extensions_used = extensions_used + 1, extended_turn = excluded.extended_turn, "
                "updated_at = excluded.updated_at",
                (game_id, seat, turn, now),
            )
            specs = [DeadlineSpec(seat, "turn", new_due)]
            if reminder is not None and new_due - reminder > _from_ms(now):
                specs.append(DeadlineSpec(seat, "reminder", new_due - reminder))
            else:
                await conn.execute(
                    "DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND kind = 'reminder'",
                    (game_id, seat),
                )
            await self._write_deadlines(conn, game_id, specs, now)
            return Extension(new_due, used + 1)

    async def record_skip_vote(
        self, game_id: int, seat: int, version: int, voter_user_id: int
    ) -> int:
        """See `Repository.record_skip_vote`."""
        now = self._now()
        async with self._write() as conn:
            await conn.execute(
                "DELETE FROM skip_votes WHERE game_id = ? AND version < ?", (game_id, version)
            )
            await conn.execute(
                "INSERT INTO skip_votes (game_id, seat, version, voter_user_id, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seat, version, voter_user_id, now),
            )
            row = await _row(
                conn,
                "SELECT count(*) AS n FROM skip_votes WHERE game_id = ? AND seat = ? "
                "AND version = ?",
                (game_id, seat, version),
            )
            assert row is not None
            return int(row["n"])

    # ------------------------------------------------------------------ decks
    # --------------------------------------------------------- guild settings
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """See `Repository.guild_settings`."""
        async with self._read() as conn:
            return await self._guild_settings(conn, guild_id)

    @staticmethod
    async def _guild_settings(conn: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        row = await _row(
            conn,
            "SELECT moderator_role_id, turn_deadline_s, reminder_every_s, deadline_policy, "
            "away_after, away_max_s, extensions, extension_s "
            "FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
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
        """See `Repository.save_guild_settings`."""
        for value in (settings.turn_deadline, settings.reminder_every):
            if value is not None and value.total_seconds() < 1:
                raise ValueError(f"deadlines and reminders need at least one second, got {value}")
        now = self._now()
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, moderator_role_id, turn_deadline_s, "
                "reminder_every_s, deadline_policy, away_after, away_max_s, extensions, "
                "extension_s, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) "
                "DO UPDATE SET moderator_role_id = excluded.moderator_role_id, "
                "turn_deadline_s = excluded.turn_deadline_s, "
                "reminder_every_s = excluded.reminder_every_s, "
                "deadline_policy = excluded.deadline_policy, away_after = excluded.away_after, "
                "away_max_s = excluded.away_max_s, extensions = excluded.extensions, "
                "extension_s = excluded.extension_s, updated_at = excluded.updated_at",
                (
                    settings.guild_id,
                    settings.moderator_role_id,
                    _seconds(settings.turn_deadline),
                    _seconds(settings.reminder_every),
                    settings.deadline_policy,
                    settings.away_after,
                    _seconds(settings.away_max),
                    settings.extensions,
                    _seconds(settings.extension_max),
                    now,
                ),
            )

    # ------------------------------------------ game settings and standing orders
    async def game_settings(self, game_id: int) -> GameSettings:
        """See `Repository.game_settings`."""
        async with self._read() as conn:
            return await self._game_settings(conn, game_id)

    async def deadline_settings(
        self, game_id: int, guild_id: int | None
    ) -> tuple[GameSettings, GuildSettings]:
        """See `Repository.deadline_settings`: both in one read snapshot."""
        async with self._read() as conn:
            game = await self._game_settings(conn, game_id)
            guild = (
                await self._guild_settings(conn, guild_id)
                if guild_id is not None
                else GuildSettings(0)
            )
        return game, guild

    @staticmethod
    async def _game_settings(conn: aiosqlite.Connection, game_id: int) -> GameSettings:
        row = await _row(
            conn,
            "SELECT seats_wanted, turn_deadline_s, deck_rule, deadline_policy FROM game_settings "
            "WHERE game_id = ?",
            (game_id,),
        )
        if row is None:
            return GameSettings(game_id)
        seconds = row["turn_deadline_s"]
        return GameSettings(
            game_id=game_id,
            seats_wanted=row["seats_wanted"],
            turn_deadline=None if seconds is None else timedelta(seconds=seconds),
            deck_rule=row["deck_rule"],
            deadline_policy=row["deadline_policy"],
        )

    async def save_game_settings(self, settings: GameSettings) -> None:
        """See `Repository.save_game_settings`."""
        deadline = settings.turn_deadline
        seconds = None if deadline is None else int(deadline.total_seconds())
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, settings.game_id, GameStatus, "change settings")
            await conn.execute(
                "INSERT INTO game_settings (game_id, seats_wanted, turn_deadline_s, deck_rule, "
                "deadline_policy, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) "
                "DO UPDATE SET seats_wanted = excluded.seats_wanted, "
                "turn_deadline_s = excluded.turn_deadline_s, deck_rule = excluded.deck_rule, "
                "deadline_policy = excluded.deadline_policy, updated_at = excluded.updated_at",
                (
                    settings.game_id,
                    settings.seats_wanted,
                    seconds,
                    settings.deck_rule,
                    settings.deadline_policy,
                    now,
                ),
            )

    async def standing_orders(self, game_id: int) -> dict[int, dict[str, str]]:
        """See `Repository.standing_orders`."""
        async with self._read() as conn:
            rows = await _rows(
                conn,
                "SELECT seat, kind, value FROM standing_orders WHERE game_id = ? "
                "ORDER BY seat, kind",
                (game_id,),
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
                    "DELETE FROM standing_orders WHERE game_id = ? AND seat = ? AND kind = ?",
                    (game_id, seat, kind),
                )
                return
            await conn.execute(
                "INSERT INTO standing_orders (game_id, seat, kind, value, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat, kind) DO UPDATE SET "
                "value = excluded.value, updated_at = excluded.updated_at",
                (game_id, seat, kind, value, now),
            )

    # ------------------------------------------------------------- message ids
    async def message_ref(self, scope: str, key: str) -> MessageRef | None:
        """See `Repository.message_ref`."""
        async with self._read() as conn:
            row = await _row(
                conn,
                "SELECT channel_id, message_id FROM discord_message_refs "
                "WHERE scope = ? AND key = ?",
                (scope, key),
            )
        return None if row is None else MessageRef(row["channel_id"], row["message_id"])

    async def put_message_ref(self, scope: str, key: str, ref: MessageRef) -> None:
        """See `Repository.put_message_ref` (one statement: one round trip)."""
        await self._statement(
            "INSERT INTO discord_message_refs (scope, key, channel_id, message_id, "
            "updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "updated_at = excluded.updated_at",
            (scope, key, ref.channel_id, ref.message_id, self._now()),
        )

    async def forget_message_ref(self, scope: str, key: str) -> None:
        """See `Repository.forget_message_ref` (one statement)."""
        await self._statement(
            "DELETE FROM discord_message_refs WHERE scope = ? AND key = ?", (scope, key)
        )

    # --------------------------------------------- news owed and held DMs (schema 8)
    async def undelivered_news(self, limit: int = 1000) -> list[tuple[int, int]]:
        """See `Repository.undelivered_news` (the primary key's order: no sort)."""
        if not 1 <= limit <= 100_000:
            raise ValueError(f"limit must be 1..100000, got {limit}")
        async with self._read() as conn:
            rows = await _rows(
                conn,
                "SELECT game_id, version FROM undelivered_commits ORDER BY game_id, version "
                "LIMIT ?",
                (limit,),
            )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def news_delivered(self, game_id: int, after_version: int, version: int) -> int:
        """See `Repository.news_delivered`: one DELETE; the schema-8 trigger drops the
        message ids of the same versions within it."""
        return await self._statement(
            "DELETE FROM undelivered_commits WHERE game_id = ? AND version > ? AND version <= ?",
            (game_id, after_version, version),
        )

    async def hold_direct_message(
        self, user_id: int, game_id: int, slot: str, message: str, *, notices_kept: int = 5
    ) -> None:
        """See `Repository.hold_direct_message` (one transaction)."""
        if slot not in ("hand", "decision", "digest", "notice"):
            raise ValueError(f"unknown DM slot {slot!r}")
        now = self._now()
        async with self._write() as conn:
            if slot != "notice":
                await conn.execute(
                    "DELETE FROM held_direct_messages WHERE user_id = ? AND game_id = ? "
                    "AND slot = ?",
                    (user_id, game_id, slot),
                )
            await conn.execute(
                "INSERT INTO held_direct_messages (user_id, game_id, slot, message, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (user_id, game_id, slot, message, now),
            )
            if slot == "notice":
                await conn.execute(
                    "DELETE FROM held_direct_messages WHERE user_id = ? AND slot = 'notice' "
                    "AND id NOT IN (SELECT id FROM held_direct_messages WHERE user_id = ? "
                    "AND slot = 'notice' ORDER BY id DESC LIMIT ?)",
                    (user_id, user_id, max(0, notices_kept)),
                )

    async def held_messages(self, user_id: int) -> list[HeldMessage]:
        """See `Repository.held_messages`."""
        async with self._read() as conn:
            rows = await _rows(
                conn,
                f"SELECT {_HELD_COLUMNS} FROM held_direct_messages WHERE user_id = ? ORDER BY id",
                (user_id,),
            )
        return [_held(row) for row in rows]

    async def take_held_messages(self, user_id: int) -> list[HeldMessage]:
        """See `Repository.take_held_messages` (one ``DELETE ... RETURNING``)."""
        async with self._write() as conn:
            rows = await _rows(
                conn,
                f"DELETE FROM held_direct_messages WHERE user_id = ? RETURNING {_HELD_COLUMNS}",
                (user_id,),
            )
        return sorted((_held(row) for row in rows), key=lambda h: h.id)

    async def drop_held_message(self, user_id: int, game_id: int, slot: str) -> None:
        """See `Repository.drop_held_message` (one statement)."""
        await self._statement(
            "DELETE FROM held_direct_messages WHERE user_id = ? AND game_id = ? AND slot = ?",
            (user_id, game_id, slot),
        )

    async def users_with_held_messages(self) -> set[int]:
        """See `Repository.users_with_held_messages`."""
        async with self._read() as conn:
            rows = await _rows(conn, "SELECT DISTINCT user_id FROM held_direct_messages")
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
                "agreed, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO "
                "UPDATE SET version = excluded.version, seat = excluded.seat, "
                "user_id = excluded.user_id, from_seq = excluded.from_seq, "
                "needed = excluded.needed, agreed = excluded.agreed, "
                "created_at = excluded.created_at",
                (
                    request.game_id,
                    request.version,
                    request.seat,
                    request.user_id,
                    request.from_seq,
                    json.dumps(sorted(request.needed)),
                    json.dumps(sorted(request.agreed)),
                    _to_ms(request.created_at),
                ),
            )

    @staticmethod
    def _undo_request(row: sqlite3.Row) -> UndoRequest:
        return UndoRequest(
            game_id=row["game_id"],
            version=row["version"],
            seat=row["seat"],
            user_id=row["user_id"],
            from_seq=row["from_seq"],
            needed=tuple(json.loads(row["needed"])),
            agreed=tuple(json.loads(row["agreed"])),
            created_at=_from_ms(row["created_at"]),
        )

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        """See `Repository.undo_request`."""
        async with self._read() as conn:
            row = await _row(conn, "SELECT * FROM undo_requests WHERE game_id = ?", (game_id,))
        return None if row is None else self._undo_request(row)

    async def agree_to_undo(self, game_id: int, *, version: int, seat: int) -> UndoRequest:
        """See `Repository.agree_to_undo`."""
        async with self._write() as conn:
            row = await _row(
                conn,
                "SELECT * FROM undo_requests WHERE game_id = ? AND version = ?",
                (game_id, version),
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
                "UPDATE undo_requests SET agreed = ? WHERE game_id = ? AND version = ?",
                (json.dumps(list(agreed)), game_id, version),
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
        """See `Repository.drop_undo_request`."""
        async with self._write() as conn:
            cursor = await conn.execute(
                "DELETE FROM undo_requests WHERE game_id = ? AND (? IS NULL OR version = ?)",
                (game_id, version, version),
            )
            return (cursor.rowcount or 0) > 0

    # ------------------------------------------------ notices and digests (/me)
    async def notify_settings(self, user_ids: Sequence[int]) -> dict[int, NotifySettings]:
        """See `Repository.notify_settings`."""
        wanted = sorted(set(user_ids))
        found = {uid: NotifySettings(uid) for uid in wanted}
        if not wanted:
            return found
        async with self._read() as conn:
            rows = await _rows(
                conn,
                "SELECT user_id, ping, time_zone, quiet_start, quiet_end FROM notify_settings "
                f"WHERE user_id IN ({_placeholders(len(wanted))})",
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
        """See `Repository.save_notify_settings`."""
        now = self._now()
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO notify_settings (user_id, ping, time_zone, quiet_start, quiet_end, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "ping = excluded.ping, time_zone = excluded.time_zone, "
                "quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, "
                "updated_at = excluded.updated_at",
                (
                    settings.user_id,
                    settings.ping.value,
                    settings.time_zone,
                    settings.quiet_start,
                    settings.quiet_end,
                    now,
                ),
            )

    async def last_own_command(self, game_id: int, seat: int, user_id: int) -> int:
        """See `Repository.last_own_command`."""
        async with self._read() as conn:
            row = await _row(
                conn,
                "SELECT coalesce(max(seq), 0) AS seq FROM game_log WHERE game_id = ? "
                "AND kind = 'command' AND seat = ? AND actor_user_id = ? AND reason IS NULL",
                (game_id, seat, user_id),
            )
        return int(row["seq"]) if row is not None else 0

    async def digest_mark(self, game_id: int, seat: int) -> DigestMark | None:
        """See `Repository.digest_mark`."""
        async with self._read() as conn:
            row = await _row(
                conn,
                "SELECT user_id, since_seq FROM seat_digests WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )
        return None if row is None else DigestMark(row["user_id"], row["since_seq"])

    async def set_digest_mark(self, game_id: int, seat: int, mark: DigestMark) -> None:
        """See `Repository.set_digest_mark`."""
        now = self._now()
        async with self._write() as conn:
            cursor = await conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,))
            if await cursor.fetchone() is None:
                raise GameNotFound(f"There is no game #{game_id}.")
            await conn.execute(
                "INSERT INTO seat_digests (game_id, seat, user_id, since_seq, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "user_id = excluded.user_id, since_seq = excluded.since_seq, "
                "updated_at = excluded.updated_at",
                (game_id, seat, mark.user_id, mark.since_seq, now),
            )

    async def save_campaign_heroes(
        self, channel_id: int, game_id: int, heroes: Sequence[tuple[int, Mapping[str, Any]]]
    ) -> None:
        """See `Repository.save_campaign_heroes`."""
        now = self._now()
        async with self._write() as conn:
            cursor = await conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,))
            if await cursor.fetchone() is None:
                raise GameNotFound(f"There is no game #{game_id}.")
            await conn.execute("DELETE FROM campaign_heroes WHERE channel_id = ?", (channel_id,))
            await conn.executemany(
                "INSERT INTO campaign_heroes (channel_id, position, user_id, game_id, hero, "
                "saved_at) VALUES (?, ?, ?, ?, ?, ?)",
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
        async with self._read() as conn:
            cursor = await conn.execute(
                "SELECT user_id, game_id, hero, saved_at FROM campaign_heroes "
                "WHERE channel_id = ? ORDER BY position",
                (channel_id,),
            )
            rows = await cursor.fetchall()
        return [
            CampaignHero(
                channel_id=channel_id,
                user_id=row[0],
                game_id=row[1],
                hero=json.loads(row[2]),
                saved_at=_from_ms(row[3]),
            )
            for row in rows
        ]

    async def command_tree_hash(self, scope: str) -> str | None:
        """See `Repository.command_tree_hash`."""
        async with self._read() as conn:
            cursor = await conn.execute(
                "SELECT tree_hash FROM command_syncs WHERE scope = ?", (scope,)
            )
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def save_command_tree_hash(self, scope: str, tree_hash: str) -> None:
        """See `Repository.save_command_tree_hash`."""
        now = self._now()
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO command_syncs (scope, tree_hash, synced_at) VALUES (?, ?, ?) "
                "ON CONFLICT (scope) DO UPDATE SET tree_hash = excluded.tree_hash, "
                "synced_at = excluded.synced_at",
                (scope, tree_hash, now),
            )
