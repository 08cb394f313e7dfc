"""A drawing surface that records what it drew where: the image plus its layout marks.

Renderers draw through a `Canvas` so that tests (and anyone debugging a picture) can ask
"where is Army 3's token?", "which texts are on this image?" or "which cards were drawn?"
without reading pixels. Coordinates are pixels, origin top-left, boxes ``(x0, y0, x1, y1)``
with ``x1, y1`` exclusive.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from rendering.fonts import FONT_LOCK, Weight, font
from rendering.scene import Pen, Scene, Surface, is_recording, recording, replay
from rendering.shapes import alpha_paste

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Mark:
    """One recorded element of a picture.

    Attributes:
        kind: what it is (``"army"``, ``"site"``, ``"card"``, ``"text"``, ``"walls"``...).
        key: which one (``"army:3"``, ``"C4"``, ``"#17"``...); empty for plain text.
        box: where, in pixels.
        text: the text drawn, if any.
        card: the pool card id drawn (a card's name, face or token), if any.
        instance: the card instance number drawn (``17`` for ``#17``), if any.
        size: the font size of the text in pixels (its em; 0 for marks without text), so a
            test can tell how large a label reads when the picture is shown smaller.
    """

    kind: str
    key: str
    box: Box
    text: str = ""
    card: str | None = None
    instance: int | None = None
    size: int = 0

    def moved(self, dx: int, dy: int) -> Mark:
        """This mark with its box moved by ``(dx, dy)`` px."""
        x0, y0, x1, y1 = self.box
        box = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
        return Mark(self.kind, self.key, box, self.text, self.card, self.instance, self.size)

    @property
    def centre(self) -> tuple[int, int]:
        """The centre of ``box`` in pixels."""
        return ((self.box[0] + self.box[2]) // 2, (self.box[1] + self.box[3]) // 2)


class Drawing:
    """A finished picture and its marks, before encoding.

    Its pixels are an image, or a recorded `rendering.scene.Scene` painted the first time
    `image` is asked for (a canvas made while `rendering.scene.recording` is on): a focus
    picture cuts its part (`crop`) without the whole picture ever being painted.
    """

    def __init__(
        self,
        image: Image.Image | None = None,
        marks: list[Mark] | None = None,
        *,
        scene: Scene | None = None,
    ) -> None:
        """:raises ValueError: without an image or a scene."""
        if image is None and scene is None:
            raise ValueError("a drawing needs an image or a recorded scene")
        self._image = image
        self.scene = scene
        self.marks: list[Mark] = marks if marks is not None else []

    @property
    def image(self) -> Image.Image:
        """The RGB pixels (a recorded scene is painted once, on first use)."""
        if self._image is None:
            assert self.scene is not None
            self._image = self.scene.paint()
        return self._image

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` in px, without painting."""
        if self._image is not None:
            return self._image.size
        assert self.scene is not None
        return self.scene.size

    @property
    def width(self) -> int:
        """The width in px."""
        return self.size[0]

    @property
    def height(self) -> int:
        """The height in px."""
        return self.size[1]

    def crop(self, box: Box) -> Image.Image:
        """The pixels of ``box`` (`Image.crop` of `image`), painting only that box when the
        picture is a scene not painted yet."""
        if self._image is None and self.scene is not None:
            return self.scene.paint(box)
        return self.image.crop(box)

    def find(self, kind: str, key: str) -> Mark:
        """Return the first mark of ``kind`` with ``key``. :raises KeyError: if none."""
        for mark in self.marks:
            if mark.kind == kind and mark.key == key:
                return mark
        raise KeyError(f"no {kind} mark {key!r}")

    def of_kind(self, kind: str) -> list[Mark]:
        """Return every mark of ``kind``, in drawing order."""
        return [m for m in self.marks if m.kind == kind]

    def texts(self) -> list[str]:
        """Return every text drawn, in drawing order."""
        return [m.text for m in self.marks if m.text]

    def instances(self) -> set[int]:
        """Return every card instance number drawn (by name, face or token)."""
        return {m.instance for m in self.marks if m.instance is not None}

    def cards(self) -> set[str]:
        """Return every pool card id drawn."""
        return {m.card for m in self.marks if m.card is not None}


class Canvas:
    """An RGB image with an `ImageDraw` and a list of marks; every text call records one.

    Made while `rendering.scene.recording` is on, ``image`` and ``draw`` record into a
    `rendering.scene.Scene` (``scene``) instead (the same calls: ``image.paste``, its size,
    ``draw.rectangle``...), painted when the drawing's pixels are asked for.
    """

    image: Image.Image | Surface
    draw: ImageDraw.ImageDraw | Pen

    def __init__(self, width: int, height: int, background: RGB) -> None:
        self.scene: Scene | None = None
        if is_recording():
            self.scene = Scene(width, height, background)
            self.image = Surface(self.scene)
            self.draw = Pen(self.scene)
        else:
            self.image = Image.new("RGB", (width, height), background)
            self.draw = ImageDraw.Draw(self.image)
        self.marks: list[Mark] = []

    def finish(self) -> Drawing:
        """Return the picture and its marks."""
        if self.scene is not None:
            return Drawing(marks=self.marks, scene=self.scene)
        assert isinstance(self.image, Image.Image)
        return Drawing(self.image, self.marks)

    def crop_top(self, height: int) -> None:
        """Keep only the top ``height`` px of the picture (drawn taller than needed, its
        height known once drawn)."""
        if self.scene is not None:
            self.scene.crop_top(height)
            return
        assert isinstance(self.image, Image.Image)
        self.image = self.image.crop((0, 0, self.image.width, height))
        self.draw = ImageDraw.Draw(self.image)

    def mark(self, kind: str, key: str, box: Box, **extra: object) -> Mark:
        """Record a mark (see `Mark` for the fields) and return it."""
        made = Mark(kind, key, box, **extra)  # type: ignore[arg-type]
        self.marks.append(made)
        return made

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB,
        *,
        weight: Weight = "regular",
        anchor: str = "la",
        stroke: int = 0,
        stroke_fill: RGB = (0, 0, 0),
        kind: str = "text",
        key: str = "",
        card: str | None = None,
        instance: int | None = None,
    ) -> Mark:
        """Draw ``text`` at ``xy`` (Pillow anchor, default left-ascender) and record it.

        ``stroke`` is an outline width in pixels (legible over terrain). Text is pasted
        from cached sprites, so a label drawn again costs one paste.
        """
        sprite, dx, dy = text_sprite(text, size, weight, fill, anchor, stroke, stroke_fill)
        x0, y0 = round(xy[0]) + dx, round(xy[1]) + dy
        alpha_paste(self.image, sprite, (x0, y0))
        width, height = sprite.size
        box = (x0, y0, x0 + width, y0 + height)
        return self.mark(kind, key, box, text=text, card=card, instance=instance, size=size)

    def paragraph(
        self,
        xy: tuple[int, int],
        text: str,
        width: int,
        size: int,
        fill: RGB,
        line_height: int,
        *,
        weight: Weight = "regular",
        **extra: Any,
    ) -> int:
        """Draw ``text`` word-wrapped (`wrap`) to ``width`` pixels at ``size`` px, one line
        every ``line_height`` pixels from ``xy`` (the first line's anchor point; ``extra``
        goes to `text`: ``anchor``, ``kind``, ``key``...); return the y one ``line_height``
        under the last line's."""
        x, y = xy
        for line in wrap(text, width, font(size, weight)):
            self.text((x, y), line, size, fill, weight=weight, **extra)
            y += line_height
        return y

    def place(self, part: Canvas, box: Box, xy: tuple[int, int]) -> None:
        """Paste the region ``box`` of ``part`` at ``xy`` and take over ``part``'s marks,
        moved as its pixels were (a panel drawn once on its own canvas, placed when its
        height is known)."""
        if self.scene is not None and part.scene is not None:
            self.scene.place(part.scene, box, xy)
        elif part.scene is not None:
            self.image.paste(part.scene.paint(box), xy)
        else:
            assert isinstance(part.image, Image.Image)
            self.image.paste(part.image.crop(box), xy)
        dx, dy = xy[0] - box[0], xy[1] - box[1]
        self.marks += [m.moved(dx, dy) for m in part.marks]


DRAWN_ONCE_ENTRIES = 256
"""Parts kept by `drawn_once` per process (each holds its operations and marks, not
pixels: about 80 KiB for a homm4 board's terrain, 60 KiB for a homm3 Battlefield, so at
most some 25 MB for the static parts of about 100 games' pictures)."""

_DRAWN_ONCE: OrderedDict[Hashable, tuple[tuple[tuple[Any, ...], ...], tuple[Mark, ...]]] = (
    OrderedDict()
)
_DRAWN_ONCE_LOCK = threading.Lock()


def drawn_once(canvas: Canvas, key: Hashable, draw: Callable[[Canvas], None]) -> None:
    """Draw ``draw(c)`` onto ``canvas`` as if called with ``canvas`` itself, recording it
    the first time for ``key`` and replaying the recording after (the same pastes and
    ImageDraw calls in the same order, and the same marks): a game's static part (its
    terrain and hex names, a board's edge letters), the same in every picture of that game,
    is laid out once (issue 17). ``key`` must name everything ``draw`` reads (the view's
    parts it draws, the sizes and positions) and ``draw`` may only draw: what it draws
    may not depend on what ``canvas`` holds already, bar its size."""
    with _DRAWN_ONCE_LOCK:
        found = _DRAWN_ONCE.get(key)
        if found is not None:
            _DRAWN_ONCE.move_to_end(key)
    if found is None:
        width, height = canvas.image.size
        with recording():
            part = Canvas(width, height, (0, 0, 0))
            draw(part)
        assert part.scene is not None
        found = (tuple(part.scene.ops), tuple(part.marks))
        with _DRAWN_ONCE_LOCK:
            _DRAWN_ONCE[key] = found
            while len(_DRAWN_ONCE) > DRAWN_ONCE_ENTRIES:
                _DRAWN_ONCE.popitem(last=False)
    ops, marks = found
    if canvas.scene is not None:
        canvas.scene.ops.extend(ops)
    else:
        assert isinstance(canvas.image, Image.Image)
        replay(canvas.image, ops)
    canvas.marks.extend(marks)


def drawn_part(
    width: int, background: RGB, draw: Callable[[Canvas], int], height: int = 1200
) -> tuple[Canvas, int]:
    """Draw a part of a picture whose height is known only once drawn: ``draw`` draws on a
    blank canvas ``width`` px wide (``background``) from y 0 and returns the height it used;
    a canvas twice as tall is tried while that is not less than ``height``. Returns the
    canvas (for `Canvas.place`) and the height."""
    while True:
        part = Canvas(width, height, background)
        used = draw(part)
        if used < height:
            return part, used
        height *= 2


@lru_cache(maxsize=8192)
def text_sprite(
    text: str, size: int, weight: Weight, fill: RGB, anchor: str, stroke: int, stroke_fill: RGB
) -> tuple[Image.Image, int, int]:
    """Render ``text`` once into an RGBA sprite; return it and its offset from the anchor.

    Colours are exact (not premultiplied): the sprite's alpha is the glyph coverage, so
    pasting it with itself as the mask blends correctly onto any background.
    """
    face = font(size, weight)
    with FONT_LOCK:
        left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
        size_px = (max(1, int(right - left)), max(1, int(bottom - top)))
        origin = (-left, -top)
        sprite = Image.new("RGBA", size_px, (*(stroke_fill if stroke else fill), 0))
        if stroke:
            outline = Image.new("L", size_px, 0)
            ImageDraw.Draw(outline).text(
                origin,
                text,
                font=face,
                fill=255,
                anchor=anchor,
                stroke_width=stroke,
                stroke_fill=255,
            )
            sprite.paste((*stroke_fill, 255), (0, 0, *size_px), outline)
        glyphs = Image.new("L", size_px, 0)
        ImageDraw.Draw(glyphs).text(origin, text, font=face, fill=255, anchor=anchor)
    sprite.paste((*fill, 255), (0, 0, *size_px), glyphs)
    return sprite, int(left), int(top)


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, weight: Weight = "regular") -> int:
    """Return the advance width of ``text`` in pixels at ``size``."""
    face = font(size, weight)
    with FONT_LOCK:
        return int(face.getlength(text) + 0.999)


