"""The mmh board picture: the square map with terrain, locations, encounter markers,
capitals, heroes, control and exploration markers, the encounter symbols' arrows (which
space each marker guards) and a status panel. Red capital tiles have a red inner frame.

Rule sections: mmh:description-of-the-game-board (terrain and locations),
mmh:game-setup.setting-up-the-game-board (tiles, red capital tiles), mmh:game-goal (VP).
Only public facts are drawn: the picture may go to the channel.
"""

from __future__ import annotations

from engine.core.model import seat_name
from engine.core.words import plural
from engine.mmh.content import LOCATION_NAMES, load_content
from engine.mmh.views import PublicView, SpaceView
from rendering.canvas import Canvas, Drawing, drawn_once, ellipsize
from rendering.mmh import palette as p
from rendering.shapes import badge, paste_centred, token

CELL = 46
MARGIN = 28
MIN_WIDTH = 720
"""The narrowest picture (px): the status panel under the map needs this much."""
_PANEL_ROOM = 1600
"""Height drawn for the panel before the picture is cut to what it used (px)."""


def draw_board(view: PublicView) -> Drawing:
    """Draw the board of ``view`` with the status panel under it.

    The panel sits under the map rather than beside it, so the picture stays narrow
    (792 px for a 16-column map): Discord shows it about 500 px wide on a phone, where
    the panel's 16 px lines come to about 10 px.

    :raises ValueError: if no map tile has been laid yet.
    """
    if not view.spaces:
        raise ValueError("no map tile has been laid yet")
    board_w = view.width * CELL
    board_h = view.height * CELL
    width = max(MARGIN * 2 + board_w, MIN_WIDTH)
    top = MARGIN * 2 + board_h
    canvas = Canvas(width, top + _PANEL_ROOM, p.PAGE)

    def ground(part: Canvas) -> None:  # the same in every picture of the game
        _labels(part, view)
        for space in view.spaces:
            _ground(part, space)

    key = tuple((s.x, s.y, s.terrain) for s in view.spaces)
    drawn_once(canvas, ("mmh board", view.width, view.height, key), ground)
    for space in view.spaces:
        _space(canvas, view, space)
    _red_frames(canvas, view)
    _tile_lines(canvas, view)
    _guard_arrows(canvas, view)
    _path(canvas, view)
    _heroes(canvas, view)
    bottom = _panel(canvas, view, top, width)
    canvas.crop_top(bottom)
    return canvas.finish()


def _box(space: SpaceView) -> tuple[int, int, int, int]:
    x0 = MARGIN + space.x * CELL
    y0 = MARGIN + space.y * CELL
    return (x0, y0, x0 + CELL, y0 + CELL)


def _labels(canvas: Canvas, view: PublicView) -> None:
    for x in range(view.width):
        letter = chr(ord("A") + x)
        cx = MARGIN + x * CELL + CELL // 2
        canvas.text((cx, MARGIN - 4), letter, 14, p.MUTED, anchor="ms")
        canvas.text((cx, MARGIN + view.height * CELL + 16), letter, 14, p.MUTED, anchor="ms")
    for y in range(view.height):
        cy = MARGIN + y * CELL + CELL // 2
        canvas.text((MARGIN - 6, cy), str(y + 1), 13, p.MUTED, anchor="rm")
        canvas.text((MARGIN + view.width * CELL + 5, cy), str(y + 1), 13, p.MUTED, anchor="lm")


