"""The Hero Forge board picture: land plates on their grid, forts, heroes, contested lands.

Rule sections: heroforge:lands (plates, Plain/Basic/Special lands, red squares),
heroforge:forts (forts, manned or not, the owner of a land), heroforge:getting-economy-
from-lands (contested lands), heroforge:basic-rules (heroes), heroforge:combat.

Layout, top to bottom: a header (Round, whose turn and step, the dice of this turn, the
decision owed), the plates (5 × 5 squares each, gaps left empty), then one line per
player. Discord shows a picture about 500 px wide on a phone, so sizes follow the board:
the squares are as large as a 640 px picture allows (24-36 px) and the labels on a plate
grow with them; the header, key and player lines grow with the picture's width. At 500 px
every label reads at 10.8 px or more on boards of up to 5 plate columns, except a red
square's word, which must fit inside its square (14 px on a 3-column board, 7-9 px on 5 or
6 columns); on 6 columns (772 px) the economy, fort price and cap bonus come to 9.1 px and
the plate codes to 10.4 px. Every plate shows its letter and land code (top left), its economy (top right),
its fort price and cap bonus (bottom). Marks: ``plate`` (key: the letter), ``fort``
(``F2``), ``hero`` (colour name), ``contested`` (the letter), ``red`` (``B:1,3``),
``key`` (the line number of the key under the plates: the lands on the board by code and
name with their owner effects, and what the signs mean).
"""

from __future__ import annotations

from engine.core.model import seat_name
from engine.heroforge.views import FortView, PlateView, PlayerView, PublicView
from rendering.canvas import Canvas, Drawing, ellipsize, fit_size, wrap
from rendering.fonts import font
from rendering.heroforge.palette import (
    CONTESTED,
    GOLD,
    LIGHT,
    MUTED,
    PAGE,
    PANEL,
    PANEL_LINE,
    RED_SQUARE,
    WHITE,
    land_rgb,
    seat_rgb,
    seat_shape,
    text_on,
)
from rendering.shapes import badge, paste_centred, token

SQUARE_RANGE = (24, 36)
"""Pixels per square: the largest that keeps the picture `MIN_WIDTH` wide, within this."""
SQUARES = 5
GUTTER = 4
MARGIN = 16
MIN_WIDTH = 640

RED_WORDS = {"unit_level": "L", "speed": "S", "economy": "e"}
KEY_SIZE = 14
"""Size of the key's text on a `MIN_WIDTH` picture (it grows with the width)."""
KEY_SIGNS = (
    "Red squares act on the hero standing there: L unit levels, S speed, a bare number "
    "economy (e). "
    "Forts: white = unmanned, filled = manned (the number of units). Yellow dashes: "
    "contested. Top right: economy a turn; bottom: fort price and cap bonus."
)


def _columns(view: PublicView) -> int:
    xs = [p.x for p in view.plates]
    return max(xs) - min(xs) + 1


def square_px(view: PublicView) -> int:
    """Pixels per square on the board picture of ``view`` (24-36): as large as fits in a
    `MIN_WIDTH` picture, so a narrow board is drawn larger rather than with empty sides."""
    cols = _columns(view)
    room = (MIN_WIDTH - 2 * MARGIN - (cols - 1) * GUTTER) // (cols * SQUARES)
    return max(SQUARE_RANGE[0], min(SQUARE_RANGE[1], room))


def _plate_px(view: PublicView) -> int:
    return square_px(view) * SQUARES


def text_scale(width: int) -> float:
    """How much the header, key and player lines grow on a picture ``width`` px wide (1 at
    `MIN_WIDTH`), so they read at the same size when Discord shows the picture 500 px wide."""
    return max(1.0, width / MIN_WIDTH)


def _px(size: int, width: int) -> int:
    return round(size * text_scale(width))


def player_row(width: int) -> int:
    """Height of one player's line on a picture ``width`` px wide."""
    return _px(32, width)


def key_lines(view: PublicView, width: int, size: int = KEY_SIZE) -> list[str]:
    """The key under the plates: each land on the board by code and name (with what its
    owner gains, heroforge:forts), then what the signs mean; wrapped to ``width`` at
    ``size`` px."""
    seen: dict[str, str] = {}
    for plate in sorted(view.plates, key=lambda p: p.label):
        if plate.code in seen:
            continue
        notes: list[str] = ["special"] if plate.land_class == "special" else []
        notes += [f"owner: {effect}" for effect in plate.owner_effects]
        seen[plate.code] = f"{plate.code} {plate.name}" + (
            f" ({'; '.join(notes)})" if notes else ""
        )
    text = "Lands: " + " · ".join(seen.values()) + "\n" + KEY_SIGNS
    return wrap(text, width, font(size))


