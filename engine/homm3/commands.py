"""Every homm3 player command, as pydantic models (one per player action).

Card arguments are card instance numbers (``#17`` is 17); units on the Battlefield are
named by their number; hexes by labels such as ``"G5"``; army units outside Combat by their
unit id (``"griffins"``). ``choose`` answers any open `Choice` by the option's index.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core.model import Command
from engine.homm3.map_commands import Discover, HireHero, MapMove, PlaceTile, RefreshHand, Revisit


class Choose(Command):
    """Pick option ``option`` (0-based) of your open choice (a Search, a die to keep, a card
    to remove, a reward...)."""

    type: Literal["choose"] = "choose"
    option: int = Field(ge=0)


# ------------------------------------------------------------- Adventure
class Redraw(Command):
    """Spend 1 Movement from a set-aside card to shuffle the named drawn Adventure cards
    back and draw as many (homm3bf:adventure-mode.round-structure)."""

    type: Literal["redraw"] = "redraw"
    cards: tuple[int, ...]
    source: int


class ResolveEvent(Command):
    """Resolve an Adventure-Event card from your Adventure hand (one card per round)."""

    type: Literal["resolve"] = "resolve"
    card: int


class FightAdventure(Command):
    """Resolve an Adventure-Combat card: declare Combat Power level 1-3 and name 2 of your
    units (homm3bf:...combat-during-adventure)."""

    type: Literal["fight"] = "fight"
    card: int
    level: int = Field(ge=1, le=3)
    units: tuple[str, ...]


class Build(Command):
    """Spend the Build Token on a building of your Town (homm3turn:build-token)."""

    type: Literal["build"] = "build"
    building: str


class Muster(Command):
    """Spend the Population Token: Recruit and Reinforce any number of units at once
    (homm3turn:population-token). ``discount`` names set-aside cards that lower a Gold cost."""

    type: Literal["muster"] = "muster"
    recruit: tuple[str, ...] = ()
    reinforce: tuple[str, ...] = ()
    discount: tuple[int, ...] = ()


class BuySpell(Command):
    """Spend the Spell Book Token: pay the Mage Guild's Gold cost and Search the Spell deck
    (homm3turn:spell-book-token); ``wisdom`` names a set-aside Wisdom card to use."""

    type: Literal["buy_spell"] = "buy_spell"
    wisdom: int | None = None


class Blacksmith(Command):
    """Castle's Blacksmith: pay 6 Gold to Search(2) the Artifact deck (once per turn)."""

    type: Literal["blacksmith"] = "blacksmith"


class UseAside(Command):
    """Use a set-aside card once (its ``option``: 0 top/basic, 1 bottom/expert)."""

    type: Literal["use_aside"] = "use_aside"
    card: int
    option: int = Field(default=0, ge=0, le=1)


class EndTurn(Command):
    """End your Adventure turn (keep at most 1 Adventure card, homm3bf:adventure-mode)."""

    type: Literal["end_turn"] = "end_turn"


class StartCombat(Command):
    """Take no (more) Town actions before the final Combat is set up: let it start
    (homm3turn:reacting-to-combat)."""

    type: Literal["start_combat"] = "start_combat"


# --------------------------------------------------------------- Combat
class PlaceObstacle(Command):
    """Place Obstacle token ``token`` with its anchor on ``hex``
    (homm3bf:battlefield-combat.place-obstacles)."""

    type: Literal["place_obstacle"] = "place_obstacle"
    token: int
    hex: str


class PassObstacles(Command):
    """Place no Obstacle this time (placing ends after two passes in a row)."""

    type: Literal["pass_obstacles"] = "pass_obstacles"


class Deploy(Command):
    """Place your unit number ``unit`` on ``hex`` of your deployment zone
    (homm3bf:battlefield-combat.place-units)."""

    type: Literal["deploy"] = "deploy"
    unit: int
    hex: str


class Activate(Command):
    """Activate your unit ``unit`` (when several of yours share the next Initiative)."""

    type: Literal["activate"] = "activate"
    unit: int


class Move(Command):
    """Move the active unit to ``hex`` (homm3bf:...unit-movement); a Ranged unit that moves
    cannot attack (homm3bf:...ranged-units)."""

    type: Literal["move"] = "move"
    hex: str


