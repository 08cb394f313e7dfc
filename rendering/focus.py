"""Focus pictures: what a decision needs, readable on a phone (issue 16).

A channel picture is posted as a pair: first a *focus* picture, then the whole one. The
focus is a part of the whole picture cut around what the decision is about (the acting
army and the hexes around it, the engaged lines of a battle, the active hero), under a
band of the few lines the decision needs (whose turn, what is owed, the acting army, the
last attack), drawn large.

How large: Discord shows a picture about `PHONE_WIDTH` px wide on a narrow phone, so a
label of ``size`` px on a picture ``width`` px wide reads ``size * PHONE_WIDTH / width`` px
tall there (`shown_height`). The cut is made as narrow as the smallest label inside it
needs to read at least `NEEDED_PX` px (never narrower than the phone), and the band's text
is sized for the cut's width, so every label of a focus picture (bar the kinds its game
names as drawn again at full size elsewhere, `FocusSpec.exempt`) reads at least
`NEEDED_PX` px at `PHONE_WIDTH`.

A focus picture lays out the whole picture first (pure, like every picture: the same view
gives the same bytes) and keeps the marks that lie wholly inside the cut, moved with it.
Drawn on its own, it records the whole picture (`rendering.scene`) and paints the cut
alone; cut from a whole picture already painted (the bot posts both:
`rendering.pictures.render_json`), it crops it. Both give the same pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from rendering.canvas import RGB, Box, Canvas, Drawing, Mark, wrap
from rendering.fonts import Weight, font
from rendering.pictures import PictureKind
from rendering.scene import recording

if TYPE_CHECKING:
    from rendering.encode import ImageFormat

PHONE_WIDTH = 400
"""The width, in px, at which Discord shows a picture on a narrow phone (issue 16)."""

NEEDED_PX = 9.0
"""The least height, in px at `PHONE_WIDTH`, of every label a decision needs (issue 16)."""

BAND_PX = 10.0
"""The height at `PHONE_WIDTH` of the band's lines (a little over `NEEDED_PX`)."""


def shown_height(mark: Mark, width: int, shown: int = PHONE_WIDTH) -> float:
    """How tall ``mark``'s text reads, in px, when a picture ``width`` px wide is shown
    ``shown`` px wide (its font size scaled; 0 for a mark without text)."""
    return mark.size * shown / width


@dataclass(frozen=True)
class Line:
    """One line of a focus picture's band.

    Attributes:
        text: the words (wrapped to the picture's width when long).
        fill: the text colour.
        weight: the font weight.
        scale: the size against the band's size (1.3 for a title).
        key: the mark's key (``"title"``, ``"army:2"``...).
    """

    text: str
    fill: RGB
    weight: Weight = "regular"
    scale: float = 1.0
    key: str = ""


@dataclass(frozen=True)
class Focus:
    """Where a focus picture is cut and what its band says.

    Attributes:
        around: the box of the whole picture to centre the cut on (px).
        lines: the band's lines, top first (empty: no band).
        keep: a box of the whole picture the cut should hold as far as its width allows
            (the cut is centred on it while it holds ``around``; None: only ``around``).
        within: the part of the whole picture the cut stays inside (e.g. below a header
            the band says again); None: all of it.
    """

    around: Box
    lines: Sequence[Line] = ()
    keep: Box | None = None
    within: Box | None = None


@dataclass(frozen=True)
class FocusSpec:
    """How a game cuts one kind of picture.

    Attributes:
        where: (view, whole drawing) -> `Focus`.
        background: the band's background colour.
        exempt: mark kinds whose labels the focus need not keep readable, because the
            same words are drawn at full size elsewhere (its band, or the whole picture's
            lists); they still show, but do not narrow the cut.
        height_ratio: the cut's height against its width (capped by the whole's height).
        clipped: mark kinds the cut's edge may pass through (a map's hexes and paths, as
            on any map); the edge is moved inwards past every other mark it would cut
            (`trim`), so no part of a label, unit or card shows at the edge.
    """

    where: Callable[[Any, Drawing], Focus]
    background: RGB
    exempt: frozenset[str] = frozenset()
    height_ratio: float = 0.85
    clipped: frozenset[str] = frozenset()


def needed_marks(drawing: Drawing, exempt: Iterable[str] = ()) -> list[Mark]:
    """The text marks of ``drawing`` that count for readability (every mark with text and
    a font size, except those of the ``exempt`` kinds)."""
    skip = set(exempt)
    return [m for m in drawing.marks if m.text and m.size > 0 and m.kind not in skip]


def smallest_shown(drawing: Drawing, exempt: Iterable[str] = ()) -> float:
    """The smallest `shown_height` at `PHONE_WIDTH` of ``drawing``'s needed labels
    (`needed_marks`); ``inf`` when there are none."""
    found = needed_marks(drawing, exempt)
    if not found:
        return math.inf
    return min(shown_height(m, drawing.width) for m in found)


