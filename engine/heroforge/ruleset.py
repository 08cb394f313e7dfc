"""The heroforge ruleset: Hero Forge behind the engine protocol.

Rule sections: all of heroforge; see ``engine/heroforge/README.md`` for the readings
chosen where the rulebook is silent or repeats itself inconsistently. This module only
routes: set-up is in `setup`, turns in `turns`, enchantments in `enchant`, buying in
`purchase`, moving in `movement`, combat in `combat`, decisions in `decisions`, views in
`viewing` and the computer player in `ai`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Command, Decision, Event, Result, TurnRecord, seat_name
from engine.core.ruleset import Ruleset
from engine.heroforge import (
    ai,
    audit,
    board,
    combat,
    decisions,
    determinize,
    enchant,
    movement,
    purchase,
    setup,
    turns,
    viewing,
)
from engine.heroforge import commands as c
from engine.heroforge.options import HeroforgeOptions
from engine.heroforge.state import HeroforgeState
from engine.heroforge.views import PublicView, SeatView

PHASE_NAMES: dict[str, str] = {
    "choose_hero": "Choose a Hero",
    "place_hero": "Place the Hero",
    "over": "Game over",
}
"""The name of each set-up value of `HeroforgeState.phase` (and the end)."""

STEP_NAMES: dict[str, str] = {
    "buy1": "Buy Units or Fort",
    "move": "Move using D6",
    "moving": "Move using D6",
    "buy2": "Buy Units or Fort",
    "combat": "Enter Combat",
}
"""The rulebook's name of each step of a turn (heroforge:turns)."""


class HeroforgeRuleset(Ruleset[HeroforgeState]):
    """Hero Forge: land plates, D6 movement, D10 damage rolls, forts, enchantments (2-6)."""

    id: ClassVar[str] = "heroforge"
    title: ClassVar[str] = "Hero Forge"
    min_players: ClassVar[int] = setup.MIN_PLAYERS
    max_players: ClassVar[int] = setup.MAX_PLAYERS
    state_model: ClassVar[type[HeroforgeState]] = HeroforgeState
    options_model: ClassVar[type[BaseModel]] = HeroforgeOptions
    command_adapter: ClassVar[TypeAdapter[Any]] = c.COMMAND_ADAPTER

    def new_game(
        self, options: BaseModel, players: int, seed: int
    ) -> tuple[HeroforgeState, list[Event]]:
        """Build the board and seats (heroforge:lands, heroforge:basic-rules); see
        `setup.new_game`.

        :raises InvalidInput: for a bad seat count, board or hero list.
        """
        if not isinstance(options, HeroforgeOptions):
            raise InvalidInput("heroforge needs HeroforgeOptions.")
        return setup.new_game(options, players, seed)

    def parse_options(self, raw: Mapping[str, Any] | None) -> BaseModel:
        """Validate raw options into `HeroforgeOptions`, with messages a host can act on:
        each names the option as typed in ``/game new`` (``board`` for the custom grid,
        ``list1``, ``list5``, ``layout``, ``heroes``) and says what is wrong
        (heroforge:lands, heroforge:enchantment-lists).

        :raises InvalidInput: ``"Bad game options: board: unknown land 'XX'; use ..."``.
        """
        try:
            return HeroforgeOptions.model_validate(dict(raw or {}))
        except ValidationError as error:
            raise InvalidInput(f"Bad game options: {option_problems(error)}.") from None

    def pending(self, state: HeroforgeState) -> list[Decision]:
        """The decision owed now (`decisions.pending`)."""
        return decisions.pending(state)

    def legal_commands(self, state: HeroforgeState, seat: int) -> list[Command]:
        """A finite list of commands ``seat`` may issue now (`decisions.legal_commands`)."""
        return decisions.legal_commands(state, seat)

    def default_command(self, state: HeroforgeState, seat: int) -> Command:
        """The documented default (`decisions.default_command`).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        return decisions.default_command(state, seat)

    def ai_command(self, state: HeroforgeState, seat: int, rng: random.Random) -> Command:
        """The computer player's choice (`engine.heroforge.ai`).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        return ai.ai_command(state, seat, rng)

    def evaluate(self, state: HeroforgeState, seat: int) -> float:
        """The seat's share of the table's material (`engine.heroforge.ai.evaluate`), for the
        search players' play-outs."""
        return ai.evaluate(state, seat)

    def information_set(self, state: HeroforgeState, seat: int) -> HeroforgeState:
        """``state`` as ``seat`` may know it: all of it but the seed and generator
        (`determinize.information_set`; heroforge:basic-rules).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(state, seat)
        return determinize.information_set(state, seat)

    def determinize(self, info: HeroforgeState, seat: int, rng: random.Random) -> HeroforgeState:
        """``info`` with a fresh seed from ``rng`` (`determinize.determinize`;
        heroforge:turns).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(info, seat)
        return determinize.determinize(info, seat, rng)

    def view(self, state: HeroforgeState, seat: int) -> SeatView:
        """The table as ``seat`` sees it (everything: Hero Forge hides nothing)."""
        return viewing.seat_view(state, seat)

    def public_view(self, state: HeroforgeState) -> PublicView:
        """The table as everyone sees it."""
        return viewing.public_view(state)

    def audit(self, state: HeroforgeState) -> list[str]:
        """Units in one place each, one board, forts and heroes legal (`audit.problems`)."""
        return audit.problems(state)

    def result(self, state: HeroforgeState) -> Result:
        """Finished when one hero is left: it has killed every enemy hero
        (heroforge:basic-rules)."""
        if state.phase != "over" or not state.winners:
            return Result()
        return Result(
            finished=True,
            winners=tuple(state.winners),
            reason=f"{seat_name(state.winners[0])} has killed every enemy hero.",
        )

    def turn(self, state: HeroforgeState) -> TurnRecord:
        """The turn, round, the seat whose turn it is and the step of the turn in the
        rulebook's words (heroforge:turns; before the first turn, each player in turn
        chooses and places a hero, heroforge:basic-rules)."""
        over = state.phase == "over"
        return TurnRecord(
            turn=state.turn,
            round=state.round,
            active=() if over else (state.active,),
            phase=(PHASE_NAMES[state.phase] if state.phase != "play" else STEP_NAMES[state.step]),
        )

    def _apply(self, state: HeroforgeState, seat: int, command: Command) -> list[Event]:
        """Route ``command`` to its rule."""
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise InvalidInput(f"'{command.type}' is not a command of Hero Forge.")
        events: list[Event] = handler(state, seat, command)
        return events


