"""The backend-neutral part of the SQL repositories (issue 18): one place for the logic
SQLite (`storage.sqlite`) and PostgreSQL (`storage.postgres`) share.

`SqlRepository` holds the checks, the SQL text and the row-to-record conversions of the
methods whose statements both dialects run alike. Their SQL is written with ``?`` marks;
a backend runs it through four primitives (`SqlRepository._query`, `_query_one`, `_run`,
`_run_many`), and PostgreSQL turns the marks into ``$1``, ``$2`` ... with `numbered`. The
methods whose statements differ by dialect (the one-statement commit, the claims, the
upserts of settings) stay in the backends.

Atomicity is each backend's: `SqlRepository._write` is one transaction (SQLite: ``BEGIN
IMMEDIATE`` on the one writer; PostgreSQL: a READ COMMITTED transaction on a pool
connection) and `_require_game` checks the game inside it (PostgreSQL: with the game's row
locked, ``FOR NO KEY UPDATE``, the lock every other write of a game takes first).
"""

from __future__ import annotations

import functools
import re
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from engine.core.model import Event, GameState
from engine.core.ruleset import Ruleset
from storage.errors import AlreadySeated, DeckNotFound, GameNotFound, LobbyFull, SeatNotFound
from storage.records import (
    DeadlineSpec,
    Game,
    GameStatus,
    GameSummary,
    LogEntry,
    LogKind,
    ModeratorAction,
    SavedDeck,
    Seat,
)
from storage.repository import Repository
from storage.rows import (
    DECK_COLUMNS,
    GAME_COLUMNS,
    SEAT_COLUMNS,
    SEAT_FIELDS,
    Row,
    deck,
    dump_events,
    from_ms,
    game,
    seat_row,
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


class SqlRepository(Repository, Generic[ConnT]):
    """`Repository` logic shared by the SQL backends; a backend supplies the transactions
    (`_write`, `_read`), the four statement primitives, the clock (`_now`) and
    `_LOCK_ROW`, and implements the methods whose SQL is its own."""

    _LOCK_ROW: ClassVar[str] = ""
    """What `_require_game` adds to its ``SELECT`` to lock the game's row for the
    transaction (PostgreSQL ``FOR NO KEY UPDATE``; SQLite's one writer needs none)."""

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

    # ------------------------------------------------------------------ lobby
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
