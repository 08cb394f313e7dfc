"""Options chosen when a homm3 game is created (homm3bf:battlefield-setup, homm3bf:
adventure-mode, homm3bf:skirmish-mode)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Homm3Options(BaseModel):
    """Game options.

    Attributes:
        mode: ``skirmish`` (a ready template, then straight to the Combat), ``adventure``
            (9/13/16 Adventure rounds, then the Combat) or ``map`` (the core game's map
            scenario, 2-3 players, Combats on the Battlefield).
        size: ``short``, ``medium`` or ``large``: the Skirmish template (Hero Level III / V /
            VII) or the Adventure length (9 / 13 / 16 rounds).
        heroes: one hero id per seat (``catherine``, ``sandro``...); empty: each seat is
            dealt a hero of a different faction at random.
        siege: the final Combat is a Siege: the second player (the one without the
            Initiative token) defends a Town with a Citadel (Walls, Gate, Arrow Tower;
            homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege).
        scenario: ``mode: map`` only: the scenario played (``border-clash``, 2 or 3
            players; `engine.homm3.map_content`).
        time_limit: ``mode: map`` only: Combats against Neutral Units keep the core time
            limit (one Combat round, then Retreat or 1 MP per extra round); off by
            default, as the expansion says for the Battlefield
            (homm3bf:battlefield-in-regular-games).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Literal["skirmish", "adventure", "map"] = "skirmish"
    size: Literal["short", "medium", "large"] = "short"
    heroes: tuple[str, ...] = Field(default=(), max_length=3)
    siege: bool = False
    scenario: str = "border-clash"
    time_limit: bool = False
