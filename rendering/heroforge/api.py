"""The public rendering API for Hero Forge: view in, image (or `Drawing`) out.

Rule sections: see `rendering.heroforge.board` and `rendering.heroforge.inventory`.
Hero Forge has no hidden information, so every picture may go to the channel.
"""

from __future__ import annotations

from engine.heroforge.views import PublicView
from rendering.canvas import Drawing
from rendering.encode import DEFAULT_FORMAT, ImageFormat, encode
from rendering.heroforge import board as _board
from rendering.heroforge import inventory as _inventory


def draw_board(view: PublicView) -> Drawing:
    """The board picture (plates, forts, heroes, contested lands, players) and its marks.

    :raises ValueError: if the board has no plates.
    """
    return _board.draw_board(view)


def draw_inventory(view: PublicView, seat: int) -> Drawing:
    """The inventory sheet of ``seat`` (640 px wide) and its marks.

    :raises IndexError: for a seat not in the game.
    """
    return _inventory.draw_inventory(view, seat)


def render_board(view: PublicView, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_board` encoded in ``fmt`` (palette PNG by default)."""
    return encode(draw_board(view).image, fmt)


def render_inventory(view: PublicView, seat: int, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_inventory` encoded in ``fmt``."""
    return encode(draw_inventory(view, seat).image, fmt)
