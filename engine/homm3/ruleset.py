"""The homm3 ruleset: the HoMM III board game's turn rules and its Battlefield expansion
(Adventure and Skirmish modes ending in a hex Battlefield Combat) behind the engine protocol.

Rule sections: all of homm3bf and homm3turn; see ``engine/homm3/README.md`` for the
readings chosen where the texts are silent. This module routes commands and settles the
game after each one: effect steps first, then the Adventure or the Combat flow.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from engine.core.errors import InvalidInput, WrongPhase
from engine.core.model import Command, Decision, Event, Result, TurnRecord
from engine.core.ruleset import Ruleset
from engine.homm3 import (
    adventure,
    ai,
    audit,
    cardplay,
    combat_attack,
    combat_flow,
    decisions,
    determinize,
    effects,
    map_combat,
    map_decisions,
    map_turns,
    setup,
    viewing,
)
from engine.homm3 import commands as c
from engine.homm3.options import Homm3Options
from engine.homm3.state import Homm3State
from engine.homm3.views import PublicView, SeatView


class Homm3Ruleset(Ruleset[Homm3State]):
    """Heroes of Might and Magic III: the board game's Battlefield expansion (2 players)."""

    id: ClassVar[str] = "homm3"
    title: ClassVar[str] = (
        "Heroes of Might and Magic III: the board game (map game; Battlefield Adventure and Skirmish)"
    )
    min_players: ClassVar[int] = min(setup.PLAYERS, *setup.MAP_PLAYERS)
    max_players: ClassVar[int] = max(setup.PLAYERS, *setup.MAP_PLAYERS)
    state_model: ClassVar[type[Homm3State]] = Homm3State
    options_model: ClassVar[type[BaseModel]] = Homm3Options
    command_adapter: ClassVar[TypeAdapter[Any]] = c.COMMAND_ADAPTER

    def new_game(
        self, options: BaseModel, players: int, seed: int
    ) -> tuple[Homm3State, list[Event]]:
        """Set up a game (homm3bf:battlefield-setup); see `setup.new_game`.

        :raises InvalidInput: for a seat count other than 2 or unknown heroes.
        """
        if not isinstance(options, Homm3Options):
            raise InvalidInput("homm3 needs Homm3Options.")
        if options.mode == "map":
            state, events = map_turns.new_game(options, players, seed)
            return state, events + map_decisions.settle(state)
        state, events = setup.new_game(options, players, seed)
        return state, events + settle(state)

    def seat_range(self, options: BaseModel) -> tuple[int, int]:
        """2 and 2 for Skirmish and Adventure, the scenario's counts in a map game
        (`setup.seat_range`).

        :raises InvalidInput: for options that are not `Homm3Options`.
        Rule: homm3bf:adventure-mode, homm3core:scenarios"""
        if not isinstance(options, Homm3Options):
            raise InvalidInput("homm3 needs Homm3Options.")
        return setup.seat_range(options)

    def pending(self, state: Homm3State) -> list[Decision]:
        """The decisions owed now (open choices first)."""
        if state.mode == "map":
            return map_decisions.pending(state)
        return decisions.pending(state)

    def turn(self, state: Homm3State) -> TurnRecord:
        """Turn, round, whose turn it is and the phase (`decisions.turn_record`)."""
        if state.mode == "map":
            return map_decisions.turn_record(state)
        return decisions.turn_record(state)

    def names_hidden_card(self, state: Homm3State, seat: int, command: Command) -> bool:
        """Whether ``command`` may name a hidden card: a card play, a Morale card, an
        Adventure card resolved, fought or set aside, a redraw, a Spell bought or a unit
        mustered from the Town (`decisions.CARD_COMMANDS`)."""
        return command.type in decisions.CARD_COMMANDS or command.type == "refresh"

    def hidden_piles(self, state: Homm3State) -> dict[str, list[Any]]:
        """Each seat's deck (``deck.<seat>``) and the shared face-down decks: Ability,
        Artifact, Spell, Adventure and the positive and negative Morale decks (the views
        show only their sizes; homm3bf:battlefield-setup)."""
        piles: dict[str, list[Any]] = {f"deck.{i}": list(p.deck) for i, p in enumerate(state.seats)}
        for name in (
            "ability_deck",
            "artifact_deck",
            "spell_deck",
            "adventure_deck",
            "positive_deck",
            "negative_deck",
        ):
            piles[name] = list(getattr(state, name))
        if state.map is not None:
            piles.update(state.map.hidden_tiles())
        return piles

    def legal_commands(self, state: Homm3State, seat: int) -> list[Command]:
        """A finite list of commands ``seat`` may issue now, each accepted by apply."""
        if state.mode == "map":
            return map_decisions.legal_commands(state, seat)
        return decisions.legal_commands(state, seat)

    def default_command(self, state: Homm3State, seat: int) -> Command:
        """The documented default (`decisions.default_command`).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        if state.mode == "map":
            return map_decisions.default_command(state, seat)
        return decisions.default_command(state, seat)

    def ai_command(self, state: Homm3State, seat: int, rng: random.Random) -> Command:
        """A command for a computer seat (`engine.homm3.ai`).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        if state.mode == "map":
            return map_decisions.ai_command(state, seat, rng)
        return ai.ai_command(state, seat, rng)

    def evaluate(self, state: Homm3State, seat: int) -> float:
        """The seat's share of the table's material (`engine.homm3.ai.evaluate`), for the
        search players' play-outs."""
        return ai.evaluate(state, seat)

    def information_set(self, state: Homm3State, seat: int) -> Homm3State:
        """``state`` as ``seat`` may know it (`determinize.information_set`: the faces of
        the cards hidden from it, the decks' order, the map game's face-down tiles and
        the generator made canonical; homm3bf:battlefield-setup).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(state, seat)
        return determinize.information_set(state, seat)

    def determinize(self, info: Homm3State, seat: int, rng: random.Random) -> Homm3State:
        """One full game behind ``info`` (`determinize.determinize`;
        homm3bf:battlefield-setup).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(info, seat)
        return determinize.determinize(info, seat, rng)

    def view(self, state: Homm3State, seat: int) -> SeatView:
        """The public view plus ``seat``'s own hand, set-aside cards and choices."""
        if state.mode == "map":
            return map_decisions.seat_view(state, seat)
        return viewing.seat_view(state, seat)

    def public_view(self, state: Homm3State) -> PublicView:
        """What everyone may see (no hand, deck or looked-at card)."""
        if state.mode == "map":
            return map_decisions.public_view(state)
        return viewing.public_view(state)

    def audit(self, state: Homm3State) -> list[str]:
        """Every card in exactly one zone, one unit per hex (`audit.problems`)."""
        return audit.problems(state)

    def result(self, state: Homm3State) -> Result:
        """Finished once a side's deployed units are all defeated
        (homm3bf:skirmish-mode.victory-condition, homm3bf:adventure-mode.victory-condition)."""
        if state.phase != "over":
            return Result()
        return Result(finished=True, winners=tuple(state.winners), reason=state.reason)

    def _apply(self, state: Homm3State, seat: int, command: Command) -> list[Event]:
        """Route ``command`` to its rule, then settle the game."""
        if state.mode == "map":
            return map_decisions.apply(state, seat, command)
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise InvalidInput(f"'{command.type}' is not a command of this game.")
        if not isinstance(command, c.Play) and state.combat is not None:
            state.combat.last_cast = {}
        events: list[Event] = handler(state, seat, command)
        return events + settle(state)


