"""A picture recorded as the operations that paint it, so that any part of it can be painted
alone (issue 17): a focus picture (`rendering.focus`) is cut from its whole picture, and
painting only the cut costs a fraction of painting the whole.

A `Scene` holds, in drawing order, every paste (text sprites, tokens, tiles), every
`ImageDraw` call (rectangles, polygons, lines...) and every part placed from another scene
(`rendering.canvas.Canvas.place`), each with the box it can touch. `Scene.paint` of a box
replays the operations that touch it onto an image of that box alone, moved by the box's
corner: the same pixels as painting the whole picture and cropping it (see `paint` for how
Pillow's rounding is kept), for the pixels of the box only.

`rendering.canvas.Canvas` records into a scene while `recording` is on (a focus picture
turns it on around drawing its whole picture); otherwise it paints at once as before, so a
whole picture pays nothing for this.
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

from PIL import Image, ImageDraw

from rendering.shapes import alpha_paste

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]

# An operation is a tuple: (code, x0, y0, x1, y1, ...) with the box it can touch first.
_ALPHA = 0  # (code, box..., sprite): an RGBA sprite pasted through its own alpha
_PASTE = 1  # (code, box..., image, mask): Image.paste(image, xy, mask)
_DRAW = 2  # (code, box..., method, xy, kwargs, exact): an ImageDraw call
_PART = 3  # (code, box..., scene, sx, sy): scene's pixels from (sx, sy) placed at the box

_RECORDING: contextvars.ContextVar[bool] = contextvars.ContextVar("recording", default=False)

_SIMPLE = frozenset({"rectangle", "rounded_rectangle", "ellipse", "arc"})
"""ImageDraw methods that only ever use their (integer) box's corners and sizes."""


@contextmanager
def recording() -> Iterator[None]:
    """Within this block (this thread or task), every `rendering.canvas.Canvas` made records
    a `Scene` instead of painting: its drawing's pixels are painted when asked for
    (`rendering.canvas.Drawing.image`, `rendering.canvas.Drawing.crop`)."""
    token = _RECORDING.set(True)
    try:
        yield
    finally:
        _RECORDING.reset(token)


def is_recording() -> bool:
    """Whether canvases made now record a `Scene` (`recording`)."""
    return _RECORDING.get()


def _flat(xy: Sequence[Any]) -> list[float]:
    """The coordinates of an ImageDraw ``xy`` (points or numbers) as ``[x, y, x, y...]``."""
    if xy and isinstance(xy[0], (int, float)):
        return list(xy)
    return [v for point in xy for v in point]


def _moved(xy: Sequence[Any], dx: int, dy: int) -> Any:
    """``xy`` in the same form, every point moved by ``(-dx, -dy)``."""
    if xy and isinstance(xy[0], (int, float)):
        return [v - (dy if i % 2 else dx) for i, v in enumerate(xy)]
    return [(x - dx, y - dy) for x, y in xy]


def _exact(method: str, flat: list[float], kwargs: dict[str, Any]) -> bool:
    """Whether the call paints the same pixels moved by any whole number of px, wherever
    it lands: integer coordinates, and no wide line whose corners Pillow rounds (a wide
    line or outline is safe when every segment is horizontal or vertical)."""
    if not all(type(v) is int for v in flat):
        return False
    if method in _SIMPLE or (kwargs.get("width") or 1) <= 1:
        return True
    if method != "line":
        return False
    points = list(zip(flat[0::2], flat[1::2], strict=True))
    return all(a[0] == b[0] or a[1] == b[1] for a, b in pairwise(points))