OPTION_NAMES = {"grid": "board"}
"""Engine option fields under the name players type (the custom grid is ``board:``)."""


def option_problems(error: ValidationError) -> str:
    """The first three problems of ``error``, ``"<option>: <what is wrong>"`` joined by
    ``"; "``; a problem of the whole options (a grid together with a ready-made layout,
    a custom layout without a grid) names ``board``.

    Rule: none (messages).
    """
    parts = []
    for item in error.errors()[:3]:
        field = str(item["loc"][0]) if item["loc"] else "board"
        message = str(item["msg"]).removeprefix("Value error, ").rstrip(".")
        parts.append(f"{OPTION_NAMES.get(field, field)}: {message}")
    return "; ".join(parts)


def _shift(state: HeroforgeState, seat: int, command: c.Shift) -> list[Event]:
    """A shift owed now (scenario roll 10, an instant) or one from a carried ability."""
    owed = state.shift_due[0] if state.shift_due and state.shift_due[0].seat == seat else None
    if owed is None and decisions.ability_shifts_left(state, seat) < 1:
        raise IllegalMove(
            "You have no land shift to make now (a scenario roll of 10, an enchantment or an "
            "ability gives one)."
        )
    plate = board.shift(state, command.plate, command.direction)
    events = [
        Event(
            kind="shift",
            text=f"{seat_name(seat)} shifts plate {plate.label} one space "
            f"{command.direction.strip().upper()}.",
            data={"seat": seat, "plate": plate.label, "x": plate.x, "y": plate.y},
        )
    ]
    if owed is not None:
        owed.count -= 1
        if owed.count == 0 or not board.legal_shifts(state):
            state.shift_due.pop(0)
    else:
        state.shifts_used += 1
    return events


def _skip_shift(state: HeroforgeState, seat: int, command: c.SkipShift) -> list[Event]:
    due = state.shift_due.pop(0)
    return [
        Event(
            kind="shift_skipped",
            text=f"{seat_name(seat)} does not shift a plate ({due.reason}).",
            data={"seat": seat},
        )
    ]


def _end_buying(state: HeroforgeState, seat: int, command: c.EndBuying) -> list[Event]:
    if state.step == "buy1":
        state.step = "move"
        return []
    state.step = "combat"
    if combat.attack_targets(state, seat):
        return []
    return [
        Event(kind="turn_end", text=f"{seat_name(seat)} ends the turn.", data={"seat": seat}),
        *turns.end_turn(state),
    ]


def _end_turn(state: HeroforgeState, seat: int, command: c.EndTurn) -> list[Event]:
    if combat.must_continue(state, seat):
        raise IllegalMove(
            "Your hero is in combat: attack again, or end the combat by moving (next turn)."
        )
    return [
        Event(kind="turn_end", text=f"{seat_name(seat)} ends the turn.", data={"seat": seat}),
        *turns.end_turn(state),
    ]


_HANDLERS: dict[type[Command], Callable[[HeroforgeState, int, Any], list[Event]]] = {
    c.ChooseHero: lambda s, seat, cmd: setup.choose_hero(s, seat, cmd.hero),
    c.PlaceHero: lambda s, seat, cmd: setup.place_hero(s, seat, cmd.plate),
    c.Shift: _shift,
    c.SkipShift: _skip_shift,
    c.Steal: lambda s, seat, cmd: enchant.steal(s, seat),
    c.LetGo: lambda s, seat, cmd: enchant.let_go(s, seat),
    c.BuyUnit: lambda s, seat, cmd: purchase.buy_unit(s, seat, cmd.level, cmd.count),
    c.BuyFort: lambda s, seat, cmd: purchase.buy_fort(s, seat, cmd.step),
    c.ManFort: lambda s, seat, cmd: purchase.man_fort(s, seat, cmd.fort, cmd.units),
    c.UnmanFort: lambda s, seat, cmd: purchase.unman_fort(s, seat, cmd.fort, cmd.units),
    c.PassEnchantment: lambda s, seat, cmd: enchant.pass_enchantment(s, seat, cmd.to),
    c.EndBuying: _end_buying,
    c.RollMove: lambda s, seat, cmd: movement.roll_move(s, seat),
    c.SkipMove: lambda s, seat, cmd: movement.skip_move(s, seat),
    c.Move: lambda s, seat, cmd: movement.move(s, seat, cmd.direction, cmd.distance),
    c.Stay: lambda s, seat, cmd: movement.stay(s, seat),
    c.Attack: lambda s, seat, cmd: combat.attack(s, seat, cmd.target),
    c.EndTurn: _end_turn,
    c.FightBack: lambda s, seat, cmd: combat.fight_back(s, seat, cmd.target),
    c.Retreat: lambda s, seat, cmd: combat.retreat(s, seat),
}
