"""`rendering.scene`: a canvas recorded while `recording` is on paints any box with the
pixels of the same canvas painted at once and cropped (issue 17: a focus picture paints
its cut alone). That the focus pictures of real games drawn on their own equal those cut
from the whole picture painted at once is tested in test_focus.py."""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image

from rendering.canvas import Canvas, drawn_part
from rendering.scene import Scene, recording
from rendering.shapes import badge, paste_centred, token

PAGE = (30, 28, 24)
BOXES = [
    (0, 0, 300, 220),
    (37, 41, 190, 160),
    (101, 0, 300, 77),
    (0, 133, 64, 220),
    (250, 180, 300, 220),
    (-10, -5, 40, 30),  # beyond the picture's corner: black there, as Image.crop
    (12, 12, 13, 13),
]


def _draw(canvas: Canvas) -> None:
    """Every kind of call the renderers make, many crossing the boxes' edges."""
    draw = canvas.draw
    draw.rectangle((0, 0, 300, 40), fill=(60, 50, 40))
    draw.rounded_rectangle((20, 50, 140, 90), 8, fill=(90, 80, 20), outline=(200, 0, 0), width=3)
    for i in range(9):  # hexagons with fractional corners, outlined thick and thin
        cx, cy = 23.3 + i * 31.7, 118.6 + (i % 2) * 27.1
        corners = [
            (
                cx + 19.5 * math.cos(math.radians(60 * k - 30)),
                cy + 19.5 * math.sin(math.radians(60 * k - 30)),
            )
            for k in range(6)
        ]
        draw.polygon(corners, fill=(40, 120 + i * 10, 40), outline=(10, 10, 10))
        if i % 3 == 0:
            draw.polygon(corners, outline=(250, 200, 0), width=5)
    draw.line(
        [(15.5, 200.25), (120.75, 150.5), (280.2, 190.9)], fill=(0, 0, 0), width=9, joint="curve"
    )
    draw.line(
        [(15.5, 200.25), (120.75, 150.5), (280.2, 190.9)],
        fill=(200, 0, 200),
        width=5,
        joint="curve",
    )
    draw.line((0, 95, 300, 95), fill=(1, 2, 3), width=3)
    draw.line((150, 0, 150, 220), fill=(4, 5, 6), width=3)
    draw.ellipse((200.4, 20.6, 260.1, 70.2), fill=(0, 90, 200), outline=(255, 255, 255), width=2)
    draw.arc((60, 160, 110, 200), 200, 340, fill=(200, 225, 250), width=2)
    for x in range(0, 300, 23):
        paste_centred(
            canvas.image, token("star", 26, (200, 30, 30), (255, 255, 255), (0, 0, 0)), x, 60
        )
        canvas.text((x + 3.4, 170), f"C{x}", 15, (255, 255, 255), weight="bold", stroke=2)
    tile = badge("hexagon", 30, (10, 200, 90), (0, 0, 0))
    canvas.image.paste(tile, (271, -6), tile)
    canvas.image.paste(Image.new("RGB", (40, 12), (9, 99, 199)), (130, 205))
    part, used = drawn_part(
        120,
        (70, 60, 50),
        lambda c: c.paragraph((4, 6), "one two three four five six", 100, 14, (255, 255, 0), 18),
        20,
    )
    canvas.place(part, (2, 3, 118, used), (170, 100))


def _eager() -> Image.Image:
    canvas = Canvas(300, 240, PAGE)
    _draw(canvas)
    canvas.crop_top(220)
    return canvas.finish().image


def test_a_recorded_canvas_paints_every_box_as_the_whole_cropped() -> None:
    whole = _eager()
    with recording():
        canvas = Canvas(300, 240, PAGE)
        _draw(canvas)
        canvas.crop_top(220)
    drawing = canvas.finish()
    assert canvas.scene is not None and drawing.size == (300, 220)
    for box in BOXES:
        assert drawing.crop(box).tobytes() == whole.crop(box).tobytes(), box
    assert drawing.image.tobytes() == whole.tobytes()
    assert drawing.crop(BOXES[1]).tobytes() == whole.crop(BOXES[1]).tobytes()  # painted: cropped


def test_a_canvas_outside_recording_paints_at_once() -> None:
    canvas = Canvas(10, 10, PAGE)
    assert canvas.scene is None and isinstance(canvas.image, Image.Image)
    with recording():
        inner = Canvas(10, 10, PAGE)
    assert isinstance(inner.scene, Scene)
    assert Canvas(10, 10, PAGE).scene is None


def test_a_part_drawn_once_replays_its_pixels_and_marks() -> None:
    """`drawn_once`: the second picture replays the first's recording of the part (the
    same pixels and marks as drawing it on the canvas, painted at once or recorded), and
    another key draws its own part."""
    from rendering import canvas as module
    from rendering.canvas import drawn_once

    calls: list[str] = []

    def part(name: str) -> Callable[[Canvas], None]:
        def draw(target: Canvas) -> None:
            calls.append(name)
            _draw(target)
            target.text((40, 30), name, 18, (250, 250, 250), kind="name", key=name)

        return draw

    direct = Canvas(300, 240, PAGE)
    part("a")(direct)
    calls.clear()
    key = ("test part", object())
    for record in (False, True, False):
        if record:
            with recording():
                canvas = Canvas(300, 240, PAGE)
        else:
            canvas = Canvas(300, 240, PAGE)
        drawn_once(canvas, key, part("a"))
        assert canvas.finish().image.tobytes() == direct.finish().image.tobytes()
        assert canvas.marks == direct.marks
    assert calls == ["a"]  # recorded once, replayed twice
    other = Canvas(300, 240, PAGE)
    drawn_once(other, ("test part", "b"), part("b"))
    assert calls == ["a", "b"] and other.finish().find("name", "b").text == "b"
    assert len(module._DRAWN_ONCE) <= module.DRAWN_ONCE_ENTRIES
