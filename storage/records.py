"""The plain records the repository returns: games, seats, log entries, decks, settings, deadlines.

Records are frozen dataclasses, independent of any database driver, so a PostgreSQL
repository returns exactly the same objects as the SQLite one. Times are timezone-aware
UTC `datetime`s; Discord ids are `int` snowflakes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from engine.core.model import Event


class GameStatus(StrEnum):
    """Where a game is in its life.

    ``lobby`` (seats being taken) -> ``active`` <-> ``paused`` -> ``finished`` (the rules
    declared a result) or ``abandoned`` (ended by a moderator or the host). The first three
    are *open*: a channel has at most one open game.
    """

    LOBBY = "lobby"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def is_open(self) -> bool:
        """Whether a game in this status occupies its channel."""
        return self in OPEN_STATUSES


OPEN_STATUSES: frozenset[GameStatus] = frozenset(
    {GameStatus.LOBBY, GameStatus.ACTIVE, GameStatus.PAUSED}
)
"""Statuses in which a game occupies its channel (at most one per channel)."""

ENDED_STATUSES: frozenset[GameStatus] = frozenset({GameStatus.FINISHED, GameStatus.ABANDONED})
"""Statuses of archived games."""


class LogKind(StrEnum):
    """The kind of a log entry.

    ``setup``: the game's creation (the events of ``new_game``); ``command``: an engine
    command applied by a seat; ``moderator``: a moderator or admin action (no engine command).
    """

    SETUP = "setup"
    COMMAND = "command"
    MODERATOR = "moderator"


class ModeratorAction(StrEnum):
    """The moderator and admin actions the log records (with who and why)."""

    PAUSE = "pause"
    RESUME = "resume"
    UNDO = "undo"
    REPLACE = "replace"
    KICK = "kick"
    END = "end"
    DEADLINE = "deadline"
    VERIFY = "verify"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game without its state snapshot (what listings return).

    Attributes:
        id: the game's id (unique across channels, never reused).
        channel_id: the Discord channel or thread the game is played in.
        guild_id: the Discord guild, or None (local console, tests).
        ruleset: the engine ruleset id (``"homm4"``).
        options: the game options as JSON-compatible data (final once started).
        seed: the seed given to ``new_game``; with the log it rebuilds the game.
        host_user_id: who created the game, if a person did.
        status: see `GameStatus`.
        players: the number of seats once started; None in the lobby.
        version: 0 in the lobby and at the start; +1 per state change (command or undo).
            Equal to the snapshot's ``state.version``; it never decreases.
        result: ``{"finished", "winners", "reason"}`` once finished, else None.
        created_at / updated_at / ended_at: UTC times (``ended_at`` None while open).
    """

    id: int
    channel_id: int
    guild_id: int | None
    ruleset: str
    options: Mapping[str, Any]
    seed: int
    host_user_id: int | None
    status: GameStatus
    players: int | None
    version: int
    result: Mapping[str, Any] | None
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None

    @property
    def is_open(self) -> bool:
        """Whether the game still occupies its channel (lobby, active or paused)."""
        return self.status.is_open


