"""Dice Race: a small but real test ruleset for the storage tests (id ``"dice_race"``).

Rules: each player starts at 0 with a private hand of number cards dealt from a seeded,
shuffled deck (four each of 1..6). On your turn either ``roll`` a d6 and move that far, or
``play`` a card from your hand, move its value and draw a replacement (only you see which;
an empty deck reshuffles the discards). The first to reach ``target`` wins. Every die roll
and shuffle draws from ``state.rng``, and each draw is a private event line, so replay and
log visibility are exercised the way a real ruleset would exercise them.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.core import (
    Command,
    Decision,
    Event,
    GameState,
    IllegalMove,
    InvalidInput,
    NotYourDecision,
    Result,
    Rng,
    Ruleset,
    TurnRecord,
    register,
    seat_name,
)

CARD_VALUES = range(1, 7)
COPIES = 4


class Options(BaseModel):
    """Dice Race options: the finishing square and the hand size."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    target: int = Field(30, ge=5, le=100_000)
    hand_size: int = Field(2, ge=0, le=4)


class Roll(Command):
    """Roll a d6 and move that many squares."""

    type: Literal["roll"] = "roll"


class Play(Command):
    """Play a card from your hand, move its value, draw a replacement."""

    type: Literal["play"] = "play"
    card: int = Field(ge=1, le=6)


AnyCommand = Annotated[Roll | Play, Field(discriminator="type")]


class RaceState(GameState):
    """Positions, private hands, the draw deck and the discard pile, whose turn it is."""

    target: int
    positions: list[int]
    hands: list[list[int]]
    deck: list[int]
    discard: list[int] = Field(default_factory=list)
    turn: int = 0
    winner: int | None = None


class RaceView(BaseModel):
    """What one seat (or everyone, with ``seat=None``) may see."""

    seat: int | None
    positions: list[int]
    hand: list[int] | None
    hand_sizes: list[int]
    deck_size: int
    turn: int


class DiceRace(Ruleset[RaceState]):
    """The Dice Race ruleset (see the module docstring)."""

    id: ClassVar[str] = "dice_race"
    title: ClassVar[str] = "Dice Race"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    state_model: ClassVar[type[GameState]] = RaceState
    options_model: ClassVar[type[BaseModel]] = Options
    command_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(AnyCommand)

    def new_game(
        self, options: BaseModel, players: int, seed: int
    ) -> tuple[RaceState, list[Event]]:
        """Shuffle the deck and deal ``hand_size`` cards to each seat (privately)."""
        assert isinstance(options, Options)
        if not self.min_players <= players <= self.max_players:
            raise InvalidInput(f"Dice Race takes 1-6 players, not {players}.")
        rng = Rng(seed=seed)
        deck = [value for value in CARD_VALUES for _ in range(COPIES)]
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(options.hand_size)] for _ in range(players)]
        state = RaceState(
            ruleset=self.id,
            players=players,
            seed=seed,
            rng=rng,
            target=options.target,
            positions=[0] * players,
            hands=hands,
            deck=deck,
        )
        events = [
            Event(kind="shuffle", text="The deck is shuffled."),
            Event(
                kind="deal",
                text=f"Each player is dealt {options.hand_size} cards.",
                private={s: f"Your hand: {hands[s]}" for s in range(players)},
                private_data={s: {"hand": list(hands[s])} for s in range(players)},
            ),
        ]
        return state, events

    def pending(self, state: RaceState) -> list[Decision]:
        """The seat whose turn it is owes a move, until someone wins."""
        if state.winner is not None:
            return []
        return [
            Decision(
                seat=state.turn,
                kind="turn",
                prompt=f"{seat_name(state.turn)} must roll or play a card.",
                commands=("roll", "play"),
            )
        ]

    def legal_commands(self, state: RaceState, seat: int) -> list[Command]:
        """``roll``, plus ``play`` of each distinct card in the seat's hand."""
        if state.winner is not None or seat != state.turn:
            return []
        return [Roll(), *(Play(card=c) for c in sorted(set(state.hands[seat])))]

    def view(self, state: RaceState, seat: int) -> BaseModel:
        """Positions, hand sizes and the seat's own hand."""
        return self._view(state, seat)

    def public_view(self, state: RaceState) -> BaseModel:
        """Positions and hand sizes, no hand."""
        return self._view(state, None)

    def _view(self, state: RaceState, seat: int | None) -> RaceView:
        return RaceView(
            seat=seat,
            positions=list(state.positions),
            hand=None if seat is None else list(state.hands[seat]),
            hand_sizes=[len(h) for h in state.hands],
            deck_size=len(state.deck),
            turn=state.turn,
        )

    def turn(self, state: RaceState) -> TurnRecord:
        """One turn per command (``version``), a round per lap of the seats; the seat to
        move is ``state.turn``."""
        return TurnRecord(
            turn=state.version,
            round=state.version // state.players + 1,
            active=() if state.winner is not None else (state.turn,),
            phase="Race",
        )

    def result(self, state: RaceState) -> Result:
        """Finished once a seat reaches the target."""
        if state.winner is None:
            return Result()
        return Result(
            finished=True,
            winners=(state.winner,),
            reason=f"{seat_name(state.winner)} reached square {state.target}.",
        )

    def default_command(self, state: RaceState, seat: int) -> Command:
        """An overdue seat rolls."""
        if state.winner is not None or seat != state.turn:
            raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
        return Roll()

    def _apply(self, state: RaceState, seat: int, command: Command) -> list[Event]:
        if isinstance(command, Play):
            if command.card not in state.hands[seat]:
                raise IllegalMove(f"You have no {command.card} in your hand.")
            return self._play(state, seat, command.card)
        face = state.rng.die(6)
        events = [
            Event(kind="die_roll", text=f"{seat_name(seat)} rolls {face}.", data={"die": face})
        ]
        return events + self._advance(state, seat, face)

    def _play(self, state: RaceState, seat: int, card: int) -> list[Event]:
        state.hands[seat].remove(card)
        state.discard.append(card)
        events = [
            Event(
                kind="play",
                text=f"{seat_name(seat)} plays a {card}.",
                data={"card": card},
            )
        ]
        if not state.deck:
            state.deck, state.discard = state.discard, []
            state.rng.shuffle(state.deck)
            events.append(Event(kind="shuffle", text="The discards are shuffled into a new deck."))
        drawn = state.deck.pop()
        state.hands[seat].append(drawn)
        events.append(
            Event(
                kind="draw",
                text=f"{seat_name(seat)} draws a card.",
                private={seat: f"You draw a {drawn}."},
                private_data={seat: {"card": drawn}},
            )
        )
        return events + self._advance(state, seat, card)

    def _advance(self, state: RaceState, seat: int, steps: int) -> list[Event]:
        state.positions[seat] += steps
        where = state.positions[seat]
        events = [
            Event(
                kind="move",
                text=f"{seat_name(seat)} moves to square {where}.",
                data={"seat": seat, "steps": steps, "position": where},
            )
        ]
        if where >= state.target:
            state.winner = seat
            events.append(Event(kind="win", text=f"{seat_name(seat)} wins the race."))
        else:
            state.turn = (state.turn + 1) % state.players
        return events


DICE_RACE = register(DiceRace())
"""The registered Dice Race ruleset instance."""