class Attack(Command):
    """The active unit attacks unit ``target``, first moving to ``hex`` when given."""

    type: Literal["attack"] = "attack"
    target: int
    hex: str | None = None


class AttackWall(Command):
    """The active Ground or Flying unit destroys the adjacent Wall or Gate at ``hex``
    (homm3bf:...siege)."""

    type: Literal["attack_wall"] = "attack_wall"
    hex: str
    move: str | None = None


class Defend(Command):
    """The active unit takes a Defense token and ends its activation."""

    type: Literal["defend"] = "defend"


class EndActivation(Command):
    """End the active unit's activation."""

    type: Literal["end_activation"] = "end_activation"


class Play(Command):
    """Play a Might & Magic card from your hand (or the Spell on your Scroll).

    ``option``: 0 the basic/top effect, 1 the Expert/bottom effect. Targets as the card
    needs: ``unit`` / ``units`` (battlefield numbers), ``hex`` / ``hexes``, ``stat``
    (Prayer). ``power``: cards paid as Empower (``power_expert`` those used for their Expert
    effect); ``discard``: cards discarded as a cost; ``take``: a card of your discard pile
    to take back; ``school``: Magic Arrow's School.
    """

    type: Literal["play"] = "play"
    card: int
    option: int = Field(default=0, ge=0, le=2)
    unit: int | None = None
    units: tuple[int, ...] = ()
    hex: str | None = None
    hexes: tuple[str, ...] = ()
    stat: Literal["attack", "defense", "initiative"] | None = None
    power: tuple[int, ...] = ()
    power_expert: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    take: int | None = None
    school: Literal["air", "earth", "fire", "water"] | None = None


class UseMorale(Command):
    """Use one of your face-up Positive Morale cards (``card``), or the Positive Morale token
    (``card`` None; ``option`` 0 draw a card, 1 discard ``discard`` and draw as many)."""

    type: Literal["morale"] = "morale"
    card: int | None = None
    option: int = Field(default=0, ge=0, le=1)
    unit: int | None = None
    discard: tuple[int, ...] = ()


class PassWindow(Command):
    """Play no (more) cards now: before an attack is rolled, after an enemy Spell (let it
    resolve), at the Combat's start, or when Resurrection could save your unit."""

    type: Literal["pass"] = "pass"


Homm3Command = Annotated[
    Choose
    | Redraw
    | ResolveEvent
    | FightAdventure
    | Build
    | Muster
    | BuySpell
    | Blacksmith
    | UseAside
    | EndTurn
    | StartCombat
    | PlaceObstacle
    | PassObstacles
    | Deploy
    | Activate
    | Move
    | Attack
    | AttackWall
    | Defend
    | EndActivation
    | Play
    | UseMorale
    | PassWindow
    | RefreshHand
    | MapMove
    | Discover
    | PlaceTile
    | Revisit
    | HireHero,
    Field(discriminator="type"),
]

COMMAND_ADAPTER: TypeAdapter[Homm3Command] = TypeAdapter(Homm3Command)
"""Parses raw command dictionaries into the right model."""

ADVENTURE_TURN: tuple[str, ...] = (
    "resolve", "fight", "build", "muster", "buy_spell", "blacksmith", "use_aside", "morale",
    "end_turn",
)  # fmt: skip
"""Commands of an Adventure turn."""

TOWN_REACTION: tuple[str, ...] = ("build", "muster", "buy_spell", "start_combat")
"""Commands before the final Combat is set up: the Town actions, or let it start
(homm3turn:reacting-to-combat)."""

ACTIVATION: tuple[str, ...] = (
    "move", "attack", "attack_wall", "defend", "end_activation", "play", "morale",
)  # fmt: skip
"""Commands of a unit's activation."""

WINDOW: tuple[str, ...] = ("play", "morale", "pass")
"""Commands while an attack waits for cards."""

REACTION: tuple[str, ...] = ("play", "pass")
"""Commands of a one-card answer: Resistance, the Combat's start, Resurrection."""

__all__ = ["Discover", "HireHero", "MapMove", "PlaceTile", "RefreshHand", "Revisit"]
