"""Options chosen when a Hero Forge game is created: the board, the heroes, the two
enchantment lists (heroforge:enchantment-lists, heroforge:lands, heroforge:basic-rules).

The board builder: ``layout`` names a ready-made board (``data/layouts.toml``), ``auto``
(the first ready-made board made for the player count) or ``custom`` with ``grid``: rows
separated by ``/`` (or new lines), plates by spaces; each plate is a land code (``PL``
Plain, ``GR`` Grassland, ...), ``B`` or ``S`` (a Basic or Special Land drawn at random) or
``.`` for a gap. Example: ``"PL GR PL / FO . HI / PL S PL"``.

Each enchantment list is a ready-made list id (``fortunes``, ``omens``, ``shifting_sands``)
or ten enchantments written out (see `catalog.parse_enchantment_list`).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.core.errors import InvalidInput
from engine.heroforge.catalog import EnchantmentList, load_catalog, parse_enchantment_list
from engine.heroforge.plates import connected

MAX_GRID = 8
"""A custom board is at most 8 × 8 plates."""

GAP = "."


def parse_grid(text: str) -> list[list[str]]:
    """Read a custom board into rows of tokens (upper case), padded with gaps.

    heroforge:lands: "Every piece must be attached to the board" (by an edge or a corner),
    so a board in pieces is refused here, when the game is created, not at its start.

    :raises ValueError: for an unknown land code, an empty board, one too large, one with
        fewer than two plates or one in pieces.
    """
    catalog = load_catalog()
    rows = [row.split() for row in re.split(r"[/\n]", text) if row.strip()]
    if not rows:
        raise ValueError("the custom grid is empty")
    width = max(len(row) for row in rows)
    if len(rows) > MAX_GRID or width > MAX_GRID:
        raise ValueError(f"a board is at most {MAX_GRID} x {MAX_GRID} plates")
    grid = [[token.upper() for token in row] + [GAP] * (width - len(row)) for row in rows]
    for row in grid:
        for token in row:
            if token not in (GAP, "B", "S") and catalog.land_by_code(token) is None:
                codes = ", ".join(land.code for land in catalog.lands.values())
                raise ValueError(f"unknown land {token!r}; use {codes}, B, S or . (a gap)")
    plates = [(x, y) for y, row in enumerate(grid) for x, token in enumerate(row) if token != GAP]
    if len(plates) < 2:
        raise ValueError("a board needs at least two land plates")
    if not connected(plates):
        raise ValueError(
            "every land plate must be attached to the board by an edge or a corner; "
            "this board is in pieces"
        )
    return grid


def resolve_list(value: str) -> EnchantmentList:
    """A ready-made list by id, or a written-out list (text with ``:``).

    :raises InvalidInput: for an unknown id or a list that does not validate.

    Rule: heroforge:enchantment-lists.
    """
    lists = load_catalog().lists
    key = value.strip()
    if key in lists:
        return lists[key]
    if ":" not in key:
        raise InvalidInput(
            f"Unknown enchantment list {key!r}; ready-made lists: {', '.join(lists)} "
            "(or write ten enchantments)."
        )
    return parse_enchantment_list(key)


class HeroforgeOptions(BaseModel):
    """Game options (checked again against the player count when the game starts).

    Attributes:
        layout: ``auto``, a ready-made board id, or ``custom`` (then ``grid`` is the board).
        grid: the custom board text (setting it implies ``custom``).
        heroes: hero ids in seat order; empty: every seat chooses its hero at the start.
        list1: the list rolled on a scenario roll of 1 (ready id or written list).
        list5: the list rolled on a scenario roll of 5.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        """Frozen options are never changed: a deep copy (of a game state) shares them."""
        return self

    layout: str = "auto"
    grid: str = Field(default="", max_length=2000)
    heroes: tuple[str, ...] = ()
    list1: str = Field(default="fortunes", max_length=4000)
    list5: str = Field(default="omens", max_length=4000)

    @field_validator("layout")
    @classmethod
    def _layout(cls, value: str) -> str:
        layouts = load_catalog().layouts
        if value not in ("auto", "custom", *layouts):
            raise ValueError(f"unknown layout {value!r}; use auto, custom or {', '.join(layouts)}")
        return value

    @field_validator("heroes")
    @classmethod
    def _heroes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        heroes = load_catalog().heroes
        for hero in value:
            if hero not in heroes:
                raise ValueError(f"unknown hero {hero!r}; heroes: {', '.join(heroes)}")
        if len(set(value)) != len(value):
            raise ValueError("each seat needs a different hero")
        return value

    @field_validator("list1", "list5")
    @classmethod
    def _list(cls, value: str) -> str:
        try:
            resolve_list(value)
        except InvalidInput as error:
            raise ValueError(error.message) from None
        return value

    @model_validator(mode="after")
    def _grid(self) -> HeroforgeOptions:
        if self.grid.strip():
            parse_grid(self.grid)
            if self.layout not in ("auto", "custom"):
                raise ValueError("give either a ready-made layout or a custom grid, not both")
        elif self.layout == "custom":
            raise ValueError("a custom layout needs a grid")
        return self
