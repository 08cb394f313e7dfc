"""The homm3 Battlefield picture: the hex board with deployment zones, Obstacles, Walls and
the Gate, spell markers, units (Few/Pack, damage, tokens), the initiative order, both
players' Combat state and the last attack.

Rule sections: homm3bf:battlefield-combat (and .place-obstacles, .place-units,
.changes-to-combat-rules.unit-movement / .initiative-token), homm3bf:battlefield-in-
regular-games.changes-to-combat-rules.siege.

Layout: a header (Combat round, Initiative token, the decision owed), the board with column
letters and row numbers on all sides, a strip with the initiative order of every unit still
to activate this round (on as many lines as it takes) and a legend of the token letters
shown, one line per player, and the last attack. Marks: ``hex`` (label), ``unit``
(``unit:N``), ``placed`` (first hex), ``order`` (``order:N``), ``legend``, ``player``
(colour). Only public information is drawn: the view has no hand or deck.
"""

from __future__ import annotations

import math

from engine.homm3.views import CombatView, PlacedView, PublicView, UnitView
from rendering.canvas import Canvas, Drawing, ellipsize, text_width
from rendering.homm3.palette import (
    DIM,
    GOLD,
    GRASS,
    GRASS_LINE,
    GREEN,
    LIGHT,
    MUTED,
    PAGE,
    PANEL,
    PANEL_LINE,
    PLACED_RGB,
    RED,
    TIER_RGB,
    WHITE,
    ZONE,
    ZONE_LINE,
    darker,
    seat_rgb,
    seat_shape,
    text_on,
)
from rendering.shapes import badge, paste_centred, token

R = 34
"""Hex radius (centre to corner) in pixels."""
HEX_W = math.sqrt(3) * R
MARGIN = 30
HEADER = 70
ORDER_STRIP = 56
ORDER_ROW = 22
"""Height of each further line of the initiative order (every unit still to act is shown)."""
PLAYER_ROW = 30
FOOTER = 34
COLUMNS, ROWS = 13, 9
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def hex_centre(label: str) -> tuple[float, float]:
    """Pixel centre of a hex label on the picture (rows 2, 4... half a hex to the right)."""
    col, row = LETTERS.index(label[0]), int(label[1:]) - 1
    x = MARGIN + HEX_W / 2 + col * HEX_W + (HEX_W / 2 if row % 2 else 0)
    y = HEADER + MARGIN + R + row * 1.5 * R
    return x, y