@dataclass(frozen=True, slots=True)
class Game(GameSummary):
    """A game with its current state snapshot.

    Attributes:
        state_json: the canonical JSON of the current engine state (``Ruleset.dump_state``),
            None in the lobby. Load it with ``ruleset.load_state(game.state_json)``.
    """

    state_json: str | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game and who sits in it.

    Attributes:
        game_id: the game.
        seat: the engine seat number (0 = Red ...); renumbered 0..n-1 when the game starts.
        user_id: the Discord user, or None for a computer seat.
        display_name: the name shown in the game.
        is_ai: whether the engine's AI plays this seat.
        dm_reachable: whether DMs reach the user (None: not yet known).
        ready_deck: the chosen ready-made deck id, if any.
        saved_deck_id: the chosen saved deck (`SavedDeck.id`), if any.
        joined_at: when the seat was taken.
        missed: deadlines missed in a row (schema 6: the deadline policy acted for the
            seat; a command of the seat's own player resets it).
        away_until: the end of an away period the player chose (``/game away``), if any.
        ai_level: a computer seat's level (``easy``, ``normal``, ``hard``: schema 11;
            None: stored before, plays ``easy``; `bot.computer`).
    """

    game_id: int
    seat: int
    user_id: int | None
    display_name: str
    is_ai: bool
    dm_reachable: bool | None
    ready_deck: str | None
    saved_deck_id: int | None
    joined_at: datetime
    missed: int = 0
    away_until: datetime | None = None
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class UserSeat:
    """A game a user sits in, with their seat (for ``/hand`` in DMs)."""

    game: GameSummary
    seat: Seat


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of a game's append-only log.

    Attributes:
        game_id / seq: the game and the entry's position (1, 2, 3 ... without gaps).
        kind: see `LogKind`.
        action: the moderator action for ``kind == moderator``, else None.
        actor_user_id: the Discord user who acted (a player, a moderator acting for a
            seat, a host starting the game), None for a computer seat or the system.
        seat: the seat a command was applied as (``command``); the seat concerned by a
            moderator action when there is one; else None.
        command_json: the command's canonical JSON; None for other kinds and in any
            redacted view where the reader is not the acting seat.
        reason: the moderator's or system's stated reason, if given.
        details: public structured facts of a moderator entry (``{"undoes": 17}``...).
        events: the resulting events. In a public view only their public parts, in a
            seat's view the public parts plus that seat's private lines.
        undoes: for an ``undo`` entry, the seq of the command it cancelled.
        undone_by: for a command cancelled by a later undo, that undo's seq.
        version_after: the game's version once this entry was written.
        created_at: when it was written (UTC).
    """

    game_id: int
    seq: int
    kind: LogKind
    action: ModeratorAction | None
    actor_user_id: int | None
    seat: int | None
    command_json: str | None
    reason: str | None
    details: Mapping[str, Any]
    events: tuple[Event, ...]
    undoes: int | None
    undone_by: int | None
    version_after: int
    created_at: datetime

    @property
    def command(self) -> dict[str, Any] | None:
        """The command as a dict, or None when absent or redacted."""
        if self.command_json is None:
            return None
        parsed: dict[str, Any] = json.loads(self.command_json)
        return parsed

    @property
    def in_effect(self) -> bool:
        """Whether this is a command that no undo has cancelled."""
        return self.kind is LogKind.COMMAND and self.undone_by is None

    def public(self) -> LogEntry:
        """Return this entry as everyone may see it: no private lines, no command JSON.

        Commands are dropped because one may carry a hidden choice (which cards pay a
        cost); the events' public text says what happened.
        """
        return replace(self, command_json=None, events=tuple(e.public() for e in self.events))

    def for_seat(self, seat: int) -> LogEntry:
        """Return this entry as ``seat`` may see it: public parts plus its own lines.

        The command JSON is kept only when ``seat`` issued it.
        """
        own = self.kind is LogKind.COMMAND and self.seat == seat
        return replace(
            self,
            command_json=self.command_json if own else None,
            events=tuple(e.for_seat(seat) for e in self.events),
        )


@dataclass(frozen=True, slots=True)
class UndoRequest:
    """A player's ``/undo`` waiting for the consent of the other players concerned
    (schema 7, ``undo_requests``; at most one per game).

    Attributes:
        game_id: the game.
        version: the game's version when it was asked; once the game is at another
            version the request has lapsed (the game moved on).
        seat: the seat asking.
        user_id: the player asking.
        from_seq: the log seq of the asker's command; it and every command in effect after
            it are undone when everyone needed agrees.
        needed: the seats whose players must agree, in seat order.
        agreed: those of them who have agreed so far, in seat order.
        created_at: when it was asked (UTC).
    """

    game_id: int
    version: int
    seat: int
    user_id: int
    from_seq: int
    needed: tuple[int, ...]
    agreed: tuple[int, ...]
    created_at: datetime

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The needed seats that have not agreed yet (empty: everyone agreed)."""
        return tuple(s for s in self.needed if s not in self.agreed)


@dataclass(frozen=True, slots=True)
class LogPage:
    """A page of log entries in ascending ``seq`` order.

    Attributes:
        entries: the entries of this page (possibly empty).
        has_more: whether more entries exist past this page in the direction read
            (later entries for ``after_seq`` paging, earlier ones for ``before_seq``).
    """

    entries: tuple[LogEntry, ...]
    has_more: bool

    @property
    def first_seq(self) -> int | None:
        """The seq of the first entry, or None for an empty page (pass as ``before_seq``)."""
        return self.entries[0].seq if self.entries else None

    @property
    def last_seq(self) -> int | None:
        """The seq of the last entry, or None for an empty page (pass as ``after_seq``)."""
        return self.entries[-1].seq if self.entries else None


@dataclass(frozen=True, slots=True)
class SavedDeck:
    """A deck a user saved for a ruleset.

    Attributes:
        id: the deck's id (what a seat's ``saved_deck_id`` refers to).
        user_id: its owner.
        ruleset: the ruleset it is for.
        name: the owner's name for it (unique per user and ruleset).
        cards: card ids, repeated for several copies, in the owner's order.
        created_at / updated_at: UTC times.
    """

    id: int
    user_id: int
    ruleset: str
    name: str
    cards: tuple[str, ...]
    created_at: datetime
    updated_at: datetime


DEFAULT_TURN_DEADLINE = timedelta(hours=48)
"""How long a seat has for a decision when the guild has not chosen otherwise."""

DEFAULT_REMINDER_EVERY = timedelta(hours=12)
"""How often a waiting seat is reminded when the guild has not chosen otherwise."""


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's settings; a guild that never saved any gets these defaults.

    Attributes:
        guild_id: the Discord guild.
        moderator_role_id: the role whose members may moderate games (None: only
            members with Manage Server).
        turn_deadline: how long a seat has for a decision; None for no deadline.
        reminder_every: how often a waiting seat is reminded; None for no reminders.
        deadline_policy: what a passed deadline does unless the game chose otherwise
            (`DEADLINE_POLICIES`: ``remind``, ``default``, ``computer``).
        away_after: missed deadlines in a row after which a seat is away (the computer
            plays it at once until its player acts or comes back).
        away_max: how far ahead ``/game away`` may reach.
        extensions: how many times a seat may ``/game extend`` in one game.
        extension_max: the longest single extension.
    """

    guild_id: int
    moderator_role_id: int | None = None
    turn_deadline: timedelta | None = DEFAULT_TURN_DEADLINE
    reminder_every: timedelta | None = DEFAULT_REMINDER_EVERY
    deadline_policy: str = "remind"
    away_after: int = 2
    away_max: timedelta = timedelta(hours=72)
    extensions: int = 2
    extension_max: timedelta = timedelta(hours=24)


