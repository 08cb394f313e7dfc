"""A card face drawn from card data: name, type, faction colour, cost, stats, text.

Rule section: homm4:card-types (the card layouts: name, cost square in the upper right,
Melee/Ranged/Defense/Movement, Phase, faction, abilities). Faces are portrait 5:7; every
length scales with the width, so one layout serves the hand (300 px) and `/card` (480 px).
"""

from __future__ import annotations

from engine.homm4.cards import Card, CardPool, Faction
from rendering.canvas import Box, Canvas, ellipsize, fit_size, text_width, wrap
from rendering.fonts import font
from rendering.homm4.cardtext import (
    cost_text,
    fighter_stats,
    keyword_line,
    mana_text,
    rules_text,
    type_line,
)
from rendering.homm4.palette import (
    BLACK,
    FACTION_RGB,
    INK,
    PAPER,
    WHITE,
    darker,
    lighter,
    readable_on,
)

ASPECT = 1.4
"""Card height / width."""

_STAT_RGB = {
    "Melee": (178, 54, 44),
    "Ranged": (46, 128, 62),
    "Defense": (44, 88, 168),
    "Move": (128, 96, 52),
    "Phase": (110, 64, 140),
}


def card_height(width: int) -> int:
    """The height in pixels of a face ``width`` pixels wide."""
    return int(width * ASPECT)


def faction_of(card: Card) -> Faction:
    """The card's faction (artifacts: their category's faction; skills/spells: their
    school's; treasure, objects and might skills: neutral)."""
    faction = getattr(card, "faction", None)
    if isinstance(faction, Faction):
        return faction
    school = getattr(card, "school", None)
    if school is not None:
        return Faction(school.value)
    category = getattr(card, "category", None)
    if category is not None and category.value in Faction.__members__.values():
        return Faction(category.value)
    primary = getattr(card, "primary", None)
    if primary is not None and primary.school is not None:
        return Faction(primary.school.value)
    return Faction.NEUTRAL


def draw_card_face(
    canvas: Canvas,
    x: int,
    y: int,
    width: int,
    card: Card,
    pool: CardPool,
    instance: int | None = None,
) -> Box:
    """Draw ``card`` with its top-left at ``(x, y)``, ``width`` px wide; return its box.

    ``instance`` (the number commands accept) is printed large as ``#17`` in the bottom
    band; without it the band shows the faction only. Records a ``card`` mark keyed
    ``#17`` (or the pool id) carrying the card and instance, plus text marks.
    """
    u = width / 300.0
    height = card_height(width)
    colour = FACTION_RGB[faction_of(card)]
    box = (x, y, x + width, y + height)
    draw = canvas.draw
    draw.rounded_rectangle(box, radius=int(16 * u), fill=darker(colour, 0.55))
    draw.rounded_rectangle(
        (x + int(3 * u), y + int(3 * u), x + width - int(3 * u), y + height - int(3 * u)),
        radius=int(14 * u),
        fill=colour,
    )
    pad = int(12 * u)
    inner = (x + pad, y + int(58 * u), x + width - pad, y + height - int(50 * u))
    draw.rounded_rectangle(inner, radius=int(8 * u), fill=PAPER)

    title_right = x + width - pad
    cost = cost_text(card)
    if cost is not None:
        side = int(42 * u)
        cost_box = (x + width - pad - side, y + pad, x + width - pad, y + pad + side)
        draw.rounded_rectangle(
            cost_box, radius=int(5 * u), fill=BLACK, outline=WHITE, width=max(1, int(2 * u))
        )
        canvas.text(
            ((cost_box[0] + cost_box[2]) / 2, (cost_box[1] + cost_box[3]) / 2),
            cost,
            int(28 * u),
            WHITE,
            weight="bold",
            anchor="mm",
            kind="cost",
            key=str(instance) if instance is not None else card.id,
        )
        title_right = cost_box[0] - int(6 * u)
    mana = mana_text(card)
    if mana is not None:
        side = int(42 * u)
        circle = (x + width - pad - side, y + pad, x + width - pad, y + pad + side)
        draw.ellipse(circle, fill=(40, 80, 190), outline=WHITE, width=max(1, int(2 * u)))
        canvas.text(
            ((circle[0] + circle[2]) / 2, (circle[1] + circle[3]) / 2),
            mana,
            int(24 * u),
            WHITE,
            weight="bold",
            anchor="mm",
            kind="mana",
            key=str(instance) if instance is not None else card.id,
        )
        title_right = circle[0] - int(6 * u)
    name_room = title_right - (x + pad)
    name_size = fit_size(card.name, name_room, int(26 * u), int(15 * u), "bold")
    ink = readable_on(colour)
    canvas.text(
        (x + pad, y + pad + int(21 * u)),
        ellipsize(card.name, name_room, name_size, "bold"),
        name_size,
        ink,
        weight="bold",
        anchor="lm",
        kind="card_name",
        key=card.id,
        card=card.id,
        instance=instance,
    )

    top = inner[1] + int(8 * u)
    line = type_line(card)
    type_size = fit_size(
        line, inner[2] - inner[0] - int(16 * u), int(16 * u), int(11 * u), "medium"
    )
    canvas.text((inner[0] + int(8 * u), top), line, type_size, darker(colour, 0.5), weight="medium")
    top += int(26 * u)

    stats = fighter_stats(card)
    if stats:
        top = _stat_row(
            canvas, inner[0] + int(6 * u), top, inner[2] - inner[0] - int(12 * u), stats, u
        )
    keywords = keyword_line(card, pool)
    if keywords:
        room = inner[2] - inner[0] - int(16 * u)
        size = fit_size(keywords, room, int(20 * u), int(13 * u), "bold")
        for line in wrap(keywords, room, font(size, "bold"))[:2]:
            canvas.text(
                (inner[0] + int(8 * u), top + int(4 * u)),
                line,
                size,
                darker(colour, 0.5),
                weight="bold",
                kind="keywords",
                key=card.id,
            )
            top += int(size * 1.25)
        top += int(4 * u)
    _text_box(
        canvas,
        (inner[0] + int(8 * u), top + int(4 * u), inner[2] - int(8 * u), inner[3] - int(6 * u)),
        rules_text(card, pool),
        u,
    )
    _bottom_band(canvas, x, y + height - int(50 * u), width, card, instance, u, ink)
    canvas.mark(
        "card",
        f"#{instance}" if instance is not None else card.id,
        box,
        card=card.id,
        instance=instance,
    )
    return box


