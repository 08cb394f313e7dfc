"""Hero Forge's pictures in the registry (`rendering.pictures`): the board of land plates
and a seat's inventory sheet (sent by DM, though Hero Forge hides nothing)."""

from __future__ import annotations

from engine.heroforge.views import PublicView, SeatView
from rendering.focus import focus_kind
from rendering.heroforge import focus
from rendering.heroforge.api import draw_board, draw_inventory
from rendering.pictures import PictureKind, public_part_of, register

BOARD = PictureKind(
    "heroforge",
    "board",
    PublicView,
    draw_board,
    "board.png",
    "The land plates",
    public_part=public_part_of(PublicView),
)

register(
    BOARD,
    focus_kind(BOARD, focus.BOARD, "The land plates around the active hero"),
    PictureKind(
        "heroforge",
        "hand",
        SeatView,
        lambda view: draw_inventory(view, view.seat),
        "inventory.png",
        "Your inventory",
        private=True,
    ),
)
