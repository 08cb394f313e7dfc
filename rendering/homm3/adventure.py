"""The homm3 Adventure picture: the round tracker, then one panel per player with Hero,
Resources and income, Town buildings and Town Action tokens, army, Morale and Adventure
cards.

Rule sections: homm3bf:adventure-mode (and .round-structure, .astrologers-rounds),
homm3turn:spending-the-token (active or spent tokens), homm3turn:gaining-morale.
Marks: ``round`` (``round:N``), ``panel`` and ``player`` (colour), ``building`` (``seat:id``), ``unit``
(``seat:id``), ``token`` (``seat:build``...). Only public information is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.homm3.content import Faction, load_content
from engine.homm3.views import PlayerView, PublicView
from rendering.canvas import Canvas, Drawing, drawn_part, ellipsize, text_width, wrap
from rendering.fonts import font
from rendering.homm3.palette import (
    DIM,
    FACTION_RGB,
    GOLD,
    GREEN,
    LIGHT,
    MUTED,
    PAGE,
    PANEL,
    PANEL_LINE,
    RED,
    TIER_RGB,
    darker,
    seat_rgb,
    seat_shape,
)
from rendering.shapes import RGB, badge, paste_centred

WIDTH = 800
"""Width of the picture in pixels: Discord shows it about 500 px wide on a phone, where the
18-24 px text below reads at 11-15 px (9-12 px at a narrow phone's 400 px)."""
MARGIN = 20
TRACKER = 124
TEXT = 18
"""Size of the panels' body text."""
LINE = 25
"""Height of one line of body text."""
PAD = 14
"""Inner margin of a player's panel."""


def draw_adventure(view: PublicView) -> Drawing:
    """Draw the Adventure state of ``view`` (any phase: it shows Towns and armies):
    `WIDTH` px wide, as tall as the panels need."""
    panels = [_panel(player) for player in view.players]
    prompt = view.reason if view.phase == "over" else (view.prompts[0] if view.prompts else "")
    prompt_lines = wrap(prompt, WIDTH - 2 * MARGIN, font(18)) if prompt else []
    height = TRACKER + sum(h + 10 for _, _, h in panels) + 10 + 24 * len(prompt_lines) + 10
    canvas = Canvas(WIDTH, height, PAGE)
    _tracker(canvas, view)
    top = TRACKER
    for player, body, panel_height in panels:
        bottom = top + panel_height
        canvas.draw.rectangle(
            (MARGIN, top, WIDTH - MARGIN, bottom),
            fill=PANEL,
            outline=FACTION_RGB.get(player.faction, PANEL_LINE),
            width=2,
        )
        canvas.mark("panel", player.colour, (MARGIN, top, WIDTH - MARGIN + 1, bottom + 1))
        # inside the 2 px frame
        canvas.place(
            body, (MARGIN + 2, 2, WIDTH - MARGIN - 1, panel_height - 1), (MARGIN + 2, top + 2)
        )
        top = bottom + 10
    for i, line in enumerate(prompt_lines):
        canvas.text((MARGIN, top + 6 + 24 * i), line, 18, GOLD, kind="prompt")
    return canvas.finish()


def _tracker(canvas: Canvas, view: PublicView) -> None:
    title = (
        f"Adventure — round {view.round} of {view.rounds}"
        if view.mode == "adventure"
        else "Skirmish"
    )
    if view.adventure is not None:
        starter = view.players[view.adventure.starter].colour
        title += f" — {starter} starts; Adventure deck {view.adventure.deck}"
    canvas.text(
        (MARGIN, 10),
        ellipsize(title, WIDTH - 2 * MARGIN, 24, "bold"),
        24,
        LIGHT,
        weight="bold",
        kind="title",
    )
    rounds = max(view.rounds, 1)
    step = min(84, (WIDTH - 2 * MARGIN) // rounds)
    for n in range(1, rounds + 1):
        x = MARGIN + (n - 1) * step
        current = n == view.round
        kind = "Res" if n % 2 else "Ast"
        fill = GOLD if current else (PANEL if n > view.round else darker(PANEL, 0.7))
        canvas.draw.rectangle((x, 50, x + step - 6, 112), fill=fill, outline=PANEL_LINE)
        ink = (20, 18, 16) if current else (LIGHT if n >= view.round else MUTED)
        canvas.text(
            (x + (step - 6) / 2, 70),
            str(n),
            24,
            ink,
            weight="bold",
            anchor="mm",
            kind="round",
            key=f"round:{n}",
        )
        canvas.text((x + (step - 6) / 2, 98), kind, 18, ink, anchor="mm", kind="round_kind")


def _flow(
    canvas: Canvas,
    label: str,
    entries: Sequence[tuple[str, RGB, RGB, bool, str]],
    y: int,
    kind: str,
) -> int:
    """Draw ``label`` then ``entries`` (text, colour, marker colour, marker filled, mark key)
    left to right at `TEXT` px, each after a small square (filled or hollow; a dot for
    ``kind`` ``unit``), wrapping under
    the first entry; each is marked as ``kind``; return the y under the last line."""
    canvas.text((MARGIN + PAD, y), label, TEXT, MUTED)
    start = MARGIN + PAD + text_width(label, TEXT) + 10
    right = WIDTH - MARGIN - PAD
    x = start
    for text, colour, marker, filled, key in entries:
        w = text_width(text, TEXT) + 16
        if x > start and x + w > right:
            x, y = start, y + LINE
        box = (x, y + 4, x + 10, y + 14)
        if kind == "unit":  # the tier as a dot
            canvas.draw.ellipse(box, fill=marker)
        elif filled:
            canvas.draw.rectangle(box, fill=marker)
        else:
            canvas.draw.rectangle(box, outline=marker)
        canvas.text((x + 15, y), text, TEXT, colour, kind=kind, key=key)
        x += w + 18
    return y + LINE


def _lines(
    canvas: Canvas, text: str, y: int, size: int, colour: RGB, kind: str, key: str, **extra: Any
) -> int:
    """``text`` wrapped to the panel's width at ``size`` px; return the y under it."""
    width = WIDTH - 2 * MARGIN - 2 * PAD
    return canvas.paragraph(
        (MARGIN + PAD, y), text, width, size, colour, size + 7, kind=kind, key=key, **extra
    )


def _panel(player: PlayerView) -> tuple[PlayerView, Canvas, int]:
    """``player``'s panel body drawn once from y 0 on its own canvas (the panel's colour),
    to be placed inside its frame once the picture's height is known; with its height."""
    faction = load_content().factions[player.faction]
    body, height = drawn_part(WIDTH, PANEL, lambda part: _panel_body(part, player, faction, 0))
    return player, body, height


def _panel_body(canvas: Canvas, player: PlayerView, faction: Faction, top: int) -> int:
    """The panel's content from ``top``; return its height."""
    paste_centred(
        canvas.image,
        badge(seat_shape(player.seat), 22, seat_rgb(player.seat), LIGHT),
        MARGIN + PAD + 11,
        top + 23,
    )
    header = (
        f"{player.colour}: {player.hero_name} ({player.hero_type.capitalize()}, "
        f"{faction.name}) — Level {player.level}, {player.experience} Experience"
    )
    lines = wrap(header, WIDTH - 2 * MARGIN - 2 * PAD - 32, font(20, "bold"))
    y = top + 10
    for line in lines:
        canvas.text(
            (MARGIN + PAD + 32, y), line, 20, LIGHT, weight="bold", kind="player", key=player.colour
        )
        y += 27
    y += 4
    res = (
        f"Gold {player.gold} (+{player.income_gold}) · Building Materials {player.materials} "
        f"(+{player.income_materials}) · Valuables {player.valuables} (+{player.income_valuables})"
    )
    y = _lines(canvas, res, y, 18, GOLD, "resources", player.colour)
    x = MARGIN + PAD
    for name, active in (
        ("Build", player.build_token),
        ("Population", player.population_token),
        ("Spell Book", player.spellbook_token),
    ):
        label = f"{name}: {'ready' if active else 'spent'}"
        mark = canvas.text(
            (x, y + 2),
            label,
            18,
            GREEN if active else RED,
            weight="medium",
            kind="token",
            key=f"{player.seat}:{name.lower()}",
        )
        x = mark.box[2] + 28
    y += 32
    buildings = [
        (
            b.name + ("" if b.id in player.buildings else " (not built)"),
            LIGHT if b.id in player.buildings else MUTED,
            GREEN if b.id in player.buildings else DIM,
            b.id in player.buildings,
            f"{player.seat}:{b.id}",
        )
        for b in faction.building
    ]
    y = _flow(canvas, "Town:", buildings, y, "building") + 6
    army = [
        (
            f"{'Pack' if u.pack else 'Few'} of {u.name}" + (" (stunned)" if u.paralysed else ""),
            RED if u.paralysed else LIGHT,
            TIER_RGB.get(u.tier, LIGHT),
            True,
            f"{player.seat}:{u.unit}",
        )
        for u in player.army
    ]
    if army:
        y = _flow(canvas, "Army:", army, y, "unit") + 6
    else:
        canvas.text((MARGIN + PAD, y), "Army: none yet", TEXT, MUTED)
        y += LINE + 6
    morale = ", ".join(c.name for c in player.positive) or "none"
    negative = ", ".join(c.name for c in player.negative) or "none"
    line = f"Positive Morale: {morale} · Negative Morale: {negative}"
    if player.faction == "necropolis":  # homm3turn:necropolis
        line = "Morale: none (Necropolis ignores every Morale effect)"
    y = _lines(canvas, line, y, TEXT, LIGHT, "morale", player.colour)
    obelisks = sum(1 for c in player.resolved if c.id == "obelisk")
    cards = (
        f"Adventure cards in hand: {player.adventure_hand} · resolved: {len(player.resolved)} "
        f"(Obelisks {obelisks}) · set aside: {player.aside} · Spell Scroll: "
        f"{'yes' if player.scroll else 'no'} · deck: {player.deck} · Expert uses: {player.experts}"
    )
    y = _lines(canvas, cards, y, TEXT, MUTED, "cards", player.colour)
    recent = ", ".join(c.name for c in player.resolved[-6:]) or "none"
    y = _lines(canvas, f"Resolved lately: {recent}", y, TEXT, MUTED, "resolved", player.colour)
    return y + 8 - top