def fit_size(text: str, width: int, size: int, minimum: int, weight: Weight = "regular") -> int:
    """Return the largest font size <= ``size`` (>= ``minimum``) at which ``text`` fits ``width``."""
    while size > minimum and text_width(text, size, weight) > width:
        size -= 1
    return size


def ellipsize(text: str, width: int, size: int, weight: Weight = "regular") -> str:
    """Return ``text`` cut with an ellipsis so that it fits ``width`` pixels at ``size``."""
    if text_width(text, size, weight) <= width:
        return text
    while text and text_width(text + "…", size, weight) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, width: int, face: ImageFont.FreeTypeFont) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` pixels in ``face``.

    Newlines in ``text`` start new paragraphs; a single word wider than ``width`` is cut.
    The lines of the same ``(text, width, face)`` are worked out once per process, and
    every run of text is measured once per face (`text_length`): a card face or a plate
    wraps the same texts in every picture, and measuring text was nearly all of their
    drawing time (docs/PERFORMANCE.md).
    """
    return list(_wrapped(text, width, face))


@lru_cache(maxsize=8192)
def _wrapped(text: str, width: int, face: ImageFont.FreeTypeFont) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            trial = f"{current} {word}".strip()
            if text_length(face, trial) <= width:
                current = trial
                continue
            if current:
                lines.append(current)
            while text_length(face, word) > width and len(word) > 1:
                cut = len(word)
                while cut > 1 and text_length(face, word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        lines.append(current)
    return tuple(lines)


@lru_cache(maxsize=65536)
def text_length(face: ImageFont.FreeTypeFont, text: str) -> float:
    """The advance width of ``text`` in ``face``, in pixels (fractional), measured once per
    ``(face, text)`` for the process. Faces come from `rendering.fonts.font`, which loads each
    (size, weight) once, so a face is the same object for the life of the process."""
    with FONT_LOCK:
        return face.getlength(text)
