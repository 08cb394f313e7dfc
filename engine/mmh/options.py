"""Options chosen when an mmh game is created (mmh:game-setup)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class MmhOptions(BaseModel):
    """Game options.

    Attributes:
        length: ``quick`` / ``standard`` / ``epic``: 3 / 4 / 5 week cards per moon phase
            (mmh:game-setup.preparing-card-decks).
        assembly: ``quick`` (the map tiles are placed at random, legally) or ``manual``
            (the players take turns placing the shuffled tiles,
            mmh:game-setup.setting-up-the-game-board).
        factions: one faction per seat, in seat order; empty: dealt at random
            (mmh:game-setup.determine-player-colors).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    length: Literal["quick", "standard", "epic"] = "standard"
    assembly: Literal["quick", "manual"] = "quick"
    factions: tuple[Literal["sanctuary", "necropolis", "haven", "stronghold"], ...] = ()
