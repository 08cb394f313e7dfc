"""Shared pydantic models of the engine protocol: state, commands, events, decisions, results.

Every ruleset subclasses `GameState` and `Command`; `Event`, `Decision` and `Result` are
used as they are. Seats are numbered ``0..players-1`` in clockwise order; the engine never
knows Discord users, only seats (the bot maps seats to members).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.core.rng import Rng

SEAT_COLOURS: tuple[str, ...] = ("Red", "Blue", "Green", "Orange", "Purple", "Teal")
"""The name of each seat in public text, by seat number (Red is seat 0)."""


def seat_name(seat: int) -> str:
    """Return the public name of ``seat`` (``0 -> "Red"``); seats past six are ``"Seat N"``."""
    return SEAT_COLOURS[seat] if 0 <= seat < len(SEAT_COLOURS) else f"Seat {seat + 1}"


class Command(BaseModel):
    """Base of every ruleset command: a frozen model with a literal ``type`` discriminator.

    Subclasses declare ``type: Literal["..."]`` and their own fields; the ruleset parses raw
    dictionaries with its `Ruleset.parse_command`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    type: str


class Event(BaseModel):
    """Something that happened, as the log records it.

    Attributes:
        kind: a stable machine-readable kind (``"die_roll"``, ``"shuffle"``, ``"move"``...).
        text: the public line everyone may read. Never names a hidden card.
        data: public structured facts (die faces, hexes, card ids that are face up).
        private: per-seat lines only that seat may read (``{seat: text}``), e.g. which
            card was drawn. Kept out of every public view and channel message.
        private_data: per-seat structured facts, with the same visibility as ``private``.
    """

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str
    data: dict[str, Any] = Field(default_factory=dict)
    private: dict[int, str] = Field(default_factory=dict)
    private_data: dict[int, dict[str, Any]] = Field(default_factory=dict)

    def public(self) -> Event:
        """Return this event with every private part removed."""
        if not self.private and not self.private_data:
            return self
        return self.model_copy(update={"private": {}, "private_data": {}})

    def for_seat(self, seat: int) -> Event:
        """Return this event as ``seat`` may see it: public parts plus that seat's own lines."""
        return self.model_copy(
            update={
                "private": {seat: self.private[seat]} if seat in self.private else {},
                "private_data": (
                    {seat: self.private_data[seat]} if seat in self.private_data else {}
                ),
            }
        )


class Decision(BaseModel):
    """A decision a seat owes now.

    Attributes:
        seat: who owes it.
        kind: a stable kind (``"purchase"``, ``"chip_in_reinforce"``, ``"deploy"``...).
        prompt: a public sentence describing it ("Red must deploy for the battle at C4").
        commands: the command ``type`` values that answer it.
        private: whether answering it shows the seat's hidden cards (its options are
            chosen among Hand, Risk Stack, deck or face-down cards), so it is offered to
            that seat alone (a DM or an ephemeral reply), never in the channel. The
            ``prompt`` itself stays public either way. Set by the ruleset that builds it.
    """

    model_config = ConfigDict(frozen=True)

    seat: int
    kind: str
    prompt: str
    commands: tuple[str, ...]
    private: bool = False


class TurnRecord(BaseModel):
    """Where a game stands in its order of play, for any caller (status lines, whose
    turn began, reminders), the same shape for every ruleset.

    Attributes:
        turn: the ruleset's turn counter (turns begun so far; 0 during set-up).
        round: the round number (0 before the first round).
        active: the seats whose turn it is now, in seat order (several while seats act
            at the same time, as when choosing starting Heroes; empty once the game is
            over). A seat answering an interrupt in another's turn is not active.
        phase: the name of the current phase or step as the rulebook calls it
            (``"Purchase Phase"``, ``"Game Setup"``, ``"Battlefield Combat"``).
    """

    model_config = ConfigDict(frozen=True)

    turn: int = Field(ge=0)
    round: int = Field(ge=0)
    active: tuple[int, ...]
    phase: str


class Result(BaseModel):
    """The outcome of a game.

    Attributes:
        finished: whether the rules' victory condition has been met.
        winners: the winning seats (several for a team victory); empty while ongoing.
        reason: a public sentence ("Red is the last side with an Army or a Town").
    """

    model_config = ConfigDict(frozen=True)

    finished: bool = False
    winners: tuple[int, ...] = ()
    reason: str = ""


class GameState(BaseModel):
    """Fields every ruleset's state carries; subclasses add the game itself.

    Attributes:
        ruleset: the ruleset id (``"homm4"``).
        version: how many commands have been applied; bumped by `Ruleset.apply`.
        players: the number of seats.
        seed: the seed the game was created with.
        rng: the generator every die roll and shuffle draws from.
    """

    model_config = ConfigDict(validate_assignment=False, extra="forbid")

    ruleset: str
    version: int = 0
    players: int = Field(ge=1)
    seed: int
    rng: Rng