def _ground(canvas: Canvas, space: SpaceView) -> None:
    """The printed space: its terrain and terrain feature (inside the space's square)."""
    draw = canvas.draw
    x0, y0, x1, y1 = _box(space)
    fill = p.TERRAIN_RGB[space.terrain]
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=(90, 110, 70))
    if space.terrain == "water":
        for dy in (14, 28):
            draw.arc(
                (x0 + 8, y0 + dy - 6, x0 + 22, y0 + dy + 4), 200, 340, fill=(200, 225, 250), width=2
            )
            draw.arc(
                (x0 + 24, y0 + dy - 6, x0 + 38, y0 + dy + 4),
                200,
                340,
                fill=(200, 225, 250),
                width=2,
            )
    elif space.terrain == "mountain":
        draw.polygon([(x0 + 6, y1 - 8), (x0 + 20, y0 + 9), (x0 + 34, y1 - 8)], fill=(96, 86, 78))
        draw.polygon([(x0 + 18, y1 - 8), (x0 + 30, y0 + 16), (x1 - 5, y1 - 8)], fill=(110, 100, 90))
    elif space.terrain == "harbour":
        draw.rectangle((x0 + 4, y1 - 12, x1 - 5, y1 - 5), fill=(120, 90, 60))
        canvas.text((x0 + CELL // 2, y0 + 15), "H", 14, (60, 50, 40), weight="bold", anchor="mm")


def _space(canvas: Canvas, view: PublicView, space: SpaceView) -> None:
    """What lies on the space (inside its square, drawn over every space's `_ground`):
    control, location, capital, encounter or its symbol, exploration marker."""
    draw = canvas.draw
    x0, y0, x1, _ = _box(space)
    if space.control is not None:
        draw.rectangle(
            (x0 + 2, y0 + 2, x0 + 11, y0 + 11), fill=p.seat_rgb(space.control), outline=p.WHITE
        )
        canvas.mark(
            "control",
            space.label,
            (x0 + 2, y0 + 2, x0 + 12, y0 + 12),
            text=seat_name(space.control),
        )
    if space.location is not None:
        _location(canvas, space, x0, y0)
    if space.capital is not None:
        _capital(canvas, space, x0, y0)
    if space.encounter is not None:
        _encounter(canvas, space, x0, y0)
    elif space.symbol is not None and space.capital is None:
        colour = p.ENCOUNTER_RGB[space.symbol]
        draw.ellipse((x0 + 17, y0 + 17, x0 + 29, y0 + 29), outline=colour, width=2)
    if space.exploration_marker:
        draw.ellipse((x1 - 13, y0 + 3, x1 - 3, y0 + 13), fill=(250, 250, 250), outline=p.INK)
        canvas.mark("exploration", space.label, (x1 - 13, y0 + 3, x1 - 3, y0 + 13))


def _location(canvas: Canvas, space: SpaceView, x0: int, y0: int) -> None:
    assert space.location is not None
    code = p.LOCATION_CODES[space.location]
    colour = (70, 40, 120) if space.location == "portal" else p.INK
    canvas.draw.rectangle((x0 + 8, y0 + 27, x0 + 38, y0 + 42), fill=(250, 244, 226), outline=colour)
    canvas.text(
        (x0 + CELL // 2, y0 + 35),
        code,
        12,
        colour,
        weight="bold",
        anchor="mm",
        kind="location",
        key=space.label,
    )


def _capital(canvas: Canvas, space: SpaceView, x0: int, y0: int) -> None:
    assert space.capital is not None
    seat = space.capital
    colour = p.seat_rgb(seat)
    draw = canvas.draw
    draw.rectangle(
        (x0 + 3, y0 + 3, x0 + CELL - 4, y0 + CELL - 4), fill=colour, outline=p.WHITE, width=2
    )
    for i in range(3):
        draw.rectangle((x0 + 8 + i * 11, y0 + 6, x0 + 14 + i * 11, y0 + 12), fill=p.WHITE)
    canvas.text(
        (x0 + CELL // 2, y0 + 28),
        "C",
        18,
        p.WHITE,
        weight="bold",
        anchor="mm",
        kind="capital",
        key=seat_name(seat),
    )


def _encounter(canvas: Canvas, space: SpaceView, x0: int, y0: int) -> None:
    enc = space.encounter
    assert enc is not None
    colour = p.ENCOUNTER_RGB[enc.colour]
    draw = canvas.draw
    draw.ellipse(
        (x0 + 4, y0 + 4, x0 + CELL - 5, y0 + CELL - 5), fill=colour, outline=p.INK, width=2
    )
    canvas.text(
        (x0 + CELL // 2, y0 + 17),
        f"{enc.might}/{enc.threat}",
        13,
        p.INK,
        weight="bold",
        anchor="mm",
        kind="encounter",
        key=space.label,
    )
    canvas.text((x0 + CELL // 2, y0 + 31), f"#{enc.id}", 11, p.INK, anchor="mm")


def _tile_lines(canvas: Canvas, view: PublicView) -> None:
    for x in range(0, view.width + 1, 4):
        X = MARGIN + x * CELL
        canvas.draw.line((X, MARGIN, X, MARGIN + view.height * CELL), fill=(40, 40, 30), width=3)
    for y in range(0, view.height + 1, 4):
        Y = MARGIN + y * CELL
        canvas.draw.line((MARGIN, Y, MARGIN + view.width * CELL, Y), fill=(40, 40, 30), width=3)


def _red_frames(canvas: Canvas, view: PublicView) -> None:
    """A red inner frame around each red capital tile (mmh:game-setup.setting-up-the-game-board)."""
    tiles: dict[int, list[SpaceView]] = {}
    for space in view.spaces:
        if space.red:
            tiles.setdefault(space.tile, []).append(space)
    for tile, spaces in sorted(tiles.items()):
        x0 = MARGIN + min(s.x for s in spaces) * CELL
        y0 = MARGIN + min(s.y for s in spaces) * CELL
        x1 = MARGIN + (max(s.x for s in spaces) + 1) * CELL
        y1 = MARGIN + (max(s.y for s in spaces) + 1) * CELL
        box = (x0 + 3, y0 + 3, x1 - 4, y1 - 4)
        canvas.draw.rectangle(box, outline=p.RED_TILE, width=3)
        canvas.mark("red-tile", str(tile), box)


def _guard_arrows(canvas: Canvas, view: PublicView) -> None:
    """On each encounter symbol, a wedge at the edge towards the space it guards
    (mmh:description-of-the-game-board.terrain-features-on-the-game-board: "The arrow
    shows which space the encounter marker guards"); drawn whether a marker lies there
    or not, as the symbol is printed on the tile."""
    by_label = {space.label: space for space in view.spaces}
    for space in view.spaces:
        if space.guards is None or space.symbol is None or space.capital is not None:
            continue
        target = by_label.get(space.guards)
        if target is None:
            continue
        dx, dy = target.x - space.x, target.y - space.y
        cx = MARGIN + space.x * CELL + CELL // 2
        cy = MARGIN + space.y * CELL + CELL // 2
        tip = (cx + dx * (CELL // 2 - 1), cy + dy * (CELL // 2 - 1))
        base = (cx + dx * (CELL // 2 - 9), cy + dy * (CELL // 2 - 9))
        half = 6
        wing_a = (base[0] + dy * half, base[1] + dx * half)
        wing_b = (base[0] - dy * half, base[1] - dx * half)
        canvas.draw.polygon(
            [tip, wing_a, wing_b], fill=p.ENCOUNTER_RGB[space.symbol], outline=p.INK
        )
        xs = (tip[0], wing_a[0], wing_b[0])
        ys = (tip[1], wing_a[1], wing_b[1])
        canvas.mark("guard", space.label, (min(xs), min(ys), max(xs), max(ys)), text=space.guards)


def _centre(view: PublicView, label: str) -> tuple[int, int]:
    x = ord(label[0]) - ord("A")
    y = int(label[1:]) - 1
    return (MARGIN + x * CELL + CELL // 2, MARGIN + y * CELL + CELL // 2)


def _path(canvas: Canvas, view: PublicView) -> None:
    if len(view.last_path) < 2:
        return
    points = [_centre(view, label) for label in view.last_path]
    canvas.draw.line(points, fill=p.HIGHLIGHT, width=3)


def _heroes(canvas: Canvas, view: PublicView) -> None:
    """Each hero on the map: the seat's shape and colour with the first letters of the
    name; on a location the token stands in the upper part, clear of the location's code."""
    placed: dict[str, int] = {}
    located = {s.label for s in view.spaces if s.location is not None}
    for hero in view.heroes:
        if hero.space is None:
            continue
        cx, cy = _centre(view, hero.space)
        offset = placed.get(hero.space, 0)
        placed[hero.space] = offset + 1
        cx += offset * 8
        if hero.space in located:
            cy -= 8
        sprite = token(p.seat_shape(hero.owner), 28, p.seat_rgb(hero.owner), p.WHITE, p.INK)
        box = paste_centred(canvas.image, sprite, cx, cy)
        canvas.text((cx, cy), hero.name[:2], 12, p.WHITE, weight="bold", anchor="mm", stroke=1)
        canvas.mark("hero", hero.id, box, text=hero.name)


def _panel(canvas: Canvas, view: PublicView, top: int, width: int) -> int:
    """The status panel under the map: round, week, decision owed, one block per player,
    the legend. Returns the y below it."""
    x0, room = MARGIN, width - 2 * MARGIN
    canvas.draw.rectangle((0, top, width, top + _PANEL_ROOM), fill=p.PANEL)
    y = top + 16
    canvas.text(
        (x0, y), f"Round {view.round}", 24, p.LIGHT, weight="bold", kind="status", key="round"
    )
    y += 34
    content = load_content()
    if view.week:
        week = content.week(view.week)
        colour = p.DARK_TIMES if view.dark_times else p.GOLD
        canvas.text(
            (x0, y),
            ellipsize(f"Week: {week.name}", room, 18),
            18,
            colour,
            kind="status",
            key="week",
        )
        y += 26
        if view.dark_times:
            canvas.text((x0, y), "DARK TIMES", 17, (220, 120, 240), weight="bold")
            y += 24
    canvas.text(
        (x0, y),
        f"{plural(view.weeks_left, 'week card')} left · win at {view.threshold} VP",
        16,
        p.MUTED,
    )
    y += 26
    if view.result.finished:
        canvas.text(
            (x0, y), ellipsize(view.result.reason, room, 17), 17, p.HIGHLIGHT, weight="bold"
        )
        y += 26
    elif view.pending:
        canvas.text(
            (x0, y),
            ellipsize(view.pending[0].prompt, room, 17),
            17,
            p.HIGHLIGHT,
            kind="status",
            key="pending",
        )
        y += 26
    y += 8
    for seat in view.seats:
        y = _seat_block(canvas, view, seat.seat, x0, y, room)
    return _legend(canvas, x0, y + 6, room)


def _seat_block(canvas: Canvas, view: PublicView, seat: int, x0: int, y: int, room: int) -> int:
    s = view.seats[seat]
    faction = load_content().faction(s.faction).name
    sprite = badge(p.seat_shape(seat), 20, p.seat_rgb(seat), p.WHITE)
    paste_centred(canvas.image, sprite, x0 + 10, y + 11)
    active = "  (to play)" if seat == view.active and not view.result.finished else ""
    canvas.text(
        (x0 + 28, y),
        f"{seat_name(seat)} · {faction}{active}",
        19,
        p.LIGHT,
        weight="bold",
        kind="seat",
        key=seat_name(seat),
    )
    y += 27
    up = " ".join(str(c.number) for c in s.cards if not c.used) or "none"
    line = (
        f"{s.vp} VP · {s.gold} gold · {s.resources} res · level {s.level} · "
        f"action cards face up: {up}"
    )
    canvas.text((x0 + 28, y), ellipsize(line, room - 28, 16), 16, p.MUTED)
    y += 23
    for hid in s.heroes:
        hero = next(h for h in view.heroes if h.id == hid)
        where = hero.space or "capital"
        line = f"{hero.name} @ {where}: {len(hero.army)}/{hero.leadership} creatures, {hero.xp} XP, luck {hero.luck}"
        canvas.text((x0 + 28, y), ellipsize(line, room - 28, 16), 16, p.LIGHT)
        y += 22
    return y + 10


def _legend(canvas: Canvas, x0: int, y: int, room: int) -> int:
    """The location codes and what the marks mean; returns the y below it."""
    canvas.text((x0, y), "Legend", 17, p.LIGHT, weight="bold")
    y += 26
    items = sorted(p.LOCATION_CODES.items(), key=lambda kv: kv[1])
    cols = max(2, room // 240)
    cell = room // cols
    for i, (location, code) in enumerate(items):
        x = x0 + (i % cols) * cell
        row_y = y + (i // cols) * 24
        text = ellipsize(f"{code} {LOCATION_NAMES[location]}", cell - 8, 17)
        canvas.text((x, row_y), text, 17, p.MUTED, kind="legend", key=code)
    y += -(-len(items) // cols) * 24 + 10
    for note in (
        "Discs: encounter might/threat · ring: empty symbol",
        "Wedge: the space an encounter guards · red frame: red tile",
        "Small square: control · white dot: exploration marker",
    ):
        canvas.text((x0, y), ellipsize(note, room, 16), 16, p.MUTED)
        y += 22
    return y + 14
