"""The backend-neutral part of the SQL repositories (issue 18): one place for the logic
SQLite (`storage.sqlite`) and PostgreSQL (`storage.postgres`) share.

`SqlRepository` holds the checks, the SQL text and the row-to-record conversions of every
method whose statements both dialects run alike. Their SQL is written with ``?`` marks; a
backend runs it through its statement primitives (`SqlRepository._query`, `_query_one`,
`_run`, `_run_many` inside a transaction; `_select`, `_statement`, `_returning` as a
statement of its own), and PostgreSQL turns the marks into ``$1``, ``$2`` ... with
`numbered`. Where the dialects really differ the backend says how, in a small hook: the
row lock (`_LOCK_ROW`), the index SQLite must be told to use (`_OPEN_GAMES`), a list
parameter (`_any`), a transaction-level lock on a name (`_xact_lock`), the unique-violation
error (`_UNIQUE_VIOLATION`). What stays in the backends is what is theirs alone: opening and
migrating, the transactions, the one-statement `commit` (an SQLite view's trigger, a
PostgreSQL function), `leader_lock` and the translation of errors.

Atomicity is each backend's: `SqlRepository._write` is one transaction (SQLite: ``BEGIN
IMMEDIATE`` on the one writer; PostgreSQL: a READ COMMITTED transaction on a pool
connection) and `_require_game` / `_lock_game` check the game inside it (PostgreSQL: with
the game's row locked, ``FOR NO KEY UPDATE``, the lock every other write of a game takes
first, so writers of one game run one after another, in one process or several).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import secrets
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from engine.core.model import Command, Event, GameState, Result
from engine.core.ruleset import Ruleset
from storage.errors import (
    AlreadySeated,
    ChannelBusy,
    DeckNotFound,
    ExtensionRefused,
    GameNotFound,
    LobbyFull,
    NothingToUndo,
    SeatNotFound,
)
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
    SavedDeck,
    Seat,
    UndoRequest,
    UserSeat,
)
from storage.repository import DEFAULT_PAGE, Repository
from storage.rows import (
    DECK_COLUMNS,
    GAME_COLUMNS,
    HELD_COLUMNS,
    IN_EFFECT,
    INT64,
    LOG_COLUMNS,
    PRESENCE_COLUMNS,
    SEAT_COLUMNS,
    SEAT_FIELDS,
    Row,
    channel_busy,
    deadline_row,
    deck,
    dump_events,
    from_ms,
    game,
    held,
    log_entry,
    placeholders,
    seat_row,
    seconds,
    stale,
    status_error,
    summary,
    to_json,
    to_ms,
)

ConnT = TypeVar("ConnT")
"""A backend's connection type (``aiosqlite.Connection``, ``asyncpg.Connection``)."""