def settle(state: Homm3State) -> list[Event]:
    """Resolve queued steps and run the Adventure or Combat flow until a decision is owed.

    Rule: none (bookkeeping: settles the game after a command)"""
    events = effects.run(state)
    for _ in range(200):
        if effects.busy(state) or state.phase == "over":
            break
        before = (state.phase, state.version, len(events))
        if state.phase == "setup":
            events += setup.finish_skirmish(state)
        elif state.phase == "adventure":
            events += adventure.advance(state)
        elif state.phase == "combat":
            events += combat_flow.advance(state)
        events += effects.run(state)
        if (state.phase, state.version, len(events)) == before:
            break
    return events


def _route(state: Homm3State, seat: int, command: Command) -> list[Event]:
    """Apply a Combat command to a map game's Battlefield state, then settle it.

    Rule: none (routing)"""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise InvalidInput(f"'{command.type}' is not a Combat command.")
    if not isinstance(command, c.Play) and state.combat is not None:
        state.combat.last_cast = {}
    events: list[Event] = handler(state, seat, command)
    return events + settle(state)


def _combat_only(
    handler: Callable[[Homm3State, int, Any], list[Event]],
) -> Callable[[Homm3State, int, Any], list[Event]]:
    def wrapped(state: Homm3State, seat: int, command: Any) -> list[Event]:
        if state.phase != "combat":
            raise WrongPhase(f"'{command.type}' is a Combat command and no Combat is running.")
        return handler(state, seat, command)

    return wrapped