def _stat_row(
    canvas: Canvas, x: int, y: int, width: int, stats: list[tuple[str, int]], u: float
) -> int:
    """Five stat boxes (label above, big number); return the y below them."""
    gap = int(5 * u)
    cell = (width - gap * (len(stats) - 1)) // len(stats)
    height = int(58 * u)
    for i, (label, value) in enumerate(stats):
        left = x + i * (cell + gap)
        fill = _STAT_RGB[label]
        canvas.draw.rounded_rectangle(
            (left, y, left + cell, y + height), radius=int(6 * u), fill=fill
        )
        canvas.text(
            (left + cell / 2, y + int(12 * u)),
            label,
            int(12 * u),
            lighter(fill, 0.75),
            weight="medium",
            anchor="mm",
        )
        canvas.text(
            (left + cell / 2, y + int(38 * u)),
            str(value),
            int(28 * u),
            WHITE,
            weight="bold",
            anchor="mm",
            kind="stat",
            key=label,
        )
    return y + height + int(6 * u)


def _text_box(canvas: Canvas, box: Box, paragraphs: list[str], u: float) -> None:
    """Wrap ``paragraphs`` into ``box``, shrinking the font until they fit (min 10 px)."""
    width, height = box[2] - box[0], box[3] - box[1]
    size = int(23 * u)
    minimum = max(9, int(11 * u))
    while True:
        face = font(size)
        lines = [(line, i) for i, p in enumerate(paragraphs) for line in wrap(p, width, face)]
        step = int(size * 1.22)
        needed = len(lines) * step + max(0, len(paragraphs) - 1) * (step // 3)
        if needed <= height or size <= minimum:
            break
        size -= 1
    y = box[1]
    last = -1
    for index, (text, paragraph) in enumerate(lines):
        if paragraph != last and last != -1:
            y += step // 3
        last = paragraph
        if y + 2 * step > box[3] + step // 4 and index + 1 < len(lines):
            canvas.text((box[0], y), ellipsize(text + " …", width, size), size, INK)
            break
        canvas.text((box[0], y), text, size, INK)
        y += step


def _bottom_band(
    canvas: Canvas,
    x: int,
    y: int,
    width: int,
    card: Card,
    instance: int | None,
    u: float,
    ink: tuple[int, int, int],
) -> None:
    pad = int(12 * u)
    mid = y + int(25 * u)
    if instance is not None:
        label = f"#{instance}"
        size = int(28 * u)
        w = text_width(label, size, "bold") + int(18 * u)
        canvas.draw.rounded_rectangle(
            (x + pad, mid - int(18 * u), x + pad + w, mid + int(18 * u)),
            radius=int(9 * u),
            fill=BLACK,
        )
        canvas.text(
            (x + pad + w / 2, mid),
            label,
            size,
            WHITE,
            weight="bold",
            anchor="mm",
            kind="card_id",
            key=label,
            instance=instance,
        )
    canvas.text(
        (x + width - pad, mid),
        faction_of(card).value.title(),
        int(16 * u),
        ink,
        weight="medium",
        anchor="rm",
    )
