"""Rows to records and back, shared by the SQLite and PostgreSQL repositories.

A row is anything indexable by column name (``sqlite3.Row``, ``asyncpg.Record``). Times are
integer milliseconds since the epoch (UTC) in both schemas; JSON is text, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from pydantic import TypeAdapter

from engine.core.model import Event
from storage.errors import ChannelBusy, StaleState, WrongGameStatus
from storage.records import (
    Deadline,
    Game,
    GameStatus,
    GameSummary,
    HeldMessage,
    LogEntry,
    LogKind,
    ModeratorAction,
    SavedDeck,
    Seat,
)


class Row(Protocol):
    """A database row: columns by name (and position)."""

    def __getitem__(self, key: Any, /) -> Any: ...


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MS = timedelta(milliseconds=1)
EVENTS: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
INT64 = range(-(2**63), 2**63)
"""The values a seed (and any stored integer) may take: a signed 64-bit integer."""

# Column lists and conditions in the SQL both schemas share.
GAME_COLUMNS = (
    "g.id, g.channel_id, g.guild_id, g.ruleset, g.options, g.seed, g.host_user_id, g.status, "
    "g.players, g.version, g.result, g.created_at, g.updated_at, g.ended_at"
)
SEAT_FIELDS = (
    "game_id, seat, user_id, display_name, is_ai, dm_reachable, ready_deck, saved_deck_id, "
    "joined_at"
)
"""A seat's columns unqualified, for ``RETURNING`` (SQLite takes no ``s.`` there)."""
SEAT_COLUMNS = ", ".join(f"s.{field}" for field in SEAT_FIELDS.split(", "))
PRESENCE_COLUMNS = (
    f"{SEAT_COLUMNS}, s.ai_level, "
    "(SELECT p.missed FROM seat_presence p WHERE p.game_id = s.game_id AND p.seat = s.seat) "
    "AS missed, "
    "(SELECT p.away_until FROM seat_presence p WHERE p.game_id = s.game_id AND p.seat = s.seat) "
    "AS away_until"
)
"""A seat's columns with its presence (schema 6: missed deadlines, away) and its computer
level (schema 11), for the reads of a started game's seats."""
LOG_COLUMNS = (
    "l.game_id, l.seq, l.kind, l.action, l.actor_user_id, l.seat, l.command, l.reason, "
    "l.details, l.events, l.undoes, l.version_after, l.created_at, "
    "(SELECT u.seq FROM game_log u WHERE u.game_id = l.game_id AND u.undoes = l.seq) "
    "AS undone_by"
)
DECK_COLUMNS = "id, user_id, ruleset, name, cards, created_at, updated_at"
IN_EFFECT = (
    "l.kind = 'command' AND NOT EXISTS "
    "(SELECT 1 FROM game_log u WHERE u.game_id = l.game_id AND u.undoes = l.seq)"
)


STATUS_TEXT = {
    GameStatus.LOBBY: "has not started yet",
    GameStatus.ACTIVE: "is already under way",
    GameStatus.PAUSED: "is paused by a moderator",
    GameStatus.FINISHED: "is over",
    GameStatus.ABANDONED: "was abandoned",
}


def to_ms(moment: datetime) -> int:
    """Milliseconds since the epoch of an aware datetime.

    :raises ValueError: for a naive datetime.
    """
    if moment.tzinfo is None:
        raise ValueError(f"storage needs timezone-aware datetimes, got {moment!r}")
    return (moment - EPOCH) // MS


def from_ms(ms: int) -> datetime:
    """The UTC datetime of ``ms`` milliseconds since the epoch."""
    return EPOCH + ms * MS


def maybe_dt(ms: int | None) -> datetime | None:
    """`from_ms`, keeping None."""
    return None if ms is None else from_ms(ms)