def _inside(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _span(low: float, high: float, length: int, first: int, limit: int) -> tuple[int, int]:
    """A run ``length`` long centred on ``low..high`` (starting at ``low`` when that is
    longer) and kept within ``first..limit``."""
    start = round((low + high - length) / 2) if high - low <= length else round(low)
    start = max(first, min(start, limit - length))
    return start, start + length


def cut_box(
    whole: Drawing,
    focus: Focus,
    exempt: Iterable[str] = (),
    height_ratio: float = 0.85,
) -> Box:
    """The box of ``whole`` a focus picture shows: centred on ``focus.around`` (widened
    towards ``focus.keep``), as wide as the smallest needed label inside it allows (that
    label reads `NEEDED_PX` px at `PHONE_WIDTH`), never narrower than `PHONE_WIDTH`
    (or the whole picture, when that is narrower)."""
    left, top, right, bottom = focus.within or (0, 0, *whole.size)
    width, height = right - left, bottom - top
    labels = needed_marks(whole, exempt)
    around = focus.around
    kept = focus.keep or around
    floor = min(width, PHONE_WIDTH)
    cut_width = width
    while True:
        cut_height = min(height, max(1, round(cut_width * height_ratio)))
        x0, x1 = _span(kept[0], kept[2], cut_width, left, right)
        y0, y1 = _span(kept[1], kept[3], cut_height, top, bottom)
        if not (x0 <= around[0] and around[2] <= x1):
            # the kept box is wider than the cut: centre on what the decision is about
            x0, x1 = _span(around[0], around[2], cut_width, left, right)
        if not (y0 <= around[1] and around[3] <= y1):
            y0, y1 = _span(around[1], around[3], cut_height, top, bottom)
        box = (x0, y0, x1, y1)
        sizes = [m.size for m in labels if _inside(m.box, box)]
        smallest = min(sizes) if sizes else None
        wanted = width if smallest is None else math.floor(PHONE_WIDTH * smallest / NEEDED_PX)
        narrower = max(floor, min(cut_width, wanted))
        if narrower >= cut_width:
            return box
        cut_width = narrower


def crosses(inner: Box, outer: Box) -> bool:
    """Whether ``inner`` overlaps ``outer`` without lying wholly inside it."""
    overlaps = inner[0] < outer[2] and outer[0] < inner[2] and inner[1] < outer[3]
    return overlaps and outer[1] < inner[3] and not _inside(inner, outer)


def trim(box: Box, marks: Iterable[Mark], around: Box, clipped: Iterable[str] = ()) -> Box:
    """``box`` with each edge moved inwards past every mark it cuts through (a mark
    overlapping ``box`` but not inside it), so that only whole marks show at the edge: for
    each such mark, the one edge that loses the least of ``box`` is moved to the mark's far
    side. An edge never moves into ``around`` (a mark that cannot be left out without
    that stays cut), and marks of the ``clipped`` kinds (and those holding all of
    ``box``) are passed through."""
    skip = set(clipped)
    x0, y0, x1, y1 = box
    # the box only shrinks: a mark that does not overlap it now never will
    found = [
        b
        for b in (m.box for m in marks if m.kind not in skip)
        if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]
    ]
    changed = True
    while changed:
        changed = False
        for b in found:
            if not crosses(b, (x0, y0, x1, y1)) or _inside((x0, y0, x1, y1), b):
                continue
            # (area lost, new box) for each edge that can move past the mark
            options = []
            if b[2] <= around[0] and b[2] > x0:
                options.append(((b[2] - x0) * (y1 - y0), (b[2], y0, x1, y1)))
            if b[0] >= around[2] and b[0] < x1:
                options.append(((x1 - b[0]) * (y1 - y0), (x0, y0, b[0], y1)))
            if b[3] <= around[1] and b[3] > y0:
                options.append(((b[3] - y0) * (x1 - x0), (x0, b[3], x1, y1)))
            if b[1] >= around[3] and b[1] < y1:
                options.append(((y1 - b[1]) * (x1 - x0), (x0, y0, x1, b[1])))
            if options:
                x0, y0, x1, y1 = min(options)[1]
                changed = True
    return (x0, y0, x1, y1)


def band_size(width: int, scale: float = 1.0) -> int:
    """The font size (px) of a band line on a picture ``width`` px wide: `BAND_PX` at
    `PHONE_WIDTH`, times ``scale``."""
    return math.ceil(BAND_PX * scale * width / PHONE_WIDTH)


