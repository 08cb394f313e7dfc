"""Pig's one picture (the example game's drawing): the two scores as bars towards the
target, registered in `rendering.pictures` under ``("pig", "board")``."""

from __future__ import annotations

from engine.core.model import seat_name
from rendering.canvas import Canvas, Drawing
from rendering.pictures import PictureKind, register
from tests.example_game.engine import PigView

WIDTH, ROW = 480, 60
COLOURS = ((200, 40, 40), (40, 80, 200))


def draw_board(view: PigView) -> Drawing:
    """Each seat's score as a bar of ``WIDTH - 160`` px for the whole target, with its
    number; the turn's total after the active seat's bar. Rule: none."""
    canvas = Canvas(WIDTH, ROW * 2 + 20, (245, 240, 225))
    full = WIDTH - 160
    for seat, score in enumerate(view.scores):
        y = 10 + seat * ROW
        canvas.text((10, y + 12), seat_name(seat), 18, (20, 20, 20), key=f"seat{seat}")
        length = round(full * min(score, view.target) / view.target)
        canvas.draw.rectangle((80, y + 10, 80 + full, y + 40), outline=(90, 90, 90))
        if length:
            canvas.draw.rectangle((80, y + 10, 80 + length, y + 40), fill=COLOURS[seat])
        label = str(score)
        if seat == view.active and view.winner is None and view.turn_total:
            label += f" +{view.turn_total}"
        canvas.text((90 + full, y + 12), label, 18, (20, 20, 20), kind="score", key=f"{seat}")
    return canvas.finish()


register(PictureKind("pig", "board", PigView, draw_board, "board.png", "The scores"))