def to_json(value: Any) -> str:
    """Compact JSON text of a JSON-compatible value."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def dump_events(events: Sequence[Event]) -> str:
    """The JSON array text of ``events`` (public and private parts), as the log stores it."""
    return EVENTS.dump_json(list(events)).decode()


def placeholders(count: int) -> str:
    """``?, ?, ...``: ``count`` SQLite parameter marks."""
    return ", ".join("?" * count)


def maybe_bool(value: int | bool | None) -> bool | None:
    """A stored 0/1 (SQLite) or boolean (PostgreSQL), keeping None (unknown)."""
    return None if value is None else bool(value)


def summary_fields(row: Row) -> dict[str, Any]:
    """The `GameSummary` fields of a ``games`` row (options and result parsed)."""
    return {
        "id": row["id"],
        "channel_id": row["channel_id"],
        "guild_id": row["guild_id"],
        "ruleset": row["ruleset"],
        "options": json.loads(row["options"]),
        "seed": row["seed"],
        "host_user_id": row["host_user_id"],
        "status": GameStatus(row["status"]),
        "players": row["players"],
        "version": row["version"],
        "result": None if row["result"] is None else json.loads(row["result"]),
        "created_at": from_ms(row["created_at"]),
        "updated_at": from_ms(row["updated_at"]),
        "ended_at": maybe_dt(row["ended_at"]),
    }


def summary(row: Row) -> GameSummary:
    """A game without its snapshot from its row."""
    return GameSummary(**summary_fields(row))


def game(row: Row) -> Game:
    """A game with its snapshot (column ``state``) from its row."""
    return Game(**summary_fields(row), state_json=row["state"])


def seat_row(row: Row, *, presence: bool = False) -> Seat:
    """A seat from its row (with the presence columns, `_PRESENCE_COLUMNS`, when
    ``presence``)."""
    return Seat(
        game_id=row["game_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_ai=bool(row["is_ai"]),
        dm_reachable=maybe_bool(row["dm_reachable"]),
        ready_deck=row["ready_deck"],
        saved_deck_id=row["saved_deck_id"],
        joined_at=from_ms(row["joined_at"]),
        missed=(row["missed"] or 0) if presence else 0,
        away_until=maybe_dt(row["away_until"]) if presence else None,
        ai_level=row["ai_level"] if presence else None,
    )


def log_entry(row: Row) -> LogEntry:
    """A log entry from its row (with the ``undone_by`` column), events parsed."""
    return LogEntry(
        game_id=row["game_id"],
        seq=row["seq"],
        kind=LogKind(row["kind"]),
        action=None if row["action"] is None else ModeratorAction(row["action"]),
        actor_user_id=row["actor_user_id"],
        seat=row["seat"],
        command_json=row["command"],
        reason=row["reason"],
        details=json.loads(row["details"]),
        events=tuple(EVENTS.validate_json(row["events"])),
        undoes=row["undoes"],
        undone_by=row["undone_by"],
        version_after=row["version_after"],
        created_at=from_ms(row["created_at"]),
    )


HELD_COLUMNS = "id, user_id, game_id, slot, message, created_at"


def held(row: Row) -> HeldMessage:
    """A held DM from its row (`HELD_COLUMNS`)."""
    return HeldMessage(
        id=row["id"],
        user_id=row["user_id"],
        game_id=row["game_id"],
        slot=row["slot"],
        message=row["message"],
        created_at=from_ms(row["created_at"]),
    )


def deck(row: Row) -> SavedDeck:
    """A saved deck from its row."""
    return SavedDeck(
        id=row["id"],
        user_id=row["user_id"],
        ruleset=row["ruleset"],
        name=row["name"],
        cards=tuple(json.loads(row["cards"])),
        created_at=from_ms(row["created_at"]),
        updated_at=from_ms(row["updated_at"]),
    )


def deadline_row(row: Row) -> Deadline:
    """A deadline from its row joined with its game (channel and guild)."""
    return Deadline(
        game_id=row["game_id"],
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        seat=row["seat"],
        kind=row["kind"],
        due_at=from_ms(row["due_at"]),
    )


def seconds(value: timedelta | None) -> int | None:
    """Whole seconds of ``value``, keeping None."""
    return None if value is None else int(value.total_seconds())


def status_error(game_id: int, status: GameStatus, doing: str) -> WrongGameStatus:
    """The refusal of ``doing`` something to a game in ``status`` (one line for players)."""
    return WrongGameStatus(f"Cannot {doing}: game #{game_id} {STATUS_TEXT[status]}.", status.value)


def stale(expected: int, current: int) -> StaleState:
    """The refusal of a command sent for version ``expected`` of a game now at ``current``."""
    return StaleState(
        f"This was sent for move {expected} of the game, but the game is now at move "
        f"{current}. Look at the current position and try again."
    )


def channel_busy(game_id: int, ruleset: str, status: str) -> ChannelBusy:
    """The refusal of a second open game in a channel, naming the open one."""
    return ChannelBusy(
        f"This channel already has a {ruleset} game (game #{game_id}, {status}). "
        "Finish or end it before creating another."
    )