def _grid_origin(view: PublicView) -> tuple[int, int]:
    return min(p.x for p in view.plates), min(p.y for p in view.plates)


def plate_box(view: PublicView, plate: PlateView) -> tuple[int, int, int, int]:
    """The pixel box of ``plate`` on the board picture."""
    x0, y0 = _grid_origin(view)
    size = _plate_px(view)
    left = MARGIN + (plate.x - x0) * (size + GUTTER)
    top = header_height(view, board_width(view)) + MARGIN + (plate.y - y0) * (size + GUTTER)
    return left, top, left + size, top + size


def square_centre(view: PublicView, label: str, cx: int, cy: int) -> tuple[int, int]:
    """The pixel centre of a square."""
    plate = next(p for p in view.plates if p.label == label)
    left, top, _, _ = plate_box(view, plate)
    sq = square_px(view)
    return left + cx * sq + sq // 2, top + cy * sq + sq // 2


def _darker(rgb: tuple[int, int, int], by: float = 0.82) -> tuple[int, int, int]:
    return (int(rgb[0] * by), int(rgb[1] * by), int(rgb[2] * by))


def _draw_plate(canvas: Canvas, view: PublicView, plate: PlateView) -> None:
    box = plate_box(view, plate)
    sq = square_px(view)
    fill = land_rgb(plate.land, plate.land_class)
    draw = canvas.draw
    draw.rectangle(box, fill=fill)
    line = _darker(fill)
    for i in range(1, SQUARES):
        draw.line((box[0] + i * sq, box[1], box[0] + i * sq, box[3] - 1), fill=line)
        draw.line((box[0], box[1] + i * sq, box[2] - 1, box[1] + i * sq), fill=line)
    for red in plate.red:
        sx, sy = box[0] + red.cx * sq, box[1] + red.cy * sq
        cell = (sx + 2, sy + 2, sx + sq - 2, sy + sq - 2)
        draw.rectangle(cell, fill=RED_SQUARE)
        word = f"{red.amount:+d}{RED_WORDS[red.kind]}"
        if red.kind == "economy":
            word = f"+{red.amount}" if red.amount > 0 else str(red.amount)
        canvas.text(
            (sx + sq / 2, sy + sq / 2),
            word,
            fit_size(word, sq - 3, round(sq * 0.5), 8, "bold"),
            WHITE,
            weight="bold",
            anchor="mm",
            kind="red",
            key=f"{plate.label}:{red.cx},{red.cy}",
        )
    if plate.land_class == "special":
        draw.rectangle((box[0] + 3, box[1] + 3, box[2] - 4, box[3] - 4), outline=GOLD, width=2)
    ink = text_on(fill)
    big, small = round(sq * 0.66), round(sq * 0.6)
    canvas.text(
        (box[0] + 4, box[1] + 3),
        f"{plate.label} {plate.code}",
        big,
        ink,
        weight="bold",
        kind="plate",
        key=plate.label,
    )
    if plate.economy:
        canvas.text(
            (box[2] - 5, box[1] + 3),
            f"{plate.economy}e",
            small,
            ink,
            anchor="ra",
            kind="economy",
            key=plate.label,
        )
    if plate.fort_price is not None:
        canvas.text(
            (box[0] + 4, box[3] - 3),
            f"fort {plate.fort_price}",
            small,
            ink,
            anchor="ld",
            kind="fort_price",
            key=plate.label,
        )
        if plate.cap_bonus:
            canvas.text(
                (box[2] - 5, box[3] - 3),
                f"cap+{plate.cap_bonus}",
                small,
                ink,
                anchor="rd",
                kind="cap",
                key=plate.label,
            )
    if plate.owner is not None:
        draw.rectangle(box, outline=seat_rgb(plate.owner), width=4)
    if plate.contested:
        _contested_frame(canvas, box)
        canvas.mark("contested", plate.label, box, text="contested")


