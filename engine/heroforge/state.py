"""The Hero Forge game state: the plates, the heroes and their inventories, forts, combats.

Rule sections: heroforge:basic-rules, heroforge:inventory, heroforge:turns, heroforge:forts,
heroforge:combat, heroforge:enchantments.

Where things are:

* the board is `HeroforgeState.plates` (each plate a land at a grid position; a plate is
  `catalog.PLATE` × `catalog.PLATE` squares); a hero or fort stands on a square given as
  its plate's label and the column/row inside the plate, so pieces ride along when a
  plate is shifted;
* every unit is in exactly one place: a hero's ``army`` or a fort's ``units``
  (the invariant `audit.problems` checks); unit ids are never reused;
* a player's carried enchantment (at most one, heroforge:enchantments) is
  `Player.enchantment`; instants in force this turn are `HeroforgeState.instants`.

Hero Forge has no hidden information: the whole state is public.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.model import GameState
from engine.heroforge.catalog import EnchantmentList, EnchantmentSpec
from engine.heroforge.options import HeroforgeOptions

Step = Literal["buy1", "move", "moving", "buy2", "combat"]
"""The steps of a turn (heroforge:turns): buy, move (roll or skip), moving (the die is
rolled; choose where), buy again, combat."""


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Frozen(BaseModel):
    """A value never changed in place (replaced instead): copies of a state share it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        return self


class Plate(_Frozen):
    """A land plate: its ``label`` (``"A"``, fixed for the game), land id and grid position."""

    label: str
    land: str
    x: int
    y: int


class Unit(_Frozen):
    """One unit: a game-wide ``id`` (``#3`` in commands) and its base ``level`` (1-10)."""

    id: int
    level: int = Field(ge=1, le=10)


class Square(_Frozen):
    """A square of the board: ``plate`` label, column ``cx`` and row ``cy`` (0-4)."""

    plate: str
    cx: int
    cy: int


class Fort(_M):
    """A fort (heroforge:forts): id (``F1``), owner seat, square and the units manning it."""

    id: int
    owner: int
    at: Square
    units: list[Unit] = Field(default_factory=list)

    @property
    def manned(self) -> bool:
        """A fort with at least one unit on it is manned (heroforge:forts)."""
        return bool(self.units)


class Carried(_M):
    """The enchantment a hero carries, with ``count`` copies for a Stack enchantment."""

    spec: EnchantmentSpec
    count: int = Field(default=1, ge=1)


class Player(_M):
    """One seat: its hero, inventory (army, economy, enchantment) and combat bonus.

    ``hero`` is the hero id (None until chosen); ``at`` is None until placed and after
    death. ``combat_bonus`` is the level bonus gained in the current combat (e.g. Weir's
    roll of 1), cleared when the hero's combat ends.
    """

    seat: int
    hero: str | None = None
    alive: bool = True
    at: Square | None = None
    economy: int = 1000
    army: list[Unit] = Field(default_factory=list)
    enchantment: Carried | None = None
    combat_bonus: int = 0


class Combat(_M):
    """Two sides in combat (heroforge:combat): ``attacker`` seat started it; the other side
    is the hero of seat ``defender`` or the fort ``fort``. Both are on plate ``plate``."""

    attacker: int
    defender: int
    fort: int | None = None
    plate: str


class Instant(_M):
    """An instant enchantment's effect in force for ``seat`` until the end of the turn;
    cost changes are used up by the next purchase of their kind ("your next fort")."""

    seat: int
    spec: EnchantmentSpec


class StealOffer(_M):
    """An enchantment being received by ``receiver`` that seats of its faction may steal
    for 1000e (heroforge:factions). ``candidates`` are asked in turn order."""

    spec: EnchantmentSpec
    count: int = 1
    receiver: int
    candidates: list[int]


class ShiftDue(_M):
    """``seat`` may shift ``count`` land plates now (scenario roll 10, an instant)."""

    seat: int
    count: int = Field(ge=1)
    reason: str


class Defence(_M):
    """The defender's phase owed after an attack on its hero (heroforge:combat)."""

    attacker: int
    defender: int
    plate: str


class HeroforgeState(GameState):
    """The whole game.

        ``phase``: ``choose_hero`` / ``place_hero`` (set-up, in seat order), ``play``, ``over``.
        ``active`` is whose turn (or set-up step) it is, ``step`` the step of that turn.
        ``turn`` counts turns played, ``round`` full rounds begun. ``last_move`` is the last
        move's path of squares and ``last_move_owner`` the seat whose hero made it (for pictures:
    the trail is drawn in that seat's colour). ``scenario`` is this turn's scenario roll;
        ``moved``, ``left_combat`` and ``fought`` say whether the active hero moved, left a
        combat or attacked this turn.
    """

    ruleset: Literal["heroforge"] = "heroforge"
    options: HeroforgeOptions
    list1: EnchantmentList
    list5: EnchantmentList
    phase: Literal["choose_hero", "place_hero", "play", "over"] = "choose_hero"
    plates: list[Plate]
    players_state: list[Player]
    forts: list[Fort] = Field(default_factory=list)
    combats: list[Combat] = Field(default_factory=list)
    instants: list[Instant] = Field(default_factory=list)
    active: int = 0
    step: Step = "buy1"
    turn: int = 0
    round: int = 0
    scenario: int | None = None
    move_roll: int | None = None
    moved: bool = False
    left_combat: bool = False
    fought: bool = False
    shifts_used: int = 0
    shift_due: list[ShiftDue] = Field(default_factory=list)
    steal: StealOffer | None = None
    defence: Defence | None = None
    last_move: list[Square] = Field(default_factory=list)
    last_move_owner: int | None = None
    next_unit: int = 1
    next_fort: int = 1
    winners: list[int] = Field(default_factory=list)

    def player(self, seat: int) -> Player:
        """The `Player` of ``seat``."""
        return self.players_state[seat]

    def plate(self, label: str) -> Plate:
        """The plate labelled ``label``. :raises KeyError: if there is none."""
        for plate in self.plates:
            if plate.label == label:
                return plate
        raise KeyError(label)

    def fort(self, fort_id: int) -> Fort:
        """The fort with ``fort_id``. :raises KeyError: if there is none."""
        for fort in self.forts:
            if fort.id == fort_id:
                return fort
        raise KeyError(fort_id)

    def living(self) -> list[int]:
        """Seats whose hero is alive, in seat order."""
        return [p.seat for p in self.players_state if p.alive]
