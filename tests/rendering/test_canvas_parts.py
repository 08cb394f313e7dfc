"""`Canvas.paragraph`, `drawn_part` and `Canvas.place`: a part drawn once and placed gives
the same pixels and marks as drawing it in place (the homm3 panels and bands)."""

from __future__ import annotations

from rendering.canvas import Canvas, drawn_part

PANEL = (40, 36, 30)
TEXT = "Gold 5 (+2) · Building Materials 3 (+1) · Valuables 0 (+0) and more words to wrap"


def _body(canvas: Canvas, top: int) -> int:
    return canvas.paragraph((10, top + 4), TEXT, 180, 16, (230, 220, 200), 23, kind="res") - top


def test_a_placed_part_equals_drawing_in_place() -> None:
    direct = Canvas(200, 300, PANEL)
    height = _body(direct, 50)
    part, used = drawn_part(200, PANEL, lambda c: _body(c, 0), height=40)  # grows to 80, 160
    assert used == height and part.image.height == 160
    placed = Canvas(200, 300, PANEL)
    placed.place(part, (0, 0, 200, used), (0, 50))
    assert placed.image.tobytes() == direct.image.tobytes()
    assert placed.marks == direct.marks and len(direct.marks) == (used - 4) // 23
    assert [m.box[1] + 50 for m in part.marks] == [m.box[1] for m in placed.marks]
