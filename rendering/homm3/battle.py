"""The homm3 Battlefield picture: the hex board with deployment zones, Obstacles, Walls and
the Gate, spell markers, units (Few/Pack, damage, tokens), the initiative order, both
players' Combat state and the last attack.

Rule sections: homm3bf:battlefield-combat (and .place-obstacles, .place-units,
.changes-to-combat-rules.unit-movement / .initiative-token), homm3bf:battlefield-in-
regular-games.changes-to-combat-rules.siege.

Layout: a header (Combat round, Initiative token, the decision owed), the board with column
letters and row numbers on all sides, then a panel under it: the initiative order of every
unit still to activate this round (on as many lines as it takes) with a legend of the token
letters shown, the Obstacles and other things placed with their hexes, for each player a
line of Hero, hand, deck and Expert uses, a line of Morale (and the Arrow Tower) and the
roster of their units (number, Few/Pack, name, Health left), and the last attack. Discord
shows a picture about 500 px wide on a phone: everything but the names inside the hexes is
drawn at 16 px or more (about 10 px there), so the picture grows taller, never wider.
Marks: ``hex`` (label), ``unit`` (``unit:N``), ``placed`` (first hex), ``order``
(``order:N``), ``legend``, ``placed_list``, ``player`` / ``morale`` (colour), ``roster``
(``unit:N``), ``last_attack``. Only public information is drawn: the view has no hand or
deck.
"""

from __future__ import annotations

import math
from functools import partial

from engine.homm3.views import CombatView, PlacedView, PlayerView, PublicView, UnitView
from rendering.canvas import Canvas, Drawing, drawn_once, drawn_part, ellipsize, text_width, wrap
from rendering.fonts import font
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
from rendering.shapes import RGB, badge, paste_centred, token

R = 34
"""Hex radius (centre to corner) in pixels."""
HEX_W = math.sqrt(3) * R
MARGIN = 30
HEADER = 124
"""Title, Initiative token and up to two lines of the decision owed."""
TEXT = 17
"""Size of the panel's text under the board: about 10 px at Discord's ~500 px phone width."""
LINE = 24
"""Height of one line of the panel's text."""
LABEL = 20
"""Size of the hex coordinates and the board's edge letters and numbers: 9.4 px when the
whole 855 px board is shown at a phone's 400 px (issue 16), so the Battlefield's focus
shows every column."""
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


WIDTH = int(MARGIN * 2 + HEX_W * (COLUMNS + 0.5))
"""Width of the picture in pixels (855): the board and its edge names."""
PANEL_MAX = 1400
"""Room drawn for the panel under the board before the picture is cut to its content."""


def draw_battle(view: PublicView) -> Drawing:
    """Draw the Battlefield of ``view``: ``WIDTH`` px wide, as tall as its panel needs.

    :raises ValueError: when the view has no Combat.
    """
    combat = view.combat
    if combat is None:
        raise ValueError("there is no Combat to draw")
    width = WIDTH
    canvas = Canvas(width, HEADER + _board_height() + PANEL_MAX, PAGE)
    _header(canvas, view, combat, width)
    zones = {side: hexes_in_zone(side) for side in ("west", "east")}
    zone_hexes = zones["west"] | zones["east"]
    placed = {h: p for p in combat.placed for h in p.hexes}

    def board(part: Canvas) -> None:  # the same until something is placed or removed
        for row in range(ROWS):
            for col in range(COLUMNS):
                _hex(part, f"{LETTERS[col]}{row + 1}", zone_hexes, placed)
        _edges(part)

    key = tuple((p.kind, p.name, tuple(p.hexes), p.damage) for p in combat.placed)
    drawn_once(canvas, ("homm3 battlefield", key), board)
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
    y = HEADER + _board_height()
    y = _order(canvas, combat, y, width)
    y = _placed_list(canvas, combat, y, width)
    y = _players(canvas, view, y, width)
    y = _footer(canvas, combat, y, width)
    canvas.crop_top(y)
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
    title = f"Battlefield — {stage}"
    if combat.siege is not None:
        title += f" — Siege of {view.players[combat.siege].colour}'s Town"
    canvas.text(
        (MARGIN, 10),
        ellipsize(title, width - 2 * MARGIN, 26, "bold"),
        26,
        LIGHT,
        weight="bold",
        kind="title",
    )
    holder = view.players[combat.token]
    paste_centred(
        canvas.image,
        badge(seat_shape(holder.seat), 18, seat_rgb(holder.seat), LIGHT),
        MARGIN + 9,
        58,
    )
    canvas.text(
        (MARGIN + 26, 58),
        f"Initiative token: {holder.colour}",
        20,
        LIGHT,
        anchor="lm",
        kind="token",
    )
    prompt = view.reason if view.phase == "over" else (view.prompts[0] if view.prompts else "")
    lines = wrap(prompt, width - 2 * MARGIN, font(18))
    if len(lines) > 2:
        lines = [lines[0], ellipsize(" ".join(lines[1:]), width - 2 * MARGIN, 18)]
    for i, line in enumerate(lines):
        canvas.text(
            (MARGIN, 76 + i * 23),
            line,
            18,
            GOLD if view.phase == "over" else MUTED,
            kind="prompt",
        )


