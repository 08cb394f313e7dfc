"""homm4 pictures: the board, the battlefield, a seat's hand and card faces.

Every function here is pure (the same arguments give the same bytes) and CPU-bound; the bot
calls them through `asyncio.to_thread`. Public images take a `PublicView` only: a
`SeatView` passed to them is first reduced to its public part, so a Hand or Risk Stack
card can never be drawn on a channel image. Sizes are pixels; every image is at most
1600 px wide and under 1 MB (`rendering.encode`).

The ``draw_*`` functions return a `rendering.canvas.Drawing` (the Pillow image plus a mark
for every label, token and card drawn) for tests and tools; the ``render_*`` functions
encode that image to bytes.
"""

from rendering.encode import DEFAULT_FORMAT, ImageFormat
from rendering.homm4.api import (
    draw_battle,
    draw_board,
    draw_card,
    draw_hand,
    public_only,
    render_battle,
    render_board,
    render_card,
    render_hand,
)

__all__ = [
    "DEFAULT_FORMAT",
    "ImageFormat",
    "draw_battle",
    "draw_board",
    "draw_card",
    "draw_hand",
    "public_only",
    "render_battle",
    "render_board",
    "render_card",
    "render_hand",
]
