"""Hero Forge's focus picture (`rendering.focus`, issue 16): the plates around the hero of
the player to act, under a band with the header's line, the step owed and that player's
line."""

from __future__ import annotations

from engine.heroforge.views import PublicView
from rendering.canvas import Drawing
from rendering.focus import Focus, FocusSpec, Line, mark_texts, union, whole_box
from rendering.heroforge.board import _header_lines, header_height
from rendering.heroforge.palette import LIGHT, MUTED, PANEL


def board_focus(view: PublicView, whole: Drawing) -> Focus:
    """Around the active player's hero (the plates' middle before heroes are placed),
    with the last move kept in the cut; the band: the header's line and status, whole,
    and the active player's line."""
    line, status = _header_lines(view, 10_000)
    lines = [Line(line, LIGHT, "bold", 1.25, "title")]
    if status:  # one line of the dice and the decision owed, wrapped to the cut's width
        lines.append(Line(" ".join(status), MUTED, "regular", 1.0, "status"))
    players = {p.seat: p for p in view.players}
    player = players.get(view.active)
    plates = union(m.box for m in whole.marks if m.kind in ("plate", "economy", "fort_price"))
    around = None
    if player is not None:
        lines += [
            Line(t, LIGHT, "regular", 1.0, "player")
            for t in mark_texts(whole, "player", player.colour)
        ]
        around = union(m.box for m in whole.of_kind("hero") if m.key == player.colour)
    if around is None:
        around = plates or whole_box(whole)
    below = header_height(view, whole.width) + 1  # the band says the header again
    return Focus(around, lines, plates, (0, below, *whole.size))


BOARD = FocusSpec(board_focus, PANEL)
"""The board's focus: every label in the cut (plate codes, economy, fort prices, red
squares) reads at least 9 px at a phone's 400 px."""
