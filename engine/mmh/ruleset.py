"""The mmh ruleset: Might & Magic Heroes (the board game) behind the engine protocol.

Rule sections: all of mmh; see ``engine/mmh/README.md`` for the readings chosen where the
rulebook is silent. This module only routes: set-up in `setup`, rounds in `rounds`, the
capital's actions in `economy`, heroes on the board in `movement`, battles in `battle`,
queued choices in `prompts`, decisions in `decisions`, views in `viewing`, the computer
player in `ai`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Command, Decision, Event, Result, TurnRecord
from engine.core.ruleset import Ruleset
from engine.mmh import (
    ai,
    audit,
    battle,
    decisions,
    determinize,
    economy,
    movement,
    prompts,
    setup,
    viewing,
)
from engine.mmh import board as geometry
from engine.mmh import commands as c
from engine.mmh.common import parse_unit_ref
from engine.mmh.options import MmhOptions
from engine.mmh.score import check_victory
from engine.mmh.state import ControlChoice, MmhState, XpSpend
from engine.mmh.views import PublicView, SeatView

PHASE_NAMES: dict[str, str] = {
    "tiles": "Setting Up the Game Board",
    "capitals": "Setting Up the Game Board",
    "heroes": "Choosing the Starting Hero",
    "play": "Playing Action Cards",
    "over": "Game End",
}
"""The rulebook's name of each value of `MmhState.phase` (a battle in play: "Battles")."""


class MmhRuleset(Ruleset[MmhState]):
    """Might & Magic Heroes (2-4 players)."""

    id: ClassVar[str] = "mmh"
    title: ClassVar[str] = "Might & Magic Heroes"
    min_players: ClassVar[int] = setup.MIN_PLAYERS
    max_players: ClassVar[int] = setup.MAX_PLAYERS
    state_model: ClassVar[type[MmhState]] = MmhState
    options_model: ClassVar[type[BaseModel]] = MmhOptions
    command_adapter: ClassVar[TypeAdapter[Any]] = c.COMMAND_ADAPTER

    def new_game(self, options: BaseModel, players: int, seed: int) -> tuple[MmhState, list[Event]]:
        """Set up a game (mmh:game-setup); see `setup.new_game`.

        :raises InvalidInput: for a bad seat count or faction list.
        """
        if not isinstance(options, MmhOptions):
            raise InvalidInput("mmh needs MmhOptions.")
        return setup.new_game(options, players, seed)

    def turn(self, state: MmhState) -> TurnRecord:
        """The turn, round, the seats whose turn it is and the phase's rulebook name
        (mmh:course-of-play; set-up: mmh:game-setup, where the seats placing tiles and
        capitals take turns and the starting heroes are chosen at once)."""
        phase = PHASE_NAMES[state.phase]
        if state.phase == "over":
            active: tuple[int, ...] = ()
        elif state.phase == "tiles":
            active = (setup.tile_placer(state),)
        elif state.phase == "capitals":
            active = (setup.capital_placer(state),)
        elif state.phase == "heroes":
            active = tuple(s.seat for s in state.seats if not s.heroes)
        else:
            active = (state.active,)
            if state.battle is not None:
                phase = "Battles"
        return TurnRecord(turn=state.turn, round=state.round, active=active, phase=phase)

    def names_hidden_card(self, state: MmhState, seat: int, command: Command) -> bool:
        """Whether ``command`` names a card only its owner may see: a scroll a hero holds
        face down (`decisions.names_held_scroll`; mmh:game-material.cards)."""
        return decisions.names_held_scroll(state, command)

    def hidden_piles(self, state: MmhState) -> dict[str, list[Any]]:
        """Each seat's might and magic skill decks (``might.<seat>``, ``magic.<seat>``),
        the scroll, artefact and treasure decks, the stack of week cards and the stack of
        map tiles still to place (mmh:game-setup.preparing-card-decks; the views show
        only their sizes, and the next tile once it is turned up)."""
        piles: dict[str, list[Any]] = {}
        for s in state.seats:
            piles[f"might.{s.seat}"] = list(s.might_deck)
            piles[f"magic.{s.seat}"] = list(s.magic_deck)
        for name in ("scroll_deck", "artefact_deck", "treasure_deck", "week_stack", "tile_stack"):
            piles[name] = list(getattr(state, name))
        return piles

    def information_set(self, state: MmhState, seat: int) -> MmhState:
        """``state`` as ``seat`` may know it (`determinize.information_set`: decks, discard
        piles, other heroes' scrolls, week cards, face-down tiles and the generator made
        canonical; mmh:game-setup.preparing-card-decks).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(state, seat)
        return determinize.information_set(state, seat)

    def determinize(self, info: MmhState, seat: int, rng: random.Random) -> MmhState:
        """One full game behind ``info`` (`determinize.determinize`;
        mmh:game-setup.preparing-card-decks).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(info, seat)
        return determinize.determinize(info, seat, rng)

    def pending(self, state: MmhState) -> list[Decision]:
        """The decisions owed now (`decisions.pending`)."""
        return decisions.pending(state)

    def legal_commands(self, state: MmhState, seat: int) -> list[Command]:
        """A finite list of commands ``seat`` may issue now, each accepted by apply."""
        return decisions.legal_commands(state, seat)

    def default_command(self, state: MmhState, seat: int) -> Command:
        """The documented default (`decisions.default_command`).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        return decisions.default_command(state, seat)

    def ai_command(self, state: MmhState, seat: int, rng: random.Random) -> Command:
        """Choose a command for a computer seat (`engine.mmh.ai`).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        return ai.ai_command(state, seat, rng)

    def evaluate(self, state: MmhState, seat: int) -> float:
        """The seat's share of the table's material (`engine.mmh.ai.evaluate`), for the
        search players' play-outs."""
        return ai.evaluate(state, seat)

    def view(self, state: MmhState, seat: int) -> SeatView:
        """The public view plus ``seat``'s own scrolls and pending card choice."""
        return viewing.seat_view(state, seat)

    def public_view(self, state: MmhState) -> PublicView:
        """What everyone may see."""
        return viewing.public_view(state)

    def audit(self, state: MmhState) -> list[str]:
        """Every card and marker in exactly one place (`audit.problems`)."""
        return audit.problems(state)

    def result(self, state: MmhState) -> Result:
        """Finished once a seat reaches the VP threshold or the last week's round is over
        (mmh:game-end)."""
        if state.phase != "over":
            return Result()
        return Result(finished=True, winners=tuple(state.winners), reason=state.end_reason)

    def _apply(self, state: MmhState, seat: int, command: Command) -> list[Event]:
        """Route ``command`` to its rule, let the battle run on, then check victory."""
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise InvalidInput(f"'{command.type}' is not a command of this game.")
        events: list[Event] = handler(state, seat, command)
        if state.battle is not None:
            events += battle.advance(state)
        if check_victory(state):
            events.append(
                Event(kind="game_end", text=state.end_reason, data={"winners": state.winners})
            )
        return events


