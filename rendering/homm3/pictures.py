"""homm3's pictures in the registry (`rendering.pictures`): the Battlefield, the Adventure
state (Towns and armies), the map (``mode: map``) and a seat's private cards (DM only)."""

from __future__ import annotations

from engine.homm3.views import PublicView, SeatView
from rendering.focus import focus_kind
from rendering.homm3 import focus
from rendering.homm3.api import draw_adventure, draw_battle, draw_hand, draw_map, public_only
from rendering.pictures import PictureKind, register

BATTLE = PictureKind(
    "homm3",
    "battle",
    PublicView,
    draw_battle,
    "battlefield.png",
    "The Battlefield",
    public_part=public_only,
)

ADVENTURE = PictureKind(
    "homm3",
    "adventure",
    PublicView,
    draw_adventure,
    "adventure.png",
    "The Adventure: Towns and armies",
    public_part=public_only,
)

MAP = PictureKind(
    "homm3",
    "map",
    PublicView,
    draw_map,
    "map.png",
    "The map: tiles, flags and heroes",
    public_part=public_only,
)

register(
    BATTLE,
    focus_kind(BATTLE, focus.BATTLE, "The Battlefield around the active unit"),
    ADVENTURE,
    focus_kind(ADVENTURE, focus.ADVENTURE, "The Adventure: the panel of the player to act"),
    MAP,
    focus_kind(MAP, focus.MAP, "The map around the acting Main hero"),
    PictureKind("homm3", "hand", SeatView, draw_hand, "cards.png", "Your cards", private=True),
)