def _corners(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (
            cx + radius * math.cos(math.radians(60 * i - 30)),
            cy + radius * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def _board_height() -> int:
    return int(2 * R + (ROWS - 1) * 1.5 * R) + 2 * MARGIN


def size(order_rows: int = 1) -> tuple[int, int]:
    """Picture size for a two-player Battlefield whose initiative order takes
    ``order_rows`` lines."""
    width = int(MARGIN * 2 + HEX_W * (COLUMNS + 0.5))
    return width, HEADER + _board_height() + _strip(order_rows) + 2 * PLAYER_ROW + FOOTER


def _strip(order_rows: int) -> int:
    """Height of the initiative-order strip with ``order_rows`` lines of units."""
    return ORDER_STRIP + ORDER_ROW * max(0, order_rows - 1)


def draw_battle(view: PublicView) -> Drawing:
    """Draw the Battlefield of ``view``.

    :raises ValueError: when the view has no Combat.
    """
    combat = view.combat
    if combat is None:
        raise ValueError("there is no Combat to draw")
    rows = _order_rows(combat, size()[0])
    width, height = size(len(rows))
    canvas = Canvas(width, height, PAGE)
    _header(canvas, view, combat, width)
    zones = {side: hexes_in_zone(side) for side in ("west", "east")}
    zone_hexes = zones["west"] | zones["east"]
    placed = {h: p for p in combat.placed for h in p.hexes}
    for row in range(ROWS):
        for col in range(COLUMNS):
            label = f"{LETTERS[col]}{row + 1}"
            _hex(canvas, label, zone_hexes, placed)
    _edges(canvas)
    for item in combat.placed:
        cx, cy = hex_centre(item.hexes[0])
        canvas.mark(
            "placed",
            item.hexes[0],
            (int(cx - R), int(cy - R), int(cx + R), int(cy + R)),
            text=item.name,
        )
    for unit in combat.units:
        if unit.alive and unit.hex is not None:
            _unit(canvas, unit, combat)
    top = HEADER + _board_height()
    _order(canvas, combat, rows, top, width)
    _players(canvas, view, top + _strip(len(rows)), width)
    _footer(canvas, combat, height, width)
    return canvas.finish()


def hexes_in_zone(side: str) -> set[str]:
    """The hexes of the ``west`` (A-B) or ``east`` (L-M) deployment zone."""
    cols = (0, 1) if side == "west" else (COLUMNS - 2, COLUMNS - 1)
    return {f"{LETTERS[c]}{r + 1}" for c in cols for r in range(ROWS)}


def _header(canvas: Canvas, view: PublicView, combat: CombatView, width: int) -> None:
    stage = {
        "obstacles": "placing Obstacles",
        "deploy": "placing units",
        "round": f"Combat round {combat.round}",
        "over": "over",
    }[combat.stage]
    title = f"Battlefield Combat — {stage}"
    if combat.siege is not None:
        title += f" — Siege of {view.players[combat.siege].colour}'s Town"
    canvas.text((MARGIN, 10), title, 22, LIGHT, weight="bold", kind="title")
    holder = view.players[combat.token]
    paste_centred(
        canvas.image,
        badge(seat_shape(holder.seat), 16, seat_rgb(holder.seat), LIGHT),
        width - MARGIN - 8,
        22,
    )
    canvas.text(
        (width - MARGIN - 22, 12),
        f"Initiative token: {holder.colour}",
        16,
        LIGHT,
        anchor="ra",
        kind="token",
    )
    prompt = view.reason if view.phase == "over" else (view.prompts[0] if view.prompts else "")
    canvas.text(
        (MARGIN, 42),
        ellipsize(prompt, width - 2 * MARGIN, 16),
        16,
        GOLD if view.phase == "over" else MUTED,
        kind="prompt",
    )


LABEL_WIDTH = int(R * 1.5)
"""Widest text drawn inside a hex (px): the hexagon's width less a margin on each side."""


def _fit_label(text: str) -> tuple[list[str], int]:
    """``(lines, size)`` of an Obstacle's name inside its hex: the whole name on one line at
    12 px, else its words on two lines, at the largest size from 12 to 9 px that fits (and
    cut short with an ellipsis only if even 9 px is too wide)."""
    words = text.split()
    candidates = [[text]]
    if len(words) > 1:
        cut = max(
            range(1, len(words)),
            key=lambda i: -abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))),
        )
        candidates.append([" ".join(words[:cut]), " ".join(words[cut:])])
    for size in (12, 11, 10, 9):
        for lines in candidates:
            if all(text_width(line, size, "medium") <= LABEL_WIDTH for line in lines):
                return lines, size
    return [ellipsize(line, LABEL_WIDTH, 9, "medium") for line in candidates[-1]], 9


def _hex(canvas: Canvas, label: str, zone_hexes: set[str], placed: dict[str, PlacedView]) -> None:
    cx, cy = hex_centre(label)
    fill, line = (ZONE, ZONE_LINE) if label in zone_hexes else (GRASS, GRASS_LINE)
    item = placed.get(label)
    if item is not None:
        fill = PLACED_RGB.get(item.kind, fill)
        line = darker(fill)
    canvas.draw.polygon(_corners(cx, cy, R - 1), fill=fill, outline=line)
    canvas.mark("hex", label, (int(cx - R), int(cy - R), int(cx + R), int(cy + R)))
    if item is not None:
        text = {
            "wall": "Wall",
            "gate": "Gate",
            "fire_wall": f"Fire {item.damage}",
            "force_field": "Field",
        }.get(item.kind, item.name)
        lines, size = _fit_label(text)
        step = size + 1
        for row, line_text in enumerate(lines):
            canvas.text(
                (cx, cy + (row - (len(lines) - 1) / 2) * step),
                line_text,
                size,
                text_on(fill),
                weight="medium",
                anchor="mm",
                kind="placed_label",
                key=label,
            )
    else:
        canvas.text(
            (cx, cy + R - 12),
            label,
            10,
            darker(fill, 0.55),
            anchor="mm",
            kind="hex_label",
            key=label,
        )