def _move(state: MmhState, seat: int, cmd: c.Move) -> list[Event]:
    act = movement.activation(state)
    if act is None:
        raise IllegalMove("Activate a hero first.")
    hero = state.heroes[act.hero]
    capital = state.seats[seat].capital
    text = cmd.to.strip().lower()
    if text == "capital":
        options = dict(movement.step_options(state, hero, act))
        target: int | None = None if None in options else capital
    else:
        target = geometry.parse_space(state, cmd.to)
        if target == capital and hero.space is not None:
            options = dict(movement.step_options(state, hero, act))
            if target not in options and None in options:
                target = None
    return movement.move(state, seat, target)


def _level_up(state: MmhState, seat: int, cmd: c.LevelUp) -> list[Event]:
    if state.queue and isinstance(state.queue[0], XpSpend):
        if cmd.hero != state.queue[0].hero:
            raise IllegalMove("The treasure XP belongs to another hero.")
        return prompts.spend_xp(state, seat, cmd.deck, cmd.trophies)
    return economy.level_up(state, seat, cmd.hero, cmd.deck, cmd.trophies)


def _take_control(state: MmhState, seat: int, cmd: c.TakeControl) -> list[Event]:
    if state.queue and isinstance(state.queue[0], ControlChoice):
        return movement.take_offered(state, seat)
    return movement.declare_control(state, seat)


def _return_creatures(state: MmhState, seat: int, cmd: c.ReturnCreatures) -> list[Event]:
    return prompts.return_creatures(state, seat, [parse_unit_ref(x) for x in cmd.creatures])


