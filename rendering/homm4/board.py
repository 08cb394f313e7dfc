"""The Game Board picture: terrain, icons, Army tokens, hex names, last move, status strip.

Rule sections: homm4:terrain-map-sections (the assembled map), homm4:movement-phase
(Movement Points and terrain legend, scouting, towns, dwellings, objects),
homm4:army-and-object-town-tokens, homm4:game-process (round, active player, phase).

Layout, top to bottom: the status strip (round, whose turn, phase, then per player: towns,
Armies, Hand and Risk Stack sizes, and their team letter in Team Play; the teams and the
advanced rules in effect), the board with column letters above and below and row
numbers left and right (the names the commands accept, e.g. ``C4``), then the legend
(terrain types present, icon states) and lists of the identified sites and the Armies.
Everything drawn comes from the `PublicView`.

The advanced rules' public state (homm4:advanced-rules, homm4:game-variants,
homm4:terrain-map-sections-with-underground) is drawn only when the view has it, so a base
game's picture is unchanged: an underground entrance coin on its Object icon (numbered by
pair; gold once found, dark with a gold rim before), the buyer's badge on a sold Object, a
face-down card in its player's colour with its Object token number where a dead Hero lies,
and a list of them ("Advanced rules on the board") under the Armies.
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
from rendering.canvas import Canvas, Drawing, drawn_once, ellipsize, fit_size, text_width
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
    panel = _panel_height(view, pool, legend, width)
    canvas = Canvas(width, strip + board_h + panel, PAGE)

    left = (width - board_w) // 2 + side
    grid = Grid(w, h, left + w // 2 - min(xs), strip + cap + h // 2 - min(ys))
    _draw_strip(canvas, view, width)

    def static(part: Canvas) -> None:  # the same in every picture of the game
        _draw_terrain(part, view, grid, legend)
        labels = _Labels.from_view(view.hexes)
        _draw_edge_labels(part, view, grid, labels, label_size, side, cap, strip, board_h, width)

    terrains = _terrain_key(view, legend)
    sizes = (grid, label_size, side, cap, strip, board_h, width)
    drawn_once(canvas, ("homm4 board terrain", view.hexes, terrains, sizes), static)
    _draw_battle_marker(canvas, view, grid)
    _draw_sites(canvas, view, grid)
    _draw_fallen(canvas, view, grid)
    _draw_path(canvas, view, grid)
    _draw_armies(canvas, view, grid)
    _draw_panels(canvas, view, pool, legend, strip + board_h, width)
    return canvas.finish()


def _terrain_key(view: PublicView, legend: Mapping[str, Terrain]) -> tuple[object, ...]:
    """What the terrain drawn reads of ``legend``: the entries of the terrains present."""
    return tuple((code, legend.get(code)) for code in sorted({hv.terrain for hv in view.hexes}))


# ------------------------------------------------------------------- status strip
@dataclass(frozen=True)
class _StripSize:
    """The strip's sizes (px) for one image width: at `MIN_WIDTH` the base sizes, on a
    wider board larger in proportion, so that the strip reads the same on a phone, where
    Discord shows every picture about 500 px wide."""

    scale: float

    def px(self, base: int) -> int:
        """``base`` px (at `MIN_WIDTH`) at this width."""
        return round(base * self.scale)

    @property
    def title(self) -> int:
        return self.px(34)

    @property
    def row(self) -> int:
        return self.px(40)

    @property
    def line(self) -> int:
        return self.px(34)

    @property
    def font(self) -> int:
        return self.px(24)

    @property
    def name(self) -> int:
        return self.px(26)

    @property
    def team_tag(self) -> int:
        return self.px(30)


def _strip_size(width: int) -> _StripSize:
    return _StripSize(max(1.0, width / MIN_WIDTH))


def _strip_columns(view: PublicView) -> int:
    return 2 if len(view.players) > 3 else 1


_SHORT_RULES = {
    "Flying Armies": "Flying",
    "Native and Special Lands": "Native Lands",
    "Buying Heroes of Other Factions": "Other-faction Heroes",
    "Resurrecting Fallen Heroes": "Resurrection",
    "Potions of Immortality": "Potions",
    "Resource Trading": "Trading",
    "Different Starting Forces": "Starting Forces",
    "Tournament decks": "Tournament decks",
}
"""Short names for the options line of the strip (the rulebook's names are long)."""


def team_letter(view: PublicView, seat: int) -> str | None:
    """The letter of ``seat``'s team (``"A"`` for the first team), None without Team Play
    (homm4:game-variants.team-play)."""
    for index, team in enumerate(view.teams):
        if seat in team:
            return chr(ord("A") + index)
    return None


def rules_text(view: PublicView) -> str:
    """The options in effect in a few words, ``"Options: Morale · Luck · Underground"``
    (the details are in /game status); Team Play is left out (the teams line shows it);
    "" for the base game (homm4:advanced-rules, homm4:game-variants)."""
    names: list[str] = []
    for line in view.rules:
        name = line.split(" (")[0].split(":")[0].strip()
        if name == "Team Play":
            continue
        names.append(_SHORT_RULES.get(name, name))
    return "Options: " + " · ".join(names) if names else ""


def teams_text(view: PublicView) -> str:
    """``"Teams: A Red + Green · B Blue + Orange"``, or "" without Team Play
    (homm4:game-variants.team-play)."""
    if not view.teams:
        return ""
    parts = [
        f"{chr(ord('A') + i)} " + " + ".join(seat_label(s) for s in team)
        for i, team in enumerate(view.teams)
    ]
    return "Teams: " + " · ".join(parts)


def _wrap_dots(text: str, width: int, size: int) -> list[str]:
    """Break a ``" · "``-separated line into lines of at most ``width`` px."""
    lines: list[str] = []
    current = ""
    for part in text.split(" · "):
        trial = f"{current} · {part}" if current else part
        if current and text_width(trial, size, "medium") > width:
            lines.append(current)
            current = part
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def _strip_lines(view: PublicView, width: int) -> list[tuple[str, str]]:
    """The strip's extra lines: ``(key, text)`` for the teams and the options in effect."""
    lines: list[tuple[str, str]] = []
    teams = teams_text(view)
    if teams:
        lines.append(("teams", teams))
    rules = rules_text(view)
    if rules:
        wrapped = _wrap_dots(rules, width - 48, _strip_size(width).font)
        lines += [(f"rules:{i}", text) for i, text in enumerate(wrapped)]
    return lines


def _strip_height(view: PublicView, width: int) -> int:
    size = _strip_size(width)
    rows = math.ceil(len(view.players) / _strip_columns(view))
    extra = size.row if view.pending or view.result.finished else 0
    extra += size.line * len(_strip_lines(view, width))
    return 24 + size.title + size.px(18) + rows * size.row + extra + 16


def _phase_name(view: PublicView) -> str:
    if view.battle is not None:
        return f"Battle at {view.battle.label}"
    return _PHASES.get(view.phase, view.phase.title())


def _draw_strip(canvas: Canvas, view: PublicView, width: int) -> None:
    """Round, active player and phase, then one row per player with their counts. A
    finished game names no one's turn."""
    active = seat_label(view.active)
    over = view.result.finished
    title = (
        f"Round {view.round} · Game over"
        if over
        else f"Round {view.round} · {active}'s turn · {_phase_name(view)}"
    )
    size = _strip_size(width)
    canvas.draw.rectangle((0, 0, width, _strip_height(view, width)), fill=PANEL)
    canvas.text((24, 24), title, size.title, LIGHT, weight="bold", kind="title", key="strip")
    columns = _strip_columns(view)
    col_w = (width - 48) // columns
    name_room = _name_room(view, size)
    top = 24 + size.title + size.px(18)
    for index, player in enumerate(view.players):
        x = 24 + (index % columns) * col_w
        y = top + (index // columns) * size.row
        team = team_letter(view, player.seat)
        turn = player.seat == view.active and not over
        _player_row(canvas, player, x, y, col_w - 12, turn, name_room, size, team)
    y = top + math.ceil(len(view.players) / columns) * size.row
    for key, text in _strip_lines(view, width):
        canvas.text(
            (24, y + 2),
            ellipsize(text, width - 48, size.font, "medium"),
            size.font,
            LIGHT,
            weight="medium",
            kind="strip_line",
            key=key,
        )
        y += size.line
    note = _strip_note(view)
    if note:
        canvas.text(
            (24, y + 4),
            ellipsize(note, width - 48, size.name),
            size.name,
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


def _name_room(view: PublicView, size: _StripSize) -> int:
    """Width of the strip's name column: the widest player name, at most 200 px at
    `MIN_WIDTH` (and the team tag in Team Play)."""
    widest = max((text_width(p.name, size.name, "bold") for p in view.players), default=60)
    tag = size.team_tag + size.px(8) if view.teams else 0
    return min(size.px(200), widest) + size.px(16) + tag


def _player_row(
    canvas: Canvas,
    player: PlayerView,
    x: int,
    y: int,
    width: int,
    active: bool,
    name_room: int,
    size: _StripSize,
    team: str | None = None,
) -> None:
    """One player: shape badge, team tag (Team Play), name, then Towns / Armies / Hand /
    Risk Stack counts."""
    colour = seat_rgb(player.seat)
    mid = y + size.px(17)
    if active:
        canvas.draw.rounded_rectangle(
            (x - 8, y - 3, x + width, y + size.row - 5), radius=8, outline=HIGHLIGHT, width=3
        )
    sprite = badge(seat_shape(player.seat), size.px(26), colour, WHITE)
    paste_centred(canvas.image, sprite, x + size.px(18), mid)
    name_colour = MUTED if player.eliminated else LIGHT
    lead = size.px(40)
    name_x, name_width = x + lead, name_room - size.px(16)
    if team is not None:
        tag = size.team_tag
        canvas.draw.rounded_rectangle(
            (x + lead, mid - tag // 2, x + lead + tag, mid + tag // 2), radius=6, fill=LIGHT
        )
        canvas.text(
            (x + lead + tag // 2, mid),
            team,
            size.font,
            INK,
            weight="bold",
            anchor="mm",
            kind="team",
            key=f"seat:{player.seat}",
        )
        name_x += tag + size.px(8)
        name_width -= tag + size.px(8)
    canvas.text(
        (name_x, mid),
        ellipsize(player.name, name_width, size.name, "bold"),
        size.name,
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
    room = width - lead - name_room - 8
    font_size = fit_size(stats, room, size.name, size.px(22))
    canvas.text(
        (x + lead + name_room, mid),
        ellipsize(stats, room, font_size),
        font_size,
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
    if site.entrance is not None:
        _entrance_coin(canvas, site, cx - int(half * 0.72), cy - int(half * 0.56), size)
    if site.sold_to is not None:
        bx, by = cx - int(half * 0.8), cy + int(half * 0.62)
        sprite = badge(seat_shape(site.sold_to), int(size * 0.42), seat_rgb(site.sold_to), WHITE)
        box = paste_centred(canvas.image, sprite, bx, by)
        canvas.text(
            (bx, by),
            "$",
            int(size * 0.3),
            WHITE,
            weight="bold",
            anchor="mm",
            stroke=1,
            stroke_fill=INK,
        )
        canvas.mark("sold", site.label, box, text=seat_label(site.sold_to))
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


def _entrance_coin(canvas: Canvas, site: SiteView, x: int, y: int, size: int) -> None:
    """The entrance coin of ``site`` centred on ``(x, y)``: its pair number, large enough to
    read on a phone (homm4:terrain-map-sections-with-underground)."""
    diameter = int(size * 0.7)
    paste_centred(canvas.image, icons.coin(diameter, site.entrance_found), x, y)
    colour = INK if site.entrance_found else GOLD
    canvas.text(
        (x, y),
        str(site.entrance),
        int(size * 0.56),
        colour,
        weight="bold",
        anchor="mm",
        stroke=2,
        stroke_fill=GOLD if site.entrance_found else INK,
        kind="entrance",
        key=site.label,
    )


# ------------------------------------------------------------------- dead Heroes
def _draw_fallen(canvas: Canvas, view: PublicView, grid: Grid) -> None:
    """A face-down card in its player's colour, with its Object token number, where each
    dead Hero lies on the board (homm4:advanced-rules.resurrecting-fallen-heroes); one
    carried by an Army is listed below the board only."""
    centres = _centres(view, grid)
    with_site = {s.label: s for s in view.sites}
    seen: dict[str, int] = {}
    for body in view.fallen:
        if body.army is not None or body.label not in centres:
            continue
        cx, cy = centres[body.label]
        shift = seen.get(body.label, 0)
        seen[body.label] = shift + 1
        site = with_site.get(body.label)
        if site is not None:  # at the icon's left, clear of its coin or its sold badge
            width = max(14, int(grid.w * 0.3))
            x = cx - int(grid.w * 0.33)
            y = cy + int(grid.h * (0.2 if site.entrance is not None else -0.05))
        else:  # where an icon would stand: an Army token moves aside as for a site
            width = max(16, int(grid.w * 0.38))
            x, y = cx - int(grid.w * 0.2), cy + int(grid.h * 0.04)
        x += shift * int(grid.w * 0.14)
        sprite = icons.face_down_card(width, seat_rgb(body.seat))
        box = paste_centred(canvas.image, sprite, x, y)
        canvas.text(
            (x, y),
            str(body.token),
            int(width * 0.9),
            WHITE,
            weight="bold",
            anchor="mm",
            stroke=2,
            stroke_fill=BLACK,
            kind="fallen_token",
            key=f"hero:{body.hero.id}",
        )
        canvas.mark(
            "fallen",
            f"hero:{body.hero.id}",
            box,
            text=body.label,
            card=body.hero.card,
            instance=body.hero.id,
        )


def _lying(view: PublicView) -> set[str]:
    """The hexes where a dead Hero lies on the board (not carried)."""
    return {body.label for body in view.fallen if body.army is None}


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
    sites |= {(a.q, a.r) for a in view.armies if a.label in _lying(view)}
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


def _site_columns(lines: list[tuple[SiteView, str]], width: int) -> int:
    """Columns of the site list: as many as `_SITE_CELL` allows, fewer (down to 2) when
    the longest line would otherwise be cut short."""
    cols = _list_columns(width, _SITE_CELL)
    longest = max((text_width(text, _PANEL_FONT) for _, text in lines), default=0)
    while cols > 2 and longest > (width - 48) // cols - 44:
        cols -= 1
    return cols


_SITE_CELL = 360
_ARMY_CELL = 520


def _panel_height(
    view: PublicView, pool: CardPool, legend: Mapping[str, Terrain], width: int
) -> int:
    terrain_rows = math.ceil(len(_terrains_present(view, legend)) / _legend_cols(width))
    army_rows = math.ceil(len(view.armies) / _list_columns(width, _ARMY_CELL))
    sites = _site_lines(view, pool)
    site_rows = math.ceil(len(sites) / _site_columns(sites, width))
    advanced = len(advanced_lines(view, None))
    extra = 0
    if advanced:
        extra = 12 + 40 + math.ceil(advanced / _advanced_columns(width)) * _PANEL_ROW
    return (
        20
        + 40
        + terrain_rows * 48
        + 8
        + 56
        + 2 * (40 + 12)
        + (max(1, army_rows) + max(1, site_rows)) * _PANEL_ROW
        + 12
        + extra
    )


def _advanced_columns(width: int) -> int:
    """Columns of the advanced list: its lines are long, so 700 px each (one on a narrow
    board)."""
    return max(1, (width - 48) // 700)


@dataclass(frozen=True)
class AdvancedLine:
    """One line of the "Advanced rules on the board" list: what it is (``coin``, ``sold``,
    ``hero``), its key (``coin:1``, ``sold:H7``, ``hero:21``), its text and what its icon
    shows (the coin number, the buyer's seat, the dead Hero's player and token)."""

    kind: str
    key: str
    text: str
    number: int = 0
    seat: int | None = None
    found: bool = False


def advanced_lines(view: PublicView, pool: CardPool | None) -> list[AdvancedLine]:
    """The advanced rules' public state as list lines, in order: entrance coins
    (``"Coin 1 links D3 (found) and K12"``), sold Objects (``"H7 Gold Mine · sold by Red to
    Blue"``) and dead Heroes (``"Mother Ysolde · Red's dead Hero at C4, token 1"`` or
    ``"... carried by Army 3"``). Empty for a base game. ``pool`` names the cards (None:
    only the count matters). Rule sections: homm4:terrain-map-sections-with-underground,
    homm4:advanced-rules.resource-trading, homm4:advanced-rules.resurrecting-fallen-heroes."""
    lines: list[AdvancedLine] = []
    coins: dict[int, list[SiteView]] = {}
    for site in view.sites:
        if site.entrance is not None:
            coins.setdefault(site.entrance, []).append(site)
    for number in sorted(coins):
        ends = [f"{s.label}{' (found)' if s.entrance_found else ''}" for s in coins[number]]
        found = all(s.entrance_found for s in coins[number])
        lines.append(
            AdvancedLine(
                "coin",
                f"coin:{number}",
                f"Coin {number} links {' and '.join(ends)}",
                number,
                found=found,
            )
        )
    for site in sorted(view.sites, key=lambda s: _split(s.label)[::-1]):
        if site.sold_to is None:
            continue
        name = _card_name(pool, site.card.card) if pool and site.card else _KINDS[site.kind]
        lines.append(
            AdvancedLine(
                "sold",
                f"sold:{site.label}",
                f"{site.label} {name} · sold by {seat_label(site.owner)} to "
                f"{seat_label(site.sold_to)}",
                seat=site.sold_to,
            )
        )
    for body in view.fallen:
        name = _card_name(pool, body.hero.card) if pool else body.hero.card
        where = (
            f"carried by Army {body.army}"
            if body.army is not None
            else f"at {body.label}, token {body.token}"
        )
        lines.append(
            AdvancedLine(
                "hero",
                f"hero:{body.hero.id}",
                f"{name} · {seat_label(body.seat)}'s dead Hero {where}",
                body.token,
                seat=body.seat,
            )
        )
    return lines


def _card_name(pool: CardPool | None, card_id: str) -> str:
    found = pool.cards.get(card_id) if pool is not None else None
    return found.name if found is not None else card_id


def site_text(site: SiteView, pool: CardPool) -> str:
    """One short line about an identified site: ``"C4 Asylum L2 · Red"``,
    ``"F7 Orc · guarded 3"``, ``"H2 Gold Mine · unclaimed"``, ``"B5 taken"``; a found
    underground entrance ``"H5 Entrance 1 · guarded 2"`` (``open`` once its Guard is beaten);
    a sold Object ``"H2 Gold Mine ·
    Red, sold to Blue"``."""
    if site.card is None and site.entrance is None:
        return (
            f"{site.label} taken" if site.status == "spent" else f"{site.label} {_KINDS[site.kind]}"
        )
    if site.card is None:
        head = f"{site.label} Entrance {site.entrance}"
    else:
        head = f"{site.label} {_card_name(pool, site.card.card)}"
    if site.kind == "town" and site.level is not None:
        head += f" L{site.level}"
    if site.status == "owned":
        garrison = f" +{len(site.garrison)}" if site.garrison else ""
        sold = f", sold to {seat_label(site.sold_to)}" if site.sold_to is not None else ""
        return f"{head} · {seat_label(site.owner)}{garrison}{sold}"
    if site.status == "guarded":
        return f"{head} · guarded {len(site.guard)}"
    if site.status == "spent":
        return f"{head} · taken"
    return f"{head} · {'open' if site.card is None else 'unclaimed'}"


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
    present = _terrains_present(view, legend)
    key = ("homm4 board legend", tuple(present), _terrain_key(view, legend), top, width)
    drawn_once(canvas, key, lambda part: _legends(part, present, legend, top, width))
    cols = _legend_cols(width)
    y = top + 20 + 40 + math.ceil(len(present) / cols) * 48 + 8 + _ICON_KEY_HEIGHT
    y = _army_list(canvas, view, pool, y, width)
    y = _site_list(canvas, view, pool, y, width)
    _advanced_list(canvas, view, pool, y, width)


def _legends(
    canvas: Canvas, present: list[str], legend: Mapping[str, Terrain], top: int, width: int
) -> None:
    """The terrain legend of the ``present`` terrains and the icon key, from ``top``."""
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
    _icon_key(canvas, y, width)


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


def _site_list(canvas: Canvas, view: PublicView, pool: CardPool, y: int, width: int) -> int:
    canvas.text((24, y), "Identified sites", 26, LIGHT, weight="bold", kind="heading", key="sites")
    y += 40
    lines = _site_lines(view, pool)
    cols = _site_columns(lines, width)
    cell = (width - 48) // cols
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
    return y + max(1, math.ceil(len(lines) / cols)) * _PANEL_ROW + 12


def _advanced_list(canvas: Canvas, view: PublicView, pool: CardPool, y: int, width: int) -> None:
    """The "Advanced rules on the board" list (nothing for a base game): each line starts
    with the mark the board shows for it."""
    lines = advanced_lines(view, pool)
    if not lines:
        return
    canvas.text(
        (24, y),
        "Advanced rules on the board",
        26,
        LIGHT,
        weight="bold",
        kind="heading",
        key="advanced",
    )
    y += 40
    cols = _advanced_columns(width)
    cell = (width - 48) // cols
    for i, line in enumerate(lines):
        x = 24 + (i % cols) * cell
        ry = y + (i // cols) * _PANEL_ROW
        if line.kind == "coin":
            paste_centred(canvas.image, icons.coin(28, line.found), x + 14, ry + 14)
            canvas.text(
                (x + 14, ry + 14),
                str(line.number),
                17,
                INK if line.found else GOLD,
                weight="bold",
                anchor="mm",
            )
        elif line.kind == "sold":
            sprite = badge(seat_shape(line.seat), 28, seat_rgb(line.seat), WHITE)
            paste_centred(canvas.image, sprite, x + 14, ry + 14)
            canvas.text((x + 14, ry + 14), "$", 16, WHITE, weight="bold", anchor="mm")
        else:
            sprite = icons.face_down_card(22, seat_rgb(line.seat))
            paste_centred(canvas.image, sprite, x + 14, ry + 14)
        canvas.text(
            (x + 36, ry + 14),
            ellipsize(line.text, cell - 44, _PANEL_FONT),
            _PANEL_FONT,
            LIGHT,
            anchor="lm",
            kind="advanced_line",
            key=line.key,
        )


_ICON_KEY_HEIGHT = 56
"""The height of the icon key (px)."""


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
    return y + _ICON_KEY_HEIGHT