def _edges(canvas: Canvas) -> None:
    for col in range(COLUMNS):
        x, _ = hex_centre(f"{LETTERS[col]}1")
        canvas.text(
            (x, HEADER + 14),
            LETTERS[col],
            15,
            MUTED,
            weight="bold",
            anchor="mm",
            kind="edge",
            key=LETTERS[col],
        )
        _, yb = hex_centre(f"{LETTERS[col]}{ROWS}")
        xb, _ = hex_centre(f"{LETTERS[col]}{ROWS}")
        canvas.text(
            (xb, yb + R + 12),
            LETTERS[col],
            15,
            MUTED,
            weight="bold",
            anchor="mm",
            kind="edge",
            key=LETTERS[col],
        )
    for row in range(ROWS):
        x0, y = hex_centre(f"A{row + 1}")
        canvas.text(
            (x0 - HEX_W / 2 - 12, y),
            str(row + 1),
            15,
            MUTED,
            weight="bold",
            anchor="mm",
            kind="edge",
            key=str(row + 1),
        )
        x1, _ = hex_centre(f"{LETTERS[COLUMNS - 1]}{row + 1}")
        canvas.text(
            (x1 + HEX_W / 2 + 12, y),
            str(row + 1),
            15,
            MUTED,
            weight="bold",
            anchor="mm",
            kind="edge",
            key=str(row + 1),
        )


def _unit(canvas: Canvas, unit: UnitView, combat: CombatView) -> None:
    assert unit.hex is not None
    cx, cy = hex_centre(unit.hex)
    colour = seat_rgb(unit.seat)
    fill = darker(colour, 0.55) if unit.activated else colour
    ring = GOLD if combat.active == unit.number else TIER_RGB.get(unit.tier, LIGHT)
    diameter = 44 if unit.pack else 36
    box = paste_centred(
        canvas.image,
        token(seat_shape(unit.seat), diameter, fill, ring, (20, 18, 16)),
        int(cx),
        int(cy - 4),
    )
    canvas.mark("unit", f"unit:{unit.number}", box, text=unit.name)
    canvas.text(
        (cx, cy - 5),
        str(unit.number),
        18,
        text_on(fill),
        weight="bold",
        anchor="mm",
        kind="unit_number",
        key=f"unit:{unit.number}",
    )
    name = ("P " if unit.pack else "F ") + unit.name
    room = int(HEX_W) - 4
    size = next((z for z in (11, 10, 9) if text_width(name, z, "medium") <= room), 9)
    canvas.text(
        (cx, cy + 19),
        ellipsize(name, room, size, "medium"),
        size,
        WHITE,
        weight="medium",
        anchor="mm",
        stroke=2,
        stroke_fill=(20, 18, 16),
        kind="unit_name",
        key=f"unit:{unit.number}",
    )
    left = unit.health - unit.damage
    bar_w = int(HEX_W * 0.6)
    x0, y0 = int(cx - bar_w / 2), int(cy + 26)
    canvas.draw.rectangle((x0, y0, x0 + bar_w, y0 + 4), fill=(40, 36, 32))
    canvas.draw.rectangle(
        (x0, y0, x0 + int(bar_w * left / max(1, unit.health)), y0 + 4),
        fill=GREEN if left * 2 > unit.health else RED,
    )
    if unit.damage:
        canvas.text(
            (cx + R * 0.55, cy - R * 0.55),
            f"-{unit.damage}",
            12,
            RED,
            weight="bold",
            anchor="mm",
            stroke=2,
            kind="damage",
            key=f"unit:{unit.number}",
        )
    tags = _tags(unit)
    if tags:  # left of the token, clear of the labels and bars of the hexes above
        canvas.text(
            (cx - R * 0.85, cy - 4),
            tags,
            12,
            GOLD,
            weight="bold",
            anchor="mm",
            stroke=2,
            kind="tokens",
            key=f"unit:{unit.number}",
        )


ORDER_SIZE = 13
"""Text size of the initiative order."""
TAG_LEGEND = {"D": "Defending", "Z": "Paralysed", "r": "has retaliated this round"}
"""The letters drawn beside a unit for its tokens, explained under the board."""


def _order_numbers(combat: CombatView) -> list[int]:
    if combat.stage == "round":
        return list(combat.order)
    return [u.number for u in combat.units if u.alive]


def _order_entry(unit: UnitView) -> str:
    return f"[{unit.number}] {unit.name} {unit.initiative}"


