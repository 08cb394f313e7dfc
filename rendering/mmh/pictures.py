"""Might & Magic Heroes' pictures in the registry (`rendering.pictures`): the map, the
initiative track and a seat's capital board and hero sheets with their scrolls (DM only)."""

from __future__ import annotations

from engine.mmh.views import PublicView, SeatView
from rendering.focus import focus_kind
from rendering.mmh import focus
from rendering.mmh.api import draw_board, draw_heroes, draw_track, public_only
from rendering.pictures import PictureKind, register

BOARD = PictureKind(
    "mmh",
    "board",
    PublicView,
    draw_board,
    "board.png",
    "The map of Ashan",
    public_part=public_only,
)

BATTLE = PictureKind(
    "mmh",
    "battle",
    PublicView,
    draw_track,
    "battle.png",
    "The initiative track",
    public_part=public_only,
)

register(
    BOARD,
    focus_kind(BOARD, focus.BOARD, "The map around the active hero"),
    BATTLE,
    focus_kind(BATTLE, focus.TRACK, "The initiative track around the marker due"),
    PictureKind(
        "mmh",
        "hand",
        SeatView,
        lambda view: draw_heroes(view, capital=True),
        "heroes.png",
        "Your capital, heroes and scrolls",
        private=True,
    ),
)
