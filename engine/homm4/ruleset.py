"""The homm4 ruleset: the Heroes of Might & Magic IV card & tile game behind the engine protocol.

Rule sections: all of homm4 (base rules); see `engine.homm4.README.md` for the readings
chosen where the rulebook is silent. This module only routes: set-up is in `setup`,
turns and captures in `adventure`, purchases in `purchase`, movement in `movement`,
scouting and chipping in in `scouting`, battles in `battle`, decisions in `decisions`,
views in `viewing` and the computer player in `ai`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from engine.core.errors import InvalidInput
from engine.core.model import Command, Decision, Event, Result, TurnRecord
from engine.core.ruleset import Ruleset
from engine.homm4 import (
    adventure,
    ai,
    artifacts,
    battle,
    decisions,
    determinize,
    diplomacy,
    fallen,
    movement,
    purchase,
    scouting,
    setup,
    viewing,
)
from engine.homm4 import commands as c
from engine.homm4.audit import zone_problems
from engine.homm4.options import Homm4Options
from engine.homm4.state import Homm4State
from engine.homm4.views import PublicView, SeatView

PHASE_NAMES: dict[str, str] = {
    "develop": "Pre-developed Heroes",
    "assemble": "Setup",
    "entrances": "Terrain Map Sections with Underground",
    "setup": "Start of the Game",
    "purchase": "Purchase Phase",
    "movement": "Movement Phase",
    "closing": "Closing Phase",
    "over": "Victory",
}
"""The rulebook's name of each value of `Homm4State.phase` (a battle is fought within the
Movement Phase, homm4:battles)."""


class Homm4Ruleset(Ruleset[Homm4State]):
    """Heroes of Might & Magic IV: the collectible card & tile game (2-6 players)."""

    id: ClassVar[str] = "homm4"
    title: ClassVar[str] = "Heroes of Might & Magic IV: the card & tile game"
    min_players: ClassVar[int] = setup.MIN_PLAYERS
    max_players: ClassVar[int] = setup.MAX_PLAYERS
    state_model: ClassVar[type[Homm4State]] = Homm4State
    options_model: ClassVar[type[BaseModel]] = Homm4Options
    command_adapter: ClassVar[TypeAdapter[Any]] = c.COMMAND_ADAPTER

    def new_game(
        self, options: BaseModel, players: int, seed: int
    ) -> tuple[Homm4State, list[Event]]:
        """Set up a game (homm4:setup, homm4:start-of-the-game); see `setup.new_game`.

        :raises InvalidInput: for a bad seat count, deck or board size.
        """
        if not isinstance(options, Homm4Options):
            raise InvalidInput("homm4 needs Homm4Options.")
        return setup.new_game(options, players, seed)

    def pending(self, state: Homm4State) -> list[Decision]:
        """Return the decisions owed now (battle, then interrupts, then the phase)."""
        return decisions.pending(state)

    def legal_commands(self, state: Homm4State, seat: int) -> list[Command]:
        """Return a finite list of commands ``seat`` may issue now, each accepted by apply."""
        return decisions.legal_commands(state, seat)

    def default_command(self, state: Homm4State, seat: int) -> Command:
        """Return the documented default for ``seat``'s decision (`decisions.default_command`).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        return decisions.default_command(state, seat)

    def ai_command(self, state: Homm4State, seat: int, rng: random.Random) -> Command:
        """Choose a command for a computer seat (`engine.homm4.ai`).

        :raises NotYourDecision: if ``seat`` owes nothing.
        """
        return ai.ai_command(state, seat, rng)

    def evaluate(self, state: Homm4State, seat: int) -> float:
        """The seat's share of the table's material (`engine.homm4.ai.evaluate`), for the
        search players' play-outs."""
        return ai.evaluate(state, seat)

    def view(self, state: Homm4State, seat: int) -> SeatView:
        """Return the public view plus ``seat``'s own Hand and Risk Stack."""
        return viewing.seat_view(state, seat)

    def public_view(self, state: Homm4State) -> PublicView:
        """Return what everyone may see (no Hand, Risk Stack or deck card)."""
        return viewing.public_view(state)

    def audit(self, state: Homm4State) -> list[str]:
        """Every card instance in exactly one zone (`audit.zone_problems`)."""
        return zone_problems(state)

    def result(self, state: Homm4State) -> Result:
        """Return the result: finished once one side (or the sides eliminated together
        last) remains (homm4:victory; `adventure.game_result`, which the views show too)."""
        return adventure.game_result(state)

    def turn(self, state: Homm4State) -> TurnRecord:
        """The turn, round, the seat whose turn it is and the phase's rulebook name
        (homm4:turn-summary; set-up steps: homm4:setup, homm4:start-of-the-game; all seats
        with a Hero to develop act at once, homm4:game-variants.pre-developed-heroes)."""
        if state.phase == "over":
            active: tuple[int, ...] = ()
        elif state.phase == "develop":
            active = tuple(sorted({seat for seat, _ in state.to_develop}))
        else:
            active = (state.active,)
        return TurnRecord(
            turn=state.turn, round=state.round, active=active, phase=PHASE_NAMES[state.phase]
        )

    def names_hidden_card(self, state: Homm4State, seat: int, command: Command) -> bool:
        """Whether ``command`` names a Hand, Risk Stack or deck card
        (`decisions.HIDDEN_CARD_COMMANDS`; homm4:card-types)."""
        return command.type in decisions.HIDDEN_CARD_COMMANDS

    def hidden_piles(self, state: Homm4State) -> dict[str, list[Any]]:
        """Each seat's draw deck (``deck.<seat>``; homm4:card-types, the views show only
        its size) and the pile of Terrain Map Sections not yet on the board
        (``section_pile``; homm4:setup)."""
        piles: dict[str, list[Any]] = {f"deck.{p.seat}": list(p.deck) for p in state.players_state}
        piles["section_pile"] = list(state.section_pile)
        return piles

    def information_set(self, state: Homm4State, seat: int) -> Homm4State:
        """``state`` as ``seat`` may know it (`determinize.information_set`: decks, other
        Hands and Risk Stacks, face-down sections and the generator made canonical;
        homm4:card-types).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(state, seat)
        return determinize.information_set(state, seat)

    def determinize(self, info: Homm4State, seat: int, rng: random.Random) -> Homm4State:
        """One full game behind ``info`` (`determinize.determinize`; homm4:card-types).

        :raises InvalidInput: for a seat not in the game.
        """
        self._check_seat(info, seat)
        return determinize.determinize(info, seat, rng)

    def reveals_hidden(
        self,
        before: Homm4State,
        seat: int,
        command: Command,
        after: Homm4State,
        events: Sequence[Event],
    ) -> bool:
        """`Ruleset.reveals_hidden`, except that the Risk Stack chosen by ``seat`` is no
        reveal in itself: its private line only tells that seat the cards of its own Hand
        it just put face down (homm4:setup). Whatever else the command did (a draw, a
        shuffle, a die roll, another seat's line) still counts."""
        told = [
            e.model_copy(update={"private": {}})
            if e.kind == "risk_stack" and set(e.private) <= {seat}
            else e
            for e in events
        ]
        return super().reveals_hidden(before, seat, command, after, told)

    def _apply(self, state: Homm4State, seat: int, command: Command) -> list[Event]:
        """Route ``command`` to its rule, settle dead Heroes (advanced rule), then check
        eliminations and victory."""
        if state.battle is not None:
            events = self._battle_command(state, seat, command)
        else:
            events = self._adventure_command(state, seat, command)
        events += fallen.settle(state)
        return events + adventure.check_eliminations(state)

    def _battle_command(self, state: Homm4State, seat: int, command: Command) -> list[Event]:
        events, outcome = battle.apply_battle_command(state, seat, command)
        events = list(events)
        if outcome is not None:
            events += adventure.after_battle(state, outcome)
        return events

    def _adventure_command(self, state: Homm4State, seat: int, command: Command) -> list[Event]:
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise InvalidInput(f"'{command.type}' is not a command of this game.")
        events: list[Event] = handler(state, seat, command)
        return events


def _place_section(state: Homm4State, seat: int, command: Any) -> list[Event]:
    return setup.place_section(state, seat, (command.slot[0], command.slot[1]), command.rotation)


def _end_purchase(state: Homm4State, seat: int, command: Any) -> list[Event]:
    return adventure.begin_movement(state)


def _end_movement(state: Homm4State, seat: int, command: Any) -> list[Event]:
    return adventure.begin_closing(state)


def _identify(state: Homm4State, seat: int, command: Any) -> list[Event]:
    site = scouting.site_by_label(state, command.site)
    events = scouting.identify(state, seat, command.site, command.card)
    return events + movement.engage_on_site(state, site.id)


def _reinforce_guard(state: Homm4State, seat: int, command: Any) -> list[Event]:
    head = state.interrupts[0] if state.interrupts else None
    events = scouting.reinforce_guard(state, seat, command.cards)
    site_id = getattr(head, "site", None)
    return events + (movement.engage_on_site(state, site_id) if site_id is not None else [])


_HANDLERS: dict[type[Command], Any] = {
    c.PlaceSection: _place_section,
    c.DevelopHero: lambda s, seat, cmd: setup.develop_hero(s, seat, cmd.hero, cmd.cards),
    c.PlaceEntrance: lambda s, seat, cmd: setup.place_entrance(
        s, seat, cmd.surface, cmd.underground
    ),
    c.ChooseRiskStack: lambda s, seat, cmd: setup.choose_risk_stack(s, seat, cmd.cards),
    c.PlaceArmy: lambda s, seat, cmd: setup.place_army(s, seat, cmd.hex),
    c.BuyUnit: purchase.buy,
    c.UpgradeTown: purchase.upgrade_town,
    c.BuyArtifact: purchase.buy_artifact,
    c.BuySkill: purchase.buy_skill,
    c.LearnSpell: purchase.learn_spell,
    c.EndPurchase: _end_purchase,
    c.SplitArmy: movement.split_army,
    c.FormArmy: movement.form_army,
    c.TransferCards: movement.transfer,
    c.TransferArtifact: movement.transfer_artifact,
    c.DiscardArtifact: movement.discard_artifact,
    c.Move: movement.move,
    c.Recruit: movement.recruit,
    c.CastAdventureSpell: movement.cast_adventure_spell,
    c.EndMovement: _end_movement,
    c.Identify: _identify,
    c.PassIdentify: lambda s, seat, cmd: scouting.pass_identify(s, seat, cmd.site),
    c.ReinforceGuard: _reinforce_guard,
    c.LearnSkill: lambda s, seat, cmd: adventure.learn_skill(s, seat, cmd.hero, cmd.card),
    c.MakeArtifactRoom: lambda s, seat, cmd: artifacts.make_artifact_room(s, seat, cmd.discard),
    c.CloseTurn: lambda s, seat, cmd: adventure.close_turn(s, seat, cmd.card),
    c.PayPlayer: diplomacy.pay_player,
    c.GiveArmy: diplomacy.give_army,
    c.SellObject: diplomacy.sell_object,
    c.LootHero: fallen.loot,
}
