"""homm3's pictures in the registry (`rendering.pictures`): the Battlefield, the Adventure
state (Towns and armies) and a seat's private cards (DM only)."""

from __future__ import annotations

from engine.homm3.views import PublicView, SeatView
from rendering.homm3.api import draw_adventure, draw_battle, draw_hand, public_only
from rendering.pictures import PictureKind, register

register(
    PictureKind(
        "homm3",
        "battle",
        PublicView,
        draw_battle,
        "battlefield.png",
        "The Battlefield",
        public_part=public_only,
    ),
    PictureKind(
        "homm3",
        "adventure",
        PublicView,
        draw_adventure,
        "adventure.png",
        "The Adventure: Towns and armies",
        public_part=public_only,
    ),
    PictureKind("homm3", "hand", SeatView, draw_hand, "cards.png", "Your cards", private=True),
)
