"""Options chosen when a homm4 game is created (homm4:setup)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class DeckChoice(BaseModel):
    """One seat's deck: a ready-made deck id, or an explicit list ``{card id: copies}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deck: str | None = Field(default=None, description="id of a ready-made deck")
    cards: dict[str, int] | None = Field(default=None, description="a custom deck list")


class Homm4Options(BaseModel):
    """Game options.

    Attributes:
        map_sections: how many Terrain Map Sections form the board (the rulebook's
            minimum is 4; at most as many as the pool has).
        assembly: ``quick`` (the board assembled legally at random) or ``manual`` (each
            player in turn reveals a section and attaches it, homm4:start-of-the-game).
        decks: one `DeckChoice` per seat, in seat order. Empty: every seat gets a
            ready-made deck, dealt from the shuffled list of ready-made decks.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    map_sections: int = Field(default=4, ge=4, le=12)
    assembly: Literal["quick", "manual"] = "quick"
    decks: tuple[DeckChoice, ...] = ()
