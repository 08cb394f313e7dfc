"""Terrain legend and Terrain Map Sections, as data validated at load.

Rule sections: homm4:terrain-map-sections, homm4:movement-phase.movement-points-and-terrain,
homm4:advanced-rules.native-and-special-lands.

``data/terrain.toml`` is the Terrain Map legend: each terrain's code, name, Movement Point
cost (``cost = 0`` means impassable: the rulebook's "X") and, for the advanced rules
(homm4:advanced-rules.native-and-special-lands), the native faction, the natives' cost, their
Attack and Defense bonus, the Morale / Luck effects and the special lands' Mana costs. ``data/sections.toml`` holds the sections: terrain
codes row by row for the 37 hexes of `hexes.SECTION_HEXES` (rows of 4, 5, 6, 7, 6, 5, 4,
top to bottom, west to east), and the Town / Creature Dwelling / Object icons printed on
them at local axial coordinates.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.homm4.cards import Faction, School
from engine.homm4.hexes import SECTION_HEXES, SECTION_RADIUS, Hex, distance


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Terrain(_M):
    """One legend entry. ``cost`` is in whole Movement Points; 0 means impassable.

    Advanced rules (homm4:advanced-rules.native-and-special-lands): ``native`` is the
    Faction whose Units count it as their Native Land (or the special land's Faction);
    ``native_cost2`` what it costs an Army of natives, in half Movement Points (None: the
    normal cost); ``native_bonus`` the Attack and Defense the natives gain in a battle
    fought on it; ``no_morale_luck`` (Cursed Ground): Morale and Luck have no effect there;
    ``max_morale`` / ``max_luck``: natives fight at the highest Morale / Luck;
    ``half_mana`` / ``double_mana``: Spell schools that cost half / double Mana there.
    """

    code: str = Field(pattern=r"^[a-z]{2}$")
    name: str
    cost: int = Field(ge=0)
    native: Faction | None = None
    special: bool = False
    cave_wall: bool = False
    native_cost2: int | None = Field(default=None, ge=1)
    native_bonus: int = Field(default=0, ge=0)
    no_morale_luck: bool = False
    max_morale: bool = False
    max_luck: bool = False
    half_mana: tuple[School, ...] = ()
    double_mana: tuple[School, ...] = ()

    @property
    def passable(self) -> bool:
        """Whether an Army may enter it."""
        return self.cost > 0


class SiteIcon(_M):
    """An icon printed on a section at local axial ``at``."""

    kind: Literal["town", "dwelling", "object"]
    at: tuple[int, int]


class MapSection(_M):
    """One Terrain Map Section: ``rows`` of terrain codes and its icons."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    underground: bool = False
    rows: tuple[str, ...]
    sites: tuple[SiteIcon, ...] = ()

    def terrain(self) -> dict[Hex, str]:
        """Return local hex -> terrain code, in `SECTION_HEXES` order."""
        codes = [code for row in self.rows for code in row.split()]
        return dict(zip(SECTION_HEXES, codes, strict=True))

    @model_validator(mode="after")
    def _shape(self) -> MapSection:
        lengths = tuple(len(row.split()) for row in self.rows)
        expected = tuple(
            2 * SECTION_RADIUS + 1 - abs(r) for r in range(-SECTION_RADIUS, SECTION_RADIUS + 1)
        )
        if lengths != expected:
            raise ValueError(f"section {self.id}: rows must have {expected} hexes, got {lengths}")
        for icon in self.sites:
            if distance(icon.at, (0, 0)) > SECTION_RADIUS:
                raise ValueError(f"section {self.id}: icon at {icon.at} is off the section")
        if len({icon.at for icon in self.sites}) != len(self.sites):
            raise ValueError(f"section {self.id}: two icons on one hex")
        return self


class MapData(_M):
    """The legend and every section, cross-checked (codes known, icons on passable hexes)."""

    terrain: dict[str, Terrain]
    sections: dict[str, MapSection]

    @model_validator(mode="after")
    def _consistent(self) -> MapData:
        for section in self.sections.values():
            cells = section.terrain()
            for h, code in cells.items():
                if code not in self.terrain:
                    raise ValueError(f"section {section.id}: unknown terrain {code!r} at {h}")
            for icon in section.sites:
                if not self.terrain[cells[icon.at]].passable:
                    raise ValueError(f"section {section.id}: icon at {icon.at} is impassable")
        return self


def parse_maps(terrain: dict[str, Any], sections: dict[str, Any]) -> MapData:
    """Build `MapData` from the parsed TOML files. :raises ValueError: on bad data.

    Rule: homm4:terrain-map-sections.
    """
    legend = {t["code"]: Terrain.model_validate(t) for t in terrain.get("terrain", [])}
    parsed = {s["id"]: MapSection.model_validate(s) for s in sections.get("sections", [])}
    return MapData(terrain=legend, sections=parsed)


@cache
def load_maps() -> MapData:
    """Load and validate the shipped legend and sections (cached for the process).

    Rule: homm4:terrain-map-sections.
    """
    data = resources.files("engine.homm4.data")
    return parse_maps(
        tomllib.loads(data.joinpath("terrain.toml").read_text(encoding="utf-8")),
        tomllib.loads(data.joinpath("sections.toml").read_text(encoding="utf-8")),
    )
