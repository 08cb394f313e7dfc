"""The Game Board picture: terrain, icons, Army tokens, hex names, last move, status strip.

Rule sections: homm4:terrain-map-sections (the assembled map), homm4:movement-phase
(Movement Points and terrain legend, scouting, towns, dwellings, objects),
homm4:army-and-object-town-tokens, homm4:game-process (round, active player, phase).

Layout, top to bottom: the status strip (round, whose turn, phase, then per player: towns,
Armies, Hand and Risk Stack sizes), the board with column letters above and below and row
numbers left and right (the names the commands accept, e.g. ``C4``), then the legend
(terrain types present, icon states) and lists of the identified sites and the Armies.
Everything drawn comes from the `PublicView`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.homm4.cards import CardPool
from engine.homm4.hexes import column_index, column_name, from_offset, to_offset
from engine.homm4.maps import Terrain
from engine.homm4.views import ArmyView, HexView, PlayerView, PublicView, SiteView
from rendering.canvas import Canvas, Drawing, ellipsize, fit_size, text_width
from rendering.encode import MAX_WIDTH
from rendering.homm4 import icons
from rendering.homm4.palette import (
    BLACK,
    GOLD,
    HIGHLIGHT,
    INK,
    LIGHT,
    MUTED,
    PAGE,
    PANEL,
    PANEL_LINE,
    PAPER,
    WHITE,
    seat_label,
    seat_rgb,
    seat_shape,
)
from rendering.homm4.terrain import TerrainLook, hex_polygon, hex_tile, look_for
from rendering.shapes import RGB, badge, paste_centred, token

MIN_WIDTH = 1100
"""The narrowest board image (px): the strip and legend need this much."""
MIN_WIDTH_TWO_COLUMNS = 1200
"""The narrowest board image with four or more players (the strip has two columns)."""

_LABEL = re.compile(r"^([A-Z]{1,2})(\d+)$")
_PHASES = {
    "assemble": "Board assembly",
    "setup": "Set-up",
    "purchase": "Purchase Phase",
    "movement": "Movement Phase",
    "closing": "Closing Phase",
    "over": "Game over",
}
_KINDS = {"town": "Town", "dwelling": "Dwelling", "object": "Object"}


@dataclass(frozen=True)
class Grid:
    """Hex lattice in pixels: hex width ``w`` and height ``h`` (``h`` divisible by 4) and the
    pixel position ``(ox, oy)`` of axial ``(0, 0)``; rows are ``3h/4`` apart."""

    w: int
    h: int
    ox: int
    oy: int

    def centre(self, q: int, r: int) -> tuple[int, int]:
        """The pixel centre of axial hex ``(q, r)``."""
        return (self.ox + self.w * q + (self.w // 2) * r, self.oy + (3 * self.h // 4) * r)


def hex_size(hexes: tuple[HexView, ...], room: int) -> tuple[int, int]:
    """Choose the hex ``(w, h)`` in px: the largest (up to 76 x 88) whose board fits ``room``
    px across. :raises ValueError: if the view has no hexes."""
    if not hexes:
        raise ValueError("the board has no hexes yet")
    halves = [2 * h.q + h.r for h in hexes]
    span = (max(halves) - min(halves)) / 2 + 1
    for k in range(22, 7, -1):
        w = 2 * round(math.sqrt(3) * k)
        if span * w <= room:
            return w, 4 * k
    return 2 * round(math.sqrt(3) * 8), 32


@dataclass(frozen=True)
class _Labels:
    """The label origin (odd-r offset of column A, row 1), read from the view's labels."""

    col0: int
    row0: int

    @classmethod
    def from_view(cls, hexes: tuple[HexView, ...]) -> _Labels:
        """Read the origin from the first hex's label. :raises ValueError: for a bad label."""
        first = hexes[0]
        match = _LABEL.match(first.label.upper())
        if match is None:
            raise ValueError(f"hex label {first.label!r} is not like C4")
        col, row = to_offset((first.q, first.r))
        return cls(col - column_index(match.group(1)), row - (int(match.group(2)) - 1))

    def axial(self, col: int, row: int) -> tuple[int, int]:
        """The axial hex of 0-based label column ``col`` and row ``row``."""
        return from_offset(col + self.col0, row + self.row0)