class Scene:
    """The recorded drawing of a picture ``width`` × ``height`` px on ``background``.

    Attributes:
        width, height: the picture's size in px (`crop_top` lowers ``height``).
        background: the colour under everything.
        ops: the operations, in drawing order (see the module docstring).
    """

    def __init__(self, width: int, height: int, background: RGB) -> None:
        self.width = width
        self.height = height
        self.background = background
        self.ops: list[tuple[Any, ...]] = []

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` in px."""
        return (self.width, self.height)

    def paste(
        self, image: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None
    ) -> None:
        """Record ``Image.paste(image, xy, mask)`` (``xy``: the top-left corner, px)."""
        x, y = xy
        box = (x, y, x + image.width, y + image.height)
        if mask is image and image.mode == "RGBA":
            self.ops.append((_ALPHA, *box, image))
        else:
            self.ops.append((_PASTE, *box, image, mask))

    def draw(self, method: str, xy: Sequence[Any], kwargs: dict[str, Any]) -> None:
        """Record ``ImageDraw.Draw(image).<method>(xy, **kwargs)``."""
        pad = int(kwargs.get("width", 1) or 1) + 2
        if method in _SIMPLE and len(xy) == 4 and type(xy[0]) is int:  # a box (x0, y0, x1, y1)
            x0, y0, x1, y1 = xy
            if type(x1) is int and type(y0) is int and type(y1) is int:
                low_x, high_x = (x0, x1) if x0 <= x1 else (x1, x0)
                low_y, high_y = (y0, y1) if y0 <= y1 else (y1, y0)
                box = (low_x - pad, low_y - pad, high_x + pad + 1, high_y + pad + 1)
                self.ops.append((_DRAW, *box, method, xy, kwargs, True))
                return
        flat = _flat(xy)
        xs, ys = flat[0::2], flat[1::2]
        box = (
            math.floor(min(xs)) - pad,
            math.floor(min(ys)) - pad,
            math.ceil(max(xs)) + pad + 1,
            math.ceil(max(ys)) + pad + 1,
        )
        self.ops.append((_DRAW, *box, method, xy, kwargs, _exact(method, flat, kwargs)))

    def place(self, part: Scene, box: Box, xy: tuple[int, int]) -> None:
        """Record pasting the region ``box`` of ``part``'s pixels at ``xy``."""
        x, y = xy
        dest = (x, y, x + box[2] - box[0], y + box[3] - box[1])
        self.ops.append((_PART, *dest, part, box[0], box[1]))

    def crop_top(self, height: int) -> None:
        """Keep the top ``height`` px of the picture (what ``image.crop((0, 0, width,
        height))`` keeps)."""
        self.height = height

    def paint(self, box: Box | None = None) -> Image.Image:
        """The RGB pixels of ``box`` of the picture (all of it when None): what painting
        the whole picture and cropping ``box`` gives, painting only the operations that
        touch ``box``. A part of ``box`` outside the picture is black (as `Image.crop`).

        Pillow rounds a non-integer coordinate towards zero, so a shape moved across the
        image's left or top edge could lose a pixel; such a shape is painted with the
        image reaching left and up past it (never past the picture's own edge), and the
        box cut from that."""
        x0, y0, x1, y1 = box or (0, 0, self.width, self.height)
        inside = (max(0, x0), max(0, y0), min(self.width, x1), min(self.height, y1))
        if inside != (x0, y0, x1, y1):
            out = Image.new("RGB", (x1 - x0, y1 - y0), (0, 0, 0))
            if inside[0] < inside[2] and inside[1] < inside[3]:
                out.paste(self.paint(inside), (inside[0] - x0, inside[1] - y0))
            return out
        hits = [op for op in self.ops if op[1] < x1 and op[3] > x0 and op[2] < y1 and op[4] > y0]
        ox, oy = x0, y0
        for op in hits:
            if op[0] == _DRAW and not op[8]:
                ox, oy = min(ox, op[1]), min(oy, op[2])
        ox, oy = max(0, ox), max(0, oy)
        image = Image.new("RGB", (x1 - ox, y1 - oy), self.background)
        self._replay(image, hits, ox, oy)
        if (ox, oy) != (x0, y0):
            image = image.crop((x0 - ox, y0 - oy, x1 - ox, y1 - oy))
        return image

    @staticmethod
    def _replay(image: Image.Image, ops: Sequence[tuple[Any, ...]], ox: int, oy: int) -> None:
        """Paint ``ops`` onto ``image``, whose top-left pixel is the picture's ``(ox, oy)``."""
        draw = ImageDraw.Draw(image)
        right, bottom = ox + image.width, oy + image.height
        for op in ops:
            code = op[0]
            if code == _ALPHA:
                alpha_paste(image, op[5], (op[1] - ox, op[2] - oy))
            elif code == _PASTE:
                image.paste(op[5], (op[1] - ox, op[2] - oy), op[6])
            elif code == _DRAW:
                xy = _moved(op[6], ox, oy) if ox or oy else op[6]
                getattr(draw, op[5])(xy, **op[7])
            else:
                part: Scene = op[5]
                ix0, iy0 = max(op[1], ox), max(op[2], oy)
                ix1, iy1 = min(op[3], right), min(op[4], bottom)
                if ix0 >= ix1 or iy0 >= iy1:
                    continue
                sx, sy = op[6] - op[1], op[7] - op[2]
                pixels = part.paint((ix0 + sx, iy0 + sy, ix1 + sx, iy1 + sy))
                image.paste(pixels, (ix0 - ox, iy0 - oy))


_PARAMETERS = {
    "rectangle": ("fill", "outline", "width"),
    "rounded_rectangle": ("radius", "fill", "outline", "width", "corners"),
    "polygon": ("fill", "outline", "width"),
    "line": ("fill", "width", "joint"),
    "ellipse": ("fill", "outline", "width"),
    "arc": ("start", "end", "fill", "width"),
}
"""The ImageDraw methods a `Pen` records and their parameters after ``xy``, in order."""


def replay(image: Image.Image, ops: Sequence[tuple[Any, ...]]) -> None:
    """Paint recorded ``ops`` (a `Scene`'s) onto ``image`` where they were recorded: the
    pixels drawing them on ``image`` directly gives."""
    Scene._replay(image, ops, 0, 0)


def _recorded(method: str) -> Callable[..., None]:
    """A `Pen` method recording ImageDraw's ``method`` with its arguments."""

    def record(pen: Pen, xy: Sequence[Any], *args: Any, **kwargs: Any) -> None:
        if args:
            kwargs = {**dict(zip(_PARAMETERS[method], args, strict=False)), **kwargs}
        pen.scene.draw(method, xy, kwargs)

    record.__name__ = record.__qualname__ = method
    record.__doc__ = f"`ImageDraw.ImageDraw.{method}`, recorded."
    return record


class Pen:
    """What a recording canvas has for ``draw``: the `ImageDraw` methods the renderers use
    (`_PARAMETERS`), each recorded into a `Scene`, with ImageDraw's arguments."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene

    rectangle = _recorded("rectangle")
    rounded_rectangle = _recorded("rounded_rectangle")
    polygon = _recorded("polygon")
    line = _recorded("line")
    ellipse = _recorded("ellipse")
    arc = _recorded("arc")


class Surface:
    """What a recording canvas has for ``image``: the size and `paste` of a Pillow image,
    recorded into a `Scene`."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene

    @property
    def width(self) -> int:
        """The picture's width in px."""
        return self.scene.width

    @property
    def height(self) -> int:
        """The picture's height in px."""
        return self.scene.height

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` in px."""
        return self.scene.size

    def paste(
        self, image: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None
    ) -> None:
        """`Image.Image.paste` at a corner ``xy``, recorded."""
        self.scene.paste(image, xy, mask)