LABEL_WIDTH = int(HEX_W) - 6
"""Widest text drawn inside a hex (px): the hexagon's width less a margin on each side."""
LABEL_SIZES = (17, 16, 15, 14, 13, 12, 11, 10, 9)
"""Sizes tried for a name inside a hex, largest first."""


def _fit_label(text: str) -> tuple[list[str], int]:
    """``(lines, size)`` of an Obstacle's name inside its hex: at the largest size from 17
    to 9 px at which the whole name fits on one line or its words on two lines (one line
    preferred at equal size), cut short with an ellipsis only if even 9 px is too wide. The
    list under the board names every Obstacle at full size."""
    words = text.split()
    candidates = [[text]]
    if len(words) > 1:
        cut = max(
            range(1, len(words)),
            key=lambda i: -abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))),
        )
        candidates.append([" ".join(words[:cut]), " ".join(words[cut:])])
    for size in LABEL_SIZES:
        for lines in candidates:
            if all(text_width(line, size, "medium") <= LABEL_WIDTH for line in lines):
                return lines, size
    least = LABEL_SIZES[-1]
    return [ellipsize(line, LABEL_WIDTH, least, "medium") for line in candidates[-1]], least


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
            (cx, cy),
            label,
            LABEL,
            darker(fill, 0.5),
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
            LABEL,
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
            LABEL,
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
            LABEL,
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
            LABEL,
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
        22,
        text_on(fill),
        weight="bold",
        anchor="mm",
        kind="unit_number",
        key=f"unit:{unit.number}",
    )
    name = ("P " if unit.pack else "F ") + unit.name
    room = int(HEX_W) - 4
    size = next((z for z in (12, 11, 10, 9) if text_width(name, z, "medium") <= room), 9)
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
            LABEL,
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
            LABEL,
            GOLD,
            weight="bold",
            anchor="mm",
            stroke=2,
            kind="tokens",
            key=f"unit:{unit.number}",
        )


TAG_LEGEND = {"D": "Defending", "Z": "Paralysed", "r": "has retaliated this round"}
"""The letters drawn beside a unit for its tokens, explained under the board."""
PLACED_NAMES = {
    "wall": "Wall",
    "gate": "Gate",
    "fire_wall": "Fire Wall",
    "force_field": "Force Field",
}


def _order_numbers(combat: CombatView) -> list[int]:
    if combat.stage == "round":
        return list(combat.order)
    return [u.number for u in combat.units if u.alive]


def _order_entry(unit: UnitView) -> str:
    return f"[{unit.number}] {unit.name} {unit.initiative}"