def _order_rows(combat: CombatView, width: int) -> list[list[int]]:
    """The unit numbers of the initiative order wrapped into lines that fit ``width``
    (at least one line, maybe empty)."""
    units = {u.number: u for u in combat.units}
    rows: list[list[int]] = [[]]
    x = MARGIN
    for number in _order_numbers(combat):
        w = text_width(_order_entry(units[number]), ORDER_SIZE) + 30
        if rows[-1] and x + w > width - MARGIN:
            rows.append([])
            x = MARGIN
        rows[-1].append(number)
        x += w
    return rows


def _tags(unit: UnitView) -> str:
    return (
        ("D" if unit.defending else "")
        + ("Z" if unit.paralysed else "")
        + ("r" if unit.retaliated else "")
    )


def _order(canvas: Canvas, combat: CombatView, rows: list[list[int]], top: int, width: int) -> None:
    canvas.draw.rectangle((0, top, width, top + _strip(len(rows))), fill=PANEL)
    label = "Still to act this round:" if combat.stage == "round" else "Units:"
    canvas.text((MARGIN, top + 8), label, 14, MUTED, kind="order_title")
    shown = "".join(_tags(u) for u in combat.units if u.alive and u.hex is not None)
    legend = " · ".join(f"{tag} {meaning}" for tag, meaning in TAG_LEGEND.items() if tag in shown)
    if any(u.damage for u in combat.units if u.alive and u.hex is not None):
        legend = " · ".join(filter(None, [legend, "-N damage taken"]))
    if legend:
        canvas.text(
            (width - MARGIN, top + 8),
            legend,
            12,
            MUTED,
            anchor="ra",
            kind="legend",
        )
    units = {u.number: u for u in combat.units}
    for line, numbers in enumerate(rows):
        y = top + 30 + line * ORDER_ROW
        x = MARGIN
        for number in numbers:
            unit = units[number]
            text = _order_entry(unit)
            paste_centred(
                canvas.image,
                badge(seat_shape(unit.seat), 12, seat_rgb(unit.seat), LIGHT),
                x + 7,
                y + 8,
            )
            canvas.text(
                (x + 16, y),
                text,
                ORDER_SIZE,
                LIGHT if combat.active != number else GOLD,
                kind="order",
                key=f"order:{number}",
            )
            x += text_width(text, ORDER_SIZE) + 30


def _players(canvas: Canvas, view: PublicView, top: int, width: int) -> None:
    for i, player in enumerate(view.players):
        y = top + i * PLAYER_ROW
        canvas.draw.rectangle(
            (0, y, width, y + PLAYER_ROW), fill=PAGE if i % 2 else darker(PANEL, 0.9)
        )
        paste_centred(
            canvas.image,
            badge(seat_shape(player.seat), 14, seat_rgb(player.seat), LIGHT),
            MARGIN + 7,
            y + PLAYER_ROW // 2,
        )
        morale = ", ".join(c.name for c in player.positive) or "none"
        negative = ", ".join(c.name for c in player.negative)
        tower = next(
            (
                u
                for u in (view.combat.units if view.combat else [])
                if u.unit == "arrow_tower" and u.seat == player.seat
            ),
            None,
        )
        text = (
            f"{player.colour}: {player.hero_name} (Level {player.level}) · hand {player.hand} · deck {player.deck} · "
            f"Expert {player.experts}/{player.expert_limit} · "
            + (
                "ignores Morale (Necropolis)"
                if player.faction == "necropolis"
                else f"Positive Morale: {morale}"
            )
            + (f" · Negative: {negative}" if negative else "")
            + (" · Positive token" if player.positive_token else "")
            + (" · Negative token" if player.negative_token else "")
            + (
                f" · [{tower.number}] Arrow Tower {tower.health - tower.damage}/{tower.health}"
                if tower is not None and tower.alive
                else (" · Arrow Tower fallen" if tower is not None else "")
            )
        )
        canvas.text(
            (MARGIN + 20, y + 7),
            ellipsize(text, width - 2 * MARGIN - 20, 14),
            14,
            LIGHT,
            kind="player",
            key=player.colour,
        )


def _footer(canvas: Canvas, combat: CombatView, height: int, width: int) -> None:
    text = combat.window or (f"Last attack: {combat.last_attack}" if combat.last_attack else "")
    canvas.draw.line((0, height - FOOTER, width, height - FOOTER), fill=PANEL_LINE)
    canvas.text(
        (MARGIN, height - FOOTER + 8),
        ellipsize(text, width - 2 * MARGIN, 14),
        14,
        GOLD if combat.window else DIM,
        kind="last_attack",
    )
