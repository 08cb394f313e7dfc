"""The map game's data: tiles (their seven Fields) and scenarios, read from
``engine/homm3/data/map/*.toml`` and checked once.

Rule sections: homm3core:map-tiles (Starting I, Far II-III, Near IV-V, Center VI-VII; seven
Fields; a Town on a Starting tile's centre), homm3core:location-categories, homm3core:scenarios
(ids in ``engine/homm3/SECTIONS_CORE.txt``).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

FieldKind = Literal[
    "town",
    "empty",
    "blocked",
    "mine",
    "settlement",
    "resource",
    "treasure",
    "artifact",
    "shrine",
    "learning_stone",
    "temple",
    "stables",
    "trading_post",
]

VISITABLE: frozenset[str] = frozenset(
    {"resource", "treasure", "artifact", "shrine", "learning_stone", "temple"}
)
"""Fields that take a Black Cube when Visited and are empty afterwards
(homm3core:location-categories)."""

FLAGGABLE: frozenset[str] = frozenset({"mine", "settlement", "town"})
"""Fields a Faction Cube flags (homm3core:location-categories)."""

REVISITABLE: frozenset[str] = frozenset({"stables", "trading_post"})
"""Fields Visited again for 1 MP, with no cube (homm3core:location-categories)."""

FIELD_NAMES: dict[str, str] = {
    "town": "Town",
    "empty": "empty Field",
    "blocked": "Blocked Field",
    "mine": "Mine",
    "settlement": "Settlement",
    "resource": "Resource Field",
    "treasure": "Treasure Field",
    "artifact": "Artifact Field",
    "shrine": "Shrine",
    "learning_stone": "Learning Stone",
    "temple": "Temple",
    "stables": "Stables",
    "trading_post": "Trading Post",
}

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII")


class FieldSpec(BaseModel):
    """One printed Field: its kind, the Mine's resource, and the level of the Neutral Units
    guarding it (0: unguarded; homm3core:field-difficulty)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: FieldKind
    resource: Literal["gold", "materials", "valuables"] | None = None
    difficulty: int = Field(default=0, ge=0, le=7)

    @classmethod
    def parse(cls, text: str) -> FieldSpec:
        """``"mine:gold 2"`` -> a Mine of Gold guarded by Level II units.

        :raises ValueError: for a malformed Field."""
        parts = text.split()
        kind, _, arg = parts[0].partition(":")
        difficulty = int(parts[1]) if len(parts) > 1 else 0
        return cls.model_validate({"kind": kind, "resource": arg or None, "difficulty": difficulty})

    def label(self) -> str:
        """``"Mine (Gold), guarded (II)"``."""
        name = FIELD_NAMES[self.kind]
        if self.resource:
            name += f" ({self.resource.capitalize()})"
        if self.difficulty:
            name += f", guarded ({ROMAN[self.difficulty]})"
        return name


class TileSpec(BaseModel):
    """A map tile: id (``F3``), kind, the faction of a Starting tile and its seven Fields
    (centre first, then the six around it counter-clockwise from the east)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    kind: Literal["start", "far", "near", "center"]
    faction: str | None = None
    fields: tuple[FieldSpec, ...]

    @field_validator("fields", mode="before")
    @classmethod
    def _parse(cls, value: object) -> object:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(FieldSpec.parse(v) for v in value)
        return value

    @field_validator("fields")
    @classmethod
    def _seven(cls, value: tuple[FieldSpec, ...]) -> tuple[FieldSpec, ...]:
        if len(value) != 7:
            raise ValueError("a map tile has 7 Fields")
        return value


class Layout(BaseModel):
    """Tile positions of a scenario for one player count."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    starts: tuple[tuple[int, int], ...]
    far: tuple[tuple[int, int], ...]
    near: tuple[tuple[int, int], ...]
    center: tuple[tuple[int, int], ...]


class Scenario(BaseModel):
    """A scenario: its player counts, length, each seat's pool of Far tiles, starting
    Resources, income and Buildings, and a layout per player count (homm3core:scenarios)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    players: tuple[int, ...]
    rounds: int
    pool: int = 0
    gold: int = 0
    materials: int = 0
    valuables: int = 0
    income_gold: int = 0
    buildings: tuple[str, ...] = ()
    layout: dict[str, Layout]


class MapContent(BaseModel):
    """Every tile and scenario."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tiles: dict[str, TileSpec]
    scenarios: dict[str, Scenario]

    def of_kind(self, kind: str) -> list[TileSpec]:
        """The tiles of ``kind`` in id order."""
        return sorted((t for t in self.tiles.values() if t.kind == kind), key=lambda t: t.id)

    def start_tile(self, faction: str) -> TileSpec:
        """The Starting tile of ``faction``.

        :raises KeyError: for a faction without one."""
        for tile in self.tiles.values():
            if tile.kind == "start" and tile.faction == faction:
                return tile
        raise KeyError(faction)


@cache
def load_map() -> MapContent:
    """Read and check ``data/map/tiles.toml`` and ``scenarios.toml`` (cached).

    :raises pydantic.ValidationError | ValueError: if the shipped data is inconsistent.
    Rule: homm3core:map-tiles"""
    folder = resources.files("engine.homm3.data").joinpath("map")
    tiles_raw = tomllib.loads(folder.joinpath("tiles.toml").read_text(encoding="utf-8"))
    scen_raw = tomllib.loads(folder.joinpath("scenarios.toml").read_text(encoding="utf-8"))
    tiles = {t["id"]: TileSpec.model_validate(t) for t in tiles_raw["tile"]}
    scenarios = {s["id"]: Scenario.model_validate(s) for s in scen_raw["scenario"]}
    for tile in tiles.values():
        centre = tile.fields[0].kind
        if (tile.kind == "start") != (centre == "town"):
            raise ValueError(f"tile {tile.id}: a Town stands on the centre of Starting tiles only")
    return MapContent(tiles=tiles, scenarios=scenarios)
