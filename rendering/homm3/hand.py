"""A homm3 player's private cards as a picture: hand, set-aside cards, Spell Scroll and
Adventure hand, each card a tile with its name, type line and effects. **Send by DM only.**

Rule sections: homm3turn:refresh-your-hand (the hand), homm3bf:adventure-mode (set-aside
cards, the saved Adventure card), homm3bf:...the-deck-of-might-and-magic (Basic and Expert
effects). Marks: ``card`` (``#N``, with the card id and instance).
"""

from __future__ import annotations

from engine.homm3.content import load_content
from engine.homm3.views import CardRef, SeatView
from rendering.canvas import Canvas, Drawing, wrap
from rendering.fonts import font
from rendering.homm3.palette import GOLD, LIGHT, MUTED, PAGE, PANEL, PANEL_LINE, seat_rgb

WIDTH = 1000
MARGIN = 16
TILE_W = 236
TILE_H = 190
GAP = 8
PER_ROW = 4


def card_lines(ref: CardRef) -> tuple[str, list[str]]:
    """The type line and effect lines of a card reference (any kind of card)."""
    content = load_content()
    if ref.id in content.cards:
        card = content.cards[ref.id]
        lines = []
        for index, expert, effect in card.effects():
            prefix = (
                "Expert: "
                if expert
                else (
                    f"{index}: "
                    if len(card.effects()) > 1 and card.kind not in ("statistic", "ability")
                    else ""
                )
            )
            lines.append(prefix + effect.text)
        if card.kind == "spell":
            lines.append("Or discard it: +1 Empower.")
        return card.type_line, lines
    if ref.id in content.events:
        return "Adventure · Event", [content.events[ref.id].text]
    if ref.id in content.combats:
        combat = content.combats[ref.id]
        return "Adventure · Combat", [f"Combat Power {lv.power}: {lv.text}" for lv in combat.levels]
    spec = content.positive.get(ref.id) or content.negative.get(ref.id)
    return ("Morale", [spec.text]) if spec else ("", [])


def draw_hand(view: SeatView) -> Drawing:
    """Draw ``view``'s own hand and other private cards (for that seat's DM)."""
    sections = [
        ("Hand", view.hand),
        ("Set aside (one use each)", view.aside_cards),
        ("Spell Scroll", view.scroll_cards),
        ("Adventure cards", view.adventure_cards),
        ("Looking at", view.looking),
    ]
    sections = [(title, cards) for title, cards in sections if cards or title == "Hand"]
    rows = sum(max(1, -(-len(cards) // PER_ROW)) for _, cards in sections)
    height = 60 + len(sections) * 34 + rows * (TILE_H + GAP) + 20
    canvas = Canvas(WIDTH, height, PAGE)
    player = view.players[view.seat]
    canvas.text(
        (MARGIN, 12),
        f"{player.colour}: {player.hero_name}'s cards (private)",
        22,
        seat_rgb(view.seat),
        weight="bold",
        kind="title",
    )
    limit = f"Hand Limit {player.hand_limit} · Expert uses {player.experts}/{player.expert_limit}"
    canvas.text((WIDTH - MARGIN, 16), limit, 15, MUTED, anchor="ra")
    y = 56
    for title, cards in sections:
        canvas.text(
            (MARGIN, y),
            f"{title} ({len(cards)})",
            17,
            GOLD,
            weight="medium",
            kind="section",
            key=title,
        )
        y += 30
        if not cards:
            canvas.text((MARGIN, y + 8), "no cards", 14, MUTED)
            y += TILE_H + GAP
            continue
        for i, ref in enumerate(cards):
            col, row = i % PER_ROW, i // PER_ROW
            _tile(canvas, ref, MARGIN + col * (TILE_W + GAP), y + row * (TILE_H + GAP))
        y += -(-len(cards) // PER_ROW) * (TILE_H + GAP)
        y += 4
    return canvas.finish()


def _tile(canvas: Canvas, ref: CardRef, x: int, y: int) -> None:
    canvas.draw.rectangle((x, y, x + TILE_W, y + TILE_H), fill=PANEL, outline=PANEL_LINE, width=2)
    canvas.text(
        (x + 8, y + 6),
        f"#{ref.number}",
        20,
        GOLD,
        weight="bold",
        kind="card",
        key=f"#{ref.number}",
        card=ref.id,
        instance=ref.number,
    )
    canvas.text(
        (x + 8, y + 32), ref.name, 16, LIGHT, weight="bold", kind="card_name", key=f"#{ref.number}"
    )
    type_line, lines = card_lines(ref)
    canvas.text((x + 8, y + 54), type_line, 12, MUTED)
    face = font(12)
    yy = y + 74
    for line in lines:
        for part in wrap(line, TILE_W - 16, face):
            if yy > y + TILE_H - 16:
                return
            canvas.text((x + 8, yy), part, 12, LIGHT)
            yy += 15
