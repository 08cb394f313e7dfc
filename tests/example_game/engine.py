"""Pig, a two-player dice race (id ``"pig"``): the example game's rules engine.

Rule: none (a folk dice game, not one of the rulebooks). On your turn you ``roll`` a d6
as often as you like: each face from 2 to 6 adds to your turn's total, a 1 ends your
turn and loses that total. ``hold`` banks the turn's total into your score and passes the
die. The first score to reach ``target`` wins. Nothing is hidden; every roll draws from
``state.rng``, so replay gives the same game.
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


class PigOptions(BaseModel):
    """Pig's options: the score that wins (10 to 100 points)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    target: int = Field(20, ge=10, le=100)


class Roll(Command):
    """Roll the die once more this turn."""

    type: Literal["roll"] = "roll"


class Hold(Command):
    """Bank this turn's total and pass the die."""

    type: Literal["hold"] = "hold"


PigCommand = Annotated[Roll | Hold, Field(discriminator="type")]


class PigState(GameState):
    """Scores, the turn's running total, whose turn it is, the last face rolled."""

    target: int
    scores: list[int]
    turn_total: int = 0
    active: int = 0
    last_roll: int | None = None
    turns: int = 1
    winner: int | None = None


class PigView(BaseModel):
    """What everyone sees (Pig hides nothing): the scores, the target, whose turn, the
    turn's total and the last face rolled."""

    target: int
    scores: list[int]
    active: int
    turn_total: int
    last_roll: int | None
    winner: int | None


class Pig(Ruleset[PigState]):
    """The Pig ruleset (see the module docstring)."""

    id: ClassVar[str] = "pig"
    title: ClassVar[str] = "Pig"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    state_model: ClassVar[type[GameState]] = PigState
    options_model: ClassVar[type[BaseModel]] = PigOptions
    command_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(PigCommand)

    def new_game(self, options: BaseModel, players: int, seed: int) -> tuple[PigState, list[Event]]:
        """Both scores at 0, Red to roll. Rule: none.

        :raises InvalidInput: for other than two players.
        """
        assert isinstance(options, PigOptions)
        if players != 2:
            raise InvalidInput(f"Pig is played by 2 players, not {players}.")
        state = PigState(
            ruleset=self.id,
            players=players,
            seed=seed,
            rng=Rng(seed=seed),
            target=options.target,
            scores=[0, 0],
        )
        text = f"The first to {options.target} points wins; {seat_name(0)} rolls first."
        return state, [Event(kind="setup", text=text)]

    def pending(self, state: PigState) -> list[Decision]:
        """The seat whose turn it is owes a roll or a hold, until someone wins. Rule: none."""
        if state.winner is not None:
            return []
        prompt = f"{seat_name(state.active)} rolls or holds (this turn: {state.turn_total})."
        return [Decision(seat=state.active, kind="turn", prompt=prompt, commands=("roll", "hold"))]

    def legal_commands(self, state: PigState, seat: int) -> list[Command]:
        """``roll``, and ``hold`` once the turn has a total to bank. Rule: none."""
        if state.winner is not None or seat != state.active:
            return []
        return [Roll(), Hold()] if state.turn_total > 0 else [Roll()]

    def view(self, state: PigState, seat: int) -> BaseModel:
        """The public view (nothing is hidden). Rule: none."""
        return self.public_view(state)

    def public_view(self, state: PigState) -> BaseModel:
        """Scores, target, whose turn, the turn's total, the last roll. Rule: none."""
        return PigView(
            target=state.target,
            scores=list(state.scores),
            active=state.active,
            turn_total=state.turn_total,
            last_roll=state.last_roll,
            winner=state.winner,
        )

    def turn(self, state: PigState) -> TurnRecord:
        """A turn per seat's go at the die, a round per two turns. Rule: none."""
        return TurnRecord(
            turn=state.turns,
            round=(state.turns + 1) // 2,
            active=() if state.winner is not None else (state.active,),
            phase="Rolling",
        )

    def result(self, state: PigState) -> Result:
        """Finished once a score reaches the target. Rule: none."""
        if state.winner is None:
            return Result()
        return Result(
            finished=True,
            winners=(state.winner,),
            reason=f"{seat_name(state.winner)} reached {state.scores[state.winner]} points.",
        )

    def default_command(self, state: PigState, seat: int) -> Command:
        """An overdue seat holds when it has a total, else rolls. Rule: none.

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        if state.winner is not None or seat != state.active:
            raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
        return Hold() if state.turn_total > 0 else Roll()

    def audit(self, state: PigState) -> list[str]:
        """Scores stay below the target until the winner's; the turn total is 0 or at
        least 2. Rule: none."""
        problems = []
        if state.winner is None and max(state.scores) >= state.target:
            problems.append("a score reached the target but nobody won")
        if state.turn_total == 1 or state.turn_total < 0:
            problems.append(f"impossible turn total {state.turn_total}")
        return problems

    def _apply(self, state: PigState, seat: int, command: Command) -> list[Event]:
        name = seat_name(seat)
        if isinstance(command, Hold):
            if state.turn_total == 0:
                raise IllegalMove("Roll at least once before you hold.")
            state.scores[seat] += state.turn_total
            banked, state.turn_total = state.turn_total, 0
            events = [Event(kind="hold", text=f"{name} holds {banked}: {state.scores[seat]}.")]
            if state.scores[seat] >= state.target:
                state.winner = seat
                return [*events, Event(kind="win", text=f"{name} wins.")]
            return [*events, self._pass(state)]
        face = state.rng.die(6)
        state.last_roll = face
        if face == 1:
            lost, state.turn_total = state.turn_total, 0
            rolled = Event(kind="roll", text=f"{name} rolls a 1 and loses {lost}.", data={"die": 1})
            return [rolled, self._pass(state)]
        state.turn_total += face
        text = f"{name} rolls {face} (this turn: {state.turn_total})."
        return [Event(kind="roll", text=text, data={"die": face})]

    @staticmethod
    def _pass(state: PigState) -> Event:
        state.active = 1 - state.active
        state.turns += 1
        return Event(kind="pass", text=f"{seat_name(state.active)} takes the die.")


PIG = register(Pig())
"""The registered Pig ruleset instance."""
