"""What the table sees of a Hero Forge game: the models rendering and the bot read.

Rule sections: heroforge:inventory (each player's hero, army, economy, stats, enchantment
and cap lie open in front of them), heroforge:lands, heroforge:forts.

Hero Forge has no hidden information, so the seat view is the public view plus the seat
it was made for.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core.model import Decision, Result


class _V(BaseModel):
    model_config = ConfigDict(frozen=True)


class RedView(_V):
    """A red square of a plate: column, row, effect kind and amount."""

    cx: int
    cy: int
    kind: str
    amount: int


class PlateView(_V):
    """A land plate: label, land, grid position, stats, owner and whether contested."""

    label: str
    land: str
    code: str
    name: str
    land_class: Literal["plain", "basic", "special"]
    x: int
    y: int
    economy: int
    fort_price: int | None
    cap_bonus: int
    owner_effects: tuple[str, ...]
    red: tuple[RedView, ...]
    owner: int | None
    contested: bool
    heroes: tuple[int, ...]


class UnitView(_V):
    """A unit: its number, base level, current level (with level changes) and name."""

    id: int
    base_level: int
    level: int
    name: str


class FortView(_V):
    """A fort: number, owner, square, the units manning it (current levels)."""

    id: int
    owner: int
    plate: str
    cx: int
    cy: int
    manned: bool
    units: tuple[UnitView, ...]
    defends_as: int


class EnchantmentView(_V):
    """A carried enchantment: name, kind, faction, effect per copy, copies, summary."""

    name: str
    kind: str
    faction: str | None
    effect: str
    amount: int
    count: int
    summary: str


class PlayerView(_V):
    """One seat's inventory sheet (heroforge:inventory)."""

    seat: int
    colour: str
    hero: str | None
    hero_name: str | None
    faction: str | None
    abilities: tuple[str, ...]
    alive: bool
    plate: str | None
    cx: int | None
    cy: int | None
    economy: int
    cap: int
    military: int
    speed: int
    level_bonus: int
    combat_bonus: int
    army: tuple[UnitView, ...]
    enchantment: EnchantmentView | None
    lands: tuple[str, ...]
    in_combat_with: tuple[int, ...]


class CombatView(_V):
    """A combat in progress: attacker, defending seat, the fort (if a fort is fought), plate."""

    attacker: int
    defender: int
    fort: int | None
    plate: str


class ListView(_V):
    """An enchantment list: its name and its ten entries, numbered 1-10 by position."""

    name: str
    entries: tuple[str, ...]


class PublicView(_V):
    """Everything at the table (Hero Forge has no hidden information)."""

    ruleset: Literal["heroforge"] = "heroforge"
    version: int
    phase: str
    active: int
    step: str
    turn: int
    round: int
    scenario: int | None
    move_roll: int | None
    plates: tuple[PlateView, ...]
    forts: tuple[FortView, ...]
    players: tuple[PlayerView, ...]
    combats: tuple[CombatView, ...]
    list1: ListView
    list5: ListView
    instants: tuple[tuple[int, str], ...]
    last_move: tuple[tuple[str, int, int], ...]
    last_move_owner: int | None = None
    steal: str | None
    pending: tuple[Decision, ...]
    result: Result


class SeatView(PublicView):
    """The public view made for one seat (nothing is hidden from anyone)."""

    seat: int
