"""A homm3 player's private cards as a picture: hand, set-aside cards, Spell Scroll and
Adventure hand, each card a tile with its name, type line and effects. **Send by DM only.**

Rule sections: homm3turn:refresh-your-hand (the hand), homm3bf:adventure-mode (set-aside
cards, the saved Adventure card), homm3bf:...the-deck-of-might-and-magic (Basic and Expert
effects). Marks: ``card`` (``#N``, with the card id and instance), ``card_name``,
``type_line`` and ``effect`` (``#N``), ``section``, ``title``, ``limit``.
"""

from __future__ import annotations

from engine.homm3.content import load_content
from engine.homm3.views import CardRef, SeatView
from rendering.canvas import Canvas, Drawing, ellipsize, wrap
from rendering.fonts import font
from rendering.homm3.palette import GOLD, LIGHT, MUTED, PAGE, PANEL, PANEL_LINE, seat_rgb

WIDTH = 760
"""Width of the picture: Discord shows it about 500 px wide on a phone, where the card
text (16 px) reads at 10.5 px and the card numbers (24 px) at 15.8 px."""
MARGIN = 16
GAP = 8
PER_ROW = 2
TILE_W = (WIDTH - 2 * MARGIN - (PER_ROW - 1) * GAP) // PER_ROW
TEXT = 16
"""Size of a card's effect text."""
TEXT_LINE = 21
TILE_TOP = 92
"""Height of a tile's number, name and type line, above its effects."""


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


Tile = tuple[CardRef, str, list[str]]
"""A card as its tile shows it: the reference, its type line and its effect text wrapped
to the tile's width."""


def _tile_text(ref: CardRef) -> Tile:
    face = font(TEXT)
    type_line, effects = card_lines(ref)
    return ref, type_line, [part for line in effects for part in wrap(line, TILE_W - 20, face)]


def _row_height(tiles: list[Tile]) -> int:
    """Height of one row of tiles: the tallest card's text, all of it shown."""
    return TILE_TOP + max(len(lines) for _, _, lines in tiles) * TEXT_LINE + 10


def _rows(tiles: list[Tile]) -> list[list[Tile]]:
    return [tiles[i : i + PER_ROW] for i in range(0, len(tiles), PER_ROW)]


def draw_hand(view: SeatView) -> Drawing:
    """Draw ``view``'s own hand and other private cards (for that seat's DM): `WIDTH` px
    wide, two cards a row, each with all its text."""
    sections = [
        ("Hand", list(view.hand)),
        ("Set aside (one use each)", list(view.aside_cards)),
        ("Spell Scroll", list(view.scroll_cards)),
        ("Adventure cards", list(view.adventure_cards)),
        ("Looking at", list(view.looking)),
    ]
    shown = [
        (title, [_tile_text(ref) for ref in cards])  # each card's text wrapped once
        for title, cards in sections
        if cards or title == "Hand"
    ]
    player = view.players[view.seat]
    title = f"{player.colour}: {player.hero_name}'s cards (private)"
    limit = f"Hand Limit {player.hand_limit} · Expert uses {player.experts}/{player.expert_limit}"
    height = 92 + 20
    rows = [(title, [(row, _row_height(row)) for row in _rows(tiles)]) for title, tiles in shown]
    for _, section_rows in rows:
        height += 36 + (sum(row_h + GAP for _, row_h in section_rows) if section_rows else 34)
    canvas = Canvas(WIDTH, height, PAGE)
    canvas.text(
        (MARGIN, 12),
        ellipsize(title, WIDTH - 2 * MARGIN, 24, "bold"),
        24,
        seat_rgb(view.seat),
        weight="bold",
        kind="title",
    )
    canvas.text((MARGIN, 50), limit, 18, MUTED, kind="limit")
    y = 92
    for section, section_rows in rows:
        count = sum(len(row) for row, _ in section_rows)
        canvas.text(
            (MARGIN, y),
            f"{section} ({count})",
            19,
            GOLD,
            weight="medium",
            kind="section",
            key=section,
        )
        y += 36
        if not section_rows:
            canvas.text((MARGIN, y), "no cards", TEXT, MUTED)
            y += 34
            continue
        for row, row_h in section_rows:
            for col, tile in enumerate(row):
                _tile(canvas, tile, MARGIN + col * (TILE_W + GAP), y, row_h)
            y += row_h + GAP
    return canvas.finish()


def _tile(canvas: Canvas, tile: Tile, x: int, y: int, height: int) -> None:
    ref, type_line, effects = tile
    canvas.draw.rectangle((x, y, x + TILE_W, y + height), fill=PANEL, outline=PANEL_LINE, width=2)
    canvas.text(
        (x + 10, y + 8),
        f"#{ref.number}",
        24,
        GOLD,
        weight="bold",
        kind="card",
        key=f"#{ref.number}",
        card=ref.id,
        instance=ref.number,
    )
    canvas.text(
        (x + 10, y + 40),
        ellipsize(ref.name, TILE_W - 20, 20, "bold"),
        20,
        LIGHT,
        weight="bold",
        kind="card_name",
        key=f"#{ref.number}",
    )
    canvas.text((x + 10, y + 68), type_line, 15, MUTED, kind="type_line", key=f"#{ref.number}")
    yy = y + TILE_TOP
    for part in effects:
        canvas.text((x + 10, yy), part, TEXT, LIGHT, kind="effect", key=f"#{ref.number}")
        yy += TEXT_LINE
