"""Hero Forge pictures: the board of land plates and each player's inventory sheet.

Use `render_board` / `render_inventory` for image bytes, `draw_board` / `draw_inventory`
for a `Drawing` with its layout marks (tests, tools).
"""

from rendering.heroforge.api import draw_board, draw_inventory, render_board, render_inventory

__all__ = ["draw_board", "draw_inventory", "render_board", "render_inventory"]