def _tags(unit: UnitView) -> str:
    return (
        ("D" if unit.defending else "")
        + ("Z" if unit.paralysed else "")
        + ("r" if unit.retaliated else "")
    )


def _flow(
    canvas: Canvas,
    entries: list[tuple[str, RGB, str, int | None]],
    y: int,
    width: int,
    kind: str,
    indent: int = 0,
) -> int:
    """Draw ``entries`` (text, colour, key, seat of the badge drawn before it or None) left to
    right at `TEXT` px, starting a new line whenever the next one would not fit (`_flow_layout`);
    return the y under the last line."""
    places, bottom = _flow_layout(entries, y, width, indent)
    for (text, colour, key, seat), (x, y) in zip(entries, places, strict=True):
        if seat is not None:
            paste_centred(
                canvas.image,
                badge(seat_shape(seat), 14, seat_rgb(seat), LIGHT),
                x + 7,
                y + LINE // 2,
            )
            x += 20
        canvas.text((x, y + LINE // 2), text, TEXT, colour, anchor="lm", kind=kind, key=key)
    return bottom


def _flow_layout(
    entries: list[tuple[str, RGB, str, int | None]], y: int, width: int, indent: int = 0
) -> tuple[list[tuple[int, int]], int]:
    """Where `_flow` draws each entry (its badge, else its text: ``(x, y)`` of the line's
    top) and the y under the last line, measured without drawing."""
    places: list[tuple[int, int]] = []
    x = MARGIN + indent
    for text, _, _, seat in entries:
        w = text_width(text, TEXT) + (22 if seat is not None else 0)
        if x > MARGIN + indent and x + w > width - MARGIN:
            x, y = MARGIN + indent, y + LINE
        places.append((x, y))
        x += (20 if seat is not None else 0) + text_width(text, TEXT) + 26
    return places, y + LINE


def _lines(
    canvas: Canvas, text: str, y: int, width: int, colour: RGB, kind: str, key: str, indent: int = 0
) -> int:
    """Draw ``text`` wrapped to the panel's width at `TEXT` px; return the y under it."""
    xy = (MARGIN + indent, y + LINE // 2)  # each line's left middle
    width -= 2 * MARGIN + indent
    bottom = canvas.paragraph(xy, text, width, TEXT, colour, LINE, anchor="lm", kind=kind, key=key)
    return bottom - LINE // 2


def _order(canvas: Canvas, combat: CombatView, top: int, width: int) -> int:
    """The initiative order and the legend of the letters beside units; return its bottom."""
    units = {u.number: u for u in combat.units}
    entries: list[tuple[str, RGB, str, int | None]] = [
        (
            _order_entry(units[number]),
            GOLD if combat.active == number else LIGHT,
            f"order:{number}",
            units[number].seat,
        )
        for number in _order_numbers(combat)
    ]
    shown = "".join(_tags(u) for u in combat.units if u.alive and u.hex is not None)
    legend = " · ".join(f"{tag} {meaning}" for tag, meaning in TAG_LEGEND.items() if tag in shown)
    if any(u.damage for u in combat.units if u.alive and u.hex is not None):
        legend = " · ".join(filter(None, [legend, "-N damage taken"]))
    end = _flow_layout(entries, top + 8 + LINE, width)[1]
    bottom = end + 10 + (LINE if legend else 0)
    canvas.draw.rectangle((0, top, width, bottom), fill=PANEL)
    label = "Still to act this round:" if combat.stage == "round" else "Units:"
    canvas.text((MARGIN, top + 8 + LINE // 2), label, TEXT, MUTED, anchor="lm", kind="order_title")
    y = _flow(canvas, entries, top + 8 + LINE, width, "order")
    if legend:
        canvas.text((MARGIN, y + LINE // 2), legend, 16, MUTED, anchor="lm", kind="legend")
    return bottom


def _placed_list(canvas: Canvas, combat: CombatView, top: int, width: int) -> int:
    """One line (wrapped) naming everything placed on the board with its hexes, Obstacles
    first; return its bottom (``top`` when nothing is placed)."""
    if not combat.placed:
        return top
    groups: dict[str, list[str]] = {}
    for item in sorted(combat.placed, key=lambda p: p.kind != "obstacle"):
        name = PLACED_NAMES.get(item.kind, item.name)
        if item.kind == "fire_wall":
            name = f"Fire Wall {item.damage}"
        groups.setdefault(name, []).extend(item.hexes)
    text = "On the board: " + " · ".join(
        f"{name} {' '.join(hexes)}" for name, hexes in groups.items()
    )
    canvas.draw.rectangle(
        (0, top, width, top + 6 + LINE * len(wrap(text, width - 2 * MARGIN, font(TEXT)))),
        fill=darker(PANEL, 0.9),
    )
    return _lines(canvas, text, top + 3, width, MUTED, "placed_list", "") + 3


def _players(canvas: Canvas, view: PublicView, top: int, width: int) -> int:
    """Per player: Hero line, Morale line and unit roster; return the bottom."""
    combat = view.combat
    units = [u for u in (combat.units if combat else []) if u.unit != "arrow_tower"]
    y = top
    for i, player in enumerate(view.players):
        band = PAGE if i % 2 else darker(PANEL, 0.9)
        # drawn once on its own canvas (the band's colour), placed when its height is known
        part, height = drawn_part(width, band, partial(_band, view, player, units, width), 400)
        canvas.place(part, (0, 0, width, height), (0, y))
        y += height
    return y


def _band(
    view: PublicView, player: PlayerView, units: list[UnitView], width: int, canvas: Canvas
) -> int:
    """Draw ``player``'s band from y 0 of ``canvas``; return the band's height."""
    return _player(canvas, view, player, units, 0, width) + 6


def _player(
    canvas: Canvas,
    view: PublicView,
    player: PlayerView,
    units: list[UnitView],
    top: int,
    width: int,
) -> int:
    paste_centred(
        canvas.image,
        badge(seat_shape(player.seat), 16, seat_rgb(player.seat), LIGHT),
        MARGIN + 8,
        top + 6 + LINE // 2,
    )
    head = (
        f"{player.colour}: {player.hero_name} (Level {player.level}) · hand {player.hand} · "
        f"deck {player.deck} · Expert {player.experts}/{player.expert_limit}"
    )
    y = _lines(canvas, head, top + 6, width, LIGHT, "player", player.colour, indent=22)
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
    line = (
        (
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
    y = _lines(canvas, line, y, width, MUTED, "morale", player.colour, indent=22)
    own = [u for u in units if u.seat == player.seat and u.alive]
    entries: list[tuple[str, RGB, str, int | None]] = [
        (
            f"[{u.number}] {'Pack' if u.pack else 'Few'} of {u.name} "
            f"{u.health - u.damage}/{u.health}" + (f" {_tags(u)}" if _tags(u) else ""),
            MUTED if u.activated else LIGHT,
            f"unit:{u.number}",
            None,
        )
        for u in own
    ]
    if entries:
        y = _flow(canvas, entries, y, width, "roster", indent=22)
    return y


def _footer(canvas: Canvas, combat: CombatView, top: int, width: int) -> int:
    """The attack waiting for cards, or the last attack; return the picture's bottom."""
    text = combat.window or (f"Last attack: {combat.last_attack}" if combat.last_attack else "")
    canvas.draw.line((0, top, width, top), fill=PANEL_LINE)
    if not text:
        return top + 12
    lines = wrap(text, width - 2 * MARGIN, font(TEXT))
    if len(lines) > 2:
        lines = [lines[0], ellipsize(" ".join(lines[1:]), width - 2 * MARGIN, TEXT)]
    y = top + 6
    for line in lines:
        canvas.text(
            (MARGIN, y + LINE // 2),
            line,
            TEXT,
            GOLD if combat.window else DIM,
            anchor="lm",
            kind="last_attack",
        )
        y += LINE
    return y + 8
