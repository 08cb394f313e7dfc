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


def test_wrap_measures_each_text_once_and_hands_out_its_own_list(monkeypatch) -> None:
    from rendering import canvas
    from rendering.fonts import font

    face = font(23, "medium")  # a size no other test wraps at, so nothing is cached yet
    measured: list[str] = []
    real = type(face).getlength

    def counting(self, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        measured.append(text)
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(type(face), "getlength", counting)
    text = "Gain 2 Gold and draw a card\nGain 2 Gold"
    first = canvas.wrap(text, 180, face)
    count = len(measured)
    assert count > 0
    assert measured.count("Gain 2") == 1  # once, though both paragraphs begin with it
    assert len(measured) == len(set(measured))
    first.append("scribble")
    second = canvas.wrap(text, 180, face)
    assert len(measured) == count  # the second wrap measured nothing
    assert second == first[:-1]
    assert all(real(face, line) <= 180 for line in second)
    assert canvas.text_length(face, "Gain") == real(face, "Gain")


def test_alpha_paste_gives_the_pixels_of_image_paste() -> None:
    """`alpha_paste` (the fast path every text sprite and token goes through) blends as
    ``Image.paste(sprite, xy, sprite)``: partial alpha, and sprites cut at every edge."""
    from PIL import Image

    from rendering.shapes import alpha_paste

    sprite = Image.new("RGBA", (9, 7))
    sprite.putdata(
        [(40 * x % 256, 30 * y, 200, (x * 37 + y * 11) % 256) for y in range(7) for x in range(9)]
    )
    for xy in [(3, 2), (-4, -3), (16, 12), (0, 0), (-9, 0), (20, 20)]:
        slow = Image.new("RGB", (20, 15), PANEL)
        fast = slow.copy()
        slow.paste(sprite, xy, sprite)
        alpha_paste(fast, sprite, xy)
        assert fast.tobytes() == slow.tobytes(), xy
    grey = Image.new("L", (20, 15), 9)  # another mode: Image.paste's own conversions
    grey_too = grey.copy()
    grey.paste(sprite, (2, 2), sprite)
    alpha_paste(grey_too, sprite, (2, 2))
    assert grey_too.tobytes() == grey.tobytes()
