"""One seat's private picture: its Hand and its Risk Stack as card faces, kept apart.

Rule sections: homm4:start-of-the-game (Hand and Risk Stack), homm4:purchase-phase (only
Hand cards pay), homm4:closing-phase. Sent by DM only: it shows private cards.

Layout: a title, then the Hand on a light band ("pays for purchases"), then the Risk Stack
on a darker band ("play only, never payment"), four faces per row, each with its ``#id``.
"""

from __future__ import annotations

import math

from engine.homm4.cards import CardPool
from engine.homm4.views import CardRef, SeatView
from rendering.canvas import Canvas, Drawing
from rendering.homm4.cardface import card_height, draw_card_face
from rendering.homm4.palette import (
    LIGHT,
    MUTED,
    PAGE,
    PANEL,
    PANEL_LINE,
    WHITE,
    seat_label,
    seat_rgb,
    seat_shape,
)
from rendering.shapes import badge, paste_centred

CARD_W = 300
"""Face width in the hand image (px)."""
PER_ROW = 4
GAP = 20
WIDTH = PER_ROW * CARD_W + (PER_ROW + 1) * GAP
TITLE_H = 78
SECTION_HEAD = 58

_HAND_BAND = (66, 60, 52)
_RISK_BAND = (44, 40, 56)


EMPTY_H = 64
"""Height of the "empty" line that stands for a band without cards (px)."""


def _section_height(cards: tuple[CardRef, ...]) -> int:
    if not cards:
        return SECTION_HEAD + EMPTY_H
    rows = math.ceil(len(cards) / PER_ROW)
    return SECTION_HEAD + rows * (card_height(CARD_W) + GAP) + GAP


def draw_hand(view: SeatView, pool: CardPool) -> Drawing:
    """Draw ``view.seat``'s Hand and Risk Stack. Unknown card ids are drawn by id.

    :raises KeyError: if a card id is not in ``pool``.
    """
    height = TITLE_H + _section_height(view.hand) + 10 + _section_height(view.risk)
    canvas = Canvas(WIDTH, height, PAGE)
    canvas.draw.rectangle((0, 0, WIDTH, TITLE_H), fill=PANEL)
    sprite = badge(seat_shape(view.seat), 34, seat_rgb(view.seat), WHITE)
    paste_centred(canvas.image, sprite, GAP + 17, TITLE_H // 2)
    title = f"{seat_label(view.seat)} — your cards (private) · Round {view.round}"
    canvas.text(
        (GAP + 46, TITLE_H // 2),
        title,
        34,
        LIGHT,
        weight="bold",
        anchor="lm",
        kind="title",
        key="hand",
    )
    y = TITLE_H
    y = _section(canvas, y, "Hand", "pays for purchases", view.hand, pool, _HAND_BAND)
    canvas.draw.rectangle((0, y, WIDTH, y + 10), fill=PANEL_LINE)
    _section(canvas, y + 10, "Risk Stack", "play only, never payment", view.risk, pool, _RISK_BAND)
    return canvas.finish()


def _section(
    canvas: Canvas,
    y: int,
    name: str,
    note: str,
    cards: tuple[CardRef, ...],
    pool: CardPool,
    band: tuple[int, int, int],
) -> int:
    """Draw one band of faces; return the y below it."""
    height = _section_height(cards)
    canvas.draw.rectangle((0, y, WIDTH, y + height), fill=band)
    head = f"{name} ({len(cards)})"
    mark = canvas.text(
        (GAP, y + SECTION_HEAD // 2 + 4),
        head,
        32,
        LIGHT,
        weight="bold",
        anchor="lm",
        kind="section",
        key=name,
    )
    canvas.text((mark.box[2] + 16, y + SECTION_HEAD // 2 + 6), f"— {note}", 24, MUTED, anchor="lm")
    if not cards:
        canvas.text((GAP, y + SECTION_HEAD + EMPTY_H // 2 - 4), "empty", 28, MUTED, anchor="lm")
    for i, ref in enumerate(cards):
        x = GAP + (i % PER_ROW) * (CARD_W + GAP)
        top = y + SECTION_HEAD + (i // PER_ROW) * (card_height(CARD_W) + GAP)
        box = draw_card_face(canvas, x, top, CARD_W, pool.get(ref.card), pool, ref.id)
        canvas.mark(
            name.lower().replace(" ", "_"), f"#{ref.id}", box, card=ref.card, instance=ref.id
        )
    return y + height
