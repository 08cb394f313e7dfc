"""Commands of the homm3 map game (``mode: map``); the Town actions (``build``,
``muster``, ``buy_spell``), ``choose``, ``morale``, ``end_turn``, ``start_combat`` and every
Combat command are the shared ones of `engine.homm3.commands`.

Rule sections: homm3turn:refresh-your-hand, homm3turn:what-1-mp-buys,
homm3turn:population-token (a Secondary hero).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.core.model import Command

HeroName = Literal["main", "secondary"]


class RefreshHand(Command):
    """Start of your turn: discard the named cards from your hand, then draw up to your Hand
    Limit (homm3turn:refresh-your-hand)."""

    type: Literal["refresh"] = "refresh"
    discard: tuple[int, ...] = ()


class MapMove(Command):
    """Spend 1 MP of ``hero`` to move it to the next Field ``field`` (``"q,r"``)
    (homm3turn:what-1-mp-buys)."""

    type: Literal["map_move"] = "map_move"
    hero: HeroName = "main"
    field: str


class Discover(Command):
    """Spend 1 MP of ``hero`` to turn face up the tile at ``pos`` next to it, rotated
    ``rotation`` steps (homm3turn:what-1-mp-buys)."""

    type: Literal["discover"] = "discover"
    hero: HeroName = "main"
    pos: tuple[int, int]
    rotation: int = Field(default=0, ge=0, le=5)


class PlaceTile(Command):
    """Spend 1 MP of ``hero`` to place the next Far tile of your pool at ``pos`` next to it
    (homm3turn:what-1-mp-buys)."""

    type: Literal["place_tile"] = "place_tile"
    hero: HeroName = "main"
    pos: tuple[int, int]
    rotation: int = Field(default=0, ge=0, le=5)


class Revisit(Command):
    """Spend 1 MP of ``hero`` to Visit again the revisitable Field it stands on
    (homm3turn:what-1-mp-buys)."""

    type: Literal["revisit"] = "revisit"
    hero: HeroName = "main"


class HireHero(Command):
    """Population Token: pay 10 Gold to hire a Secondary hero on ``field``, a Town or
    Settlement you flag (homm3turn:population-token)."""

    type: Literal["hire_hero"] = "hire_hero"
    field: str


MAP_TURN: tuple[str, ...] = (
    "map_move", "discover", "place_tile", "revisit", "build", "muster", "buy_spell",
    "hire_hero", "morale", "end_turn",
)  # fmt: skip
"""Commands of a map turn."""
