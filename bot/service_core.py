"""The heart of the `GameService`: load by channel, apply, commit, play the computer seats,
and turn what happened into an `Outbox`.

Every state change goes: take the game's `asyncio.Lock` → read the game from storage →
``ruleset.apply`` (in a worker thread) → ``repo.commit`` guarded by the version read →
the automatic answers (computer seats, standing orders), each committed the same way →
render pictures (worker thread) → build the outbox. Storage's version guard also covers
other processes. Before the first commit nothing catches unexpected exceptions: a failed
action changes nothing, because each commit is atomic. After it the move stands, so a
failure there is never reported as a refusal: automatic play that fails stops with a note
(`play_automatic`), a picture that cannot be drawn is left out, and narration that fails
still says the move was applied and posts its public lines (`narrate`); each is logged.

Each position is asked about once: a commit makes a `Position` (pending decisions, result,
turn record, views, legal commands) that the deadlines, the automatic play, the narration,
the DMs and the pictures share, and the row the commit left (`Repository.committed_game`)
instead of reading the game again. The service keeps each game's latest position (with
its public view, without the seats' views) for the next action, used only while the stored
state is exactly its text.

Under the lock, `act` checks again what was checked before it: the seat still belongs to
the person acting (a moderator may have replaced or kicked them meanwhile), and a typed
command (no version of its own, unlike a button) is refused when its seat already had a
command committed since the version read when it arrived — so a command sent twice at
once applies once, while two seats acting at once both go through.

Privacy: channel text is built only from ``Event.text``, pictures only from
``public_view``; private event lines and Hand / Risk Stack cards go to their seat's DM or
to the acting player's ephemeral reply.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from bot import customids, digest, notify
from bot.actors import Actor
from bot.adapters import DecisionUI, RulesetAdapter, adapter_for
from bot.computer import ComputerPlayers, computer_command
from bot.errors import GamePaused, NoGameHere, NotSeated, WrongStage, failure_text
from bot.outbox import (
    PANEL_TEXT_LIMIT,
    Button,
    ChannelPost,
    Component,
    DirectMessage,
    Image,
    Outbox,
    Receipt,
    Reply,
    stamped,
)
from bot.render import DEFAULT_RENDERER, Renderer, for_game
from engine.core.errors import RuleViolation, StaleState
from engine.core.model import Command, Decision, Event, GameState, Result, TurnRecord, seat_name
from engine.core.ruleset import Ruleset, get_ruleset
from storage.errors import StorageError, WrongGameStatus
from storage.records import (
    Deadline,
    DeadlineSpec,
    Game,
    GameStatus,
    LogEntry,
    LogKind,
    Seat,
)
from storage.repository import Repository

log = logging.getLogger(__name__)

MAX_TEXT = 1900
"""Channel and DM texts are cut into messages of at most this many characters."""

REPLY_TEXT = 2000
"""Discord's limit of one message's text: a private answer sent as one reply, never cut
into several (/help COMMAND), may fill it."""

NO_PICTURE = "⚠️ The picture could not be drawn this time (logged); /game status tries again."
"""Said, after a committed move, when its picture failed (the move's text is posted)."""

REMINDER_SHARE = 0.75
"""Without a reminder cadence, one reminder comes at this share of the deadline."""

KEPT_POSITIONS = 256
"""How many games' latest positions the service keeps between actions (`Position`)."""


def utc_now() -> datetime:
    """The current time, UTC-aware (the service's default clock)."""
    return datetime.now(UTC)


def discord_time(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp (``<t:1700000000:R>``: "in 3 hours" in each reader's locale)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def chunks(lines: Iterable[str], limit: int = MAX_TEXT) -> list[str]:
    """Join lines into texts of at most ``limit`` characters (long lines are cut)."""
    out: list[str] = []
    current = ""
    for raw in lines:
        line = raw if len(raw) <= limit else raw[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


NEXT_IN_CHANNEL = " — your next decision is asked in the game's channel."
"""The end of a cleared decision DM when its person owes a decision in the channel next."""


class Position:
    """One position of a game and what the service asks the engine about it, each asked
    at most once: after a commit the service makes one and hands it to the deadlines,
    the automatic play, the narration, the DMs and the pictures.

    Attributes (each computed on first use, then kept):
        state: the engine state (never changed: ``Ruleset.apply`` works on a copy).
        pending: the decisions owed (`Ruleset.pending`), as a tuple.
        result: `Ruleset.result`.
        turn: the turn record (`Ruleset.turn`).
        public_view: what everyone may see (`Ruleset.public_view`).
    Per seat: `legal` (its legal commands), `default` (its default command, None when it
    owes nothing) and `view` (its private view). Other answers about the position (a
    decision's buttons, `ServiceCore.decision_ui`) are kept with `answer`.
    """

    def __init__(
        self,
        state: GameState,
        rules: Ruleset[Any] | None = None,
        *,
        shares: Position | None = None,
    ) -> None:
        """:param rules: the state's ruleset (looked up from ``state.ruleset`` if None).
        :param shares: a position of the same state whose answers about the flow
            (pending, result, turn, legal and default commands) this one shares."""
        self.state = state
        self.rules: Ruleset[Any] = rules if rules is not None else get_ruleset(state.ruleset)
        self._answers: dict[Hashable, Any] = {} if shares is None else shares._answers
        self._legal: dict[int, tuple[Command, ...]] = {} if shares is None else shares._legal
        self._default: dict[int, Command | None] = {} if shares is None else shares._default
        self._views: dict[int, BaseModel] = {}

    @property
    def version(self) -> int:
        """The state's version."""
        return self.state.version

    def answer(self, key: Hashable, ask: Callable[[], Any]) -> Any:
        """The answer ``key`` about this position, asked once (``ask()``, which must
        depend on nothing but the position and the key) and kept (shared with the
        positions that carry this one's answers, `carried`)."""
        if key not in self._answers:
            self._answers[key] = ask()
        return self._answers[key]

    @property
    def pending(self) -> tuple[Decision, ...]:
        """The decisions owed now."""
        found: tuple[Decision, ...] = self.answer(
            "pending", lambda: tuple(self.rules.pending(self.state))
        )
        return found

    @property
    def result(self) -> Result:
        """The game's result."""
        found: Result = self.answer("result", lambda: self.rules.result(self.state))
        return found

    @property
    def turn(self) -> TurnRecord:
        """The turn record."""
        found: TurnRecord = self.answer("turn", lambda: self.rules.turn(self.state))
        return found

    @property
    def public_view(self) -> BaseModel:
        """What everyone may see (no hidden card); one a game, so it is carried too."""
        found: BaseModel = self.answer("public_view", lambda: self.rules.public_view(self.state))
        return found

    def legal(self, seat: int) -> list[Command]:
        """``seat``'s legal commands (a new list each call; empty when it owes nothing)."""
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = tuple(self.rules.legal_commands(self.state, seat))
        return list(found)

    def default(self, seat: int) -> Command | None:
        """``seat``'s default command, None when the rules give none (it owes nothing)."""
        if seat not in self._default:
            try:
                self._default[seat] = self.rules.default_command(self.state, seat)
            except RuleViolation:
                self._default[seat] = None
        return self._default[seat]

    def view(self, seat: int) -> BaseModel:
        """What ``seat`` may see (its own hidden cards included)."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = self.rules.view(self.state, seat)
        return found

    def carried(self) -> Position:
        """A position of the same state sharing the answers about the game's flow, its
        public view and decisions' buttons, but no seat's view (what the service keeps
        between actions: a seat's view is large and there is one a seat)."""
        return Position(self.state, self.rules, shares=self)


AUTOMATIC_REASONS = {
    "computer": "computer player",
    "away": "away: computer player",
    "orders": "standing orders",
}
"""The log reason of each kind of automatic answer (`ServiceCore.automatic_command`)."""


@dataclass(frozen=True)
class DeadlineRules:
    """What a game's deadlines are and do (`ServiceCore.deadline_rules`).

    Attributes:
        length: how long a seat has for a decision (None: no deadline).
        cadence: how often a waiting seat is reminded (None: once, at 75%).
        policy: what a passed deadline does: ``remind``, ``default`` or ``computer``
            (`storage.records.DEADLINE_POLICIES`).
        policy_source: ``game`` (chosen at /game new or /game options) or ``server``
            (the /settings default).
        away_after: missed deadlines in a row that make a seat away.
        away_max: how far ahead /game away may reach.
        extensions: /game extend per seat and game.
        extension_max: the longest single extension.
    """

    length: timedelta | None
    cadence: timedelta | None
    policy: str = "remind"
    policy_source: str = "server"
    away_after: int = 2
    away_max: timedelta = timedelta(hours=72)
    extensions: int = 2
    extension_max: timedelta = timedelta(hours=24)


@dataclass
class Step:
    """One command applied to a game.

    Attributes:
        seat: the seat it was applied as.
        command: the command.
        events: its events (whole: public and private parts).
        by: ``None`` when a person chose it, else ``"computer"``, ``"away"`` (the
            computer for an away seat), ``"orders"``, ``"moderator"`` (a skip),
            ``"deadline"`` (a passed deadline's policy) or ``"vote"`` (a vote to skip).
    """

    seat: int
    command: Command
    events: list[Event]
    by: str | None = None


@dataclass
class Batch:
    """Everything one service action changed in one game.

    Attributes:
        game: the game row after the last commit.
        seats: the game's seats.
        before / after: the states before the first and after the last command (None
            when the game has no state yet).
        steps: the commands applied, in order.
        deadlines: the deadlines written with the last commit, by seat.
        started: the action started the game.
        automation_error: why automatic play stopped early, if it did.
        positions: the `Position` of ``before`` and ``after`` (see `position`).
        lengths: the deadline and reminder cadence, once read (`deadline_length`).
        kept_deadlines: the game's deadlines as the last commit left them, once known.
        rules: the game's deadline rules, once read (`deadline_rules`).
        hand_refresh: seats whose Hand DM is sent afresh even if nothing of theirs
            changed (a player who took back a move, `bot.undo`).
        again: the batch was rebuilt from the log to deliver its news a second time
            (`bot.news`).
        acted_by: in a rebuilt batch, the person whose own command began it (the one
            who acted: no digest of their own move is sent to them); in a player's undo,
            the player who asked for it.
    """

    game: Game
    seats: list[Seat]
    before: GameState | None
    after: GameState | None
    steps: list[Step] = field(default_factory=list)
    deadlines: dict[int, datetime] = field(default_factory=dict)
    started: bool = False
    automation_error: str | None = None
    positions: list[Position] = field(default_factory=list)
    lengths: tuple[timedelta | None, timedelta | None] | None = None
    kept_deadlines: list[DeadlineSpec] | None = None
    rules: DeadlineRules | None = None
    hand_refresh: set[int] = field(default_factory=set)
    again: bool = False
    acted_by: int | None = None

    def receipt(self) -> Receipt | None:
        """The commits this batch's news covers (`bot.outbox.Receipt`): the versions after
        ``before`` up to ``after``, and the setup's version 0 too when the batch started the
        game; None when it committed nothing."""
        if self.before is None or self.after is None:
            return None
        first = self.before.version
        if self.started and first == 0:
            first = -1
        if self.after.version <= first:
            return None
        return Receipt(self.game.id, first, self.after.version, again=self.again)

    def position(self, state: GameState) -> Position:
        """The `Position` of ``state`` (the batch's ``before`` or ``after``), made once."""
        found = next((p for p in self.positions if p.state is state), None)
        if found is None:
            found = Position(state)
            self.positions.append(found)
        self.positions = [
            p for p in self.positions if p.state is self.before or p.state is self.after
        ]
        return found

    def adopt(self, position: Position) -> None:
        """Use ``position`` for its state (made elsewhere: a commit, the kept one)."""
        self.positions = [p for p in self.positions if p.state is not position.state] + [position]


class ServiceCore:
    """Shared machinery of the `GameService` (see the module docstring)."""

    def __init__(
        self,
        repo: Repository,
        *,
        renderer: Renderer | None = DEFAULT_RENDERER,
        clock: Callable[[], datetime] = utc_now,
        max_auto_steps: int = 400,
        computer: ComputerPlayers | None = None,
    ) -> None:
        """Create the service.

        :param repo: the storage (one per process; shared by every game).
        :param renderer: draws the pictures; None posts text only (tests, slow hosts).
        :param clock: returns the current UTC time (tests pass a fake one).
        :param max_auto_steps: how many automatic commands (computer seats, standing
            orders) one action may play before yielding; the rest continue on the next
            action or `GameService.due_reminders` call.
        :param computer: how computer players play (`bot.computer.ComputerPlayers`: the
            search budget, the level of a person's seat played for them); default: people's
            seats are played, and computer seats added without a level play, at ``easy``
            (a service built without settings plays as before levels existed; the bot
            passes its settings: ``normal``).
        """
        self.repo = repo
        self.computer = computer or ComputerPlayers(away_level="easy", seat_level="easy")
        self.renderer = renderer
        self.clock = clock
        self.max_auto_steps = max_auto_steps
        self._locks: dict[int, asyncio.Lock] = {}
        self._unfinished: set[int] = set()
        self._kept: OrderedDict[int, tuple[str, Position]] = OrderedDict()

    # ------------------------------------------------------------------ lookups
    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that serialises changes to one game in this process."""
        found = self._locks.get(game_id)
        if found is None:
            found = self._locks[game_id] = asyncio.Lock()
        return found

    async def game_here(self, channel_id: int | None) -> Game:
        """The open game of ``channel_id``.

        :raises NoGameHere: if there is none (or the command came from a DM); after a game
            ended, the message says so and points to /game status, /game log and /game new.
        """
        if channel_id is None:
            raise NoGameHere("Use this in the game's channel (there is no game in a DM).")
        game = await self.repo.game_in_channel(channel_id)
        if game is None:
            archive = await self.repo.list_games(channel_id=channel_id, limit=1)
            if archive:
                over = "is over" if archive[0].status is GameStatus.FINISHED else "was ended"
                raise NoGameHere(
                    f"Game #{archive[0].id} in this channel {over}; /game status and /game log "
                    "still show it. Start a new one with /game new."
                )
            raise NoGameHere(
                "There is no game in this channel. Start one with /game new, or go to the "
                "channel where your game is played."
            )
        return game

    async def latest_game_here(self, channel_id: int | None) -> Game:
        """The channel's open game, else its most recent finished or abandoned one (for
        the log, the status and a moderator's verify after the end).

        :raises NoGameHere: if the channel never had a game.
        """
        if channel_id is not None:
            found = await self.repo.game_in_channel(channel_id)
            if found is not None:
                return found
            archive = await self.repo.list_games(channel_id=channel_id, limit=1)
            if archive:
                return await self.repo.get_game(archive[0].id)
        return await self.game_here(channel_id)

    @staticmethod
    def seat_of(seats: Sequence[Seat], user_id: int) -> Seat | None:
        """The seat ``user_id`` holds among ``seats``, if any."""
        return next((s for s in seats if s.user_id == user_id), None)

    async def require_seat(
        self, game: Game, actor: Actor, seats: Sequence[Seat] | None = None
    ) -> tuple[Seat, list[Seat]]:
        """``actor``'s seat in ``game`` and all seats (``seats`` when given, else read).

        :raises NotSeated: if the actor has no seat (says how to join or watch).
        """
        seats = list(seats) if seats is not None else await self.repo.seats(game.id)
        seat = self.seat_of(seats, actor.user_id)
        if seat is None:
            hint = (
                "Join it with /game join."
                if game.status is GameStatus.LOBBY
                else ("You can follow it with /game status and /game log.")
            )
            raise NotSeated(f"You have no seat in game #{game.id}. {hint}")
        return seat, seats

    @staticmethod
    def rules(game: Game) -> Ruleset[Any]:
        """The game's ruleset."""
        return get_ruleset(game.ruleset)

    def state_of(self, game: Game) -> GameState:
        """The game's current state.

        :raises WrongStage: if the game has not started (it is still a lobby).
        """
        if game.state_json is None:
            raise WrongStage(
                f"Game #{game.id} has not started yet. The host starts it with /game start."
            )
        state: GameState = self.rules(game).load_state(game.state_json)
        return state

    @staticmethod
    def require_active(game: Game) -> None:
        """Refuse moves in a paused, finished or lobby game.

        :raises GamePaused | WrongStage:
        """
        if game.status is GameStatus.PAUSED:
            raise GamePaused(
                f"Game #{game.id} is paused by a moderator; moves wait until /mod resume."
            )
        if game.status is GameStatus.LOBBY:
            raise WrongStage(
                f"Game #{game.id} has not started yet; the host starts it with /game start."
            )
        if game.status is not GameStatus.ACTIVE:
            raise WrongStage(f"Game #{game.id} is over ({game.status.value}); see /game log.")

    # ------------------------------------------------------------------ deadlines
    async def deadline_rules(self, game: Game) -> DeadlineRules:
        """The game's deadline rules (`DeadlineRules`), read in one snapshot: the game's
        own deadline and policy win (a deadline of 0 = none), else the guild's defaults."""
        settings, guild = await self.repo.deadline_settings(game.id, game.guild_id)
        length = (
            settings.turn_deadline if settings.turn_deadline is not None else guild.turn_deadline
        )
        if length is not None and length.total_seconds() <= 0:
            length = None
        policy = settings.deadline_policy or guild.deadline_policy
        return DeadlineRules(
            length=length,
            cadence=guild.reminder_every,
            policy=policy,
            policy_source="game" if settings.deadline_policy else "server",
            away_after=guild.away_after,
            away_max=guild.away_max,
            extensions=guild.extensions,
            extension_max=guild.extension_max,
        )

    async def deadline_length(self, game: Game) -> tuple[timedelta | None, timedelta | None]:
        """The game's decision deadline and reminder cadence (None: none).

        The game's own setting wins (0 = no deadline); else the guild's default.
        """
        found = await self.deadline_rules(game)
        return found.length, found.cadence

    @staticmethod
    def maybe_away(seats: Sequence[Seat]) -> bool:
        """Whether any seat may be away (it missed a deadline or chose an away period):
        only then are the deadline rules needed to tell (`away_seats`)."""
        return any(s.missed or s.away_until is not None for s in seats)

    def away_seats(self, seats: Sequence[Seat], away_after: int) -> frozenset[int]:
        """The seats that are away now: a person's seat that missed ``away_after`` deadlines
        in a row, or whose ``/game away`` period has not ended. The computer plays them at
        once until their player acts again or says ``/game back``."""
        now = self.clock()
        return frozenset(
            s.seat
            for s in seats
            if not s.is_ai
            and s.user_id is not None
            and (s.missed >= away_after or (s.away_until is not None and s.away_until > now))
        )

    async def batch_away(self, batch: Batch) -> frozenset[int]:
        """`away_seats` of ``batch`` (its deadline rules read once, only when needed)."""
        if not self.maybe_away(batch.seats):
            return frozenset()
        if batch.rules is None:
            batch.rules = await self.deadline_rules(batch.game)
        return self.away_seats(batch.seats, batch.rules.away_after)

    @staticmethod
    def first_reminder(start: datetime, length: timedelta, cadence: timedelta | None) -> datetime:
        """When the first reminder of a decision owed from ``start`` falls due."""
        share = length * REMINDER_SHARE
        return start + (min(cadence, share) if cadence is not None else share)

    async def deadline_specs(
        self,
        game: Game,
        state: GameState | Position,
        seats: Sequence[Seat],
        existing: Sequence[Deadline | DeadlineSpec],
        *,
        lengths: tuple[timedelta | None, timedelta | None] | None = None,
        away: Collection[int] = (),
    ) -> list[DeadlineSpec]:
        """The deadlines to store after a commit: a ``turn`` deadline and a ``reminder``
        for each person who owes a decision. A seat that already owed one keeps its
        deadline (one deadline per turn, not per command).

        :param lengths: `deadline_length`'s answer when already read (else read here).
        :param away: the seats that are away (`away_seats`): the computer answers for
            them at once, so they get no deadline.
        """
        position = state if isinstance(state, Position) else Position(state, self.rules(game))
        if position.result.finished:
            return []
        length, cadence = lengths if lengths is not None else await self.deadline_length(game)
        if length is None:
            return []
        now = self.clock()
        humans = {s.seat for s in seats if not s.is_ai} - set(away)
        kept = {(d.seat, d.kind): d.due_at for d in existing}
        specs: list[DeadlineSpec] = []
        for seat in sorted({d.seat for d in position.pending} & humans):
            due = kept.get((seat, "turn"), now + length)
            reminder = kept.get((seat, "reminder"))
            if (seat, "turn") not in kept:
                reminder = self.first_reminder(now, length, cadence)
            specs.append(DeadlineSpec(seat, "turn", due))
            if reminder is not None and reminder < due:
                specs.append(DeadlineSpec(seat, "reminder", reminder))
        return specs

    # ------------------------------------------------------------------ applying
    async def commit_step(
        self,
        batch: Batch,
        seat: int,
        command: Command | Mapping[str, Any],
        *,
        actor_user_id: int | None,
        by: str | None,
        reason: str | None = None,
        expected_version: int | None = None,
    ) -> None:
        """Apply ``command`` as ``seat`` to ``batch.after`` and commit it.

        :raises RuleViolation: when the rules refuse it (nothing is stored).
        :raises StorageError | StaleState: when storage refuses it.
        """
        game = batch.game
        rules = self.rules(game)
        state = batch.after
        assert state is not None
        parsed = rules.parse_command(command)
        new_state, events = await asyncio.to_thread(
            rules.apply, state, seat, parsed, expected_version=expected_version
        )
        position = Position(new_state, rules)
        specs: list[DeadlineSpec] = []
        if not position.result.finished:
            if batch.rules is None:
                batch.rules = await self.deadline_rules(game)
            if batch.lengths is None:
                batch.lengths = (batch.rules.length, batch.rules.cadence)
            if batch.lengths[0] is not None:
                existing: Sequence[Deadline | DeadlineSpec] = (
                    batch.kept_deadlines
                    if batch.kept_deadlines is not None
                    else await self.repo.deadlines(game.id)
                )
                specs = await self.deadline_specs(
                    game,
                    position,
                    batch.seats,
                    existing,
                    lengths=batch.lengths,
                    away=self.away_seats(batch.seats, batch.rules.away_after),
                )
        entry = await self.repo.commit(
            game.id,
            expected_version=state.version,
            seat=seat,
            command=parsed,
            state=new_state,
            events=events,
            actor_user_id=actor_user_id,
            reason=reason,
            result=position.result,
            deadlines=specs,
        )
        batch.game = self.repo.committed_game(game, entry, new_state, position.result)
        batch.after = new_state
        batch.adopt(position)
        batch.kept_deadlines = specs
        self.keep(batch.game, position)
        batch.steps.append(Step(seat, parsed, events, by))
        batch.deadlines = {s.seat: s.due_at for s in specs if s.kind == "turn"}
        carry_over = adapter_for(game.ruleset).carry_over
        if carry_over is not None and position.result.finished:
            try:  # a campaign's survivors go to the channel's next game
                await carry_over.save(self.repo, game, new_state, batch.seats)
            except Exception as error:  # the game's end is committed: report it anyway
                log.error(
                    "game %s: saving what the game carries over failed: %s",
                    game.id,
                    failure_text(error),
                )
                batch.automation_error = carry_over.failure_note

    async def automatic_command(
        self,
        game: Game,
        state: GameState | Position,
        seats: Sequence[Seat],
        orders: Mapping[int, Mapping[str, str]],
        away: Collection[int] = (),
    ) -> tuple[int, Command, str] | None:
        """The next command a computer seat, an away seat (the computer plays it:
        `away_seats`) or a standing order gives, if any:
        ``(seat, command, "computer" | "away" | "orders")``."""
        rules = self.rules(game)
        position = state if isinstance(state, Position) else Position(state, rules)
        state = position.state
        if position.result.finished:
            return None
        by_seat = {s.seat: s for s in seats}
        for decision in position.pending:
            seat = by_seat.get(decision.seat)
            if seat is None:
                continue
            if seat.is_ai or decision.seat in away:
                command = await self.computer_choice(rules, state, seat, game.seed)
                return decision.seat, command, "computer" if seat.is_ai else "away"
            own = orders.get(decision.seat, {})
            if own:
                ordered = self.adapter(game).order_command(state, decision.seat, decision, own)
                if ordered is not None:
                    return decision.seat, ordered, "orders"
        return None

    async def computer_choice(
        self, rules: Ruleset[Any], state: GameState, seat: Seat, seed: int
    ) -> Command:
        """The computer's command for ``seat`` at its level (`bot.computer`: a computer
        seat's own, a person's seat played for them at the away level), chosen off the
        event loop (a search in the drawing processes)."""
        level = self.computer.level_of(seat.ai_level, is_ai=seat.is_ai)
        if level == "easy":
            return await asyncio.to_thread(ai_choice, rules, state, seat.seat, seed)
        return await computer_command(
            rules,
            state,
            seat.seat,
            seed,
            level,
            renderer=self.renderer,
            budget=self.computer.budget,
        )

    async def play_automatic(self, batch: Batch) -> None:
        """Let computer seats and standing orders answer their decisions, at most
        ``max_auto_steps`` commands; the game is noted as unfinished business otherwise."""
        try:
            await self._play_automatic(batch)
        except Exception as error:
            # A bug in a computer player or an order: the commits before it stand, and so
            # does the move that led here; say so rather than reporting a refusal.
            log.error(
                "game %s: automatic play failed after %d committed step(s): %s",
                batch.game.id,
                len(batch.steps),
                failure_text(error),
            )
            batch.automation_error = (
                "The automatic answers stopped because of an error on my side (logged); "
                "what is shown above was applied. A moderator may /mod skip."
            )

    async def _play_automatic(self, batch: Batch) -> None:
        orders = await self.repo.standing_orders(batch.game.id)
        away = await self.batch_away(batch)
        for _ in range(self.max_auto_steps):
            assert batch.after is not None
            found = await self.automatic_command(
                batch.game, batch.position(batch.after), batch.seats, orders, away
            )
            if found is None:
                self._unfinished.discard(batch.game.id)
                return
            seat, command, by = found
            reason = AUTOMATIC_REASONS[by]
            try:
                await self.commit_step(
                    batch, seat, command, actor_user_id=None, by=by, reason=reason
                )
            except StorageError as error:
                # What came before is committed; this answer is not (commits are atomic).
                log.warning(
                    "game %s: storing the automatic %s (%s) for seat %s failed (%s)",
                    batch.game.id,
                    command.type,
                    by,
                    seat,
                    type(error).__name__,
                )
                batch.automation_error = (
                    f"The automatic answer for {seat_name(seat)} could not be saved: "
                    f"{error.message} It is tried again at the next action or /game status."
                )
                return
            except RuleViolation as error:
                # Neither the command nor the refusal: both may name the seat's Hand cards,
                # and this line and the channel are public (house rule 6).
                log.warning(
                    "game %s: the automatic %s (%s) for seat %s was refused (%s)",
                    batch.game.id,
                    command.type,
                    by,
                    seat,
                    type(error).__name__,
                )
                batch.automation_error = (
                    f"The automatic answer for {seat_name(seat)} was refused by the rules. "
                    "A moderator may /mod skip."
                )
                return
            await asyncio.sleep(0)
        self._unfinished.add(batch.game.id)

    def keep(self, game: Game, position: Position) -> None:
        """Keep ``position`` as ``game``'s latest (``game`` is the row holding it), so
        that the next action on the game starts from it without reading the state again
        or asking the engine again (`kept`); at most `KEPT_POSITIONS` games are kept."""
        if game.state_json is None:
            return
        self._kept[game.id] = (game.state_json, position.carried())
        self._kept.move_to_end(game.id)
        while len(self._kept) > KEPT_POSITIONS:
            self._kept.popitem(last=False)

    def kept(self, game: Game) -> Position:
        """The position of ``game``'s row: the kept one when the row holds exactly its
        state (the same text, and the kept state still writes that text), else loaded.

        :raises WrongStage: if the game has not started (it is still a lobby).
        """
        found = self._kept.get(game.id)
        if found is not None and game.state_json is not None and found[0] == game.state_json:
            rules = self.rules(game)
            if rules.dump_state(found[1].state) == game.state_json:
                self._kept.move_to_end(game.id)
                return found[1].carried()
        position = Position(self.state_of(game), self.rules(game))
        self.keep(game, position)
        return position

    async def new_batch(self, game_id: int) -> Batch:
        """Read the game and its seats fresh (inside its lock) and start a batch on it.

        :raises GamePaused | WrongStage: if the game does not accept moves.
        """
        game, seats = await self.repo.game_with_seats(game_id)
        return self.batch_of(game, seats)

    def batch_of(self, game: Game, seats: list[Seat]) -> Batch:
        """A batch on ``game`` and ``seats`` as just read inside the game's lock
        (`new_batch`), starting from the kept position when it is the row's (`kept`).

        :raises GamePaused | WrongStage: if the game does not accept moves.
        """
        self.require_active(game)
        position = self.kept(game)
        state = position.state
        return Batch(game=game, seats=seats, before=state, after=state, positions=[position])

    async def act(
        self,
        game_id: int,
        seat: int,
        command: Command | Mapping[str, Any] | Callable[[Position], Command | Mapping[str, Any]],
        *,
        actor_user_id: int | None,
        expected_version: int | None = None,
        seen_version: int | None = None,
        by: str | None = None,
        reason: str | None = None,
        batch: Batch | None = None,
    ) -> Batch:
        """Apply one command (or the command a builder makes from the fresh position) and
        then the automatic answers, all under the game's lock.

        :param actor_user_id: who acts; for a person's own move (``by`` None) the seat
            must still be theirs when the lock is taken (`require_holder`).
        :param expected_version: the version a button was made for: any other refuses.
        :param seen_version: the version read when a typed command arrived: refused when
            ``seat`` had a command committed since (`refuse_repeat`), else applied to the
            fresh state.
        :param batch: a batch the caller started under the game's lock (`batch_of`), which
            it holds until this returns: the game is then not read again (a click reads it
            once, inside the lock: `GameService.click`); else the lock is taken and the game
            read here (`new_batch`).
        :raises RuleViolation | StorageError | ServiceError: nothing changed then.
        """
        async with self.lock(game_id) if batch is None else nullcontext():
            if batch is None:
                batch = await self.new_batch(game_id)
            assert batch.after is not None
            if by is None and actor_user_id is not None:
                self.require_holder(batch, seat, actor_user_id)
            if expected_version is not None and expected_version != batch.after.version:
                raise stale(expected_version, batch.after.version)
            if seen_version is not None and seen_version < batch.after.version:
                await self.refuse_repeat(batch, seat, seen_version, actor_user_id=actor_user_id)
            chosen = command(batch.position(batch.after)) if callable(command) else command
            try:
                await self.commit_step(
                    batch,
                    seat,
                    chosen,
                    actor_user_id=actor_user_id,
                    by=by,
                    reason=reason,
                    expected_version=expected_version,
                )
            except WrongGameStatus as error:
                if error.status == GameStatus.PAUSED.value:
                    raise GamePaused(
                        f"Game #{game_id} was paused by a moderator; moves wait until /mod resume."
                    ) from None
                raise
            await self.play_automatic(batch)
            return batch  # batch.game: the row as the last commit left it

    @staticmethod
    def require_holder(batch: Batch, seat: int, user_id: int) -> None:
        """Check, under the game's lock, that ``seat`` still belongs to ``user_id`` (the
        check before the lock may be out of date: /mod replace or /mod kick since).

        :raises NotSeated: when the seat is another person's or the computer's now.
        """
        found = next((s for s in batch.seats if s.seat == seat), None)
        if found is not None and found.user_id == user_id and not found.is_ai:
            return
        now = (
            "the computer plays it now"
            if found is None or found.is_ai or found.user_id is None
            else "a moderator gave it to someone else"
        )
        raise NotSeated(
            f"You no longer hold {seat_name(seat)} in game #{batch.game.id} ({now}), so "
            "this move was not applied."
        )

    async def refuse_repeat(
        self, batch: Batch, seat: int, seen_version: int, *, actor_user_id: int | None
    ) -> None:
        """Refuse a typed command that arrived at ``seen_version`` when ``seat`` has had a
        command committed since: it was sent before its sender could see that one (most
        often the same command sent twice). Returns when the seat has not moved since
        (other seats' moves do not count: two seats may act at once).

        :raises StaleState: naming the move the earlier command led to.
        """
        assert batch.after is not None
        earlier = await self.command_since(batch.game.id, seat, seen_version)
        if earlier is None:
            return
        now = batch.after.version
        if earlier.actor_user_id is not None and earlier.actor_user_id == actor_user_id:
            raise StaleState(
                f"Your earlier command already moved the game to move {earlier.version_after} "
                f"(it is at move {now} now), so this one, sent before you could see that, was "
                "not applied. Send it again if you meant it twice."
            )
        reason = earlier.reason or ""
        if reason.startswith("moderator skip"):
            who = "a moderator's /mod skip"
        elif reason == "standing orders":
            who = "your standing orders"
        elif reason.startswith("deadline missed"):
            who = "the deadline policy, as its deadline had passed"
        elif reason.startswith("vote to skip"):
            who = "the other players' vote to skip"
        elif reason.startswith("away:"):
            who = "the computer, as the seat is away"
        else:
            who = "another command"
        raise StaleState(
            f"{seat_name(seat)} was answered by {who} (move {earlier.version_after}) before "
            f"this command came through, so it was not applied. The game is at move {now}: "
            "look at the latest message (or /game status) and send it again if it still "
            "applies."
        )

    async def command_since(self, game_id: int, seat: int, version: int) -> LogEntry | None:
        """The newest logged command applied as ``seat`` that left the game at a version
        after ``version``, or None (read back from the newest log entry; versions only
        grow along the log)."""
        before = 2**62
        while True:
            page = await self.repo.read_log_unredacted(game_id, before_seq=before, limit=100)
            for entry in reversed(page.entries):
                if entry.version_after <= version:
                    return None
                if entry.kind is LogKind.COMMAND and entry.seat == seat:
                    return entry
            if not page.has_more or not page.entries:
                return None
            before = page.entries[0].seq

    async def continue_automatic(self, game_id: int) -> Batch | None:
        """Resume automatic play in a game that stopped at the step bound (or after a
        restart); None when there was nothing to do."""
        batch = await self.resume_automatic(game_id)
        return batch if batch is not None and batch.steps else None

    async def resume_automatic(self, game_id: int) -> Batch | None:
        """`continue_automatic`, but the batch is returned even when it played nothing
        (its game, seats and position are the game as read under the lock then, for a
        caller that shows it: /game status); None when the game accepts no moves."""
        async with self.lock(game_id):
            try:
                batch = await self.new_batch(game_id)
            except (GamePaused, WrongStage):
                self._unfinished.discard(game_id)
                return None
            await self.play_automatic(batch)
            return batch  # batch.game: the row as the last commit left it

    async def continue_automatic_into(
        self, out: Outbox, game_id: int, actor: Actor | None = None
    ) -> None:
        """`continue_automatic` in ``game_id`` and append the narrated posts and DMs
        (`narrate` for ``actor``; its reply is not taken) to ``out``, in place."""
        batch = await self.continue_automatic(game_id)
        if batch is not None:
            more = await self.narrate(batch, actor)
            out.posts += more.posts
            out.dms += more.dms

    # ------------------------------------------------------------------ pictures
    async def picture(self, kind: str, state: GameState | Position) -> Image | None:
        """Render picture ``kind`` (board, battlefield...) of ``state``'s public view
        (a `Position`'s, computed once) through its ruleset's adapter, or None."""
        if self.renderer is None:
            return None
        position = state if isinstance(state, Position) else Position(state)
        view = position.public_view
        adapter = adapter_for(position.state.ruleset)
        with for_game(_game_of(position)):
            found = await asyncio.to_thread(adapter.picture, self.renderer, kind, view)
        return found

    async def pictures(self, kind: str, state: GameState | Position) -> tuple[Image, ...]:
        """The channel pictures of ``kind`` of ``state``'s public view in gallery order:
        the focus picture first (what the decision needs, readable on a phone), then the
        whole one (`RulesetAdapter.pictures`, issue 16); none without a renderer."""
        if self.renderer is None:
            return ()
        position = state if isinstance(state, Position) else Position(state)
        view = position.public_view
        adapter = adapter_for(position.state.ruleset)
        with for_game(_game_of(position)):
            return await asyncio.to_thread(adapter.pictures, self.renderer, kind, view)

    async def hand_picture(self, state: GameState | Position, seat: int) -> Image | None:
        """Render ``seat``'s private picture (e.g. a Hand), or None."""
        if self.renderer is None:
            return None
        position = state if isinstance(state, Position) else Position(state)
        view = position.view(seat)
        adapter = adapter_for(position.state.ruleset)
        with for_game(_game_of(position)):
            found = await asyncio.to_thread(adapter.hand_picture, self.renderer, view)
        return found

    @staticmethod
    def rules_for(state: GameState) -> Ruleset[Any]:
        """The ruleset of a state."""
        return get_ruleset(state.ruleset)

    @staticmethod
    def adapter(game: Game) -> RulesetAdapter:
        """What the bot knows about the game's ruleset (`bot.adapters`)."""
        return adapter_for(game.ruleset)

    # ------------------------------------------------------------------ narration
    def decision_ui(
        self, game: Game, state: GameState | Position, decision: Decision
    ) -> DecisionUI:
        """Buttons and selects for ``decision`` (the ruleset adapter's `decision_ui`),
        built once a position (a state's version) and decision, then kept with it
        (`Position.answer`: the narration's prompt and a /hand of the same move share them)."""
        position = state if isinstance(state, Position) else Position(state, self.rules(game))

        def build() -> DecisionUI:
            legal = position.legal(decision.seat)
            default = position.default(decision.seat)
            return self.adapter(game).decision_ui(
                position.state, decision.seat, decision, game.id, legal, default
            )

        found: DecisionUI = position.answer(("decision_ui", game.id, decision), build)
        return found

    async def narrate(self, batch: Batch, actor: Actor | None) -> Outbox:
        """Turn a batch into messages: the actor's reply, the channel posts, the DMs.

        Never raises for a batch whose steps were committed: a picture that cannot be
        drawn is left out (the reply says so), and if building the messages fails the
        reply still says the move was applied and the channel gets the moves' public lines
        (`applied_news`); the failure is logged with its stack, never its message.

        Every post and DM carries the batch's `Receipt` (`Batch.receipt`, `bot.news`): the
        deliverer confirms it once they went out, else they are delivered again after a
        restart.
        """
        try:
            out = await self._narrate(batch, actor)
        except Exception as error:
            log.error(
                "game %s: showing %d committed step(s) failed: %s",
                batch.game.id,
                len(batch.steps),
                failure_text(error),
            )
            out = self.applied_news(batch)
        receipt = batch.receipt()
        if receipt is None:
            return out
        if not out.posts and not out.dms:  # nothing is owed to anyone
            await self.repo.news_delivered(receipt.game_id, receipt.after_version, receipt.version)
            return out
        return stamped(out, receipt)

    def applied_news(self, batch: Batch) -> Outbox:
        """The plain messages of a committed batch whose narration failed: a reply saying
        it was applied, and a channel post of its public event lines (public by
        construction: ``Event.text`` only)."""
        game = batch.game
        version = batch.after.version if batch.after is not None else game.version
        done = "Your move was applied" if batch.steps else "Done"
        reply = Reply(
            f"✅ {done} (game #{game.id} is at move {version} now), but I could not show all "
            "of its result because of an error on my side (logged). /game status shows the "
            "game.",
            ephemeral=True,
        )
        lines = self._public_lines(batch)
        if batch.automation_error:
            lines.append(batch.automation_error)
        lines.append(f"(Game #{game.id} is at move {version}; /game status shows the position.)")
        posts = [ChannelPost(game.channel_id, text) for text in chunks(lines)]
        if posts:  # the position moved on: the previous post's buttons are past
            posts[-1] = replace(posts[-1], decision_of=game.id)
        return Outbox(reply=reply, posts=posts)

    async def drawn(
        self, game_id: int, kind: str, state: GameState | Position
    ) -> tuple[Image | None, bool]:
        """`picture`, but a drawing that fails gives no picture: ``(image, failed)``.
        For pictures of a committed move (the failure is logged, never its message)."""
        try:
            return await self.picture(kind, state), False
        except Exception as error:
            log.error(
                "game %s: drawing the %s picture at move %s failed: %s",
                game_id,
                kind,
                state.version,
                failure_text(error),
            )
            return None, True

    async def drawn_pictures(
        self, game_id: int, kind: str, state: GameState | Position
    ) -> tuple[tuple[Image, ...], bool]:
        """`pictures` (focus, then whole), but a drawing that fails gives none:
        ``(images, failed)``. For the pictures of a committed move (the failure is logged,
        never its message)."""
        try:
            return await self.pictures(kind, state), False
        except Exception as error:
            log.error(
                "game %s: drawing the %s picture at move %s failed: %s",
                game_id,
                kind,
                state.version,
                failure_text(error),
            )
            return (), True

    async def _narrate(self, batch: Batch, actor: Actor | None) -> Outbox:
        out = Outbox()
        game, after = batch.game, batch.after
        if after is None:
            return out
        now = batch.position(after)
        by_seat = {s.seat: s for s in batch.seats}
        actor_seat = self.seat_of(batch.seats, actor.user_id) if actor is not None else None
        out.reply = self._reply(batch, actor_seat)
        lines = self._public_lines(batch)
        before = batch.before if not batch.started else None
        picture_kind = self.adapter(game).picture_after(
            before, after, [s.command for s in batch.steps]
        )
        images, failed = (
            await self.drawn_pictures(game.id, picture_kind, now) if picture_kind else ((), False)
        )
        if failed and out.reply is not None:
            out.reply = Reply(
                chunks([out.reply.text + "\n" + NO_PICTURE])[0],
                ephemeral=out.reply.ephemeral,
            )
        prompt_lines, components, mentions, named = self._prompts(batch, actor_seat, out)
        result = now.result
        up = [f"<@{uid}>" for uid in mentions if uid is not None]
        if result.finished:
            winners = ", ".join(
                f"{seat_name(w)} ({by_seat[w].display_name})" if w in by_seat else seat_name(w)
                for w in result.winners
            )
            prompt_lines = [f"🏆 **The game is over.** {result.reason} Winner: {winners}."]
            components, mentions = (
                [],
                [by_seat[w].user_id for w in result.winners if w in by_seat and by_seat[w].user_id],
            )
        elif prompt_lines:
            away = await self.batch_away(batch)
            if away:
                prompt_lines.append(away_names(batch.seats, away))
        if batch.automation_error:
            prompt_lines.append(batch.automation_error)
        # the game's panel shows the position now, edited in place; the deliverer takes
        # the buttons off the game's previous decision post, if any (`decision_of`)
        panel = self.panel_text(batch, prompt_lines, named)
        out.posts.append(
            ChannelPost(
                game.channel_id,
                panel,
                images=images,
                components=tuple(components),
                decision_of=game.id,
                panel_of=game.id,
                thread_stage="finished" if result.finished else "running",
            )
        )
        # below it, the moves and dice, and who is up (a plain message: it pings)
        log_lines = list(lines)
        if result.finished:
            log_lines += prompt_lines[:1]
        elif up:
            verb = "is" if len(up) == 1 else "are"
            log_lines.append(f"➡️ {', '.join(dict.fromkeys(up))} {verb} up:")
        texts = chunks(log_lines)
        pinged = await self._pinged(batch, mentions)
        for index, text in enumerate(texts):
            last = index == len(texts) - 1
            out.posts.append(
                ChannelPost(
                    game.channel_id,
                    text,
                    mention_user_ids=pinged if last else (),
                    panel_link=game.id if last and (up or result.finished) else None,
                    guild_id=game.guild_id,
                    log_of=game.id,
                )
            )
        self._clear_decision_dms(batch, out)
        await self._hand_dms(batch, out)
        acted = actor_seat
        if acted is None and batch.acted_by is not None:  # news rebuilt after a restart
            acted = self.seat_of(batch.seats, batch.acted_by)
        try:  # a digest that fails is left out (logged): the move and its messages stand
            await self._digest_dms(batch, acted, out, picture_kind, images[-1] if images else None)
        except Exception as error:
            log.error(
                "game %s: building the digest DMs failed: %s", batch.game.id, failure_text(error)
            )
        return out

    def turn_began(self, batch: Batch, seat: int) -> bool:
        """Whether ``seat``'s turn began during ``batch`` (or the game started): the
        engine's turn record (`Ruleset.turn`) names the seat active after it, and it was
        not active before or the turn number moved on."""
        before, after = batch.before, batch.after
        if after is None:
            return False
        if batch.started or before is None:
            return True
        now, then = batch.position(after).turn, batch.position(before).turn
        return seat in now.active and (seat not in then.active or then.turn != now.turn)

    def dm_retries(self, batch: Batch) -> set[int]:
        """The seats whose DMs failed before and whose turn began in ``batch``: their DMs
        are tried again, once per turn (a success marks them reachable; a failure posts
        no new notice — the ephemeral fallback still shows them at their next action)."""
        return {
            s.seat
            for s in batch.seats
            if s.dm_reachable is False
            and not s.is_ai
            and s.user_id is not None
            and self.turn_began(batch, s.seat)
        }

    @staticmethod
    def _dm_reachable(seat: Seat, retries: set[int]) -> bool:
        """Whether to send ``seat`` DMs in this batch (not known closed, or retried now)."""
        return seat.dm_reachable is not False or seat.seat in retries

    def _clear_decision_dms(self, batch: Batch, out: Outbox) -> None:
        """Empty the "decision" DM of each person whose private decision was answered,
        so its old buttons do not linger (the deliverer edits that DM in place)."""
        if batch.before is None or batch.after is None or batch.started:
            return
        private_before = {d.seat for d in batch.position(batch.before).pending if d.private}
        pending_after = batch.position(batch.after).pending
        private_after = {d.seat for d in pending_after if d.private}
        owing_after = {d.seat for d in pending_after}
        for seat in batch.seats:
            if (
                seat.seat in private_before - private_after
                and seat.user_id is not None
                and not seat.is_ai
                and seat.dm_reachable is not False
            ):
                out.dms.append(
                    DirectMessage(
                        user_id=seat.user_id,
                        game_id=batch.game.id,
                        slot="decision",
                        text=f"Game #{batch.game.id}: nothing waits for you here now"
                        + (NEXT_IN_CHANNEL if seat.seat in owing_after else "."),
                        fallback_channel_id=batch.game.channel_id,
                    )
                )

    def _reply(self, batch: Batch, actor_seat: Seat | None) -> Reply:
        mine = [s for s in batch.steps if s.by is None or s.by == "moderator"]
        state = batch.before
        parts: list[str] = []
        adapter = self.adapter(batch.game)
        for step in mine:
            if state is not None:
                note = (
                    adapter.move_note(batch.after, step.command) if batch.after is not None else ""
                )
                parts.append(f"✅ {adapter.describe_for(state, step.seat, step.command)}{note}")
            else:
                parts.append(f"✅ {step.command.type}")
        if actor_seat is not None:
            private = [
                e.private[actor_seat.seat]
                for s in batch.steps
                for e in s.events
                if actor_seat.seat in e.private
            ]
            parts += [f"🔒 {line}" for line in private]
        text = "\n".join(parts) or "Done."
        return Reply(text=chunks([text])[0], ephemeral=True)

    @staticmethod
    def _public_lines(batch: Batch) -> list[str]:
        lines: list[str] = []
        for step in batch.steps:
            tag = STEP_TAGS.get(step.by or "", "")
            for event in step.events:
                if event.text:
                    lines.append(f"{tag}{event.text}")
                    tag = ""
        return lines

    def panel_text(self, batch: Batch, prompt_lines: Sequence[str], named: Collection[int]) -> str:
        """The text of the game's status panel after ``batch`` (at most
        `PANEL_TEXT_LIMIT` characters): a heading (ruleset and game number), the Round,
        Phase and whose turn it is, then ``prompt_lines`` (who owes what, by when: Discord
        timestamps) and a line for every other pending decision (of seats not in
        ``named``: one who goes on deciding, a computer player). Public lines only."""
        game, after = batch.game, batch.after
        assert after is not None
        now = batch.position(after)
        by_seat = {s.seat: s for s in batch.seats}
        turn = now.turn
        where = [f"Round {turn.round}"] if turn.round else []
        where.append(turn.phase)
        if turn.active and not now.result.finished:
            playing = ", ".join(
                f"**{seat_name(s)}** ({by_seat[s].display_name})" if s in by_seat else seat_name(s)
                for s in turn.active
            )
            where.append(f"to play: {playing}")
        lines = [f"## {game.ruleset} · game #{game.id}", " · ".join(where), *prompt_lines]
        for decision in now.pending:
            if decision.seat in named or now.result.finished:
                continue
            seat = by_seat.get(decision.seat)
            who = "computer" if seat is None or seat.is_ai else f"<@{seat.user_id}>"
            due = batch.deadlines.get(decision.seat)
            lines.append(
                f"⏳ **{seat_name(decision.seat)}** ({who}): {decision.prompt}"
                + (f" (deadline {discord_time(due)})" if due else "")
            )
        lines.append(f"-# Move {after.version}. Moves and dice are posted below this panel.")
        return chunks(lines, PANEL_TEXT_LIMIT)[0]

    def _prompts(
        self, batch: Batch, actor_seat: Seat | None, out: Outbox
    ) -> tuple[list[str], list[Component], list[int | None], set[int]]:
        """The channel lines, components and mentions asking who owes what now, and the
        seats those lines name; also queues decision DMs and puts continuing components
        into the actor's reply."""
        game, after = batch.game, batch.after
        assert after is not None
        now = batch.position(after)
        by_seat = {s.seat: s for s in batch.seats}
        before_owed = (
            {(d.seat, d.kind, d.prompt) for d in batch.position(batch.before).pending}
            if batch.before is not None and not batch.started
            else set()
        )
        lines: list[str] = []
        components: list[Component] = []
        mentions: list[int | None] = []
        named: set[int] = set()
        retries = self.dm_retries(batch)
        for decision in now.pending:
            seat = by_seat.get(decision.seat)
            if seat is None or seat.is_ai:
                continue
            ui = self.decision_ui(game, now, decision)
            due = batch.deadlines.get(decision.seat)
            when = f" (deadline {discord_time(due)})" if due else ""
            owed_before = (decision.seat, decision.kind, decision.prompt) in before_owed
            continuing = owed_before and actor_seat is not None and actor_seat.seat == decision.seat
            who = f"<@{seat.user_id}> **{seat_name(decision.seat)}**"
            if ui.private:
                if not self._dm_reachable(seat, retries):
                    note = "Your DMs are closed: use /hand here to see your cards and choose (only you see the reply)."
                else:
                    note = (
                        "Your choices are in your DMs if you have opened them again; else "
                        "use /hand here (only you see the reply)."
                        if decision.seat in retries
                        else "Your choices are in your DMs (or use /hand)."
                    )
                    out.dms.append(
                        DirectMessage(
                            user_id=seat.user_id or 0,
                            game_id=game.id,
                            slot="decision",
                            text=f"**Game #{game.id}** (<#{game.channel_id}>): {ui.text}{when}",
                            components=ui.components,
                            fallback_channel_id=game.channel_id,
                            notify=not owed_before,
                        )
                    )
                if not continuing:
                    lines.append(f"➡️ {who}: {ui.text}{when} {note}")
                    mentions.append(seat.user_id)
                    named.add(decision.seat)
                    if not components:
                        components = [
                            Button(
                                f"{seat_name(decision.seat)}: my cards and choices",
                                customids.encode(game.id, after.version, "hand"),
                                "primary",
                            )
                        ]
                elif out.reply is not None and out.reply.ephemeral:
                    out.reply = Reply(
                        text=chunks([out.reply.text + f"\n➡️ {ui.text}"])[0],
                        ephemeral=True,
                        components=ui.components,
                    )
                continue
            if continuing and out.reply is not None:
                out.reply = Reply(
                    text=chunks([out.reply.text + f"\n➡️ {ui.text}"])[0],
                    ephemeral=True,
                    components=ui.components,
                )
                continue
            lines.append(f"➡️ {who}: {ui.text}{when}")
            mentions.append(seat.user_id)
            named.add(decision.seat)
            if not components:
                components = list(ui.components)
        return lines, components, mentions, named

    async def _hand_dms(self, batch: Batch, out: Outbox) -> None:
        """A fresh "hand" DM for every person whose Hand or Risk Stack changed, whose turn
        began, or whose game started; with their private event lines."""
        game, before, after = batch.game, batch.before, batch.after
        adapter = self.adapter(game)
        if after is None or not adapter.has_private_hand():
            return
        retries = self.dm_retries(batch)
        for seat in batch.seats:
            if seat.is_ai or seat.user_id is None or not self._dm_reachable(seat, retries):
                continue
            number = seat.seat
            changed = number in batch.hand_refresh or self.turn_began(batch, number)
            if not changed:
                assert before is not None
                changed = adapter.seat_hidden(before, number) != adapter.seat_hidden(after, number)
            if not changed:
                continue
            private = [
                e.private[number] for s in batch.steps for e in s.events if number in e.private
            ]
            text = adapter.hand_text(after, number, game_id=game.id, channel_id=game.channel_id)
            if private:
                text += "\n**What changed:**\n" + "\n".join(f"• {line}" for line in private[-15:])
            try:
                image = await self.hand_picture(batch.position(after), number)
            except Exception as error:  # the DM goes in words; the move is committed
                log.error(
                    "game %s: drawing seat %s's hand failed: %s",
                    game.id,
                    number,
                    failure_text(error),
                )
                image = None
            out.dms.append(
                DirectMessage(
                    user_id=seat.user_id,
                    game_id=game.id,
                    slot="hand",
                    text=chunks([text])[0],
                    images=(image,) if image else (),
                    fallback_channel_id=game.channel_id,
                )
            )

    async def _pinged(self, batch: Batch, mentions: Sequence[int | None]) -> tuple[int, ...]:
        """The users of ``mentions`` that the channel post pings: all at the game's end;
        else not those told by DM only (``/me notify ping:dm``, `bot.notify`) whose DMs
        are not known to be closed (their line still names them)."""
        wanted = tuple(dict.fromkeys(m for m in mentions if m is not None))
        if not wanted or batch.after is None or batch.position(batch.after).result.finished:
            return wanted
        settings = await self.repo.notify_settings(wanted)
        reachable = {s.user_id: s.dm_reachable for s in batch.seats if s.user_id is not None}
        return tuple(
            uid
            for uid in wanted
            if notify.pinged_in_channel(settings[uid], dm_reachable=reachable.get(uid))
        )

    async def _digest_dms(
        self,
        batch: Batch,
        actor_seat: Seat | None,
        out: Outbox,
        shown_kind: str | None,
        shown: Image | None,
    ) -> None:
        """A "coming back" digest DM (`bot.digest`) for each person whose decision opened in
        ``batch`` — not the one who acted, not at the start, not once the game is over, only
        to DMs that reach them — with the board picture (``shown`` when the batch's post
        already drew the status picture ``shown_kind``, else drawn here once), appended to
        ``out``. `narrate` logs and leaves out the digests if this raises."""
        game, before, after = batch.game, batch.before, batch.after
        if after is None or before is None or batch.started:
            return
        now = batch.position(after)
        if now.result.finished:
            return
        retries = self.dm_retries(batch)
        deadlines = {
            seat: f" (deadline {discord_time(due)}, {discord_time(due, 'f')})"
            for seat, due in batch.deadlines.items()
        }
        found = [
            o
            for o in digest.openings(
                batch.position(before).pending,
                now.pending,
                batch.seats,
                deadlines,
                skip=actor_seat.seat if actor_seat is not None else None,
            )
            if self._dm_reachable(o.seat, retries)
        ]
        if not found:
            return
        kind = self.adapter(game).status_picture(after)
        image = shown if shown_kind == kind and shown is not None else None
        if image is None:
            image, _ = await self.drawn(game.id, kind, now)
        settings = await self.repo.notify_settings([o.seat.user_id or 0 for o in found])
        for opening in found:
            made = await digest.digest_dm(
                self.repo,
                game.id,
                game.channel_id,
                game.guild_id,
                opening,
                settings[opening.seat.user_id or 0],
                image,
            )
            digest.place(out.dms, made)


def _game_of(position: Position) -> tuple[str, int]:
    """What names the game of ``position`` to the renderer (`bot.render.for_game`: its
    pictures go to one drawing process): its ruleset and seed, which never change."""
    return (position.state.ruleset, position.state.seed)


def away_names(seats: Sequence[Seat], away: Collection[int]) -> str:
    """The line of a turn prompt naming the away seats (`ServiceCore.away_seats`)."""
    named = ", ".join(f"{seat_name(s.seat)} ({s.display_name})" for s in seats if s.seat in away)
    return f"💤 Away, the computer plays for them: {named} (/game back returns)."


STEP_TAGS = {"computer": "🤖 ", "away": "🤖 ", "orders": "📜 ", "deadline": "⌛ ", "vote": "🗳️ "}
"""The mark before the public lines of an automatic or overdue step (`Step.by`)."""


def ai_choice(rules: Ruleset[Any], state: GameState, seat: int, seed: int) -> Command:
    """A computer seat's command (the ruleset's AI) with a generator seeded from the
    game's seed, the state version and the seat, so a replayed or restarted game chooses
    the same."""
    rng = random.Random(f"{seed}:{state.version}:{seat}")
    return rules.ai_command(state, seat, rng)


def stale(sent_at: int, now: int) -> StaleState:
    """The refusal of a button sent for an older position of the game."""
    return StaleState(
        f"This was sent for move {sent_at} of the game, but the game is now at move {now}: "
        "someone has moved since. Look at the latest message (or /game status) and try again."
    )
