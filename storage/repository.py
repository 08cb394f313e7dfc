"""The storage interface the bot talks to; SQLite implements it first, PostgreSQL can later.

Everything above storage (the `GameService`, the bot, the console) depends only on
`Repository` and the records in `storage.records`. A backend implements the abstract
methods; the redacting log readers and the moderator helpers are written once here on top
of them, so their rules (what a public log may show, which status an action needs) cannot
drift between backends.

Every write is one transaction. `commit` is the heart of it: it appends the command and
its events to the log, writes the new snapshot and bumps the version atomically, guarded
by the version the caller read, so of two racing commits on one game exactly one lands and
the other raises the engine's `StaleState`.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel

from engine.core.model import Command, Event, GameState, Result
from engine.core.ruleset import Ruleset
from storage.errors import SeatNotFound
from storage.records import (
    ENDED_STATUSES,
    OPEN_STATUSES,
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
    LogPage,
    MessageRef,
    ModeratorAction,
    ModeratorChange,
    NotifySettings,
    PostSettle,
    SavedDeck,
    Seat,
    SeatChange,
    UndoRequest,
    UserSeat,
)

DEFAULT_PAGE = 20
"""How many log entries a page holds unless the caller asks otherwise."""


class Repository(ABC):
    """Durable games, their logs, seats, decks, guild settings and deadlines.

    Every method is a coroutine and safe to call from many tasks at once. Errors: the
    `storage.errors` classes (each with one readable line) and the engine's `StaleState`;
    `ValueError` for a programming error (e.g. a state whose version does not follow).
    """

    # ----------------------------------------------------------------- lifecycle
    @abstractmethod
    async def close(self) -> None:
        """Close the connections; the repository cannot be used afterwards."""

    async def __aenter__(self) -> Repository:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @abstractmethod
    def leader_lock(self, name: str) -> AbstractAsyncContextManager[bool]:
        """Try to become the one process (of all sharing this store) that does ``name``'s
        work, e.g. start-up recovery or the command sync; use as
        ``async with repo.leader_lock("startup") as leader: if leader: ...``.

        Never waits: the block gets True when this process holds the lock for the whole
        block, False when another holder has it (process or task; the block should then skip
        the work). The lock is released when the block exits, or when the holding process
        dies (PostgreSQL: a session advisory lock on a connection kept for the block). SQLite
        serves one process, so there it is a process-local lock per name.

        :param name: any text (hashed to the lock's key); the same name is the same lock.
        """

    # --------------------------------------------------------------------- games
    @abstractmethod
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
        """Open a lobby for a new game in ``channel_id``.

        :param options: JSON-compatible options (may change in the lobby).
        :param seed: the game's seed (default: 63 random bits); must fit a signed 64-bit int.
        :returns: the new game, status ``lobby``, version 0.
        :raises ChannelBusy: if the channel already has an open game (naming it).
        """

    @abstractmethod
    async def get_game(self, game_id: int) -> Game:
        """Return the game with its snapshot.

        :raises GameNotFound: if there is no such game.
        """

    async def game_with_seats(self, game_id: int) -> tuple[Game, list[Seat]]:
        """Return the game with its snapshot and its seats in seat order, read together
        (a backend may read both in one snapshot: one round trip instead of two).

        :raises GameNotFound: if there is no such game.
        """
        return await self.get_game(game_id), await self.seats(game_id)

    @staticmethod
    def committed_game(game: Game, entry: LogEntry, state: GameState, result: Result) -> Game:
        """The game row as a successful `commit` of ``state`` (which made ``entry``)
        left it, from the row read before it: what `get_game` would return right after,
        without the round trip. `commit` writes exactly the snapshot, the version, the
        status (``finished`` when ``result`` is, else ``active``), the result and end
        time of a finished game and ``updated_at`` (the entry's ``created_at``).
        """
        finished = result.finished
        return dataclasses.replace(
            game,
            state_json=Ruleset.dump_state(state),
            version=state.version,
            status=GameStatus.FINISHED if finished else GameStatus.ACTIVE,
            result=result.model_dump(mode="json") if finished else None,
            ended_at=entry.created_at if finished else None,
            updated_at=entry.created_at,
        )

    @abstractmethod
    async def game_in_channel(self, channel_id: int) -> Game | None:
        """Return the channel's open game (lobby, active or paused) with its snapshot, if any."""

    @abstractmethod
    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        statuses: frozenset[GameStatus] | None = None,
        before_id: int | None = None,
        limit: int = 25,
    ) -> list[GameSummary]:
        """List games newest first, e.g. a guild's archive (``statuses=ENDED_STATUSES``).

        :param before_id: return only games with a smaller id (the next page).
        :param limit: at most this many (1..500).
        """

    @abstractmethod
    async def count_active_games(self) -> int:
        """How many games are active (through the index of the open games: it reads no
        finished game)."""

    @abstractmethod
    async def games_to_resume(self) -> list[int]:
        """The ids (ascending) of the active games a restart may owe automatic moves: those
        with a computer seat, a standing order or a seat that may be away (it missed a
        deadline or chose an away period: the computer plays it). Read through an index of
        the open games, so its cost grows with the open games, not with the stored
        (finished) ones.
        """

    @abstractmethod
    async def games_for_user(
        self, user_id: int, *, statuses: frozenset[GameStatus] = OPEN_STATUSES
    ) -> list[UserSeat]:
        """Return the games ``user_id`` sits in with their seat, most recently updated first."""

    # --------------------------------------------------------------------- lobby
    @abstractmethod
    async def update_options(self, game_id: int, options: Mapping[str, Any]) -> Game:
        """Replace a lobby's options.

        :raises GameNotFound | WrongGameStatus: if the game is not in its lobby.
        """

    @abstractmethod
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
        """Seat ``user_id`` in the lobby at the lowest free seat number.

        :param max_seats: the ruleset's ``max_players``; checked atomically.
        :raises GameNotFound | WrongGameStatus | AlreadySeated | LobbyFull | DeckNotFound:
            (a saved deck must belong to ``user_id``).
        """

    @abstractmethod
    async def add_ai_seat(
        self,
        game_id: int,
        *,
        display_name: str,
        ready_deck: str | None = None,
        max_seats: int | None = None,
        ai_level: str | None = None,
    ) -> Seat:
        """Add a computer seat to the lobby at the lowest free seat number, playing at
        ``ai_level`` (``easy``, ``normal``, ``hard``; None: ``easy``; schema 11).

        :raises GameNotFound | WrongGameStatus | LobbyFull:
        """

    @abstractmethod
    async def leave_game(self, game_id: int, user_id: int) -> None:
        """Remove ``user_id``'s seat from the lobby.

        :raises GameNotFound | WrongGameStatus | SeatNotFound:
        """

    @abstractmethod
    async def choose_deck(
        self,
        game_id: int,
        seat: int,
        *,
        ready_deck: str | None = None,
        saved_deck_id: int | None = None,
    ) -> Seat:
        """Set a lobby seat's deck: a ready-made deck id or a saved deck (or neither).

        :raises ValueError: if both are given.
        :raises GameNotFound | WrongGameStatus | SeatNotFound | DeckNotFound:
        """

    @abstractmethod
    async def seats(self, game_id: int) -> list[Seat]:
        """Return the game's seats in seat order (empty for an unknown game)."""

    @abstractmethod
    async def set_dm_reachable(self, user_id: int, reachable: bool) -> int:
        """Record whether DMs reach ``user_id``, on their seats in every open game.

        :returns: the number of seats updated.
        """

    @abstractmethod
    async def start_game(
        self,
        game_id: int,
        *,
        state: GameState,
        events: Sequence[Event],
        options: BaseModel | Mapping[str, Any],
        actor_user_id: int | None,
    ) -> Game:
        """Start a lobby: renumber its seats 0..n-1 in seat order, store the initial state.

        The caller builds ``state, events = ruleset.new_game(options, len(seats), game.seed)``
        from the seats as `seats` returned them; the ``setup`` log entry records ``events``.

        :param options: the final options given to ``new_game`` (stored for replay).
        :raises ValueError: if ``state`` is not version 0, has another seed, or another
            number of players than the lobby has seats.
        :raises GameNotFound | WrongGameStatus:
        """

    # ------------------------------------------------------------------- commits
    @abstractmethod
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
        """Record one applied command: log entry, new snapshot and version in one transaction.

        :param expected_version: the version the command was applied to;
            ``state.version`` must be ``expected_version + 1``.
        :param actor_user_id: who acted (the seat's player, a moderator skipping for it,
            None for the AI).
        :param reason: why, when someone acted for the seat (e.g. a deadline default).
        :param result: ``ruleset.result(state)``; a finished result ends the game
            (status ``finished``, deadlines dropped).
        :param deadlines: when given, replaces all of the game's deadlines.
        :returns: the new log entry (unredacted; show it with `LogEntry.public`).
        :raises StaleState: if the game is no longer at ``expected_version``.
        :raises GameNotFound | WrongGameStatus: (e.g. paused by a moderator meanwhile).
        :raises ValueError: if ``state.version != expected_version + 1``.
        """

    @abstractmethod
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
        """Append an ``undo`` entry cancelling each command of ``undone_seqs`` and store
        ``state``, in ONE transaction: the entries (newest command first; each must be the
        last command in effect once the ones before it are undone) at versions
        ``expected_version + 1 .. expected_version + len(undone_seqs)``, and ``state`` (the
        position without all of them) stored at the last. A finished game becomes active
        again. Use `storage.replay.undo_last_commands` (or `undo_last_command` for one),
        which rebuilds ``state`` by replaying the log without those commands. Either every entry is written or none: a crash half-way
        through a multi-move undo leaves the game as it was. Each version's news is owed
        (``undelivered_commits``, schema 8) from the same transaction. ``deadlines``, when
        given, replace every deadline of the game in it too (the seats owing a decision
        again in the restored position), so a crash never leaves them without one.

        :returns: the undo entries, in the order of ``undone_seqs``.
        :raises StaleState: if the game is no longer at ``expected_version``.
        :raises NothingToUndo: if a command is not the last in effect in its turn.
        :raises GameNotFound | WrongGameStatus | ChannelBusy: (abandoned games cannot be
            undone; a finished game cannot reopen while its channel has another game).
        :raises ValueError: if ``undone_seqs`` is empty or ``state.version`` is not
            ``expected_version + len(undone_seqs)``.
        """

    @abstractmethod
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
        """Append a moderator entry and apply ``change`` in the same transaction.

        The helpers below (`pause`, `resume`, `end_game`, `kick`, `replace_seat`,
        `moderator_deadline`, `record_verification`) are the usual way in.

        :param details: public JSON facts about the action (never hidden information).
        :raises GameNotFound | WrongGameStatus | SeatNotFound | StaleState | ChannelBusy:
        """

    # ----------------------------------------------------------------------- log
    @abstractmethod
    async def read_log_unredacted(
        self,
        game_id: int,
        *,
        after_seq: int = 0,
        before_seq: int | None = None,
        limit: int = DEFAULT_PAGE,
    ) -> LogPage:
        """Read log entries with every private line and command: for replay and audits only.

        Never show these to a channel; use `read_log` (public) or `read_log_for_seat`.

        :param after_seq: entries with a larger seq, oldest first (the next page).
        :param before_seq: when given, the ``limit`` entries just before it (the
            previous page), still returned oldest first.
        :param limit: 1..1000 entries.
        """

    async def read_log(
        self,
        game_id: int,
        *,
        after_seq: int = 0,
        before_seq: int | None = None,
        limit: int = DEFAULT_PAGE,
    ) -> LogPage:
        """Read a page of the public log: what anyone in the channel may see.

        Entries carry only public event parts and no command JSON. Paging as in
        `read_log_unredacted`.
        """
        page = await self.read_log_unredacted(
            game_id, after_seq=after_seq, before_seq=before_seq, limit=limit
        )
        return LogPage(tuple(e.public() for e in page.entries), page.has_more)

    async def read_log_for_seat(
        self,
        game_id: int,
        seat: int,
        *,
        after_seq: int = 0,
        before_seq: int | None = None,
        limit: int = DEFAULT_PAGE,
    ) -> LogPage:
        """Read a page of the log as ``seat`` may see it (public parts plus its own lines).

        For a DM or an ephemeral reply to that seat's player only.
        """
        page = await self.read_log_unredacted(
            game_id, after_seq=after_seq, before_seq=before_seq, limit=limit
        )
        return LogPage(tuple(e.for_seat(seat) for e in page.entries), page.has_more)

    # ----------------------------------------------------------------- deadlines
    @abstractmethod
    async def set_deadline(self, game_id: int, deadline: DeadlineSpec) -> None:
        """Set (or move) the deadline of ``deadline.seat`` and ``deadline.kind``.

        :raises GameNotFound:
        """

    @abstractmethod
    async def clear_deadlines(
        self, game_id: int, *, seat: int | None = None, kind: str | None = None
    ) -> int:
        """Delete the game's deadlines (only ``seat``'s / of ``kind`` when given).

        :returns: how many were deleted.
        """

    @abstractmethod
    async def deadlines(self, game_id: int | None = None) -> list[Deadline]:
        """Return the deadlines of active games (one game's when given), soonest first.

        The bot reads these back on start to schedule its timers.
        """

    @abstractmethod
    async def due_deadlines(self, now: datetime) -> list[Deadline]:
        """Return the deadlines of active games due at or before ``now``, soonest first.

        Paused games' deadlines wait; ended games have none.
        """

    @abstractmethod
    async def claim_deadline(
        self,
        deadline: Deadline,
        *,
        clear_seat: bool = False,
        then: DeadlineSpec | None = None,
        hold_until: datetime | None = None,
        missed: bool = False,
    ) -> bool:
        """Take a due deadline for acting on it, once: delete it if it is still stored with
        the same ``due_at`` and, in the same transaction, the seat's other deadlines
        (``clear_seat``), count a missed deadline for the seat (``missed``: schema 6's
        ``seat_presence``) and write ``then`` (the next reminder). With ``hold_until`` it is
        kept as its held kind (``kind`` + `SENT`, due then) until
        `settle_deadline_posts` confirms its post; a held deadline claimed again stays held.

        :returns: False when it was already taken (by another tick or process) or moved.
        """

    @abstractmethod
    async def settle_deadline_posts(self, settles: Sequence[PostSettle]) -> None:
        """Confirm that the posts of held deadlines went out: delete the held deadlines and
        forget the posts' message refs, in one transaction."""

    @abstractmethod
    async def set_away(self, game_id: int, seat: int, until: datetime | None) -> None:
        """Mark ``seat`` away until ``until`` (``/game away``); None brings it back: no
        away period and no missed deadline counted (``/game back``).

        :raises GameNotFound:
        """

    @abstractmethod
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
        """Move ``seat``'s turn deadline ``by`` later (one transaction): at most once per
        ``turn`` and ``max_count`` times per game. The seat's reminder is set ``reminder``
        before the new deadline (None: none).

        :raises ExtensionRefused: no turn deadline, already extended this turn, or no
            extension left (nothing changed).
        """

    @abstractmethod
    async def record_skip_vote(
        self, game_id: int, seat: int, version: int, voter_user_id: int
    ) -> int:
        """Record a vote to skip ``seat``'s overdue decision at ``version`` (a second vote
        by the same person counts once; votes at older versions are dropped).

        :returns: how many people have voted so at ``version``.
        """

    # --------------------------------------------------------------------- decks
    @abstractmethod
    async def save_deck(
        self, user_id: int, *, ruleset: str, name: str, cards: Sequence[str]
    ) -> SavedDeck:
        """Save a deck, replacing the user's deck of the same name for that ruleset."""

    @abstractmethod
    async def list_decks(self, user_id: int, *, ruleset: str | None = None) -> list[SavedDeck]:
        """Return the user's saved decks by ruleset and name."""

    @abstractmethod
    async def get_deck(self, deck_id: int) -> SavedDeck:
        """Return a saved deck.

        :raises DeckNotFound:
        """

    @abstractmethod
    async def delete_deck(self, deck_id: int, *, user_id: int) -> bool:
        """Delete ``user_id``'s deck ``deck_id``; lobby seats that chose it lose the choice.

        :returns: whether a deck was deleted.
        """

    # ------------------------------------------------------------ guild settings
    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """Return the guild's settings (the defaults if it never saved any)."""

    @abstractmethod
    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Store a guild's settings, replacing the previous ones."""

    # ------------------------------------------- game settings and standing orders
    @abstractmethod
    async def game_settings(self, game_id: int) -> GameSettings:
        """Return the game's service settings (defaults when none were saved)."""

    async def deadline_settings(
        self, game_id: int, guild_id: int | None
    ) -> tuple[GameSettings, GuildSettings]:
        """Return the game's settings and its guild's (the defaults of guild 0 without a
        guild), read together (a backend may read both in one round trip)."""
        guild = await self.guild_settings(guild_id) if guild_id is not None else GuildSettings(0)
        return await self.game_settings(game_id), guild

    @abstractmethod
    async def save_game_settings(self, settings: GameSettings) -> None:
        """Store a game's service settings, replacing the previous ones.

        :raises GameNotFound: if there is no such game.
        """

    @abstractmethod
    async def standing_orders(self, game_id: int) -> dict[int, dict[str, str]]:
        """Return the game's standing orders: seat -> {order kind -> value}."""

    @abstractmethod
    async def set_standing_order(
        self, game_id: int, seat: int, kind: str, value: str | None
    ) -> None:
        """Set (or with ``value=None`` clear) one standing order of ``seat``.

        :raises GameNotFound: if there is no such game.
        """

    # ------------------------------------------------------------- message ids
    @abstractmethod
    async def message_ref(self, scope: str, key: str) -> MessageRef | None:
        """Return the message remembered under ``(scope, key)``, or None.

        The bot keeps here the ids of chat messages it edits in place: ``scope`` names
        where (``post:{channel_id}``, ``dm:{user_id}:{game_id}``), ``key`` which one
        (``status``, ``hand``...). Losing one is harmless: the next message is sent anew.
        """

    @abstractmethod
    async def put_message_ref(self, scope: str, key: str, ref: MessageRef) -> None:
        """Remember ``ref`` under ``(scope, key)``, replacing any earlier one."""

    @abstractmethod
    async def forget_message_ref(self, scope: str, key: str) -> None:
        """Drop the message remembered under ``(scope, key)`` (nothing if there is none)."""

    # --------------------------------------------- news owed and held DMs (schema 8)
    @abstractmethod
    async def undelivered_news(self, limit: int = 1000) -> list[tuple[int, int]]:
        """The commits whose news (channel posts, pings, DMs) was not confirmed delivered:
        ``(game_id, version)`` pairs, ``version`` being the version a command (or a game's
        setup: 0) left, ordered by game then version, at most ``limit``. Every commit
        leaves one in the same transaction (`commit`, `start_game`); `news_delivered`
        removes them. Costs one indexed read of these rows only (a handful), however many
        games are stored.

        :raises ValueError: if ``limit`` is not 1..100000.
        """

    @abstractmethod
    async def news_delivered(self, game_id: int, after_version: int, version: int) -> int:
        """Confirm the news of game ``game_id``'s commits that left versions
        ``after_version + 1 .. version`` delivered: drop their rows and the ids of the
        channel messages posted for them (scope ``news:{game_id}:{version}``), in one
        statement.

        :returns: how many commits were confirmed (0 when already done: harmless).
        """

    @abstractmethod
    async def hold_direct_message(
        self, user_id: int, game_id: int, slot: str, message: str, *, notices_kept: int = 5
    ) -> None:
        """Keep a DM that could not reach ``user_id`` (DMs closed) for their next
        interaction. A ``hand`` or ``decision`` DM replaces the one kept for the same
        (user, game, slot); of ``notice`` DMs the newest ``notices_kept`` per user stay.

        :param message: the DM, serialised by the caller (JSON text).
        :raises ValueError: for a slot other than ``hand``, ``decision``, ``notice``.
        """

    @abstractmethod
    async def held_messages(self, user_id: int) -> list[HeldMessage]:
        """Every DM kept for ``user_id``, oldest first (left in place)."""

    @abstractmethod
    async def take_held_messages(self, user_id: int) -> list[HeldMessage]:
        """Remove and return every DM kept for ``user_id``, oldest first (one statement:
        of two processes taking them at once, one gets them)."""

    @abstractmethod
    async def drop_held_message(self, user_id: int, game_id: int, slot: str) -> None:
        """Forget the DM kept for ``(user_id, game_id, slot)`` (a newer one got through)."""

    @abstractmethod
    async def users_with_held_messages(self) -> set[int]:
        """The users who have DMs kept for them (read once at start; indexed)."""

    # ------------------------------------------------ notices and digests (/me)
    @abstractmethod
    async def notify_settings(self, user_ids: Sequence[int]) -> dict[int, NotifySettings]:
        """Return how each of ``user_ids`` is told about their games, by user id (the
        defaults, `NotifySettings(user_id)`, for those who never chose)."""

    @abstractmethod
    async def save_notify_settings(self, settings: NotifySettings) -> None:
        """Store a person's notify settings, replacing their earlier ones."""

    @abstractmethod
    async def last_own_command(self, game_id: int, seat: int, user_id: int) -> int:
        """The log seq of the newest command applied as ``seat`` by ``user_id`` themselves
        (not by the computer, standing orders or a moderator for them); 0 if none."""

    @abstractmethod
    async def digest_mark(self, game_id: int, seat: int) -> DigestMark | None:
        """Where ``seat``'s last digest began, or None if it never had one."""

    @abstractmethod
    async def set_digest_mark(self, game_id: int, seat: int, mark: DigestMark) -> None:
        """Remember where ``seat``'s latest digest began (replacing the earlier mark).

        :raises GameNotFound: if there is no such game.
        """

    # ------------------------------------------------------ undo requests (schema 7)
    @abstractmethod
    async def save_undo_request(self, request: UndoRequest) -> None:
        """Store ``request`` as the game's waiting ``/undo`` (replacing any earlier one).

        :raises GameNotFound | WrongGameStatus: unless the game exists and is active.
        :raises StaleState: if the game is no longer at ``request.version``.
        """

    @abstractmethod
    async def undo_request(self, game_id: int) -> UndoRequest | None:
        """Return the game's stored ``/undo`` request, if any (it may have lapsed: compare
        its ``version`` with the game's)."""

    @abstractmethod
    async def agree_to_undo(self, game_id: int, *, version: int, seat: int) -> UndoRequest:
        """Record that ``seat`` agrees to the game's request made at ``version`` (agreeing
        twice is harmless) and return the request as it now stands.

        :raises NothingToUndo: if no request made at ``version`` waits, or ``seat`` is not
            one of those it needs.
        """

    @abstractmethod
    async def drop_undo_request(self, game_id: int, *, version: int | None = None) -> bool:
        """Delete the game's request (only the one made at ``version`` when given).

        :returns: whether one was deleted.
        """

    # ---------------------------------------------------------------- campaigns
    @abstractmethod
    async def save_campaign_heroes(
        self, channel_id: int, game_id: int, heroes: Sequence[tuple[int, Mapping[str, Any]]]
    ) -> None:
        """Replace the channel's surviving Heroes with ``heroes`` (``(user_id, hero)``
        pairs, in order) of the finished game ``game_id`` (homm4 Campaigns). An empty list
        clears them.

        :raises GameNotFound: if there is no game ``game_id``.
        """

    @abstractmethod
    async def campaign_heroes(self, channel_id: int) -> list[CampaignHero]:
        """Return the Heroes saved for ``channel_id`` by its last finished game, in order
        (empty when none)."""

    # ---------------------------------------------------------------- command sync
    @abstractmethod
    async def command_tree_hash(self, scope: str) -> str | None:
        """The hash of the command tree last synced to Discord for ``scope``
        (``global:{application_id}`` or ``guild:{application_id}:{guild_id}``), or None
        when none was recorded (schema 11, ``command_syncs``)."""

    @abstractmethod
    async def save_command_tree_hash(self, scope: str, tree_hash: str) -> None:
        """Record that the command tree with hash ``tree_hash`` (hex text) was synced to
        ``scope`` now (replacing the scope's earlier hash)."""

    # ---------------------------------------------------------- moderator helpers
    async def pause(self, game_id: int, *, moderator_user_id: int | None, reason: str) -> LogEntry:
        """Pause an active game: commands are refused and deadlines wait until `resume`.

        :raises GameNotFound | WrongGameStatus:
        """
        change = ModeratorChange(
            allowed_from=frozenset({GameStatus.ACTIVE}), new_status=GameStatus.PAUSED
        )
        return await self.moderate(
            game_id,
            ModeratorAction.PAUSE,
            moderator_user_id=moderator_user_id,
            reason=reason,
            change=change,
        )

    async def resume(self, game_id: int, *, moderator_user_id: int | None, reason: str) -> LogEntry:
        """Resume a paused game.

        :raises GameNotFound | WrongGameStatus:
        """
        change = ModeratorChange(
            allowed_from=frozenset({GameStatus.PAUSED}), new_status=GameStatus.ACTIVE
        )
        return await self.moderate(
            game_id,
            ModeratorAction.RESUME,
            moderator_user_id=moderator_user_id,
            reason=reason,
            change=change,
        )

    async def end_game(
        self,
        game_id: int,
        *,
        moderator_user_id: int | None,
        reason: str,
        status: GameStatus = GameStatus.ABANDONED,
        result: Result | None = None,
    ) -> LogEntry:
        """End an open game (``abandoned``, or ``finished`` with a ``result``); it is archived.

        :raises ValueError: if ``status`` is not an ended status.
        :raises GameNotFound | WrongGameStatus:
        """
        if status not in ENDED_STATUSES:
            raise ValueError(f"end_game needs an ended status, got {status!r}")
        change = ModeratorChange(
            new_status=status,
            result=result.model_dump(mode="json") if result is not None else None,
        )
        return await self.moderate(
            game_id,
            ModeratorAction.END,
            moderator_user_id=moderator_user_id,
            reason=reason,
            change=change,
            details={"status": status.value},
        )

    async def kick(
        self, game_id: int, seat: int, *, moderator_user_id: int | None, reason: str
    ) -> LogEntry:
        """Remove a seat's player: in the lobby the seat goes, in a game the AI takes it over.

        :raises GameNotFound | WrongGameStatus | SeatNotFound:
        """
        game = await self.get_game(game_id)
        current = {s.seat: s for s in await self.seats(game_id)}
        if seat not in current:
            raise SeatNotFound(f"Game #{game_id} has no seat {seat}.")
        if game.status is GameStatus.LOBBY:
            change = ModeratorChange(allowed_from=frozenset({GameStatus.LOBBY}), remove_seat=seat)
        else:
            change = ModeratorChange(
                allowed_from=frozenset({GameStatus.ACTIVE, GameStatus.PAUSED}),
                seat_change=SeatChange(seat, None, current[seat].display_name),
            )
        return await self.moderate(
            game_id,
            ModeratorAction.KICK,
            moderator_user_id=moderator_user_id,
            reason=reason,
            change=change,
            seat=seat,
            details={"user_id": current[seat].user_id},
        )

    async def replace_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None,
        display_name: str,
        moderator_user_id: int | None,
        reason: str,
    ) -> LogEntry:
        """Hand a seat of an open game to another user (or to the AI with ``user_id=None``).

        :raises GameNotFound | WrongGameStatus | SeatNotFound | AlreadySeated:
        """
        return await self.moderate(
            game_id,
            ModeratorAction.REPLACE,
            moderator_user_id=moderator_user_id,
            reason=reason,
            change=ModeratorChange(seat_change=SeatChange(seat, user_id, display_name)),
            seat=seat,
            details={"user_id": user_id, "display_name": display_name},
        )

    async def moderator_deadline(
        self,
        game_id: int,
        deadline: DeadlineSpec,
        *,
        moderator_user_id: int | None,
        reason: str,
    ) -> LogEntry:
        """Set or move a seat's deadline by a moderator's decision, logged with who and why.

        :raises GameNotFound | WrongGameStatus: (active or paused games only).
        """
        change = ModeratorChange(
            allowed_from=frozenset({GameStatus.ACTIVE, GameStatus.PAUSED}),
            deadlines=(deadline,),
        )
        return await self.moderate(
            game_id,
            ModeratorAction.DEADLINE,
            moderator_user_id=moderator_user_id,
            reason=reason,
            change=change,
            seat=deadline.seat,
            details={"kind": deadline.kind, "due_at": deadline.due_at.isoformat()},
        )

    async def record_verification(
        self,
        game_id: int,
        *,
        ok: bool,
        difference: str | None,
        moderator_user_id: int | None,
        reason: str = "",
    ) -> LogEntry:
        """Log the outcome of a moderator's ``verify`` (see `storage.replay.verify_game`).

        :param difference: where replay and snapshot first differ (a JSON path, never the
            values, which may be hidden cards), or None.
        """
        return await self.moderate(
            game_id,
            ModeratorAction.VERIFY,
            moderator_user_id=moderator_user_id,
            reason=reason,
            change=ModeratorChange(allowed_from=frozenset(GameStatus)),
            details={"ok": ok, "difference": difference},
        )