DEADLINE_POLICIES = ("remind", "default", "computer")
"""What a passed decision deadline does (schema 6): ``remind`` pings the moderators (and
the other players may vote to skip), ``default`` plays the ruleset's default answer for
the seat, ``computer`` lets the computer player answer for it."""


@dataclass(frozen=True, slots=True)
class Extension:
    """A ``/game extend`` that was granted.

    Attributes:
        due_at: the seat's new deadline (UTC).
        used: the seat's extensions in this game, this one included.
    """

    due_at: datetime
    used: int


SENT = ":sent"
"""What a deadline's kind gets at its end while its post is on the way (``reminder:sent``,
``turn:sent``): `Repository.claim_deadline` with ``hold``; `Repository.settle_deadline_posts`
deletes it once the post was handed to Discord, else it falls due again and is posted
again (editing the first post in place)."""


@dataclass(frozen=True, slots=True)
class PostSettle:
    """A deadline post to confirm once delivered: the held deadline and the post's key.

    Attributes:
        game_id / seat: the deadline's game and seat.
        kind: the held kind (``reminder:sent``, ``turn:sent``).
        scope / key: where the deliverer remembers the post (`MessageRef`), forgotten
            with the confirmation so that the next reminder is a new message.
    """

    game_id: int
    seat: int
    kind: str
    scope: str
    key: str


class DeadlineKind(StrEnum):
    """The usual deadline kinds (any short string is accepted)."""

    TURN = "turn"
    REMINDER = "reminder"


@dataclass(frozen=True, slots=True)
class DeadlineSpec:
    """A deadline to set: ``seat`` must act by ``due_at``; ``kind`` says what fires then."""

    seat: int
    kind: str
    due_at: datetime


@dataclass(frozen=True, slots=True)
class Deadline:
    """A stored deadline or reminder, with where to post about it.

    Attributes:
        game_id / channel_id / guild_id: the game and its channel.
        seat: the seat that owes a decision.
        kind: ``"turn"``, ``"reminder"``, or another kind the bot uses.
        due_at: when it falls due (UTC).
    """

    game_id: int
    channel_id: int
    guild_id: int | None
    seat: int
    kind: str
    due_at: datetime


@dataclass(frozen=True, slots=True)
class SeatChange:
    """Who a seat passes to in a moderator ``replace`` or ``kick``.

    Attributes:
        seat: the seat number.
        user_id: the new Discord user, or None to hand the seat to the AI.
        display_name: the new name shown in the game.
    """

    seat: int
    user_id: int | None
    display_name: str


