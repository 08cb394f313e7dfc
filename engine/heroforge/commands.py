"""Every Hero Forge player command, as pydantic models (one per rulebook action).

Plates are named by their letter (``"C"``), directions by compass words (``N``, ``NE``,
``E``, ``SE``, ``S``, ``SW``, ``W``, ``NW``), units by their number (``#4``), forts by
number (``F2``, given as 2), heroes and seats by seat number. Targets are ``"hero:<seat>"``
or ``"fort:<id>"``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core.model import Command


# ----------------------------------------------------------------- set-up
class ChooseHero(Command):
    """Choose your hero (heroforge:basic-rules; each seat a different hero)."""

    type: Literal["choose_hero"] = "choose_hero"
    hero: str


class PlaceHero(Command):
    """Place your hero in the centre of a Plain Land of your choice (heroforge:basic-rules)."""

    type: Literal["place_hero"] = "place_hero"
    plate: str


# ----------------------------------------------------------- interrupts
class Shift(Command):
    """Slide a land plate one space N, E, S or W into an empty space
    (heroforge:land-shifting)."""

    type: Literal["shift"] = "shift"
    plate: str
    direction: str


class SkipShift(Command):
    """Give up the land shifts you may make now."""

    type: Literal["skip_shift"] = "skip_shift"


class Steal(Command):
    """Pay 1000e to steal the enchantment another player is receiving (heroforge:factions)."""

    type: Literal["steal"] = "steal"


class LetGo(Command):
    """Let the other player keep the enchantment it is receiving."""

    type: Literal["let_go"] = "let_go"


# ---------------------------------------------------------------- buying
class BuyUnit(Command):
    """Buy ``count`` units of ``level`` into your hero's army (heroforge:units)."""

    type: Literal["buy_unit"] = "buy_unit"
    level: int = Field(ge=1, le=10)
    count: int = Field(default=1, ge=1, le=20)


class BuyFort(Command):
    """Buy a fort on your hero's square, then step the hero one space ``step``
    (heroforge:forts)."""

    type: Literal["buy_fort"] = "buy_fort"
    step: str


class ManFort(Command):
    """Move ``units`` from your hero's army onto your fort on the same plate
    (heroforge:manning-forts)."""

    type: Literal["man_fort"] = "man_fort"
    fort: int
    units: tuple[int, ...] = Field(min_length=1)


class UnmanFort(Command):
    """Move ``units`` from your fort on the same plate into your hero's army
    (heroforge:manning-forts)."""

    type: Literal["unman_fort"] = "unman_fort"
    fort: int
    units: tuple[int, ...] = Field(min_length=1)


class PassEnchantment(Command):
    """Pay 1000e to give your carried enchantment to another player
    (heroforge:other-ways-of-getting-rid-of-enchantments)."""

    type: Literal["pass_enchantment"] = "pass_enchantment"
    to: int


class EndBuying(Command):
    """End this buying step (the first goes on to moving, the second to combat)."""

    type: Literal["end_buying"] = "end_buying"


# ---------------------------------------------------------------- moving
class RollMove(Command):
    """Roll the D6 to move (heroforge:basic-rules)."""

    type: Literal["roll_move"] = "roll_move"


class SkipMove(Command):
    """Do not move this turn (moving is optional)."""

    type: Literal["skip_move"] = "skip_move"


class Move(Command):
    """Move ``distance`` squares in ``direction``: exactly the roll plus speed, or any
    distance up to it after a 6 (heroforge:basic-rules)."""

    type: Literal["move"] = "move"
    direction: str
    distance: int = Field(ge=1, le=20)


class Stay(Command):
    """Stay where you are after rolling (moving is optional)."""

    type: Literal["stay"] = "stay"


# ---------------------------------------------------------------- combat
class Attack(Command):
    """Assign a target on your plate and attack it (heroforge:combat): ``hero:<seat>``
    or ``fort:<id>``."""

    type: Literal["attack"] = "attack"
    target: str


class EndTurn(Command):
    """End your turn without (further) combat."""

    type: Literal["end_turn"] = "end_turn"


class FightBack(Command):
    """Defence phase: assign a target among the attacker's pieces on the plate and roll
    damage (heroforge:combat)."""

    type: Literal["fight_back"] = "fight_back"
    target: str


class Retreat(Command):
    """Defence phase: try to retreat (a D10 over 5) to your closest uncontested land."""

    type: Literal["retreat"] = "retreat"


HeroforgeCommand = Annotated[
    ChooseHero
    | PlaceHero
    | Shift
    | SkipShift
    | Steal
    | LetGo
    | BuyUnit
    | BuyFort
    | ManFort
    | UnmanFort
    | PassEnchantment
    | EndBuying
    | RollMove
    | SkipMove
    | Move
    | Stay
    | Attack
    | EndTurn
    | FightBack
    | Retreat,
    Field(discriminator="type"),
]

COMMAND_ADAPTER: TypeAdapter[HeroforgeCommand] = TypeAdapter(HeroforgeCommand)
"""Parses a raw dict into the right command model."""


def hero_target(seat: int) -> str:
    """The target string of ``seat``'s hero.

    Rule: none (labels).
    """
    return f"hero:{seat}"


def fort_target(fort_id: int) -> str:
    """The target string of fort ``fort_id``.

    Rule: none (labels).
    """
    return f"fort:{fort_id}"
