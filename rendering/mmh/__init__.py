"""Might & Magic Heroes pictures: the square map, the initiative track, capital boards and
hero sheets. ``render_*`` give image bytes, ``draw_*`` a `Drawing` with layout marks."""

from rendering.mmh.api import (
    draw_board,
    draw_capital,
    draw_hero,
    draw_heroes,
    draw_track,
    public_only,
    render_board,
    render_capital,
    render_hero,
    render_heroes,
    render_track,
)

__all__ = [
    "draw_board",
    "draw_capital",
    "draw_hero",
    "draw_heroes",
    "draw_track",
    "public_only",
    "render_board",
    "render_capital",
    "render_hero",
    "render_heroes",
    "render_track",
]