def focus_drawing(
    whole: Drawing,
    focus: Focus,
    background: RGB,
    exempt: Iterable[str] = (),
    height_ratio: float = 0.85,
    clipped: Iterable[str] = (),
) -> Drawing:
    """The focus picture of ``whole``: the band of ``focus.lines`` over the part of
    ``whole`` `cut_box` chooses, `trim`-med so that no mark but those of the ``clipped``
    kinds is cut at its edge (at least `PHONE_WIDTH` wide: a narrower cut is centred). Its marks: a ``focus_line`` mark per band line (key
    ``Line.key``), a ``focus_cut`` mark for the cut (key: the whole picture's box as
    ``x0,y0,x1,y1``), and every mark of ``whole`` lying wholly inside the cut, moved."""
    box = cut_box(whole, focus, exempt, height_ratio)
    box = trim(box, whole.marks, focus.around, clipped)
    # a cut trimmed below the phone's width sits in the middle of a picture that wide
    width = max(box[2] - box[0], min(PHONE_WIDTH, whole.width))
    offset = (width - (box[2] - box[0])) // 2
    pad = max(8, round(width * 0.03))
    rows: list[tuple[str, int, Line]] = []
    for line in focus.lines:
        size = band_size(width, line.scale)
        rows += [
            (text, size, line) for text in wrap(line.text, width - 2 * pad, font(size, line.weight))
        ]
    band_height = pad + sum(round(size * 1.3) for _, size, _ in rows) + pad // 2 if rows else 0
    canvas = Canvas(width, band_height + box[3] - box[1], background)
    y = pad
    for text, size, line in rows:
        canvas.text(
            (pad, y), text, size, line.fill, weight=line.weight, kind="focus_line", key=line.key
        )
        y += round(size * 1.3)
    canvas.image.paste(whole.crop(box), (offset, band_height))
    cut = (offset, band_height, offset + box[2] - box[0], canvas.image.height)
    canvas.mark("focus_cut", ",".join(str(v) for v in box), cut)
    dx, dy = offset - box[0], band_height - box[1]
    x0, y0, x1, y1 = box
    canvas.marks += [
        m.moved(dx, dy)
        for m in whole.marks
        if m.box[0] >= x0 and m.box[1] >= y0 and m.box[2] <= x1 and m.box[3] <= y1
    ]
    return canvas.finish()


def focus_kind(whole: PictureKind, spec: FocusSpec, description: str) -> PictureKind:
    """The focus picture of the public picture ``whole`` as a registry kind: kind
    ``"<kind>-focus"``, file ``"<name>-focus.png"``, the same view class and public part
    (a focus is a channel picture: it draws the public part of the view only), drawn as
    `focus_drawing` of ``whole``'s drawing with ``spec``.

    :raises ValueError: if ``whole`` is a private picture (a DM's picture has no focus).
    """
    if whole.private:
        raise ValueError(f"the {whole.ruleset} {whole.kind} picture is private: no focus")

    def cut(view: BaseModel, drawing: Drawing) -> Drawing:
        found = spec.where(view, drawing)
        return focus_drawing(
            drawing, found, spec.background, spec.exempt, spec.height_ratio, spec.clipped
        )

    def draw(view: BaseModel) -> Drawing:
        with recording():  # the whole picture's pixels: only the cut is painted
            drawing = whole.draw(view)
        return cut(view, drawing)

    stem, dot, extension = whole.filename.rpartition(".")
    return PictureKind(
        whole.ruleset,
        f"{whole.kind}-focus",
        whole.view,
        draw,
        f"{stem}-focus{dot}{extension}" if dot else f"{whole.filename}-focus",
        description,
        public_part=whole.public_part,
        focus_of=whole.kind,
        exempt=spec.exempt,
        cut=cut,
    )


def union(boxes: Iterable[Box]) -> Box | None:
    """The smallest box holding every one of ``boxes`` (None for none)."""
    found = list(boxes)
    if not found:
        return None
    return (
        min(b[0] for b in found),
        min(b[1] for b in found),
        max(b[2] for b in found),
        max(b[3] for b in found),
    )


def whole_box(drawing: Drawing) -> Box:
    """The box of all of ``drawing``."""
    return (0, 0, drawing.width, drawing.height)


def mark_texts(drawing: Drawing, kind: str, key: str | None = None) -> list[str]:
    """The texts of ``drawing``'s marks of ``kind`` (and ``key``, when given), in order."""
    return [m.text for m in drawing.of_kind(kind) if m.text and (key is None or m.key == key)]


def write_focus(
    out: Path, ruleset: str, views: Mapping[str, BaseModel], fmt: ImageFormat
) -> list[Path]:
    """Write the focus picture of each of ``ruleset``'s public pictures ``views`` (kind ->
    view) as ``<kind>-focus.<extension>`` in ``out``, encoded as ``fmt``
    (`heroes-table render --focus`); kinds without a focus are skipped. Returns the paths
    written."""
    from rendering.encode import encode
    from rendering.pictures import focus_of, picture_kind

    written = []
    for kind, view in views.items():
        focus = focus_of(ruleset, kind)
        if focus is None:
            continue
        spec = picture_kind(ruleset, focus)
        path = out / f"{focus}.{fmt.extension}"
        path.write_bytes(encode(spec.draw(spec.prepare(view)).image, fmt))
        written.append(path)
    return written