def draw_board(view: PublicView, pool: CardPool, legend: Mapping[str, Terrain]) -> Drawing:
    """Draw the board of ``view`` (public parts only); see the module docstring for layout.

    :param pool: the card pool (names of face-up cards).
    :param legend: terrain code -> legend entry (names, costs) for the terrain legend.
    :raises ValueError: if the view has no hexes yet (board assembly not started).
    """
    page_room = MAX_WIDTH - 2 * 40
    w, h = hex_size(view.hexes, page_room)
    label_size = max(18, min(30, int(w * 0.42)))
    side = text_width("88", label_size, "bold") + 22
    cap = int(label_size * 1.7)

    xs = [w * hv.q + (w // 2) * hv.r for hv in view.hexes]
    ys = [(3 * h // 4) * hv.r for hv in view.hexes]
    board_w = max(xs) - min(xs) + w + 2 * side
    least = MIN_WIDTH if _strip_columns(view) == 1 else MIN_WIDTH_TWO_COLUMNS
    width = min(MAX_WIDTH, max(least, board_w))
    strip = _strip_height(view, width)
    board_h = max(ys) - min(ys) + h + 2 * cap
    panel = _panel_height(view, legend, width)
    canvas = Canvas(width, strip + board_h + panel, PAGE)

    left = (width - board_w) // 2 + side
    grid = Grid(w, h, left + w // 2 - min(xs), strip + cap + h // 2 - min(ys))
    _draw_strip(canvas, view, width)
    _draw_terrain(canvas, view, grid, legend)
    labels = _Labels.from_view(view.hexes)
    _draw_edge_labels(canvas, view, grid, labels, label_size, side, cap, strip, board_h, width)
    _draw_battle_marker(canvas, view, grid)
    _draw_sites(canvas, view, grid)
    _draw_path(canvas, view, grid)
    _draw_armies(canvas, view, grid)
    _draw_panels(canvas, view, pool, legend, strip + board_h, width)
    return canvas.finish()


# ------------------------------------------------------------------- status strip
_STRIP_TITLE = 34
_STRIP_ROW = 40


def _strip_columns(view: PublicView) -> int:
    return 2 if len(view.players) > 3 else 1


def _strip_height(view: PublicView, width: int) -> int:
    rows = math.ceil(len(view.players) / _strip_columns(view))
    extra = _STRIP_ROW if view.pending or view.result.finished else 0
    return 24 + _STRIP_TITLE + 18 + rows * _STRIP_ROW + extra + 16


def _phase_name(view: PublicView) -> str:
    if view.battle is not None:
        return f"Battle at {view.battle.label}"
    return _PHASES.get(view.phase, view.phase.title())


def _draw_strip(canvas: Canvas, view: PublicView, width: int) -> None:
    """Round, active player and phase, then one row per player with their counts."""
    active = seat_label(view.active)
    title = f"Round {view.round} · {active}'s turn · {_phase_name(view)}"
    canvas.draw.rectangle((0, 0, width, _strip_height(view, width)), fill=PANEL)
    canvas.text((24, 24), title, _STRIP_TITLE, LIGHT, weight="bold", kind="title", key="strip")
    columns = _strip_columns(view)
    col_w = (width - 48) // columns
    name_room = _name_room(view)
    top = 24 + _STRIP_TITLE + 18
    for index, player in enumerate(view.players):
        x = 24 + (index % columns) * col_w
        y = top + (index // columns) * _STRIP_ROW
        _player_row(canvas, player, x, y, col_w - 12, player.seat == view.active, name_room)
    y = top + math.ceil(len(view.players) / columns) * _STRIP_ROW
    note = _strip_note(view)
    if note:
        canvas.text(
            (24, y + 4),
            ellipsize(note, width - 48, 26),
            26,
            HIGHLIGHT,
            weight="medium",
            kind="note",
        )


def _strip_note(view: PublicView) -> str:
    if view.result.finished:
        winners = ", ".join(seat_label(s) for s in view.result.winners) or "nobody"
        return f"Game over — winner: {winners}. {view.result.reason}".strip()
    if view.pending:
        first = view.pending[0]
        more = f" (+{len(view.pending) - 1} more)" if len(view.pending) > 1 else ""
        return f"Waiting: {first.prompt}{more}"
    return ""


def _name_room(view: PublicView) -> int:
    """Width of the strip's name column: the widest player name, at most 200 px."""
    widest = max((text_width(p.name, 26, "bold") for p in view.players), default=60)
    return min(200, widest) + 16


def _player_row(
    canvas: Canvas,
    player: PlayerView,
    x: int,
    y: int,
    width: int,
    active: bool,
    name_room: int,
) -> None:
    """One player: shape badge, name, then Towns / Armies / Hand / Risk Stack counts."""
    colour = seat_rgb(player.seat)
    if active:
        canvas.draw.rounded_rectangle(
            (x - 8, y - 3, x + width, y + _STRIP_ROW - 5), radius=8, outline=HIGHLIGHT, width=3
        )
    sprite = badge(seat_shape(player.seat), 26, colour, WHITE)
    paste_centred(canvas.image, sprite, x + 18, y + 17)
    name_colour = MUTED if player.eliminated else LIGHT
    canvas.text(
        (x + 40, y + 17),
        ellipsize(player.name, name_room - 16, 26, "bold"),
        26,
        name_colour,
        weight="bold",
        anchor="lm",
        kind="player",
        key=f"seat:{player.seat}",
    )
    if player.eliminated:
        stats = "eliminated"
    else:
        stats = (
            f"Towns {player.towns} · Armies {player.armies} · "
            f"Hand {player.hand_size} · Risk {player.risk_size}"
        )
    room = width - 40 - name_room - 8
    size = fit_size(stats, room, 26, 22)
    canvas.text(
        (x + 40 + name_room, y + 17),
        ellipsize(stats, room, size),
        size,
        name_colour,
        anchor="lm",
        kind="player_stats",
        key=f"seat:{player.seat}",
    )


# ------------------------------------------------------------------------ terrain
def _draw_terrain(
    canvas: Canvas, view: PublicView, grid: Grid, legend: Mapping[str, Terrain]
) -> None:
    looks: dict[str, TerrainLook] = {}
    for hv in view.hexes:
        look = looks.get(hv.terrain)
        if look is None:
            look = looks[hv.terrain] = look_for(hv.terrain, legend.get(hv.terrain))
        tile = hex_tile(look, grid.w, grid.h)
        cx, cy = grid.centre(hv.q, hv.r)
        canvas.image.paste(tile, (cx - grid.w // 2, cy - grid.h // 2), tile)
        canvas.mark(
            "hex",
            hv.label,
            (cx - grid.w // 2, cy - grid.h // 2, cx + grid.w // 2, cy + grid.h // 2),
            text="",
        )
    size = max(11, int(grid.w * 0.2))
    for hv in view.hexes:
        cx, cy = grid.centre(hv.q, hv.r)
        canvas.text(
            (cx, cy - grid.h * 0.3),
            hv.label,
            size,
            WHITE,
            weight="bold",
            anchor="mm",
            stroke=2,
            stroke_fill=BLACK,
            kind="hex_label",
            key=hv.label,
        )


def _draw_edge_labels(
    canvas: Canvas,
    view: PublicView,
    grid: Grid,
    labels: _Labels,
    size: int,
    side: int,
    cap: int,
    top: int,
    board_h: int,
    width: int,
) -> None:
    """Column letters above and below the board, row numbers left and right of it."""
    cols_rows = [_split(hv.label) for hv in view.hexes]
    last_col = max(c for c, _ in cols_rows)
    last_row = max(r for _, r in cols_rows)
    xs = [grid.centre(hv.q, hv.r)[0] for hv in view.hexes]
    left_x = min(xs) - grid.w // 2 - side // 2
    right_x = max(xs) + grid.w // 2 + side // 2
    for col in range(last_col + 1):
        name = column_name(col)
        x_top = grid.centre(*labels.axial(col, 0))[0]
        x_bottom = grid.centre(*labels.axial(col, last_row))[0]
        canvas.text(
            (x_top, top + cap // 2),
            name,
            size,
            LIGHT,
            weight="bold",
            anchor="mm",
            kind="edge_label",
            key=f"col:{name}:top",
        )
        canvas.text(
            (x_bottom, top + board_h - cap // 2),
            name,
            size,
            LIGHT,
            weight="bold",
            anchor="mm",
            kind="edge_label",
            key=f"col:{name}:bottom",
        )
    for row in range(last_row + 1):
        y = grid.centre(*labels.axial(0, row))[1]
        number = str(row + 1)
        canvas.text(
            (left_x, y),
            number,
            size,
            LIGHT,
            weight="bold",
            anchor="mm",
            kind="edge_label",
            key=f"row:{number}:left",
        )
        canvas.text(
            (right_x, y),
            number,
            size,
            LIGHT,
            weight="bold",
            anchor="mm",
            kind="edge_label",
            key=f"row:{number}:right",
        )


def _split(label: str) -> tuple[int, int]:
    match = _LABEL.match(label.upper())
    if match is None:
        raise ValueError(f"hex label {label!r} is not like C4")
    return column_index(match.group(1)), int(match.group(2)) - 1


def _centres(view: PublicView, grid: Grid) -> dict[str, tuple[int, int]]:
    return {hv.label: grid.centre(hv.q, hv.r) for hv in view.hexes}


# ------------------------------------------------------------------- battle marker
def _draw_battle_marker(canvas: Canvas, view: PublicView, grid: Grid) -> None:
    if view.battle is None:
        return
    where = _centres(view, grid).get(view.battle.label)
    if where is None:
        return
    cx, cy = where
    outline = hex_polygon(cx, cy, grid.w - 2, grid.h - 2)
    canvas.draw.polygon(outline, outline=BLACK, width=max(5, grid.w // 9))
    canvas.draw.polygon(outline, outline=HIGHLIGHT, width=max(3, grid.w // 14))
    sprite = icons.crossed_swords(int(grid.w * 0.42), HIGHLIGHT, BLACK)
    box = paste_centred(canvas.image, sprite, cx + int(grid.w * 0.3), cy - int(grid.h * 0.28))
    canvas.mark("battle", view.battle.label, box)


# -------------------------------------------------------------------------- sites
def site_fill(site: SiteView) -> RGB:
    """The icon fill of ``site``: grey unidentified, parchment identified/guarded, the
    owner's colour when owned, dim when spent."""
    if site.status == "unidentified":
        return icons.UNKNOWN_FILL
    if site.status == "spent":
        return icons.SPENT_FILL
    if site.status == "owned" and site.owner is not None:
        return seat_rgb(site.owner)
    return PAPER


def _draw_sites(canvas: Canvas, view: PublicView, grid: Grid) -> None:
    size = int(grid.w * 0.62)
    occupied = {(a.q, a.r) for a in view.armies}
    for site in view.sites:
        cx, cy = grid.centre(site.q, site.r)
        if (site.q, site.r) in occupied:
            cx -= int(grid.w * 0.16)
        cy += int(grid.h * 0.04)
        sprite = icons.site_icon(site.kind, site_fill(site), size)
        box = paste_centred(canvas.image, sprite, cx, cy)
        card = site.card.card if site.card is not None else None
        instance = site.card.id if site.card is not None else None
        canvas.mark("site", site.label, box, text=site.status, card=card, instance=instance)
        _site_badges(canvas, site, cx, cy, size)


def _site_badges(canvas: Canvas, site: SiteView, cx: int, cy: int, size: int) -> None:
    half = size // 2
    if site.status == "unidentified":
        canvas.text(
            (cx, cy + size * 0.1),
            "?",
            int(size * 0.62),
            WHITE,
            weight="bold",
            anchor="mm",
            stroke=2,
            stroke_fill=INK,
            kind="site_state",
            key=site.label,
        )
    elif site.status == "spent":
        for width, colour in ((max(5, size // 7), INK), (max(3, size // 12), WHITE)):
            canvas.draw.line(
                [(cx - half * 0.6, cy - half * 0.6), (cx + half * 0.6, cy + half * 0.6)],
                fill=colour,
                width=width,
            )
            canvas.draw.line(
                [(cx - half * 0.6, cy + half * 0.6), (cx + half * 0.6, cy - half * 0.6)],
                fill=colour,
                width=width,
            )
    if site.status == "guarded":
        sprite = icons.shield(int(size * 0.6))
        bx, by = cx + int(half * 0.78), cy - int(half * 0.55)
        paste_centred(canvas.image, sprite, bx, by)
        canvas.text(
            (bx, by - size * 0.04),
            str(len(site.guard)),
            int(size * 0.3),
            WHITE,
            weight="bold",
            anchor="mm",
            kind="guard",
            key=site.label,
        )
    if site.status == "owned" and site.owner is not None:
        sprite = badge(seat_shape(site.owner), int(size * 0.38), seat_rgb(site.owner), WHITE)
        paste_centred(canvas.image, sprite, cx + int(half * 0.8), cy + int(half * 0.62))
        canvas.mark("owner", site.label, (cx, cy, cx + 1, cy + 1), text=seat_label(site.owner))
    if site.kind == "town" and site.level is not None and site.status != "unidentified":
        r = int(size * 0.2)
        bx, by = cx - int(half * 0.8), cy - int(half * 0.62)
        canvas.draw.ellipse((bx - r, by - r, bx + r, by + r), fill=GOLD, outline=INK, width=2)
        canvas.text(
            (bx, by),
            str(site.level),
            int(r * 1.5),
            INK,
            weight="bold",
            anchor="mm",
            kind="town_level",
            key=site.label,
        )


# ---------------------------------------------------------------------- last move
def _draw_path(canvas: Canvas, view: PublicView, grid: Grid) -> None:
    """The last move: a line in the mover's colour through every hex crossed, an arrow."""
    centres = _centres(view, grid)
    points = [centres[label] for label in view.last_move if label in centres]
    if len(points) < 2:
        return
    colour = seat_rgb(view.last_move_owner)
    outer, inner = max(8, grid.w // 7), max(4, grid.w // 12)
    canvas.draw.line(points, fill=BLACK, width=outer, joint="curve")
    canvas.draw.line(points, fill=colour, width=inner, joint="curve")
    dot = max(4, grid.w // 12)
    for x, y in points[:-1]:
        canvas.draw.ellipse(
            (x - dot, y - dot, x + dot, y + dot), fill=colour, outline=BLACK, width=2
        )
    (x0, y0), (x1, y1) = points[-2], points[-1]
    angle = math.atan2(y1 - y0, x1 - x0)
    back = grid.w * 0.34  # the tip stops at the token's rim, so the token does not hide it
    tip = (x1 - math.cos(angle) * back, y1 - math.sin(angle) * back)
    size = grid.w * 0.3
    head = [
        tip,
        (tip[0] - size * math.cos(angle - 0.5), tip[1] - size * math.sin(angle - 0.5)),
        (tip[0] - size * math.cos(angle + 0.5), tip[1] - size * math.sin(angle + 0.5)),
    ]
    canvas.draw.polygon(head, fill=colour, outline=BLACK, width=2)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    canvas.mark(
        "path", "->".join(view.last_move), (min(xs), min(ys), max(xs) + 1, max(ys) + 1), text=""
    )


# ------------------------------------------------------------------------- armies
_SPREAD = {
    1: ((0.0, 0.0),),
    2: ((-0.2, 0.0), (0.2, 0.0)),
    3: ((-0.2, -0.12), (0.2, -0.12), (0.0, 0.18)),
    4: ((-0.2, -0.14), (0.2, -0.14), (-0.2, 0.18), (0.2, 0.18)),
}


def army_spots(armies: list[ArmyView], has_site: bool, grid: Grid) -> list[tuple[int, int, int]]:
    """Token centres (dx, dy offsets from the hex centre) and diameter for the armies on
    one hex: one token sits right of a site icon; several share the hex, smaller."""
    n = len(armies)
    diameter = int(grid.w * (0.62 if n == 1 else 0.5 if n == 2 else 0.42))
    if n == 1:
        dx = int(grid.w * 0.2) if has_site else 0
        return [(dx, int(grid.h * 0.05), diameter)]
    spots = _SPREAD.get(n) or tuple(
        (0.28 * math.cos(2 * math.pi * i / n), 0.24 * math.sin(2 * math.pi * i / n))
        for i in range(n)
    )
    return [(int(dx * grid.w), int(dy * grid.w), diameter) for dx, dy in spots]


def _draw_armies(canvas: Canvas, view: PublicView, grid: Grid) -> None:
    """Each Army token in its owner's colour and shape with its number (the army id the
    commands take), white on the token, outlined for contrast."""
    by_hex: dict[tuple[int, int], list[ArmyView]] = {}
    for army in view.armies:
        by_hex.setdefault((army.q, army.r), []).append(army)
    sites = {(s.q, s.r) for s in view.sites}
    for where in sorted(by_hex):
        armies = sorted(by_hex[where], key=lambda a: (a.owner, a.id))
        cx, cy = grid.centre(*where)
        for army, (dx, dy, diameter) in zip(
            armies, army_spots(armies, where in sites, grid), strict=True
        ):
            sprite = token(seat_shape(army.owner), diameter, seat_rgb(army.owner), WHITE, BLACK)
            x, y = cx + dx, cy + dy
            box = paste_centred(canvas.image, sprite, x, y)
            number = str(army.id)
            size = int(diameter * (0.56 if len(number) < 2 else 0.46))
            ty = y + (diameter * 0.1 if seat_shape(army.owner) == "triangle" else 0)
            canvas.text(
                (x, ty),
                number,
                size,
                WHITE,
                weight="bold",
                anchor="mm",
                stroke=2,
                stroke_fill=BLACK,
                kind="army_number",
                key=f"army:{army.id}",
            )
            top = army.cards[0] if army.cards else None
            canvas.mark(
                "army",
                f"army:{army.id}",
                box,
                text=number,
                card=top.card if top else None,
                instance=top.id if top else None,
            )


# ------------------------------------------------------------------- legend, lists
_PANEL_FONT = 24
_PANEL_ROW = 34


def _terrains_present(view: PublicView, legend: Mapping[str, Terrain]) -> list[str]:
    present = {hv.terrain for hv in view.hexes}
    ordered = [code for code in legend if code in present]
    return ordered + sorted(present - set(ordered))


def _legend_cols(width: int) -> int:
    return max(2, (width - 48) // 270)


def _site_lines(view: PublicView, pool: CardPool) -> list[tuple[SiteView, str]]:
    lines = []
    for site in sorted(view.sites, key=lambda s: _split(s.label)[::-1]):
        if site.status == "unidentified":
            continue
        lines.append((site, site_text(site, pool)))
    return lines


def _list_columns(width: int, cell: int) -> int:
    return max(2, (width - 48) // cell)


_SITE_CELL = 360
_ARMY_CELL = 520


def _panel_height(view: PublicView, legend: Mapping[str, Terrain], width: int) -> int:
    terrain_rows = math.ceil(len(_terrains_present(view, legend)) / _legend_cols(width))
    army_rows = math.ceil(len(view.armies) / _list_columns(width, _ARMY_CELL))
    identified = sum(1 for s in view.sites if s.status != "unidentified")
    site_rows = math.ceil(identified / _list_columns(width, _SITE_CELL))
    return (
        20
        + 40
        + terrain_rows * 48
        + 8
        + 56
        + 2 * (40 + 12)
        + (max(1, army_rows) + max(1, site_rows)) * _PANEL_ROW
        + 12
    )


def _card_name(pool: CardPool, card_id: str) -> str:
    found = pool.cards.get(card_id)
    return found.name if found is not None else card_id


def site_text(site: SiteView, pool: CardPool) -> str:
    """One short line about an identified site: ``"C4 Asylum L2 · Red"``,
    ``"F7 Orc · guarded 3"``, ``"H2 Gold Mine · unclaimed"``, ``"B5 taken"``."""
    if site.card is None:
        return (
            f"{site.label} taken" if site.status == "spent" else f"{site.label} {_KINDS[site.kind]}"
        )
    head = f"{site.label} {_card_name(pool, site.card.card)}"
    if site.kind == "town" and site.level is not None:
        head += f" L{site.level}"
    if site.status == "owned":
        garrison = f" +{len(site.garrison)}" if site.garrison else ""
        return f"{head} · {seat_label(site.owner)}{garrison}"
    if site.status == "guarded":
        return f"{head} · guarded {len(site.guard)}"
    if site.status == "spent":
        return f"{head} · taken"
    return f"{head} · unclaimed"


def army_text(army: ArmyView, pool: CardPool) -> str:
    """One line about an Army: ``"C4 · Sorcerer +4 · MP 3/5"`` (top card, other cards,
    Movement Points left of its total)."""
    top = _card_name(pool, army.cards[0].card) if army.cards else "empty"
    more = f" +{len(army.cards) - 1}" if len(army.cards) > 1 else ""
    left = str(int(army.mp_left)) if army.mp_left == int(army.mp_left) else f"{int(army.mp_left)}½"
    return f"{army.label} · {top}{more} · MP {left}/{army.movement}"


def _draw_panels(
    canvas: Canvas,
    view: PublicView,
    pool: CardPool,
    legend: Mapping[str, Terrain],
    top: int,
    width: int,
) -> None:
    """Terrain legend, icon key, the Armies list and the identified sites list."""
    draw = canvas.draw
    draw.rectangle((0, top, width, canvas.image.height), fill=PANEL)
    draw.line([(0, top), (width, top)], fill=PANEL_LINE, width=2)
    y = top + 20
    canvas.text(
        (24, y),
        "Terrain (Movement Points; X = impassable)",
        26,
        LIGHT,
        weight="bold",
        kind="heading",
        key="terrain",
    )
    y += 40
    cols = _legend_cols(width)
    col_w = (width - 48) // cols
    sw, sh = 40, 44
    present = _terrains_present(view, legend)
    for i, code in enumerate(present):
        x = 24 + (i % cols) * col_w
        ry = y + (i // cols) * 48
        terrain = legend.get(code)
        tile = hex_tile(look_for(code, terrain), sw, sh)
        canvas.image.paste(tile, (x, ry), tile)
        text = (
            code
            if terrain is None
            else f"{terrain.name} ({terrain.cost if terrain.passable else 'X'})"
        )
        canvas.text(
            (x + sw + 10, ry + sh // 2),
            ellipsize(text, col_w - sw - 16, _PANEL_FONT),
            _PANEL_FONT,
            LIGHT,
            anchor="lm",
            kind="legend",
            key=code,
        )
    y += math.ceil(len(present) / cols) * 48 + 8
    y = _icon_key(canvas, y, width)
    y = _army_list(canvas, view, pool, y, width)
    _site_list(canvas, view, pool, y, width)


def _army_list(canvas: Canvas, view: PublicView, pool: CardPool, y: int, width: int) -> int:
    canvas.text((24, y), "Armies", 26, LIGHT, weight="bold", kind="heading", key="armies")
    y += 40
    cols = _list_columns(width, _ARMY_CELL)
    cell = (width - 48) // cols
    armies = sorted(view.armies, key=lambda a: (a.owner, a.id))
    for i, army in enumerate(armies):
        x = 24 + (i % cols) * cell
        ry = y + (i // cols) * _PANEL_ROW
        sprite = token(seat_shape(army.owner), 30, seat_rgb(army.owner), WHITE, BLACK)
        paste_centred(canvas.image, sprite, x + 16, ry + 14)
        canvas.text((x + 16, ry + 14), str(army.id), 15, WHITE, weight="bold", anchor="mm")
        top_card = army.cards[0] if army.cards else None
        canvas.text(
            (x + 40, ry + 14),
            ellipsize(army_text(army, pool), cell - 52, _PANEL_FONT),
            _PANEL_FONT,
            LIGHT,
            anchor="lm",
            kind="army_line",
            key=f"army:{army.id}",
            card=top_card.card if top_card else None,
            instance=top_card.id if top_card else None,
        )
    if not armies:
        canvas.text((24, y), "none on the board", _PANEL_FONT, MUTED)
    return y + max(1, math.ceil(len(armies) / cols)) * _PANEL_ROW + 12


def _site_list(canvas: Canvas, view: PublicView, pool: CardPool, y: int, width: int) -> None:
    canvas.text((24, y), "Identified sites", 26, LIGHT, weight="bold", kind="heading", key="sites")
    y += 40
    cols = _list_columns(width, _SITE_CELL)
    cell = (width - 48) // cols
    lines = _site_lines(view, pool)
    for i, (site, text) in enumerate(lines):
        x = 24 + (i % cols) * cell
        ry = y + (i // cols) * _PANEL_ROW
        sprite = icons.site_icon(site.kind, site_fill(site), 28)
        paste_centred(canvas.image, sprite, x + 14, ry + 14)
        card = site.card.card if site.card is not None else None
        instance = site.card.id if site.card is not None else None
        canvas.text(
            (x + 36, ry + 14),
            ellipsize(text, cell - 44, _PANEL_FONT),
            _PANEL_FONT,
            LIGHT,
            anchor="lm",
            kind="site_line",
            key=site.label,
            card=card,
            instance=instance,
        )
    if not lines:
        canvas.text((24, y), "none yet", _PANEL_FONT, MUTED)


def _icon_key(canvas: Canvas, y: int, width: int) -> int:
    """The icon legend: kinds, then states. Returns the y below it."""
    entries: list[tuple[icons.Kind, RGB, str]] = [
        ("town", PAPER, "Town"),
        ("dwelling", PAPER, "Dwelling"),
        ("object", PAPER, "Object"),
        ("town", icons.UNKNOWN_FILL, "? unidentified"),
        ("town", seat_rgb(0), "owned (colour + shape)"),
    ]
    x = 24
    for kind, fill, text in entries:
        sprite = icons.site_icon(kind, fill, 34)
        paste_centred(canvas.image, sprite, x + 17, y + 18)
        if text.startswith("?"):
            canvas.text(
                (x + 17, y + 21),
                "?",
                22,
                WHITE,
                weight="bold",
                anchor="mm",
                stroke=1,
                stroke_fill=INK,
            )
            text = text[2:]
        canvas.text(
            (x + 40, y + 18), text, 22, LIGHT, anchor="lm", kind="legend", key=f"icon:{text}"
        )
        x += 40 + text_width(text, 22) + 26
    sprite = icons.shield(28)
    paste_centred(canvas.image, sprite, x + 14, y + 18)
    canvas.text(
        (x + 34, y + 18), "Guard (cards)", 22, LIGHT, anchor="lm", kind="legend", key="icon:guard"
    )
    x += 34 + text_width("Guard (cards)", 22) + 26
    if x + 200 < width:
        canvas.draw.ellipse((x, y + 6, x + 24, y + 30), fill=GOLD, outline=INK, width=2)
        canvas.text((x + 12, y + 18), "2", 18, INK, weight="bold", anchor="mm")
        canvas.text(
            (x + 32, y + 18), "Town level", 22, LIGHT, anchor="lm", kind="legend", key="icon:level"
        )
    return y + 56