def _adventure_only(
    handler: Callable[[Homm3State, int, Any], list[Event]],
) -> Callable[[Homm3State, int, Any], list[Event]]:
    def wrapped(state: Homm3State, seat: int, command: Any) -> list[Event]:
        if state.phase != "adventure":
            raise WrongPhase(f"'{command.type}' is an Adventure command.")
        return handler(state, seat, command)

    return wrapped


def _pass(state: Homm3State, seat: int) -> list[Event]:
    """Pass whichever card window waits for ``seat``: an enemy Spell's answer, the
    Combat's start, a Resurrection, or an attack's cards."""
    combat = state.combat
    assert combat is not None
    if combat.reaction is not None:
        return cardplay.pass_reaction(state, seat)
    if combat.opening is not None:
        return combat_flow.pass_opening(state, seat)
    if combat.window is not None and combat.window.stage == "resurrection":
        return combat_attack.pass_resurrection(state, seat)
    return combat_attack.pass_window(state, seat)


def _morale(state: Homm3State, seat: int, command: c.UseMorale) -> list[Event]:
    return cardplay.use_morale(state, seat, command)


_HANDLERS: dict[type[Command], Callable[[Homm3State, int, Any], list[Event]]] = {
    c.Choose: lambda s, seat, cmd: effects.answer(s, seat, cmd.option, adventure.answer),
    c.Redraw: _adventure_only(
        lambda s, seat, cmd: adventure.redraw(s, seat, cmd.cards, cmd.source)
    ),
    c.ResolveEvent: _adventure_only(
        lambda s, seat, cmd: adventure.resolve_event(s, seat, cmd.card)
    ),
    c.FightAdventure: _adventure_only(
        lambda s, seat, cmd: adventure.fight(s, seat, cmd.card, cmd.level, cmd.units)
    ),
    c.Build: _adventure_only(lambda s, seat, cmd: adventure.build(s, seat, cmd.building)),
    c.Muster: _adventure_only(
        lambda s, seat, cmd: adventure.muster(s, seat, cmd.recruit, cmd.reinforce, cmd.discount)
    ),
    c.BuySpell: _adventure_only(lambda s, seat, cmd: adventure.buy_spell(s, seat, cmd.wisdom)),
    c.Blacksmith: _adventure_only(lambda s, seat, cmd: adventure.blacksmith(s, seat)),
    c.UseAside: _adventure_only(
        lambda s, seat, cmd: adventure.use_aside(s, seat, cmd.card, cmd.option)
    ),
    c.EndTurn: _adventure_only(lambda s, seat, cmd: adventure.end_turn(s, seat)),
    c.StartCombat: _adventure_only(lambda s, seat, cmd: adventure.start_combat(s, seat)),
    c.PlaceObstacle: _combat_only(
        lambda s, seat, cmd: combat_flow.place_obstacle(s, seat, cmd.token, cmd.hex)
    ),
    c.PassObstacles: _combat_only(lambda s, seat, cmd: combat_flow.pass_obstacles(s, seat)),
    c.Deploy: _combat_only(lambda s, seat, cmd: combat_flow.deploy(s, seat, cmd.unit, cmd.hex)),
    c.Activate: _combat_only(lambda s, seat, cmd: combat_flow.choose_activation(s, seat, cmd.unit)),
    c.Move: _combat_only(lambda s, seat, cmd: combat_attack.move(s, seat, cmd.hex)),
    c.Attack: _combat_only(lambda s, seat, cmd: combat_attack.attack(s, seat, cmd.target, cmd.hex)),
    c.AttackWall: _combat_only(
        lambda s, seat, cmd: combat_attack.attack_wall(s, seat, cmd.hex, cmd.move)
    ),
    c.Defend: _combat_only(lambda s, seat, cmd: combat_attack.defend(s, seat)),
    c.EndActivation: _combat_only(lambda s, seat, cmd: combat_attack.end(s, seat)),
    c.Play: _combat_only(lambda s, seat, cmd: cardplay.play(s, seat, cmd)),
    c.UseMorale: _morale,
    c.PassWindow: _combat_only(lambda s, seat, cmd: _pass(s, seat)),
}

map_combat.install(_route, settle)