_MARK = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` marks numbered ``$1``, ``$2`` ... in order (PostgreSQL's
    placeholders). The shared SQL holds no ``?`` other than marks (no string literal or
    operator with one).

    >>> numbered("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?")
    'UPDATE seats SET seat = $1 WHERE game_id = $2 AND seat = $3'
    """
    counter = iter(range(1, sql.count("?") + 1))
    return _MARK.sub(lambda _: f"${next(counter)}", sql)


COMMIT_REFUSALS = frozenset(
    {
        "commit refused: no such game",
        "commit refused: the game is not active",
        "commit refused: stale version",
    }
)
"""The messages with which a backend's commit statement refuses a commit that a caller's
outdated view explains (schema 5's trigger and function); the others mean a wrong request
and are raised as they are."""


@dataclasses.dataclass(frozen=True, slots=True)
class PendingCommit:
    """One move, serialised for the backend's one commit statement (`SqlRepository.commit`,
    `_commit_move`): everything the server is sent, so a value it cannot take fails before
    anything is written.

    Attributes:
        game_id: the game.
        expected_version: the version the caller read (the statement's guard).
        version: the new version (``expected_version + 1``).
        state: the new snapshot's JSON text.
        status: ``active``, or ``finished`` when the move ends the game.
        result: the result's JSON text when the game ends, else None.
        ended_at: when it ends (Unix ms), else None.
        seat: the seat whose command it is.
        actor_user_id: who sent it (None: the computer or the bot).
        command: the command's JSON text.
        reason: why the bot sent it for the seat (a deadline, a standing order), else None.
        events: the events' JSON array text.
        replace_deadlines: whether the game's deadlines are replaced (ended, or new ones given).
        deadlines: the deadlines set in their place (none when the game ends).
        now: the commit's time (Unix ms).
    """

    game_id: int
    expected_version: int
    version: int
    state: str
    status: str
    result: str | None
    ended_at: int | None
    seat: int
    actor_user_id: int | None
    command: str
    reason: str | None
    events: str
    replace_deadlines: bool
    deadlines: tuple[DeadlineSpec, ...]
    now: int

    def leading(self) -> tuple[Any, ...]:
        """The values both backends' statements take first, in their order: the game and
        the versions, state, status, result, end time, seat, actor, command, reason and
        events (the deadlines and the time follow in each backend's own form)."""
        return (
            self.game_id,
            self.expected_version,
            self.version,
            self.state,
            self.status,
            self.result,
            self.ended_at,
            self.seat,
            self.actor_user_id,
            self.command,
            self.reason,
            self.events,
        )


class SqlRepository(Repository, Generic[ConnT]):
    """`Repository` logic shared by the SQL backends; a backend supplies the transactions
    (`_write`, `_read`), the four statement primitives, the clock (`_now`) and
    `_LOCK_ROW`, and implements the methods whose SQL is its own."""

    _LOCK_ROW: ClassVar[str] = ""
    """What `_require_game` adds to its ``SELECT`` to lock the game's row for the
    transaction (PostgreSQL ``FOR NO KEY UPDATE``; SQLite's one writer needs none)."""

    _OPEN_GAMES: ClassVar[str] = "games g"
    """The open games (lobby, active, paused) as a ``FROM`` item: SQLite names the partial
    index of them (``INDEXED BY games_one_open_per_channel``, schema 1) so a query never
    scans the archive; PostgreSQL's planner picks it by itself. A query over it repeats the
    index's condition, ``g.status IN ('lobby', 'active', 'paused')``."""

    _UNIQUE_VIOLATION: ClassVar[tuple[type[Exception], ...]] = ()
    """What the driver raises when a write breaks a unique index (``games``' one open game
    per channel): ``sqlite3.IntegrityError``, ``asyncpg.UniqueViolationError``."""

    # -------------------------------------------------------- backend primitives
    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[ConnT]:
        """One write transaction: committed when the block ends, rolled back on any error."""

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[ConnT]:
        """One read-only transaction: the block's reads see one snapshot."""

    @abstractmethod
    async def _query(self, conn: ConnT, sql: str, *args: Any) -> list[Row]:
        """Every row of ``sql`` (``?`` marks) run with ``args`` on ``conn``."""

    @abstractmethod
    async def _run(self, conn: ConnT, sql: str, *args: Any) -> int:
        """Run one writing statement (``?`` marks) on ``conn``; the rows it changed."""

    @abstractmethod
    async def _run_many(self, conn: ConnT, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run ``sql`` (``?`` marks) once per row of arguments, in order, on ``conn``."""

    @abstractmethod
    def _now(self) -> int:
        """The repository clock's time in Unix milliseconds."""

    async def _query_one(self, conn: ConnT, sql: str, *args: Any) -> Row | None:
        """The first row of ``sql`` or None."""
        rows = await self._query(conn, sql, *args)
        return rows[0] if rows else None

    @abstractmethod
    async def _statement(self, sql: str, *args: Any) -> int:
        """Run one writing statement (``?`` marks) as its own transaction (atomic without
        ``BEGIN`` ... ``COMMIT``: one round trip); the rows it changed."""

    async def _select(self, sql: str, *args: Any) -> list[Row]:
        """Every row of one read statement (``?`` marks) run on its own: one snapshot
        (here a read transaction; PostgreSQL runs it on the pool alone)."""
        async with self._read() as conn:
            return await self._query(conn, sql, *args)

    async def _select_one(self, sql: str, *args: Any) -> Row | None:
        """The first row of `_select` or None."""
        rows = await self._select(sql, *args)
        return rows[0] if rows else None

    async def _returning(self, sql: str, *args: Any) -> list[Row]:
        """The rows of one writing statement with ``RETURNING`` (``?`` marks), atomic on its
        own (here a write transaction; PostgreSQL runs it on the pool alone)."""
        async with self._write() as conn:
            return await self._query(conn, sql, *args)

    def _any(self, column: str, values: Sequence[Any], sql_type: str) -> tuple[str, list[Any]]:
        """A condition that ``column`` is one of ``values`` and its arguments: ``column IN
        (?, ?, ...)`` here; PostgreSQL passes one array, ``column = ANY(CAST(? AS
        sql_type[]))``, so the statement's text is the same however many values there are.

        :param sql_type: the values' SQL type (``TEXT``, ``BIGINT``).
        """
        return f"{column} IN ({placeholders(len(values))})", list(values)

    async def _xact_lock(self, conn: ConnT, name: str) -> None:
        """Hold a lock on ``name`` (e.g. ``/held/<user id>``) until the transaction ends, so
        two writers of the same thing that is not a game row run one after another. SQLite's
        one writer already does: nothing to do (PostgreSQL: a transaction-level advisory
        lock keyed by the schema and ``name``)."""

    # ------------------------------------------------------------ shared checks
    async def _require_game(
        self,
        conn: ConnT,
        game_id: int,
        allowed: Iterable[GameStatus],
        doing: str,
        expected_version: int | None = None,
    ) -> GameSummary:
        """Load the game (without its snapshot) in the current transaction, its row locked
        where the backend locks rows (`_LOCK_ROW`), and check it.

        :raises GameNotFound | WrongGameStatus | StaleState:
        """
        row = await self._query_one(
            conn, f"SELECT {GAME_COLUMNS} FROM games g WHERE g.id = ?{self._LOCK_ROW}", game_id
        )
        if row is None:
            raise GameNotFound(f"There is no game #{game_id}.")
        found = summary(row)
        if found.status not in frozenset(allowed):
            raise status_error(game_id, found.status, doing)
        if expected_version is not None and found.version != expected_version:
            raise stale(expected_version, found.version)
        return found

    async def _load_game(self, conn: ConnT, game_id: int) -> Game:
        """The game with its snapshot, read in the current transaction.

        :raises GameNotFound:
        """
        row = await self._query_one(
            conn, f"SELECT {GAME_COLUMNS}, g.state FROM games g WHERE g.id = ?", game_id
        )
        if row is None:
            raise GameNotFound(f"There is no game #{game_id}.")
        return game(row)

    async def _lock_game(self, conn: ConnT, game_id: int) -> bool:
        """Lock the game's row for the transaction where the backend locks rows (see
        `_require_game`); False when there is no such game."""
        found = await self._query_one(
            conn, f"SELECT 1 FROM games WHERE id = ?{self._LOCK_ROW}", game_id
        )
        return found is not None

    async def _append(
        self,
        conn: ConnT,
        game_id: int,
        *,
        kind: LogKind,
        version_after: int,
        now: int,
        action: ModeratorAction | None = None,
        actor_user_id: int | None = None,
        seat: int | None = None,
        command_json: str | None = None,
        reason: str | None = None,
        details: Mapping[str, Any] | None = None,
        events: Sequence[Event] = (),
        undoes: int | None = None,
    ) -> LogEntry:
        """Append one log entry at the next seq inside the current transaction (whose
        writer holds the game: SQLite's one writer, PostgreSQL's row lock).

        One statement computes the next seq, inserts and returns it (a round trip saved).
        """
        inserted = await self._query(
            conn,
            "INSERT INTO game_log (game_id, seq, kind, action, actor_user_id, seat, command, "
            "reason, details, events, undoes, version_after, created_at) "
            "SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
            "FROM game_log WHERE game_id = ? RETURNING seq",
            game_id,
            kind.value,
            None if action is None else action.value,
            actor_user_id,
            seat,
            command_json,
            reason,
            to_json(dict(details or {})),
            dump_events(events),
            undoes,
            version_after,
            now,
            game_id,
        )
        return LogEntry(
            game_id=game_id,
            seq=int(inserted[0][0]),
            kind=kind,
            action=action,
            actor_user_id=actor_user_id,
            seat=seat,
            command_json=command_json,
            reason=reason,
            details=dict(details or {}),
            events=tuple(events),
            undoes=undoes,
            undone_by=None,
            version_after=version_after,
            created_at=from_ms(now),
        )

    async def _write_deadlines(
        self, conn: ConnT, game_id: int, deadlines: Sequence[DeadlineSpec], now: int
    ) -> None:
        """Set ``deadlines`` (replacing the same seat's and kind's) in the transaction."""
        if not deadlines:
            return
        await self._run_many(
            conn,
            "INSERT INTO deadlines (game_id, seat, kind, due_at, created_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat, kind) DO UPDATE SET "
            "due_at = excluded.due_at, created_at = excluded.created_at",
            [(game_id, d.seat, d.kind, to_ms(d.due_at), now) for d in deadlines],
        )

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
        """See `Repository.create_game` (one transaction: the check of the channel, then
        the ``INSERT``, which the one-open-game-per-channel index guards across processes)."""
        chosen_seed = secrets.randbits(63) if seed is None else seed
        if chosen_seed not in INT64:
            raise ValueError(f"seed must fit a signed 64-bit integer, got {chosen_seed}")
        options_json, now = to_json(dict(options or {})), self._now()
        async with self._write() as conn:
            busy = await self._query_one(
                conn,
                "SELECT id, ruleset, status FROM games WHERE channel_id = ? "
                "AND status IN ('lobby', 'active', 'paused')",
                channel_id,
            )
            if busy is not None:
                raise channel_busy(busy["id"], busy["ruleset"], busy["status"])
            try:
                row = await self._query_one(
                    conn,
                    "INSERT INTO games (channel_id, guild_id, ruleset, options, seed, "
                    "host_user_id, status, version, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?) "
                    f"RETURNING {GAME_COLUMNS.replace('g.', '')}, state",
                    channel_id,
                    guild_id,
                    ruleset,
                    options_json,
                    chosen_seed,
                    host_user_id,
                    now,
                    now,
                )
            except self._UNIQUE_VIOLATION as error:  # an open game created by another process
                raise ChannelBusy("This channel already has an open game.") from error
            assert row is not None
            return game(row)

    async def get_game(self, game_id: int) -> Game:
        """See `Repository.get_game`."""
        row = await self._select_one(
            f"SELECT {GAME_COLUMNS}, g.state FROM games g WHERE g.id = ?", game_id
        )
        if row is None:
            raise GameNotFound(f"There is no game #{game_id}.")
        return game(row)

    async def game_with_seats(self, game_id: int) -> tuple[Game, list[Seat]]:
        """See `Repository.game_with_seats`: both in one read snapshot."""
        async with self._read() as conn:
            found = await self._load_game(conn, game_id)
            rows = await self._query(
                conn,
                f"SELECT {PRESENCE_COLUMNS} FROM seats s WHERE s.game_id = ? ORDER BY s.seat",
                game_id,
            )
        return found, [seat_row(row, presence=True) for row in rows]

    async def game_in_channel(self, channel_id: int) -> Game | None:
        """See `Repository.game_in_channel`."""
        row = await self._select_one(
            f"SELECT {GAME_COLUMNS}, g.state FROM games g WHERE g.channel_id = ? "
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
            condition, values = self._any("g.status", sorted(s.value for s in statuses), "TEXT")
            where.append(condition)
            params.extend(values)
        rows = await self._select(
            f"SELECT {GAME_COLUMNS} FROM games g WHERE {' AND '.join(where)} "
            "ORDER BY g.id DESC LIMIT ?",
            *params,
            limit,
        )
        return [summary(row) for row in rows]

    async def count_active_games(self) -> int:
        """See `Repository.count_active_games` (over the open games, `_OPEN_GAMES`)."""
        row = await self._select_one(
            f"SELECT count(*) FROM {self._OPEN_GAMES} "
            "WHERE g.status IN ('lobby', 'active', 'paused') AND g.status = 'active'"
        )
        return int(row[0]) if row is not None else 0

    async def games_to_resume(self) -> list[int]:
        """See `Repository.games_to_resume` (over the open games, `_OPEN_GAMES`)."""
        rows = await self._select(
            f"SELECT g.id FROM {self._OPEN_GAMES} "
            "WHERE g.status IN ('lobby', 'active', 'paused') AND g.status = 'active' AND ("
            "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.is_ai) OR "
            "EXISTS (SELECT 1 FROM standing_orders o WHERE o.game_id = g.id) OR "
            "EXISTS (SELECT 1 FROM seat_presence p WHERE p.game_id = g.id "
            "AND (p.missed > 0 OR p.away_until IS NOT NULL)))"
        )
        return sorted(int(row[0]) for row in rows)

    async def games_for_user(
        self, user_id: int, *, statuses: frozenset[GameStatus] = OPEN_STATUSES
    ) -> list[UserSeat]:
        """See `Repository.games_for_user`."""
        condition, values = self._any("g.status", sorted(s.value for s in statuses), "TEXT")
        rows = await self._select(
            f"SELECT {GAME_COLUMNS}, {PRESENCE_COLUMNS} FROM seats s JOIN games g "
            f"ON g.id = s.game_id WHERE s.user_id = ? AND {condition} "
            "ORDER BY g.updated_at DESC, g.id DESC",
            user_id,
            *values,
        )
        return [UserSeat(summary(row), seat_row(row, presence=True)) for row in rows]

    # ------------------------------------------------------------------ lobby
    async def seats(self, game_id: int) -> list[Seat]:
        """See `Repository.seats`."""
        rows = await self._select(
            f"SELECT {PRESENCE_COLUMNS} FROM seats s WHERE s.game_id = ? ORDER BY s.seat",
            game_id,
        )
        return [seat_row(row, presence=True) for row in rows]

    async def set_dm_reachable(self, user_id: int, reachable: bool) -> int:
        """See `Repository.set_dm_reachable` (one statement)."""
        return await self._statement(
            "UPDATE seats SET dm_reachable = ? WHERE user_id = ? AND game_id IN "
            "(SELECT id FROM games WHERE status IN ('lobby', 'active', 'paused'))",
            reachable,
            user_id,
        )

    async def update_options(self, game_id: int, options: Mapping[str, Any]) -> Game:
        """See `Repository.update_options`."""
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, game_id, {GameStatus.LOBBY}, "change the options")
            await self._run(
                conn,
                "UPDATE games SET options = ?, updated_at = ? WHERE id = ?",
                to_json(dict(options)),
                now,
                game_id,
            )
            return await self._load_game(conn, game_id)

    async def _free_seat(self, conn: ConnT, game_id: int, max_seats: int | None) -> int:
        """The lowest seat number free in the lobby.

        :raises LobbyFull: ``max_seats`` seats are taken.
        """
        taken = [
            r[0]
            for r in await self._query(conn, "SELECT seat FROM seats WHERE game_id = ?", game_id)
        ]
        if max_seats is not None and len(taken) >= max_seats:
            raise LobbyFull(f"Game #{game_id} is full ({max_seats} seats).")
        return min(set(range(len(taken) + 1)) - set(taken))

    async def _check_deck(self, conn: ConnT, deck_id: int, user_id: int | None) -> None:
        """:raises DeckNotFound: ``user_id`` has no saved deck ``deck_id``."""
        row = await self._query_one(conn, "SELECT user_id FROM decks WHERE id = ?", deck_id)
        if row is None or row[0] != user_id:
            raise DeckNotFound(f"You have no saved deck #{deck_id}.")

    async def _insert_seat(
        self,
        conn: ConnT,
        game_id: int,
        seat: int,
        *,
        user_id: int | None,
        display_name: str,
        ready_deck: str | None,
        saved_deck_id: int | None,
        ai_level: str | None = None,
    ) -> Seat:
        """Insert a seat (a computer seat when ``user_id`` is None) and return it."""
        # The level only when there is one: a lobby written before schema 11 (no column)
        # still takes people's seats and computer seats of no level.
        level_column, level_mark = (", ai_level", ", ?") if ai_level is not None else ("", "")
        row = await self._query_one(
            conn,
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, dm_reachable, "
            f"ready_deck, saved_deck_id, joined_at{level_column}) "
            f"VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?{level_mark}) RETURNING {SEAT_FIELDS}",
            game_id,
            seat,
            user_id,
            display_name,
            user_id is None,
            ready_deck,
            saved_deck_id,
            self._now(),
            *(() if ai_level is None else (ai_level,)),
        )
        assert row is not None
        return seat_row(row)

    async def join_game(
        self,
        game_id: int,
        *,
        user_id: int,
        display_name: str,
        ready_deck: str | None = None,
        saved_deck_id: int | None = None,
        max_seats: int | None = None,
    ) -> Seat:
        """See `Repository.join_game`."""
        if ready_deck is not None and saved_deck_id is not None:
            raise ValueError("choose a ready-made deck or a saved deck, not both")
        async with self._write() as conn:
            await self._require_game(conn, game_id, {GameStatus.LOBBY}, "join")
            if await self._query_one(
                conn, "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ?", game_id, user_id
            ):
                raise AlreadySeated(f"You already have a seat in game #{game_id}.")
            if saved_deck_id is not None:
                await self._check_deck(conn, saved_deck_id, user_id)
            number = await self._free_seat(conn, game_id, max_seats)
            return await self._insert_seat(
                conn,
                game_id,
                number,
                user_id=user_id,
                display_name=display_name,
                ready_deck=ready_deck,
                saved_deck_id=saved_deck_id,
            )

    async def add_ai_seat(
        self,
        game_id: int,
        *,
        display_name: str,
        ready_deck: str | None = None,
        max_seats: int | None = None,
        ai_level: str | None = None,
    ) -> Seat:
        """See `Repository.add_ai_seat`."""
        async with self._write() as conn:
            await self._require_game(conn, game_id, {GameStatus.LOBBY}, "add a computer seat")
            number = await self._free_seat(conn, game_id, max_seats)
            return await self._insert_seat(
                conn,
                game_id,
                number,
                user_id=None,
                display_name=display_name,
                ready_deck=ready_deck,
                saved_deck_id=None,
                ai_level=ai_level,
            )

    async def leave_game(self, game_id: int, user_id: int) -> None:
        """See `Repository.leave_game`."""
        async with self._write() as conn:
            await self._require_game(conn, game_id, {GameStatus.LOBBY}, "leave")
            removed = await self._run(
                conn, "DELETE FROM seats WHERE game_id = ? AND user_id = ?", game_id, user_id
            )
            if removed == 0:
                raise SeatNotFound(f"You have no seat in game #{game_id}.")

    async def choose_deck(
        self,
        game_id: int,
        seat: int,
        *,
        ready_deck: str | None = None,
        saved_deck_id: int | None = None,
    ) -> Seat:
        """See `Repository.choose_deck`."""
        if ready_deck is not None and saved_deck_id is not None:
            raise ValueError("choose a ready-made deck or a saved deck, not both")
        async with self._write() as conn:
            await self._require_game(conn, game_id, {GameStatus.LOBBY}, "change decks")
            owner = await self._query_one(
                conn, "SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", game_id, seat
            )
            if owner is None:
                raise SeatNotFound(f"Game #{game_id} has no seat {seat}.")
            if saved_deck_id is not None:
                await self._check_deck(conn, saved_deck_id, owner["user_id"])
            row = await self._query_one(
                conn,
                "UPDATE seats SET ready_deck = ?, saved_deck_id = ? "
                f"WHERE game_id = ? AND seat = ? RETURNING {SEAT_FIELDS}",
                ready_deck,
                saved_deck_id,
                game_id,
                seat,
            )
            assert row is not None
            return seat_row(row)

    async def start_game(
        self,
        game_id: int,
        *,
        state: GameState,
        events: Sequence[Event],
        options: BaseModel | Mapping[str, Any],
        actor_user_id: int | None,
    ) -> Game:
        """See `Repository.start_game`."""
        if state.version != 0:
            raise ValueError(f"a new game's state must be at version 0, got {state.version}")
        options_data = (
            options.model_dump(mode="json") if isinstance(options, BaseModel) else dict(options)
        )
        state_json, now = Ruleset.dump_state(state), self._now()
        async with self._write() as conn:
            found = await self._require_game(conn, game_id, {GameStatus.LOBBY}, "start it")
            if state.seed != found.seed:
                raise ValueError(
                    f"the state's seed {state.seed} is not game #{game_id}'s seed {found.seed}"
                )
            seats = [
                seat_row(r)
                for r in await self._query(
                    conn,
                    f"SELECT {SEAT_COLUMNS} FROM seats s WHERE s.game_id = ? ORDER BY s.seat",
                    game_id,
                )
            ]
            if len(seats) != state.players:
                raise ValueError(
                    f"the state has {state.players} players but game #{game_id} has {len(seats)} seats"
                )
            await self._renumber_seats(conn, seats)
            await self._run(
                conn,
                "UPDATE games SET status = 'active', options = ?, players = ?, state = ?, "
                "version = 0, updated_at = ? WHERE id = ?",
                to_json(options_data),
                state.players,
                state_json,
                now,
                game_id,
            )
            await self._append(
                conn,
                game_id,
                kind=LogKind.SETUP,
                version_after=0,
                now=now,
                actor_user_id=actor_user_id,
                events=events,
            )
            return await self._load_game(conn, game_id)

    async def _renumber_seats(self, conn: ConnT, seats: Sequence[Seat]) -> None:
        """Number ``seats`` (in their order, which is seat order) 0..n-1 if they have gaps:
        each row moves down in place, lowest first, so every target number is free and
        every column (the computer level of schema 11 too) stays as it was."""
        moves = [(n, s.game_id, s.seat) for n, s in enumerate(seats) if s.seat != n]
        if moves:
            await self._run_many(
                conn, "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", moves
            )

    # ------------------------------------------------------------------ decks
    async def save_deck(
        self, user_id: int, *, ruleset: str, name: str, cards: Sequence[str]
    ) -> SavedDeck:
        """See `Repository.save_deck` (one statement)."""
        now = self._now()
        async with self._write() as conn:
            row = await self._query_one(
                conn,
                "INSERT INTO decks (user_id, ruleset, name, cards, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, ruleset, name) "
                "DO UPDATE SET cards = excluded.cards, updated_at = excluded.updated_at "
                f"RETURNING {DECK_COLUMNS}",
                user_id,
                ruleset,
                name,
                to_json(list(cards)),
                now,
                now,
            )
        assert row is not None
        return deck(row)

    async def list_decks(self, user_id: int, *, ruleset: str | None = None) -> list[SavedDeck]:
        """See `Repository.list_decks`."""
        async with self._read() as conn:
            rows = await self._query(
                conn,
                f"SELECT {DECK_COLUMNS} FROM decks WHERE user_id = ? "
                "AND (CAST(? AS TEXT) IS NULL OR ruleset = ?) ORDER BY ruleset, name",
                user_id,
                ruleset,
                ruleset,
            )
        return [deck(row) for row in rows]

    async def get_deck(self, deck_id: int) -> SavedDeck:
        """See `Repository.get_deck`."""
        async with self._read() as conn:
            row = await self._query_one(
                conn, f"SELECT {DECK_COLUMNS} FROM decks WHERE id = ?", deck_id
            )
        if row is None:
            raise DeckNotFound(f"There is no saved deck #{deck_id}.")
        return deck(row)

    async def delete_deck(self, deck_id: int, *, user_id: int) -> bool:
        """See `Repository.delete_deck` (the seats' choice goes with it)."""
        async with self._write() as conn:
            removed = await self._run(
                conn, "DELETE FROM decks WHERE id = ? AND user_id = ?", deck_id, user_id
            )
        return removed == 1

    # ---------------------------------------------------------------- commits
    @abstractmethod
    async def _commit_move(self, move: PendingCommit) -> int:
        """Run the whole commit as the backend's one statement (atomic on its own, guarded
        by ``move.expected_version`` in SQL); the new log entry's seq.

        :raises GameNotFound | WrongGameStatus | StaleState: refused; nothing was written.
        """

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
        """See `Repository.commit`: one statement (`_commit_move`), everything serialised
        before it is sent."""
        if state.version != expected_version + 1:
            raise ValueError(
                f"the new state is at version {state.version}, expected {expected_version + 1}"
            )
        finished = result is not None and result.finished
        now = self._now()
        move = PendingCommit(
            game_id=game_id,
            expected_version=expected_version,
            version=state.version,
            state=Ruleset.dump_state(state),
            status=GameStatus.FINISHED.value if finished else GameStatus.ACTIVE.value,
            result=to_json(result.model_dump(mode="json"))
            if finished and result is not None
            else None,
            ended_at=now if finished else None,
            seat=seat,
            actor_user_id=actor_user_id,
            command=command.model_dump_json(),
            reason=reason,
            events=dump_events(events),
            replace_deadlines=finished or deadlines is not None,
            deadlines=tuple(deadlines) if deadlines and not finished else (),
            now=now,
        )
        seq = await self._commit_move(move)
        return LogEntry(
            game_id=game_id,
            seq=seq,
            kind=LogKind.COMMAND,
            action=None,
            actor_user_id=actor_user_id,
            seat=seat,
            command_json=move.command,
            reason=reason,
            details={},
            events=tuple(events),
            undoes=None,
            undone_by=None,
            version_after=state.version,
            created_at=from_ms(now),
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
                await self._run(
                    conn,
                    "UPDATE games SET version = ?, state = ?, updated_at = ?, status = ?, "
                    "result = CASE WHEN ? THEN NULL ELSE result END, "
                    "ended_at = CASE WHEN ? THEN NULL ELSE ended_at END "
                    "WHERE id = ? AND version = ?",
                    state.version,
                    Ruleset.dump_state(state),
                    now,
                    status.value,
                    reopened,
                    reopened,
                    game_id,
                    expected_version,
                )
            except self._UNIQUE_VIOLATION as error:
                raise ChannelBusy(
                    f"Cannot reopen game #{game_id}: its channel has another open game."
                ) from error
            entries: list[LogEntry] = []
            for number, undone_seq in enumerate(undone_seqs, start=1):
                last = await self._query_one(
                    conn,
                    f"SELECT l.seq, l.seat FROM game_log l WHERE l.game_id = ? AND {IN_EFFECT} "
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
                # An undo's news (the post, the prompts) is owed like a move's (schema 8's
                # trigger covers only commands): written in this same transaction.
                await self._run(
                    conn,
                    "INSERT INTO undelivered_commits (game_id, version, created_at) "
                    "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    game_id,
                    version,
                    now,
                )
            if deadlines is not None:
                await self._run(conn, "DELETE FROM deadlines WHERE game_id = ?", game_id)
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
                removed = await self._run(
                    conn,
                    "DELETE FROM seats WHERE game_id = ? AND seat = ?",
                    game_id,
                    change.remove_seat,
                )
                if removed == 0:
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

    async def _change_seat(self, conn: ConnT, game_id: int, change: ModeratorChange) -> None:
        """Give ``change.seat_change``'s seat to its new holder (a computer when the user is
        None) inside `moderate`'s transaction.

        :raises AlreadySeated | SeatNotFound:
        """
        target = change.seat_change
        assert target is not None
        if target.user_id is not None and await self._query_one(
            conn,
            "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ? AND seat <> ?",
            game_id,
            target.user_id,
            target.seat,
        ):
            raise AlreadySeated(f"That user already has another seat in game #{game_id}.")
        changed = await self._run(
            conn,
            "UPDATE seats SET user_id = ?, display_name = ?, is_ai = ?, dm_reachable = NULL "
            "WHERE game_id = ? AND seat = ?",
            target.user_id,
            target.display_name,
            target.user_id is None,
            game_id,
            target.seat,
        )
        if changed == 0:
            raise SeatNotFound(f"Game #{game_id} has no seat {target.seat}.")
        # The seat's new holder starts afresh: no missed deadlines, away period or
        # extensions of the one before (schema 6).
        await self._run(
            conn, "DELETE FROM seat_presence WHERE game_id = ? AND seat = ?", game_id, target.seat
        )

    async def _change_status(
        self, conn: ConnT, found: GameSummary, change: ModeratorChange, now: int
    ) -> None:
        """Set the game's status (and result, end time) as ``change`` says, inside
        `moderate`'s transaction; an ended game's deadlines go with it."""
        status = change.new_status
        if status is None:
            await self._run(conn, "UPDATE games SET updated_at = ? WHERE id = ?", now, found.id)
            return
        ended = status in ENDED_STATUSES
        await self._run(
            conn,
            "UPDATE games SET status = ?, updated_at = ?, result = ?, ended_at = ? WHERE id = ?",
            status.value,
            now,
            to_json(dict(change.result)) if change.result is not None else None,
            now if ended else None,
            found.id,
        )
        if ended:
            await self._run(conn, "DELETE FROM deadlines WHERE game_id = ?", found.id)

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
            rows = await self._select(
                f"SELECT {LOG_COLUMNS} FROM game_log l WHERE l.game_id = ? AND l.seq > ? "
                "ORDER BY l.seq LIMIT ?",
                game_id,
                after_seq,
                limit + 1,
            )
        else:
            rows = await self._select(
                f"SELECT {LOG_COLUMNS} FROM game_log l WHERE l.game_id = ? AND l.seq > ? "
                "AND l.seq < ? ORDER BY l.seq DESC LIMIT ?",
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
        sql = "DELETE FROM deadlines WHERE game_id = ?"
        params: list[Any] = [game_id]
        if seat is not None:
            sql += " AND seat = ?"
            params.append(seat)
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        return await self._statement(sql, *params)

    async def _active_deadlines(self, extra: str, *params: Any) -> list[Deadline]:
        """The deadlines of active games, soonest first; ``extra`` (``AND ...``, ``?``
        marks for ``params``) narrows them."""
        rows = await self._select(
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
        return await self._active_deadlines("AND d.game_id = ?", game_id)

    async def due_deadlines(self, now: datetime) -> list[Deadline]:
        """See `Repository.due_deadlines`."""
        return await self._active_deadlines("AND d.due_at <= ?", to_ms(now))

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
        the same ``due_at``) decides; of several claimers, in one process or several,
        exactly one deletes it (on PostgreSQL the others wait for the game's row lock, then
        find the row gone and get False)."""
        now = self._now()
        async with self._write() as conn:
            if not await self._lock_game(conn, deadline.game_id):
                return False
            claimed = await self._run(
                conn,
                "DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND kind = ? AND due_at = ?",
                deadline.game_id,
                deadline.seat,
                deadline.kind,
                to_ms(deadline.due_at),
            )
            if claimed != 1:
                return False
            if clear_seat:
                await self._run(
                    conn,
                    "DELETE FROM deadlines WHERE game_id = ? AND seat = ?",
                    deadline.game_id,
                    deadline.seat,
                )
            if missed:
                await self._run(
                    conn,
                    "INSERT INTO seat_presence (game_id, seat, missed, updated_at) "
                    "VALUES (?, ?, 1, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
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
        """See `Repository.settle_deadline_posts` (one transaction; the games' rows locked
        first, in id order)."""
        if not settles:
            return
        async with self._write() as conn:
            for game_id in sorted({s.game_id for s in settles}):
                await self._lock_game(conn, game_id)
            await self._run_many(
                conn,
                "DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND kind = ?",
                [(s.game_id, s.seat, s.kind) for s in settles],
            )
            await self._run_many(
                conn,
                "DELETE FROM discord_message_refs WHERE scope = ? AND key = ?",
                [(s.scope, s.key) for s in settles],
            )

    async def set_away(self, game_id: int, seat: int, until: datetime | None) -> None:
        """See `Repository.set_away`."""
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, game_id, OPEN_STATUSES, "change who is away")
            if until is None:
                await self._run(
                    conn,
                    "UPDATE seat_presence SET missed = 0, away_until = NULL, updated_at = ? "
                    "WHERE game_id = ? AND seat = ?",
                    now,
                    game_id,
                    seat,
                )
                return
            await self._run(
                conn,
                "INSERT INTO seat_presence (game_id, seat, away_until, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
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
            due = await self._query_one(
                conn,
                "SELECT due_at FROM deadlines WHERE game_id = ? AND seat = ? AND kind = 'turn'",
                game_id,
                seat,
            )
            if due is None:
                raise ExtensionRefused("Your decision has no deadline, so there is none to extend.")
            row = await self._query_one(
                conn,
                "SELECT extensions_used, extended_turn FROM seat_presence "
                "WHERE game_id = ? AND seat = ?",
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
            new_due = from_ms(due["due_at"]) + by
            await self._run(
                conn,
                "INSERT INTO seat_presence (game_id, seat, extensions_used, extended_turn, "
                "updated_at) VALUES (?, ?, 1, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE "
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
                await self._run(
                    conn,
                    "DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND kind = 'reminder'",
                    game_id,
                    seat,
                )
            await self._write_deadlines(conn, game_id, specs, now)
            return Extension(new_due, used + 1)

    async def record_skip_vote(
        self, game_id: int, seat: int, version: int, voter_user_id: int
    ) -> int:
        """See `Repository.record_skip_vote` (one transaction, the game's row locked)."""
        now = self._now()
        async with self._write() as conn:
            await self._lock_game(conn, game_id)
            await self._run(
                conn, "DELETE FROM skip_votes WHERE game_id = ? AND version < ?", game_id, version
            )
            await self._run(
                conn,
                "INSERT INTO skip_votes (game_id, seat, version, voter_user_id, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                game_id,
                seat,
                version,
                voter_user_id,
                now,
            )
            votes = await self._query_one(
                conn,
                "SELECT count(*) FROM skip_votes WHERE game_id = ? AND seat = ? AND version = ?",
                game_id,
                seat,
                version,
            )
            assert votes is not None
            return int(votes[0])

    # --------------------------------------------------------- guild settings
    _GUILD_SETTINGS = (
        "SELECT moderator_role_id, turn_deadline_s, reminder_every_s, deadline_policy, "
        "away_after, away_max_s, extensions, extension_s FROM guild_settings WHERE guild_id = ?"
    )

    @staticmethod
    def _guild_settings(guild_id: int, row: Row | None) -> GuildSettings:
        """A guild's settings from its row of `_GUILD_SETTINGS` (the defaults without one)."""
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

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """See `Repository.guild_settings`."""
        return self._guild_settings(
            guild_id, await self._select_one(self._GUILD_SETTINGS, guild_id)
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """See `Repository.save_guild_settings` (one statement)."""
        for value in (settings.turn_deadline, settings.reminder_every):
            if value is not None and value.total_seconds() < 1:
                raise ValueError(f"deadlines and reminders need at least one second, got {value}")
        await self._statement(
            "INSERT INTO guild_settings (guild_id, moderator_role_id, turn_deadline_s, "
            "reminder_every_s, deadline_policy, away_after, away_max_s, extensions, "
            "extension_s, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
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
    _GAME_SETTINGS = (
        "SELECT seats_wanted, turn_deadline_s, deck_rule, deadline_policy FROM game_settings "
        "WHERE game_id = ?"
    )

    @staticmethod
    def _game_settings(game_id: int, row: Row | None) -> GameSettings:
        """A game's settings from its row of `_GAME_SETTINGS` (the defaults without one)."""
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

    async def game_settings(self, game_id: int) -> GameSettings:
        """See `Repository.game_settings`."""
        return self._game_settings(game_id, await self._select_one(self._GAME_SETTINGS, game_id))

    async def deadline_settings(
        self, game_id: int, guild_id: int | None
    ) -> tuple[GameSettings, GuildSettings]:
        """See `Repository.deadline_settings`: both in one read snapshot."""
        async with self._read() as conn:
            settings = self._game_settings(
                game_id, await self._query_one(conn, self._GAME_SETTINGS, game_id)
            )
            guild = (
                self._guild_settings(
                    guild_id, await self._query_one(conn, self._GUILD_SETTINGS, guild_id)
                )
                if guild_id is not None
                else GuildSettings(0)
            )
        return settings, guild

    async def save_game_settings(self, settings: GameSettings) -> None:
        """See `Repository.save_game_settings`."""
        length = settings.turn_deadline
        now = self._now()
        async with self._write() as conn:
            await self._require_game(conn, settings.game_id, GameStatus, "change settings")
            await self._run(
                conn,
                "INSERT INTO game_settings (game_id, seats_wanted, turn_deadline_s, deck_rule, "
                "deadline_policy, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
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
        rows = await self._select(
            "SELECT seat, kind, value FROM standing_orders WHERE game_id = ? ORDER BY seat, kind",
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
                await self._run(
                    conn,
                    "DELETE FROM standing_orders WHERE game_id = ? AND seat = ? AND kind = ?",
                    game_id,
                    seat,
                    kind,
                )
                return
            await self._run(
                conn,
                "INSERT INTO standing_orders (game_id, seat, kind, value, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat, kind) DO UPDATE SET "
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
        row = await self._select_one(
            "SELECT channel_id, message_id FROM discord_message_refs WHERE scope = ? AND key = ?",
            scope,
            key,
        )
        return None if row is None else MessageRef(row["channel_id"], row["message_id"])

    async def put_message_ref(self, scope: str, key: str, ref: MessageRef) -> None:
        """See `Repository.put_message_ref` (one statement: one round trip)."""
        await self._statement(
            "INSERT INTO discord_message_refs (scope, key, channel_id, message_id, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET "
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
            "DELETE FROM discord_message_refs WHERE scope = ? AND key = ?", scope, key
        )

    # --------------------------------------------- news owed and held DMs (schema 8)
    async def undelivered_news(self, limit: int = 1000) -> list[tuple[int, int]]:
        """See `Repository.undelivered_news` (the primary key's order)."""
        if not 1 <= limit <= 100_000:
            raise ValueError(f"limit must be 1..100000, got {limit}")
        rows = await self._select(
            "SELECT game_id, version FROM undelivered_commits ORDER BY game_id, version LIMIT ?",
            limit,
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def news_delivered(self, game_id: int, after_version: int, version: int) -> int:
        """See `Repository.news_delivered`: one DELETE; schema 8's trigger drops the
        message ids of the same versions within it."""
        return await self._statement(
            "DELETE FROM undelivered_commits WHERE game_id = ? AND version > ? AND version <= ?",
            game_id,
            after_version,
            version,
        )

    async def hold_direct_message(
        self, user_id: int, game_id: int, slot: str, message: str, *, notices_kept: int = 5
    ) -> None:
        """See `Repository.hold_direct_message` (one transaction; one user's holds one after
        another, `_xact_lock`, so two processes trimming notices at once keep the newest)."""
        if slot not in ("hand", "decision", "digest", "notice"):
            raise ValueError(f"unknown DM slot {slot!r}")
        now = self._now()
        async with self._write() as conn:
            await self._xact_lock(conn, f"/held/{user_id}")
            if slot != "notice":
                await self._run(
                    conn,
                    "DELETE FROM held_direct_messages WHERE user_id = ? AND game_id = ? "
                    "AND slot = ?",
                    user_id,
                    game_id,
                    slot,
                )
            await self._run(
                conn,
                "INSERT INTO held_direct_messages (user_id, game_id, slot, message, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                user_id,
                game_id,
                slot,
                message,
                now,
            )
            if slot == "notice":
                await self._run(
                    conn,
                    "DELETE FROM held_direct_messages WHERE user_id = ? AND slot = 'notice' "
                    "AND id NOT IN (SELECT id FROM held_direct_messages WHERE user_id = ? "
                    "AND slot = 'notice' ORDER BY id DESC LIMIT ?)",
                    user_id,
                    user_id,
                    max(0, notices_kept),
                )

    async def held_messages(self, user_id: int) -> list[HeldMessage]:
        """See `Repository.held_messages`."""
        rows = await self._select(
            f"SELECT {HELD_COLUMNS} FROM held_direct_messages WHERE user_id = ? ORDER BY id",
            user_id,
        )
        return [held(row) for row in rows]

    async def take_held_messages(self, user_id: int) -> list[HeldMessage]:
        """See `Repository.take_held_messages` (one ``DELETE ... RETURNING``: of two takers
        exactly one gets each message)."""
        rows = await self._returning(
            f"DELETE FROM held_direct_messages WHERE user_id = ? RETURNING {HELD_COLUMNS}",
            user_id,
        )
        return sorted((held(row) for row in rows), key=lambda h: h.id)

    async def drop_held_message(self, user_id: int, game_id: int, slot: str) -> None:
        """See `Repository.drop_held_message` (one statement)."""
        await self._statement(
            "DELETE FROM held_direct_messages WHERE user_id = ? AND game_id = ? AND slot = ?",
            user_id,
            game_id,
            slot,
        )

    async def users_with_held_messages(self) -> set[int]:
        """See `Repository.users_with_held_messages`."""
        rows = await self._select("SELECT DISTINCT user_id FROM held_direct_messages")
        return {int(row[0]) for row in rows}

    # ------------------------------------------------------ undo requests (schema 7)
    async def save_undo_request(self, request: UndoRequest) -> None:
        """See `Repository.save_undo_request` (one transaction, checked against the game's
        version)."""
        async with self._write() as conn:
            await self._require_game(
                conn, request.game_id, {GameStatus.ACTIVE}, "ask for an undo", request.version
            )
            await self._run(
                conn,
                "INSERT INTO undo_requests (game_id, version, seat, user_id, from_seq, needed, "
                "agreed, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
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
    def _undo_request(row: Row) -> UndoRequest:
        """An undo request from its ``undo_requests`` row (every column)."""
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
        row = await self._select_one("SELECT * FROM undo_requests WHERE game_id = ?", game_id)
        return None if row is None else self._undo_request(row)

    async def agree_to_undo(self, game_id: int, *, version: int, seat: int) -> UndoRequest:
        """See `Repository.agree_to_undo` (one transaction, the request's row locked where
        the backend locks rows)."""
        async with self._write() as conn:
            row = await self._query_one(
                conn,
                f"SELECT * FROM undo_requests WHERE game_id = ? AND version = ?{self._LOCK_ROW}",
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
            await self._run(
                conn,
                "UPDATE undo_requests SET agreed = ? WHERE game_id = ? AND version = ?",
                json.dumps(list(agreed)),
                game_id,
                version,
            )
        return dataclasses.replace(request, agreed=agreed)

    async def drop_undo_request(self, game_id: int, *, version: int | None = None) -> bool:
        """See `Repository.drop_undo_request` (one statement)."""
        if version is None:
            deleted = await self._statement("DELETE FROM undo_requests WHERE game_id = ?", game_id)
        else:
            deleted = await self._statement(
                "DELETE FROM undo_requests WHERE game_id = ? AND version = ?", game_id, version
            )
        return deleted > 0

    # ------------------------------------------------ notices and digests (/me)
    async def notify_settings(self, user_ids: Sequence[int]) -> dict[int, NotifySettings]:
        """See `Repository.notify_settings`."""
        wanted = sorted(set(user_ids))
        found = {uid: NotifySettings(uid) for uid in wanted}
        if not wanted:
            return found
        condition, values = self._any("user_id", wanted, "BIGINT")
        rows = await self._select(
            "SELECT user_id, ping, time_zone, quiet_start, quiet_end FROM notify_settings "
            f"WHERE {condition}",
            *values,
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
            "updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
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
        row = await self._select_one(
            "SELECT coalesce(max(seq), 0) FROM game_log WHERE game_id = ? "
            "AND kind = 'command' AND seat = ? AND actor_user_id = ? AND reason IS NULL",
            game_id,
            seat,
            user_id,
        )
        return int(row[0]) if row is not None else 0

    async def digest_mark(self, game_id: int, seat: int) -> DigestMark | None:
        """See `Repository.digest_mark`."""
        row = await self._select_one(
            "SELECT user_id, since_seq FROM seat_digests WHERE game_id = ? AND seat = ?",
            game_id,
            seat,
        )
        return None if row is None else DigestMark(row["user_id"], row["since_seq"])

    async def set_digest_mark(self, game_id: int, seat: int, mark: DigestMark) -> None:
        """See `Repository.set_digest_mark` (one transaction, the game's row locked)."""
        now = self._now()
        async with self._write() as conn:
            if not await self._lock_game(conn, game_id):
                raise GameNotFound(f"There is no game #{game_id}.")
            await self._run(
                conn,
                "INSERT INTO seat_digests (game_id, seat, user_id, since_seq, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
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
        """See `Repository.save_campaign_heroes` (one transaction: the game's row locked,
        then the channel's heroes, `_xact_lock`, replaced as a whole)."""
        now = self._now()
        async with self._write() as conn:
            if not await self._lock_game(conn, game_id):
                raise GameNotFound(f"There is no game #{game_id}.")
            await self._xact_lock(conn, f"/campaign/{channel_id}")
            await self._run(conn, "DELETE FROM campaign_heroes WHERE channel_id = ?", channel_id)
            await self._run_many(
                conn,
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
        rows = await self._select(
            "SELECT user_id, game_id, hero, saved_at FROM campaign_heroes "
            "WHERE channel_id = ? ORDER BY position",
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
        row = await self._select_one("SELECT tree_hash FROM command_syncs WHERE scope = ?", scope)
        return None if row is None else str(row[0])

    async def save_command_tree_hash(self, scope: str, tree_hash: str) -> None:
        """See `Repository.save_command_tree_hash` (one statement)."""
        await self._statement(
            "INSERT INTO command_syncs (scope, tree_hash, synced_at) VALUES (?, ?, ?) "
            "ON CONFLICT (scope) DO UPDATE SET tree_hash = excluded.tree_hash, "
            "synced_at = excluded.synced_at",
            scope,
            tree_hash,
            self._now(),
        )
