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
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, NoReturn

import aiosqlite

from storage.errors import (
    DatabaseBusy,
    DatabaseFull,
    DatabaseNotWritable,
    DatabaseReadOnly,
    DatabaseUnusable,
    StorageError,
    WrongGameStatus,
)
from storage.migrate import APPLICATION_ID, Migration, load_migrations, migrate, schema_version
from storage.records import GameStatus
from storage.rows import Row, stale, to_json, to_ms
from storage.sql import COMMIT_REFUSALS, PendingCommit, SqlRepository

log = logging.getLogger(__name__)

Synchronous = Literal["FULL", "NORMAL"]


_COMMIT_SQL = (
    "INSERT INTO commit_requests (game_id, expected_version, version, state, status, result, "
    "ended_at, seat, actor_user_id, command, reason, events, replace_deadlines, deadlines, "
    "now, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
    "(SELECT coalesce(max(seq), 0) + 1 FROM game_log WHERE game_id = ?)) RETURNING seq"
)
"""A whole commit in one statement (schema 5): the view's trigger checks and writes it all."""

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

    _OPEN_GAMES = "games g INDEXED BY games_one_open_per_channel"
    _UNIQUE_VIOLATION = (sqlite3.IntegrityError,)

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

    async def _statement(self, sql: str, *args: Any) -> int:
        """See `SqlRepository._statement`: autocommit on the writer (a statement is its own
        transaction, atomic without ``BEGIN`` ... ``COMMIT``) under the writer's lock: one
        round trip instead of three. Cancellation-safe as `commit` is.

        :returns: the number of rows it changed.
        """
        async with self._write_lock:
            conn = self._writer
            try:
                cursor = await conn.execute(sql, args)
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
        return to_ms(self._clock())

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

    # ---------------------------------------------------------------- commits
    async def _commit_move(self, move: PendingCommit) -> int:
        """See `SqlRepository._commit_move`: one ``INSERT`` into ``commit_requests``
        (`_COMMIT_SQL`, see the module docstring), the deadlines as one JSON array: one
        round trip to the writer's thread, atomic on its own."""
        params = (
            *move.leading(),
            int(move.replace_deadlines),
            to_json([[d.seat, d.kind, to_ms(d.due_at)] for d in move.deadlines])
            if move.deadlines
            else None,
            move.now,
            move.game_id,
        )
        async with self._write_lock:
            conn = self._writer
            try:
                inserted = await _rows(conn, _COMMIT_SQL, params)
            except asyncio.CancelledError:
                await _settle(conn)  # the statement runs anyway: let it land or fail first
                raise
            except sqlite3.IntegrityError as error:
                if str(error) not in COMMIT_REFUSALS:
                    raise
                await self._explain_refusal(conn, move.game_id, move.expected_version, str(error))
            except sqlite3.Error as error:
                translated = _translate(error, self.path)
                if translated is not error:
                    raise translated from error
                raise
        return int(inserted[0][0])

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
            raise stale(expected_version, game.version)
        raise WrongGameStatus(
            f"Cannot make a move: game #{game_id} was paused or ended a moment ago; try again.",
            game.status.value,
        )
