"""homm3 pictures: the Battlefield, the Adventure state and a player's private cards."""

from rendering.homm3.api import (
    draw_adventure,
    draw_battle,
    draw_board,
    draw_hand,
    public_only,
    render_adventure,
    render_battle,
    render_board,
    render_hand,
)

__all__ = [
    "draw_adventure",
    "draw_battle",
    "draw_board",
    "draw_hand",
    "public_only",
    "render_adventure",
    "render_battle",
    "render_board",
    "render_hand",
]