def _retreat(state: MmhState, seat: int, cmd: c.Retreat) -> list[Event]:
    losses = None if cmd.losses is None else [parse_unit_ref(x) for x in cmd.losses]
    return battle.retreat(state, seat, losses)


_HANDLERS: dict[type[Command], Callable[[MmhState, int, Any], list[Event]]] = {
    c.PlaceTile: lambda s, seat, cmd: setup.place_tile(s, seat, cmd.column, cmd.row, cmd.rotation),
    c.PlaceCapital: lambda s, seat, cmd: setup.place_capital(
        s, seat, geometry.parse_space(s, cmd.space)
    ),
    c.ChooseHero: lambda s, seat, cmd: setup.choose_hero(s, seat, cmd.hero),
    c.PlayAction: lambda s, seat, cmd: economy.play_action(
        s, seat, cmd.card, cmd.action, cmd.bonus
    ),
    c.Build: lambda s, seat, cmd: economy.build(s, seat, cmd.building, cmd.pay),
    c.Trade: lambda s, seat, cmd: economy.trade(s, seat, cmd.give, cmd.amount),
    c.SellScroll: lambda s, seat, cmd: economy.sell_scroll(s, seat, cmd.hero, cmd.scroll),
    c.RecruitCreature: lambda s, seat, cmd: economy.recruit(
        s, seat, cmd.hero, cmd.creature, cmd.elite
    ),
    c.RecruitHero: lambda s, seat, cmd: economy.recruit_hero(s, seat, cmd.hero),
    c.Upgrade: lambda s, seat, cmd: economy.upgrade(s, seat, cmd.hero, cmd.creature),
    c.Dismiss: lambda s, seat, cmd: economy.dismiss(s, seat, cmd.hero, cmd.creature, cmd.elite),
    c.Activate: lambda s, seat, cmd: movement.activate(s, seat, cmd.hero),
    c.Move: _move,
    c.Explore: lambda s, seat, cmd: movement.explore(s, seat),
    c.TakeControl: _take_control,
    c.LevelUp: _level_up,
    c.EndAction: lambda s, seat, cmd: economy.end_action(s, seat),
    c.Keep: lambda s, seat, cmd: prompts.keep(s, seat, cmd.card),
    c.MakeRoom: lambda s, seat, cmd: prompts.make_room(s, seat, cmd.scroll),
    c.ChooseFields: lambda s, seat, cmd: prompts.fields(s, seat, cmd.fields),
    c.ChooseDeck: lambda s, seat, cmd: prompts.choose_deck(s, seat, cmd.deck),
    c.Search: lambda s, seat, cmd: prompts.search(s, seat, cmd.pile, cmd.card),
    c.ArenaRecruitCmd: lambda s, seat, cmd: prompts.arena(s, seat, cmd.creature, cmd.elite),
    c.RaiseCreature: lambda s, seat, cmd: prompts.raise_creature(s, seat, cmd.creature, cmd.mode),
    c.ChooseReward: lambda s, seat, cmd: prompts.reward(s, seat, cmd.deck, cmd.artefact),
    c.ReturnCreatures: _return_creatures,
    c.Decline: lambda s, seat, cmd: prompts.decline(s, seat),
    c.Honor: lambda s, seat, cmd: battle.choose_honor(s, seat, cmd.elite_die),
    c.UseCard: lambda s, seat, cmd: battle.use_card(s, seat, cmd.card, cmd.part, cmd.target),
    c.PassWindow: lambda s, seat, cmd: battle.pass_window(s, seat),
    c.Attack: lambda s, seat, cmd: battle.attack(s, seat, cmd.elite, cmd.target),
    c.SpendLuck: lambda s, seat, cmd: battle.spend_luck(s, seat, cmd.choice),
    c.Laurel: lambda s, seat, cmd: battle.choose_laurel(s, seat, cmd.choice),
    c.GuardianAngel: lambda s, seat, cmd: battle.choose_angel(s, seat, cmd.use),
    c.Assign: lambda s, seat, cmd: battle.assign(s, seat, cmd.unit, cmd.order),
    c.Retreat: _retreat,
    c.FightOn: lambda s, seat, cmd: battle.fight_on(s, seat),
}
