"""A player's inventory sheet: hero stats, economy, army, forts, enchantment, lands.

Rule sections: heroforge:inventory ("your Hero's Army, a calculator with your economy, and
a sheet of paper with your Hero's stats, current enchantments, and unit cap"),
heroforge:units (each level its own colour of piece), heroforge:enchantments.

Marks: ``unit`` (key ``#4``) for each unit piece, ``enchantment`` (its name), ``stat``
(``economy``, ``cap``, ``speed``), ``fort`` (``F2``).
"""

from __future__ import annotations

from engine.heroforge.views import PlayerView, PublicView, UnitView
from rendering.canvas import Canvas, Drawing
from rendering.heroforge.palette import (
    GOLD,
    INK,
    LIGHT,
    MUTED,
    PAGE,
    PANEL,
    PANEL_LINE,
    PAPER,
    level_rgb,
    seat_rgb,
    seat_shape,
    text_on,
)
from rendering.shapes import paste_centred, token

WIDTH = 640
MARGIN = 18
PIECE = 34
ID_ROOM = 26
"""Room under a unit piece for its number (14 px: 11 px when Discord shows the sheet
500 px wide on a phone)."""


def _units(canvas: Canvas, units: tuple[UnitView, ...], top: int) -> int:
    """Draw unit pieces in rows from ``top``; return the y below them."""
    per_row = (WIDTH - 2 * MARGIN) // (PIECE + 18)
    for i, unit in enumerate(units):
        row, col = divmod(i, per_row)
        cx = MARGIN + PIECE // 2 + col * (PIECE + 18)
        cy = top + PIECE // 2 + row * (PIECE + ID_ROOM)
        fill = level_rgb(unit.level)
        canvas.draw.ellipse(
            (cx - PIECE // 2, cy - PIECE // 2, cx + PIECE // 2, cy + PIECE // 2),
            fill=fill,
            outline=LIGHT,
            width=2,
        )
        canvas.text(
            (cx, cy),
            str(unit.level),
            17,
            text_on(fill),
            weight="bold",
            anchor="mm",
            kind="unit_level",
            key=f"#{unit.id}",
        )
        box = (cx - PIECE // 2, cy - PIECE // 2, cx + PIECE // 2, cy + PIECE // 2)
        canvas.mark("unit", f"#{unit.id}", box, text=f"{unit.name} level {unit.level}")
        canvas.text(
            (cx, cy + PIECE // 2 + 3),
            f"#{unit.id}",
            14,
            MUTED,
            anchor="ma",
            kind="unit_id",
            key=f"#{unit.id}",
        )
    rows = -(-len(units) // per_row) if units else 0
    return top + rows * (PIECE + ID_ROOM)


def _section(canvas: Canvas, y: int, title: str) -> int:
    canvas.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=PANEL_LINE)
    canvas.text((MARGIN, y + 6), title, 15, GOLD, weight="bold")
    return y + 28


def _paragraph(
    canvas: Canvas, y: int, text: str, size: int = 14, fill: tuple[int, int, int] = LIGHT
) -> int:
    return canvas.paragraph((MARGIN, y), text, WIDTH - 2 * MARGIN, size, fill, size + 5)


def _sheet(canvas: Canvas, view: PublicView, player: PlayerView) -> int:
    colour = seat_rgb(player.seat)
    canvas.draw.rectangle((0, 0, WIDTH, 64), fill=PANEL)
    sprite = token(seat_shape(player.seat), 34, colour, LIGHT, PAGE)
    paste_centred(canvas.image, sprite, MARGIN + 18, 32)
    name = player.hero_name or "no hero yet"
    canvas.text((MARGIN + 46, 10), f"{player.colour} — {name}", 20, LIGHT, weight="bold")
    faction = player.faction or "no faction"
    state = "" if player.alive else " · killed"
    canvas.text((MARGIN + 46, 38), f"({faction}){state}", 14, MUTED)
    y = 78
    stats = [
        ("economy", f"Economy {player.economy}e"),
        ("cap", f"Units {player.military} / cap {player.cap}"),
        ("speed", f"Speed {player.speed:+d}"),
    ]
    x = MARGIN
    for key, text in stats:
        mark = canvas.text((x, y), text, 16, LIGHT, weight="medium", kind="stat", key=key)
        x = mark.box[2] + 24
    y += 28
    bonus = (
        f"Unit levels {player.level_bonus:+d}" if player.level_bonus else "Unit levels as bought"
    )
    if player.combat_bonus:
        bonus += f" (this combat {player.combat_bonus:+d})"
    where = f" · on plate {player.plate}" if player.plate else ""
    combat = (
        " · in combat with " + ", ".join(view.players[s].colour for s in player.in_combat_with)
        if player.in_combat_with
        else ""
    )
    y = _paragraph(canvas, y, bonus + where + combat, 14, MUTED)
    if player.abilities:
        y = _section(canvas, y + 4, "Abilities")
        for ability in player.abilities:
            y = _paragraph(canvas, y, "• " + ability)
    y = _section(canvas, y + 4, f"Army ({len(player.army)})")
    y = (
        _units(canvas, player.army, y)
        if player.army
        else _paragraph(canvas, y, "No units.", 14, MUTED)
    )
    forts = [f for f in view.forts if f.owner == player.seat]
    y = _section(canvas, y + 8, f"Forts ({len(forts)}) and lands")
    if player.lands:
        names = {p.label: p.name for p in view.plates}
        y = _paragraph(
            canvas, y, "Lands: " + ", ".join(f"{lab} {names[lab]}" for lab in player.lands)
        )
    for fort in forts:
        units = ", ".join(f"#{u.id} (level {u.level})" for u in fort.units) or "unmanned"
        mark = canvas.text(
            (MARGIN, y),
            f"F{fort.id} on {fort.plate}: {units}",
            14,
            LIGHT,
            kind="fort",
            key=f"F{fort.id}",
        )
        y = mark.box[3] + 6
    if not forts:
        y = _paragraph(canvas, y, "No forts.", 14, MUTED)
    y = _section(canvas, y + 4, "Enchantment")
    carried = player.enchantment
    if carried is None:
        y = _paragraph(canvas, y, "None carried.", 14, MUTED)
    else:
        card = (MARGIN, y, WIDTH - MARGIN, y + 64)
        canvas.draw.rounded_rectangle(card, 8, fill=PAPER, outline=GOLD, width=2)
        tag = {"instant": " (Instant)", "stack": " (Stack)", "permanent": ""}[carried.kind]
        count = f" x{carried.count}" if carried.count > 1 else ""
        canvas.text(
            (MARGIN + 12, y + 8),
            f"{carried.name}{tag}{count}",
            17,
            INK,
            weight="bold",
            kind="enchantment",
            key=carried.name,
        )
        canvas.text(
            (MARGIN + 12, y + 36),
            carried.summary.split(": ", 1)[-1]
            + (f" [{carried.faction}]" if carried.faction else ""),
            14,
            INK,
        )
        y += 74
    return y


def inventory_height(view: PublicView, seat: int) -> int:
    """The sheet's height for ``seat`` (drawn once on a tall scratch canvas)."""
    scratch = Canvas(WIDTH, 4000, PAGE)
    return _sheet(scratch, view, view.players[seat]) + MARGIN


def draw_inventory(view: PublicView, seat: int) -> Drawing:
    """The inventory sheet of ``seat`` (everything on it is public in Hero Forge).

    :raises IndexError: for a seat not in the game.
    """
    player = view.players[seat]
    canvas = Canvas(WIDTH, inventory_height(view, seat), PAGE)
    _sheet(canvas, view, player)
    return canvas.finish()