def _contested_frame(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
    """A yellow and black dashed frame: two or more heroes are on the plate."""
    x0, y0, x1, y1 = box
    dash = 8
    draw = canvas.draw
    for x in range(x0, x1, dash * 2):
        draw.line((x, y0 + 1, min(x + dash, x1 - 1), y0 + 1), fill=CONTESTED, width=3)
        draw.line((x, y1 - 2, min(x + dash, x1 - 1), y1 - 2), fill=CONTESTED, width=3)
    for y in range(y0, y1, dash * 2):
        draw.line((x0 + 1, y, x0 + 1, min(y + dash, y1 - 1)), fill=CONTESTED, width=3)
        draw.line((x1 - 2, y, x1 - 2, min(y + dash, y1 - 1)), fill=CONTESTED, width=3)


def _draw_fort(canvas: Canvas, view: PublicView, fort: FortView) -> None:
    cx, cy = square_centre(view, fort.plate, fort.cx, fort.cy)
    sq = square_px(view)
    half = sq // 2 - 2
    box = (cx - half, cy - half, cx + half, cy + half)
    owner = seat_rgb(fort.owner)
    draw = canvas.draw
    if fort.manned:
        draw.rectangle(box, fill=owner, outline=WHITE, width=2)
        # battlements
        for bx in (box[0] + 2, cx - 2, box[2] - 6):
            draw.rectangle((bx, box[1] - 3, bx + 4, box[1]), fill=owner)
        canvas.text(
            (cx, cy + 1),
            str(len(fort.units)),
            round(sq * 0.55),
            text_on(owner),
            weight="bold",
            anchor="mm",
            kind="fort_units",
            key=f"F{fort.id}",
        )
    else:
        draw.rectangle(box, fill=WHITE, outline=owner, width=3)
        for bx in (box[0] + 2, cx - 2, box[2] - 6):
            draw.rectangle((bx, box[1] - 3, bx + 4, box[1]), fill=owner)
    canvas.mark("fort", f"F{fort.id}", box, text="manned" if fort.manned else "unmanned")


def _draw_heroes(canvas: Canvas, view: PublicView) -> None:
    stacks: dict[tuple[str, int, int], list[PlayerView]] = {}
    for player in view.players:
        if player.alive and player.plate is not None and player.cx is not None:
            assert player.cy is not None
            stacks.setdefault((player.plate, player.cx, player.cy), []).append(player)
    for (label, sx, sy), players in sorted(stacks.items()):
        cx, cy = square_centre(view, label, sx, sy)
        for i, player in enumerate(players):
            offset = (i - (len(players) - 1) / 2) * square_px(view) / 3
            sprite = token(
                seat_shape(player.seat), square_px(view) - 4, seat_rgb(player.seat), WHITE, PAGE
            )
            box = paste_centred(canvas.image, sprite, int(cx + offset), int(cy + offset))
            canvas.mark("hero", player.colour, box, text=player.hero_name or "")


def _draw_last_move(canvas: Canvas, view: PublicView) -> None:
    if len(view.last_move) < 2:
        return
    # The colour of the seat whose hero moved (by the next turn the active seat is
    # another's); a game saved before the mover was kept draws it in a neutral grey.
    ink = seat_rgb(view.last_move_owner)
    points = [square_centre(view, p, cx, cy) for p, cx, cy in view.last_move]
    canvas.draw.line(points, fill=ink, width=max(3, square_px(view) // 8))
    for x, y in points[:-1]:
        canvas.draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=ink)


def _draw_combats(canvas: Canvas, view: PublicView) -> None:
    where = {p.seat: p for p in view.players if p.alive and p.plate is not None}
    forts = {f.id: f for f in view.forts}
    for combat in view.combats:
        a = where.get(combat.attacker)
        if a is None or a.cx is None or a.cy is None or a.plate is None:
            continue
        start = square_centre(view, a.plate, a.cx, a.cy)
        if combat.fort is not None and combat.fort in forts:
            f = forts[combat.fort]
            end = square_centre(view, f.plate, f.cx, f.cy)
        else:
            d = where.get(combat.defender)
            if d is None or d.cx is None or d.cy is None or d.plate is None:
                continue
            end = square_centre(view, d.plate, d.cx, d.cy)
        canvas.draw.line((*start, *end), fill=RED_SQUARE, width=2)
        mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
        canvas.text(
            mid,
            "X",
            round(square_px(view) * 0.6),
            WHITE,
            weight="bold",
            anchor="mm",
            stroke=2,
            stroke_fill=RED_SQUARE,
        )


def _header_lines(view: PublicView, width: int) -> tuple[str, list[str]]:
    """The header's title and its status lines (the dice and the decision owed, wrapped to
    at most two lines) on a picture ``width`` px wide."""
    details = []
    if view.result.finished:
        line = f"Hero Forge — {view.result.reason}"
    elif view.phase == "play":
        step = {
            "buy1": "buys (before moving)",
            "move": "moves",
            "moving": "moves",
            "buy2": "buys (after moving)",
            "combat": "may attack",
        }[view.step]
        line = f"Hero Forge — Round {view.round}: {seat_name(view.active)} {step}"
        if view.scenario is not None:
            details.append(f"scenario roll {view.scenario}")
        if view.move_roll is not None:
            details.append(f"move roll {view.move_roll}")
    else:
        line = "Hero Forge — setting up"
    if view.pending:
        details.append("waiting: " + view.pending[0].prompt)
    room, small = width - 2 * MARGIN, _px(16, width)
    status = wrap(" · ".join(details), room, font(small)) if details else []
    if len(status) > 2:
        status = [status[0], ellipsize(" ".join(status[1:]), room, small)]
    return line, status


def header_height(view: PublicView, width: int) -> int:
    """Height of the header band of ``view``'s board picture ``width`` px wide."""
    return _px(48, width) + len(_header_lines(view, width)[1]) * _px(22, width) + _px(6, width)


def _header(canvas: Canvas, view: PublicView, width: int) -> None:
    height = header_height(view, width)
    canvas.draw.rectangle((0, 0, width, height), fill=PANEL)
    canvas.draw.line((0, height, width, height), fill=PANEL_LINE)
    line, status = _header_lines(view, width)
    size, small = _px(21, width), _px(16, width)
    canvas.text(
        (MARGIN, _px(10, width)),
        ellipsize(line, width - 2 * MARGIN, size, "bold"),
        size,
        LIGHT,
        weight="bold",
        kind="title",
    )
    for i, text in enumerate(status):
        canvas.text(
            (MARGIN, _px(44, width) + i * _px(22, width)), text, small, MUTED, kind="status"
        )


def _players(canvas: Canvas, view: PublicView, top: int, width: int) -> None:
    row, size = player_row(width), _px(17, width)
    for i, player in enumerate(view.players):
        y = top + i * row
        colour = seat_rgb(player.seat)
        sprite = badge(seat_shape(player.seat), _px(18, width), colour, WHITE)
        paste_centred(canvas.image, sprite, MARGIN + _px(10, width), y + row // 2)
        if player.hero_name is None:
            text = f"{player.colour}: choosing a hero"
        elif not player.alive:
            text = f"{player.colour} — {player.hero_name}: killed"
        else:
            text = (
                f"{player.colour} — {player.hero_name}: {player.economy}e · units "
                f"{player.military}/{player.cap} · speed {player.speed:+d}"
            )
            if player.lands:
                text += " · lands " + ",".join(player.lands)
            if player.enchantment:
                count = f" x{player.enchantment.count}" if player.enchantment.count > 1 else ""
                text += f" · {player.enchantment.name}{count}"
        fill = LIGHT if player.alive else MUTED
        indent = _px(26, width)
        canvas.text(
            (MARGIN + indent, y + row // 2),
            ellipsize(text, width - MARGIN * 2 - indent, size),
            size,
            fill,
            anchor="lm",
            kind="player",
            key=player.colour,
        )


def _plates_bottom(view: PublicView, width: int) -> int:
    ys = [p.y for p in view.plates]
    rows = max(ys) - min(ys) + 1
    return header_height(view, width) + MARGIN + rows * _plate_px(view) + (rows - 1) * GUTTER


def board_width(view: PublicView) -> int:
    """The picture's width in pixels for ``view`` (`MIN_WIDTH` at least)."""
    cols = _columns(view)
    return max(MIN_WIDTH, 2 * MARGIN + cols * _plate_px(view) + (cols - 1) * GUTTER)


def board_size(view: PublicView) -> tuple[int, int]:
    """The picture's width and height in pixels for ``view``."""
    width = board_width(view)
    key_size = _px(KEY_SIZE, width)
    key = len(key_lines(view, width - 2 * MARGIN, key_size)) * (key_size + 5) + MARGIN // 2
    height = _plates_bottom(view, width) + MARGIN + key
    return width, height + len(view.players) * player_row(width) + MARGIN


def _key(canvas: Canvas, view: PublicView, width: int) -> None:
    top = _plates_bottom(view, width) + MARGIN // 2
    size = _px(KEY_SIZE, width)
    for i, line in enumerate(key_lines(view, width - 2 * MARGIN, size)):
        canvas.text((MARGIN, top + i * (size + 5)), line, size, MUTED, kind="key", key=str(i))


def draw_board(view: PublicView) -> Drawing:
    """The board picture of ``view`` with its marks (see the module docstring).

    :raises ValueError: if the board has no plates.
    """
    if not view.plates:
        raise ValueError("the board has no plates")
    width, height = board_size(view)
    canvas = Canvas(width, height, PAGE)
    _header(canvas, view, width)
    for plate in view.plates:
        _draw_plate(canvas, view, plate)
    _draw_last_move(canvas, view)
    for fort in view.forts:
        _draw_fort(canvas, view, fort)
    _draw_combats(canvas, view)
    _draw_heroes(canvas, view)
    _key(canvas, view, width)
    _players(canvas, view, height - len(view.players) * player_row(width) - MARGIN, width)
    return canvas.finish()
