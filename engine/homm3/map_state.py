"""The map game's state (homm3 ``mode: map``): the tiles laid out, the Fields' cubes, the
heroes with their Movement Points, the face-down tiles, the round and the Combat fought on
the Battlefield.

Rule sections: homm3turn:movement-actions, homm3turn:tracking-allies (a Main and a
Secondary hero tracked apart), homm3core:map-tiles, homm3core:location-categories,
homm3core:round-structure (ids in ``engine/homm3/SECTIONS_CORE.txt``). Hidden: the tile under
each face-down position and every seat's pool of Far tiles (`MapGame.hidden_tiles`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TileKind = Literal["start", "far", "near", "center"]


class PlacedTile(BaseModel):
    """A tile position of the scenario's layout: ``pos`` in tile coordinates, the ``kind``
    of tile that lies there, its ``tile`` id (secret while ``revealed`` is False), its
    ``rotation`` (0-5 steps) once revealed, and the seat that placed it from its pool."""

    model_config = ConfigDict(extra="forbid")

    pos: tuple[int, int]
    kind: TileKind
    tile: str
    revealed: bool = False
    rotation: int = 0


class FieldMark(BaseModel):
    """What lies on a Field: a Black Cube (``visited``), the seat whose Faction Cube flags
    it (``flag``), the income a Settlement gives (``resource``), and whether its first flag
    was taken (the first flagging pays at once; homm3core:mines)."""

    model_config = ConfigDict(extra="forbid")

    visited: bool = False
    flag: int | None = None
    resource: str | None = None
    flagged_once: bool = False


class MapHero(BaseModel):
    """A hero on the map: the seat's ``main`` hero or its Secondary hero, the Field it
    stands on (``"q,r"``), the Movement Points left this turn, the Field it last Visited
    (a Retreat goes back there) and the MP gained for this turn only."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    main: bool = True
    field: str
    mp: int = 0
    last: str
    gained: int = 0


class Battle(BaseModel):
    """A Combat being fought (its Battlefield is ``Homm3State.board``, a two-seat homm3
    state whose seat 0 is the attacker and seat 1 the defender): which real seat plays each
    side (``controllers``; ``sides``: whose units and cards they are, None for neutral units;
    the neutral side is played by the seat to the attacker's right), whether the defender
    is ``neutral`` units, the hero that attacked, the Field fought for, the defending hero
    (PvP) and whether the core time limit asks for MP at each Combat round's end."""

    model_config = ConfigDict(extra="forbid")

    controllers: tuple[int, int]
    sides: tuple[int | None, int | None]
    neutral: bool
    attacker: int
    defender: int | None = None
    field: str
    difficulty: int = 0
    time_limit: bool = False
    round_paid: int = 1
    asking: bool = False
    from_field: str = ""


class MapGame(BaseModel):
    """The map game.

    Attributes:
        scenario: the scenario id; ``rounds``: its length in rounds.
        tiles: every tile position of the layout (revealed or face down).
        pools: per seat, the Far tiles it may place (face down, its own).
        marks: Field ``"q,r"`` -> its cubes.
        heroes: every hero on the map.
        active: whose turn it is; ``starter``: the starting player (never changes).
        done: seats that ended their turn this round.
        refreshed: whether the active seat has refreshed its hand this turn.
        cubes: per seat, the seats whose Faction Cube it holds (homm3core:victory-conditions).
        eliminated: seats out of the game; ``townless``: per seat, rounds played in a row
            without a Town or Settlement.
        battle: the Combat being fought, if any.
        neutral_decks: tier -> the neutral unit ids, face down.
    """

    model_config = ConfigDict(extra="forbid")

    scenario: str
    rounds: int
    tiles: list[PlacedTile] = Field(default_factory=list)
    pools: dict[int, list[str]] = Field(default_factory=dict)
    marks: dict[str, FieldMark] = Field(default_factory=dict)
    heroes: list[MapHero] = Field(default_factory=list)
    active: int = 0
    starter: int = 0
    done: list[int] = Field(default_factory=list)
    refreshed: bool = False
    cubes: dict[int, list[int]] = Field(default_factory=dict)
    eliminated: list[int] = Field(default_factory=list)
    townless: dict[int, int] = Field(default_factory=dict)
    battle: Battle | None = None
    neutral_decks: dict[str, list[str]] = Field(default_factory=dict)
    neutral_discard: list[str] = Field(default_factory=list)
    time_limit: bool = False
    reacting: list[int] = Field(default_factory=list)

    def hidden_tiles(self) -> dict[str, list[Any]]:
        """The face-down tiles by position and each seat's pool (hidden from every player,
        homm3core:placing-and-discovering-tiles)."""
        out: dict[str, list[Any]] = {
            "tiles.facedown": [t.tile for t in self.tiles if not t.revealed],
        }
        for seat, pool in sorted(self.pools.items()):
            out[f"tiles.pool.{seat}"] = list(pool)
        for tier, deck in sorted(self.neutral_decks.items()):
            out[f"neutral.{tier}"] = list(deck)
        return out
