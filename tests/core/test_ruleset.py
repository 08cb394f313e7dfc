"""The checked apply path of engine.core.Ruleset, exercised with a tiny dice race game."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import pytest
from pydantic import BaseModel, Field, TypeAdapter

from engine.core import (
    Command,
    Decision,
    Event,
    GameOver,
    GameState,
    IllegalMove,
    InvalidInput,
    NotYourDecision,
    Result,
    Rng,
    Ruleset,
    StaleState,
    TurnRecord,
    WrongPhase,
    get_ruleset,
    register,
    seat_name,
)


class RaceOptions(BaseModel):
    goal: int = Field(default=12, ge=1)


class Roll(Command):
    type: Literal["roll"] = "roll"


class Hold(Command):
    type: Literal["hold"] = "hold"
    amount: int = Field(ge=1)


RaceCommand = Annotated[Roll | Hold, Field(discriminator="type")]


class RaceState(GameState):
    ruleset: Literal["race"] = "race"
    goal: int
    scores: list[int]
    active: int = 0


class Race(Ruleset[RaceState]):
    """Seats take turns rolling a d6 and adding it to their score; first to the goal wins."""

    id: ClassVar[str] = "race-test"
    title: ClassVar[str] = "Dice race"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    state_model = RaceState
    options_model = RaceOptions
    command_adapter: ClassVar[TypeAdapter[Command]] = TypeAdapter(RaceCommand)  # type: ignore[arg-type]

    def new_game(
        self, options: BaseModel, players: int, seed: int
    ) -> tuple[RaceState, list[Event]]:
        assert isinstance(options, RaceOptions)
        state = RaceState(
            players=players, seed=seed, rng=Rng(seed=seed), goal=options.goal, scores=[0] * players
        )
        return state, [Event(kind="start", text="The race begins.")]

    def pending(self, state: RaceState) -> list[Decision]:
        if self.result(state).finished:
            return []
        return [
            Decision(
                seat=state.active,
                kind="turn",
                prompt=f"{seat_name(state.active)} rolls.",
                commands=("roll",),
            )
        ]

    def legal_commands(self, state: RaceState, seat: int) -> list[Command]:
        return [Roll()] if any(d.seat == seat for d in self.pending(state)) else []

    def _apply(self, state: RaceState, seat: int, command: Command) -> list[Event]:
        if not isinstance(command, Roll):
            raise IllegalMove("Only rolling is allowed.")
        face = state.rng.die(6)
        state.scores[seat] += face
        state.active = (seat + 1) % state.players
        return [
            Event(kind="die_roll", text=f"{seat_name(seat)} rolls {face}.", data={"result": face})
        ]

    def view(self, state: RaceState, seat: int) -> BaseModel:
        return state

    def public_view(self, state: RaceState) -> BaseModel:
        return state

    def result(self, state: RaceState) -> Result:
        winners = tuple(s for s, score in enumerate(state.scores) if score >= state.goal)
        return Result(finished=bool(winners), winners=winners, reason="Reached the goal.")

    def default_command(self, state: RaceState, seat: int) -> Command:
        return Roll()

    def turn(self, state: RaceState) -> TurnRecord:
        over = self.result(state).finished
        return TurnRecord(
            turn=state.version, round=0, active=() if over else (state.active,), phase="Race"
        )


RACE = register(Race())


def new(seed: int = 5, goal: int = 12) -> RaceState:
    state, _ = RACE.new_game(RaceOptions(goal=goal), 2, seed)
    return state


def test_apply_returns_new_state_and_leaves_input_untouched() -> None:
    state = new()
    before = RACE.dump_state(state)
    after, events = RACE.apply(state, 0, {"type": "roll"})
    assert RACE.dump_state(state) == before
    assert after.version == 1 and after.active == 1
    assert events[0].kind == "die_roll" and after.scores[0] == events[0].data["result"]


def test_not_your_turn_names_who_is_awaited() -> None:
    with pytest.raises(NotYourDecision, match="Red rolls"):
        RACE.apply(new(), 1, Roll())


def test_wrong_phase_lists_what_is_allowed() -> None:
    with pytest.raises(WrongPhase, match="You may: roll"):
        RACE.apply(new(), 0, Hold(amount=2))


def test_stale_version_is_refused() -> None:
    state, _ = RACE.apply(new(), 0, Roll())
    with pytest.raises(StaleState, match="move 0"):
        RACE.apply(state, 1, Roll(), expected_version=0)


def test_unreadable_command_names_the_field() -> None:
    with pytest.raises(InvalidInput, match="amount"):
        RACE.apply(new(), 0, {"type": "hold", "amount": 0})
    with pytest.raises(InvalidInput):
        RACE.apply(new(), 0, {"type": "fly"})


def test_unknown_seat_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="no seat 7"):
        RACE.apply(new(), 7, Roll())


def test_game_over_refuses_commands() -> None:
    state = new(goal=1)
    state, _ = RACE.apply(state, 0, Roll())
    assert RACE.result(state).winners == (0,)
    with pytest.raises(GameOver):
        RACE.apply(state, 1, Roll())


def test_replay_is_byte_for_byte() -> None:
    log = []
    state = new(seed=77, goal=30)
    while not RACE.result(state).finished:
        seat = state.active
        log.append((seat, {"type": "roll"}))
        state, _ = RACE.apply(state, seat, Roll())
    again = RACE.replay(RaceOptions(goal=30), 2, 77, log)
    assert RACE.dump_state(again) == RACE.dump_state(state)
    assert RACE.dump_state(RACE.load_state(RACE.dump_state(state))) == RACE.dump_state(state)


def test_registry() -> None:
    assert get_ruleset("race-test") is RACE
    with pytest.raises(InvalidInput, match="Unknown game"):
        get_ruleset("chess")
    with pytest.raises(ValueError):
        register(Race())


def test_private_lines_are_stripped_from_the_public_event() -> None:
    event = Event(kind="draw", text="Red draws 1 card.", private={0: "You draw Orc #3."})
    assert event.public().private == {} and event.for_seat(1).private == {}
    assert event.for_seat(0).private == {0: "You draw Orc #3."}
