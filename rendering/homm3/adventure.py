"""The homm3 Adventure picture: the round tracker, then one panel per player with Hero,
Resources and income, Town buildings and Town Action tokens, army, Morale and Adventure
cards.

Rule sections: homm3bf:adventure-mode (and .round-structure, .astrologers-rounds),
homm3turn:spending-the-token (active or spent tokens), homm3turn:gaining-morale.
Marks: ``round`` (``round:N``), ``player`` (colour), ``building`` (``seat:id``), ``unit``
(``seat:id``), ``token`` (``seat:build``...). Only public information is drawn.
"""

from __future__ import annotations

from engine.homm3.content import load_content
from engine.homm3.views import PlayerView, PublicView
from rendering.canvas import Canvas, Drawing, ellipsize
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
from rendering.shapes import badge, paste_centred

WIDTH = 1000
MARGIN = 20
TRACKER = 110
PANEL_H = 250


def draw_adventure(view: PublicView) -> Drawing:
    """Draw the Adventure state of ``view`` (any phase: it shows Towns and armies)."""
    height = TRACKER + len(view.players) * (PANEL_H + 10) + 40
    canvas = Canvas(WIDTH, height, PAGE)
    _tracker(canvas, view)
    for i, player in enumerate(view.players):
        _panel(canvas, view, player, TRACKER + i * (PANEL_H + 10))
    prompt = view.reason if view.phase == "over" else (view.prompts[0] if view.prompts else "")
    canvas.text(
        (MARGIN, height - 30), ellipsize(prompt, WIDTH - 2 * MARGIN, 16), 16, GOLD, kind="prompt"
    )
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
    canvas.text((MARGIN, 10), title, 22, LIGHT, weight="bold", kind="title")
    rounds = max(view.rounds, 1)
    step = min(56, (WIDTH - 2 * MARGIN) // rounds)
    for n in range(1, rounds + 1):
        x = MARGIN + (n - 1) * step
        current = n == view.round
        kind = "Res" if n % 2 else "Ast"
        fill = GOLD if current else (PANEL if n > view.round else darker(PANEL, 0.7))
        canvas.draw.rectangle((x, 48, x + step - 6, 96), fill=fill, outline=PANEL_LINE)
        ink = (20, 18, 16) if current else (LIGHT if n >= view.round else DIM)
        canvas.text(
            (x + (step - 6) / 2, 62),
            str(n),
            18,
            ink,
            weight="bold",
            anchor="mm",
            kind="round",
            key=f"round:{n}",
        )
        canvas.text((x + (step - 6) / 2, 84), kind, 11, ink, anchor="mm")


def _panel(canvas: Canvas, view: PublicView, player: PlayerView, top: int) -> None:
    content = load_content()
    draw = canvas.draw
    draw.rectangle(
        (MARGIN, top, WIDTH - MARGIN, top + PANEL_H),
        fill=PANEL,
        outline=FACTION_RGB.get(player.faction, PANEL_LINE),
        width=2,
    )
    paste_centred(
        canvas.image,
        badge(seat_shape(player.seat), 22, seat_rgb(player.seat), LIGHT),
        MARGIN + 22,
        top + 22,
    )
    faction = content.factions[player.faction]
    header = f"{player.colour}: {player.hero_name} ({player.hero_type.capitalize()}, {faction.name}) — Level {player.level}, {player.experience} Experience"
    canvas.text(
        (MARGIN + 40, top + 10), header, 18, LIGHT, weight="bold", kind="player", key=player.colour
    )
    res = (
        f"Gold {player.gold} (+{player.income_gold})   Building Materials {player.materials} (+{player.income_materials})   "
        f"Valuables {player.valuables} (+{player.income_valuables})"
    )
    canvas.text((MARGIN + 14, top + 42), res, 16, GOLD, kind="resources", key=player.colour)
    x = MARGIN + 14
    for name, active in (
        ("Build", player.build_token),
        ("Population", player.population_token),
        ("Spell Book", player.spellbook_token),
    ):
        label = f"{name}: {'ready' if active else 'spent'}"
        canvas.text(
            (x, top + 68),
            label,
            14,
            GREEN if active else RED,
            weight="medium",
            kind="token",
            key=f"{player.seat}:{name.lower()}",
        )
        x += 170
    canvas.text((MARGIN + 14, top + 96), "Town:", 14, MUTED)
    x, y = MARGIN + 70, top + 96
    for building in faction.building:
        built = building.id in player.buildings
        text = building.name + ("" if built else " (not built)")
        w = len(text) * 7 + 26
        if x + w > WIDTH - MARGIN - 10:
            x, y = MARGIN + 70, y + 20
        box = (x, y + 3, x + 10, y + 13)
        if built:
            canvas.draw.rectangle(box, fill=GREEN)
        else:
            canvas.draw.rectangle(box, outline=DIM)
        canvas.text(
            (x + 14, y),
            text,
            13,
            LIGHT if built else DIM,
            kind="building",
            key=f"{player.seat}:{building.id}",
        )
        x += w
    y += 28
    canvas.text((MARGIN + 14, y), "Army:", 14, MUTED)
    x = MARGIN + 70
    for unit in player.army:
        text = f"{'Pack' if unit.pack else 'Few'} of {unit.name}" + (
            " (stunned)" if unit.paralysed else ""
        )
        w = len(text) * 7 + 28
        if x + w > WIDTH - MARGIN - 10:
            x, y = MARGIN + 70, y + 20
        canvas.draw.ellipse((x, y + 3, x + 10, y + 13), fill=TIER_RGB.get(unit.tier, LIGHT))
        canvas.text(
            (x + 14, y),
            text,
            13,
            RED if unit.paralysed else LIGHT,
            kind="unit",
            key=f"{player.seat}:{unit.unit}",
        )
        x += w
    if not player.army:
        canvas.text((x, y), "none yet", 13, DIM)
    y += 28
    morale = ", ".join(c.name for c in player.positive) or "none"
    negative = ", ".join(c.name for c in player.negative) or "none"
    line = f"Positive Morale: {morale}   Negative Morale: {negative}"
    if player.faction == "necropolis":  # homm3turn:necropolis
        line = "Morale: none (Necropolis ignores every Morale effect)"
    canvas.text(
        (MARGIN + 14, y),
        ellipsize(line, WIDTH - 2 * MARGIN - 28, 14),
        14,
        LIGHT,
        kind="morale",
        key=player.colour,
    )
    y += 24
    obelisks = sum(1 for c in player.resolved if c.id == "obelisk")
    cards = (
        f"Adventure cards in hand: {player.adventure_hand}   resolved: {len(player.resolved)} (Obelisks {obelisks})   "
        f"set aside: {player.aside}   Spell Scroll: {'yes' if player.scroll else 'no'}   deck: {player.deck}   "
        f"Expert uses: {player.experts}"
    )
    canvas.text(
        (MARGIN + 14, y),
        ellipsize(cards, WIDTH - 2 * MARGIN - 28, 14),
        14,
        MUTED,
        kind="cards",
        key=player.colour,
    )
    y += 24
    recent = ", ".join(c.name for c in player.resolved[-6:]) or "none"
    canvas.text(
        (MARGIN + 14, y),
        ellipsize(f"Resolved lately: {recent}", WIDTH - 2 * MARGIN - 28, 13),
        13,
        DIM,
        kind="resolved",
        key=player.colour,
    )
