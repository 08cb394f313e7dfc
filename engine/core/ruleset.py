"""The protocol every ruleset implements, and the checked `apply` path all callers use.

A ruleset subclasses `Ruleset` and implements the abstract methods; `Ruleset.apply` is the
one checked entry point (boardgame.io's order: the command parses, the state is current,
the game is not over, the seat owes a decision this command answers, then the ruleset's
own legality checks). `apply` never mutates its input: the ruleset works on a deep copy.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from engine.core.errors import GameOver, InvalidInput, NotYourDecision, StaleState, WrongPhase
from engine.core.hidden import canonical_generator, fresh_generator
from engine.core.model import (
    Command,
    Decision,
    Event,
    GameState,
    Result,
    TurnRecord,
    seat_name,
)

S = TypeVar("S", bound=GameState)

REVEALING_EVENTS: frozenset[str] = frozenset({"die_roll", "shuffle", "draw", "reveal", "search"})
"""Event kinds that show something hidden (a die's face, a deck's order or top card), in
any ruleset: `Ruleset.reveals_hidden` counts a command giving one as a reveal."""


def _validation_message(error: ValidationError) -> str:
    """Condense a pydantic error into one readable sentence naming the bad fields."""
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "command"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


class Ruleset(ABC, Generic[S]):
    """One game's rules behind the engine protocol.

    Class attributes:
        id: the registry id (``"homm4"``).
        title: the game's display name.
        min_players / max_players: the seat counts the rules allow with some options
            (the fewest and the most over every mode; `seat_range` gives them for one
            game's options).
        state_model: the pydantic state class (subclass of `GameState`).
        options_model: the pydantic model of game options chosen at creation.
        command_adapter: a `TypeAdapter` over the discriminated union of commands.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_model: ClassVar[type[GameState]]
    options_model: ClassVar[type[BaseModel]]
    command_adapter: ClassVar[TypeAdapter[Any]]

    # ----------------------------------------------------------------- creation
    @abstractmethod
    def new_game(self, options: BaseModel, players: int, seed: int) -> tuple[S, list[Event]]:
        """Set up a new game.

        :param options: an instance of `options_model`.
        :param players: the number of seats, within ``min_players..max_players``.
        :param seed: any integer; the same seed and commands give the same game.
        :returns: the initial state (version 0) and the set-up events (shuffles...).
        :raises InvalidInput: for a player count or options the rules do not allow.
        """

    def seat_range(self, options: BaseModel) -> tuple[int, int]:
        """The fewest and most seats the rules allow with ``options`` (an instance of
        `options_model`), within ``min_players..max_players``. Default: those two, for a
        game whose seat count does not depend on its options. Pure."""
        return self.min_players, self.max_players

    def parse_options(self, raw: Mapping[str, Any] | None) -> BaseModel:
        """Validate raw options into `options_model`.

        :raises InvalidInput: naming the bad option.
        """
        try:
            return self.options_model.model_validate(dict(raw or {}))
        except ValidationError as error:
            raise InvalidInput(f"Bad game options: {_validation_message(error)}") from None

    # ------------------------------------------------------------------ queries
    @abstractmethod
    def pending(self, state: S) -> list[Decision]:
        """Return the decisions owed now (several seats may owe one at once)."""

    @abstractmethod
    def legal_commands(self, state: S, seat: int) -> list[Command]:
        """Return the commands ``seat`` may issue now: a finite enumeration.

        Where a command has a free choice too large to enumerate (which cards pay a
        cost), one representative per distinct effect is listed; every listed command
        is accepted by `apply`. Empty when the seat owes nothing. Pure: never changes
        ``state``.
        """

    @abstractmethod
    def view(self, state: S, seat: int) -> BaseModel:
        """Return everything ``seat`` may see and nothing more (its own Hand etc.)."""

    @abstractmethod
    def public_view(self, state: S) -> BaseModel:
        """Return what everyone may see (no hidden card of any seat)."""

    @abstractmethod
    def result(self, state: S) -> Result:
        """Return the game's result (``finished=False`` while it goes on)."""

    @abstractmethod
    def turn(self, state: S) -> TurnRecord:
        """Return where the game stands in its order of play: the turn and round numbers,
        the seats whose turn it is and the phase's rulebook name (`TurnRecord`). Pure."""

    def names_hidden_card(self, state: S, seat: int, command: Command) -> bool:
        """Whether ``command`` (one of ``legal_commands(state, seat)``) names a card hidden
        from the table (in a Hand, Risk Stack, deck or face down), so that it is never
        shown on a public button, label or message: only in ``seat``'s private decision
        UI, a DM or an ephemeral reply. Default: False (a game without hidden cards).
        Pure: never changes ``state``.
        """
        return False

    def hidden_piles(self, state: S) -> dict[str, list[Any]]:
        """The face-down piles of ``state`` whose cards nobody at the table knows (draw
        decks, face-down stacks: what the views show only as a count), by a name of the
        ruleset's choosing (``"deck.0"``, ``"tile_stack"``); each pile's entries are
        hashable card ids or instances. A card leaving one of them is a reveal (see
        `reveals_hidden`). Default: none (a game without face-down piles). Pure.
        """
        return {}

    def reveals_hidden(
        self, before: S, seat: int, command: Command, after: S, events: Sequence[Event]
    ) -> bool:
        """Whether applying ``command`` as ``seat`` to ``before`` (giving ``after`` and
        ``events``) revealed hidden information to anyone, so that taking it back would
        let a player choose again knowing what it showed (a player's undo then needs the
        others' consent). Default, for every ruleset:

        * the generator moved (a die roll, a shuffle, a random draw: ``rng.counter``);
        * an event has a private part (a seat learned something only it sees: a draw);
        * an event is of a revealing kind (`REVEALING_EVENTS`);
        * a card left one of the `hidden_piles` (a deck's top card turned up or drawn).

        A card a seat plays from its own Hand is not a reveal here: taking it back gives
        that seat nothing it did not know. Rulesets override this where their rules hide
        something else. Pure: changes neither state.
        """
        if after.rng.counter != before.rng.counter or after.rng.seed != before.rng.seed:
            return True
        if any(e.private or e.private_data or e.kind in REVEALING_EVENTS for e in events):
            return True
        piles_after = self.hidden_piles(after)
        for name, cards in self.hidden_piles(before).items():
            if Counter(cards) - Counter(piles_after.get(name, [])):
                return True
        return False

    # ------------------------------------------------------ what a seat may know
    def information_set(self, state: S, seat: int) -> S:
        """A state equal to ``state`` in everything ``seat`` may know, with everything
        hidden from it (other seats' Hands, face-down stacks, deck orders, face-down
        tiles, and the generator's seed and counter: future dice are unknown too)
        replaced by a canonical arrangement (hidden cards pooled and sorted, the game's
        seed and generator set to `engine.core.hidden.CANONICAL_SEED` at counter 0), so
        that the result is a function of the seat's view alone: two states ``seat``
        cannot tell apart give equal results. Used by a search player, which must never see the full state; the
        result is only a key and a base for `determinize`, not a position to play on.

        Default, for a game with no hidden information but its dice: ``state`` with a
        canonical seed and generator (`engine.core.hidden.canonical_generator`).
        Rulesets with hidden cards override it (helpers in `engine.core.hidden`). Pure:
        returns a copy, never changes ``state``.

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(state, seat)
        info = state.model_copy(deep=True)
        canonical_generator(info)
        return info

    def determinize(self, info: S, seat: int, rng: random.Random) -> S:
        """One full state consistent with ``info`` (a result of `information_set` for
        ``seat``): the hidden cards dealt again uniformly at random from the pool of
        cards unknown to ``seat``, with the same pile sizes, respecting what the seat
        knows (cards it has seen, such as a card revealed and returned to the top of a
        deck, or cards known to be in a Hand), and a fresh generator seed drawn from
        ``rng``. The same ``info``, ``seat`` and ``rng`` state give the same world;
        `legal_commands`, `apply` and `audit` work on it.

        Default, for a game with no hidden information but its dice: ``info`` with the
        seed and generator drawn afresh from ``rng``
        (`engine.core.hidden.fresh_generator`). Pure: returns a copy, never changes
        ``info`` (``rng`` advances).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(info, seat)
        world = info.model_copy(deep=True)
        fresh_generator(world, rng)
        return world

    @staticmethod
    def _check_seat(state: GameState, seat: int) -> None:
        """:raises InvalidInput: when ``seat`` is not one of ``state``'s seats."""
        if not 0 <= seat < state.players:
            raise InvalidInput(f"There is no seat {seat} in this {state.players}-player game.")

    @abstractmethod
    def default_command(self, state: S, seat: int) -> Command:
        """Return the documented default answer to ``seat``'s overdue decision.

        Used by a moderator's skip. :raises NotYourDecision: if ``seat`` owes nothing.
        """

    def audit(self, state: S) -> list[str]:
        """Return broken invariants of ``state`` (empty when sound); default: none checked.

        Rulesets override this with their conservation checks (homm4: every card instance
        in exactly one zone). Used by random playouts and `heroes-table simulate`.
        """
        return []

    def evaluate(self, state: S, seat: int) -> float:
        """How well ``seat`` stands in an unfinished game, in ``[0, 1]`` (1: as good as
        won), for a search player's play-outs that stop before the end (`engine.core.search`).
        Rulesets override it with what their rules reward (Armies and Towns, victory points,
        living heroes); the search calls it on a world it dealt itself, so it may read the
        whole ``state``. Default: every seat still in the game stands equal
        (``1 / players``). Pure.

        Rule: none (a computer player's judgement, not a rule).
        """
        return 1.0 / state.players

    def ai_command(self, state: S, seat: int, rng: random.Random) -> Command:
        """Choose a legal command for a computer seat (default: uniformly at random).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        options = self.legal_commands(state, seat)
        if not options:
            raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
        return rng.choice(options)

    # ----------------------------------------------------------------- commands
    def parse_command(self, raw: Command | Mapping[str, Any] | str) -> Command:
        """Turn a dict or JSON text into this ruleset's command model.

        :raises InvalidInput: for an unknown ``type`` or malformed fields.
        """
        if isinstance(raw, Command):
            return raw
        try:
            if isinstance(raw, str):
                command = self.command_adapter.validate_json(raw)
            else:
                command = self.command_adapter.validate_python(dict(raw))
        except ValidationError as error:
            raise InvalidInput(
                f"That command could not be read: {_validation_message(error)}"
            ) from None
        if not isinstance(command, Command):  # pragma: no cover - adapter misconfigured
            raise InvalidInput("That command could not be read.")
        return command

    def apply(
        self,
        state: S,
        seat: int,
        command: Command | Mapping[str, Any] | str,
        *,
        expected_version: int | None = None,
    ) -> tuple[S, list[Event]]:
        """Apply ``command`` by ``seat`` and return the new state and its events.

        ``state`` itself is never changed. Checks, in order: the command parses, the
        version matches ``expected_version`` (when given), the game is not over, the seat
        exists and owes a decision this command answers, then the ruleset's own rules.

        :raises InvalidInput | StaleState | GameOver | NotYourDecision | WrongPhase |
            IllegalMove: each with a message the player can read.
        """
        parsed = self.parse_command(command)
        if expected_version is not None and expected_version != state.version:
            raise StaleState(
                f"This was sent for move {expected_version} of the game, but the game is "
                f"now at move {state.version}. Look at the current position and try again."
            )
        outcome = self.result(state)
        if outcome.finished:
            raise GameOver(f"The game is over. {outcome.reason}".strip())
        if not 0 <= seat < state.players:
            raise InvalidInput(f"There is no seat {seat} in this {state.players}-player game.")
        self.check_decision(state, seat, parsed.type)
        working = state.model_copy(deep=True)
        events = self._apply(working, seat, parsed)
        working.version = state.version + 1
        return working, events

    def check_decision(self, state: S, seat: int, command_type: str) -> None:
        """Check that ``seat`` owes a decision answered by ``command_type``.

        :raises NotYourDecision: if the seat owes nothing now (names who does).
        :raises WrongPhase: if it owes something else (names what it may do).
        """
        owed = [d for d in self.pending(state) if d.seat == seat]
        if not owed:
            waiting = "; ".join(d.prompt for d in self.pending(state)) or "nobody"
            raise NotYourDecision(f"It is not your turn to act. Waiting for: {waiting}")
        if not any(command_type in d.commands for d in owed):
            allowed = sorted({c for d in owed for c in d.commands})
            raise WrongPhase(
                f"'{command_type}' cannot be done now. {owed[0].prompt} "
                f"You may: {', '.join(allowed)}."
            )

    @abstractmethod
    def _apply(self, state: S, seat: int, command: Command) -> list[Event]:
        """Carry out an already-routed command on ``state`` (a private working copy).

        Implementations validate fully *before* changing anything, so that a violation
        leaves even the working copy untouched, and return the events in order.

        :raises IllegalMove | InvalidInput: when the rules refuse the command.
        """

    # ------------------------------------------------------------ serialization
    def load_state(self, data: str | bytes | Mapping[str, Any]) -> S:
        """Read a state from its JSON (text or parsed).

        :raises InvalidInput: when the data is not a valid state of this ruleset.
        """
        try:
            if isinstance(data, str | bytes):
                state = self.state_model.model_validate_json(data)
            else:
                state = self.state_model.model_validate(dict(data))
        except ValidationError as error:
            raise InvalidInput(
                f"Not a valid {self.id} game state: {_validation_message(error)}"
            ) from None
        return state  # type: ignore[return-value]

    @staticmethod
    def dump_state(state: GameState) -> str:
        """Return the canonical JSON of ``state`` (round-trips exactly via `load_state`)."""
        return state.model_dump_json()

    # ------------------------------------------------------------------- replay
    def replay(
        self,
        options: BaseModel,
        players: int,
        seed: int,
        commands: Iterable[tuple[int, Command | Mapping[str, Any] | str]],
    ) -> S:
        """Rebuild a game from its creation parameters and its command log.

        :raises RuleViolation: if a logged command no longer applies.
        """
        state, _ = self.new_game(options, players, seed)
        for seat, command in commands:
            state, _ = self.apply(state, seat, command)
        return state


_REGISTRY: dict[str, Ruleset[Any]] = {}


def register(ruleset: Ruleset[Any]) -> Ruleset[Any]:
    """Add ``ruleset`` to the registry under its ``id`` and return it.

    :raises ValueError: if another ruleset already has that id.
    """
    existing = _REGISTRY.get(ruleset.id)
    if existing is not None and existing is not ruleset:
        raise ValueError(f"A ruleset with id {ruleset.id!r} is already registered")
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    """Return the registered ruleset ``ruleset_id``.

    :raises InvalidInput: naming the known ids when there is no such ruleset.
    """
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise InvalidInput(f"Unknown game {ruleset_id!r}. Known games: {known}.") from None


def registered() -> Sequence[str]:
    """Return the ids of all registered rulesets, sorted."""
    return sorted(_REGISTRY)