@dataclass(frozen=True, slots=True)
class ModeratorChange:
    """What a moderator entry changes, atomically with appending the entry itself.

    Attributes:
        allowed_from: the statuses the game must be in (else `WrongGameStatus`).
        new_status: the status to move to, if any. Moving to an ended status records
            ``ended_at`` and drops the game's deadlines.
        result: the result to record with ``new_status == finished``.
        seat_change: a seat to hand to another user or to the AI.
        remove_seat: a seat to remove (lobby only).
        deadlines: the game's deadlines to write (replacing those with the same seat
            and kind).
        expected_version: when given, the game must still be at this version.
    """

    allowed_from: frozenset[GameStatus] = OPEN_STATUSES
    new_status: GameStatus | None = None
    result: Mapping[str, Any] | None = None
    seat_change: SeatChange | None = None
    remove_seat: int | None = None
    deadlines: Sequence[DeadlineSpec] = field(default_factory=tuple)
    expected_version: int | None = None


@dataclass(frozen=True, slots=True)
class GameSettings:
    """Per-game settings of the bot's service (schema 2), chosen at creation.

    Attributes:
        game_id: the game.
        seats_wanted: how many seats the lobby offers (None: the ruleset's maximum).
        turn_deadline: how long a seat has for a decision: None for the guild's default,
            ``timedelta(0)`` for no deadline at all.
        deck_rule: ``any`` (ready-made or saved decks) or ``ready-made`` (ready-made only).
        deadline_policy: what a passed deadline does in this game (`DEADLINE_POLICIES`);
            None for the guild's default.
    """

    game_id: int
    seats_wanted: int | None = None
    turn_deadline: timedelta | None = None
    deck_rule: str = "any"
    deadline_policy: str | None = None


@dataclass(frozen=True, slots=True)
class CampaignHero:
    """A Hero that survived the last finished game of a channel (homm4 Campaigns).

    Attributes:
        channel_id: the channel the game was played in.
        user_id: the person whose seat ended the game with the Hero.
        game_id: the game it survived.
        hero: the ruleset's description of the Hero (homm4: `CarriedHero` fields without
            the seat: ``hero``, ``skills``, ``advanced``, ``spells``, ``artifacts``).
        saved_at: when it was saved.
    """

    channel_id: int
    user_id: int
    game_id: int
    hero: dict[str, Any]
    saved_at: datetime


class PingMode(StrEnum):
    """How a person is told that a decision waits for them (``/me notify ping:``).

    ``channel``: a mention in the game's channel (the default); ``dm``: a direct message
    instead (the channel line still names them, without a ping); ``both``.
    """

    CHANNEL = "channel"
    DM = "dm"
    BOTH = "both"

    @property
    def by_dm(self) -> bool:
        """Whether this mode tells by direct message."""
        return self is not PingMode.CHANNEL

    @property
    def in_channel(self) -> bool:
        """Whether this mode pings in the game's channel."""
        return self is not PingMode.DM


@dataclass(frozen=True, slots=True)
class NotifySettings:
    """How one person is told about their games (``/me notify``), the same on every server.

    Attributes:
        user_id: the Discord user.
        ping: see `PingMode`.
        time_zone: an IANA time zone name (``Europe/Berlin``); None: UTC.
        quiet_start / quiet_end: quiet hours in minutes after local midnight, 0..1439
            (``1320`` and ``420``: 22:00 to 07:00, across midnight); both None: none.
            No reminder is sent in quiet hours (a held one goes out when they end).
    """

    user_id: int
    ping: PingMode = PingMode.CHANNEL
    time_zone: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None


@dataclass(frozen=True, slots=True)
class DigestMark:
    """Where a seat's last digest DM began (``/me``'s "coming back" digest).

    Attributes:
        user_id: who held the seat when it was sent.
        since_seq: the log seq of the seat's last own command then (0: none yet); a digest
            with the same ``since_seq`` continues the same absence and is edited in place.
    """

    user_id: int
    since_seq: int


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A chat message the bot edits in place (a keyed channel post, a DM slot).

    Attributes:
        channel_id: the channel holding it (a guild channel, a thread or a DM channel).
        message_id: the message's id.
    """

    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class HeldMessage:
    """A DM that could not reach its user (their DMs are closed), kept until their next
    interaction shows it to them ephemerally (schema 8, ``held_direct_messages``).

    Attributes:
        id: the arrival order (larger is newer).
        user_id: the user it was for.
        game_id: the game it is about.
        slot: ``hand``, ``decision`` (the latest per user and game is kept) or ``notice``
            (the latest few per user).
        message: the DM as the bot serialised it (JSON text; may name the user's own
            private cards, as the DM would have).
        created_at: when it was kept.
    """

    id: int
    user_id: int
    game_id: int
    slot: str
    message: str
    created_at: datetime
