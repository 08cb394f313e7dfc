"""The homm3 map picture (``mode: map``): the tiles laid out as hexagonal Fields, face-down
tiles as grey shapes of their kind, each Field's short name and guard level, Faction
Cubes (flags), Black Cubes (visited), the heroes, and a status line; `draw_focus` crops
the acting hero's surroundings at a readable scale (400 px wide).

Rule sections: homm3core:map-tiles, homm3core:location-categories, homm3turn:tracking-allies
(Main hero drawn large, Secondary small). Marks: ``field`` (``q,r``), ``hero``
(``seat:main``), ``tile`` (``a,b``). Only public information is drawn.
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine.homm3.map_board import DIRECTIONS, centre, coords
from engine.homm3.views import MapView, PublicView
from rendering.canvas import Canvas, Drawing
from rendering.homm3.palette import DIM, GOLD, LIGHT, MUTED, PAGE, PANEL_LINE

WIDTH = 800
"""Width of the whole map picture."""
FOCUS_WIDTH = 400
"""Width of the acting hero's focus picture."""
FOCUS_RADIUS = 3
"""Fields around the hero shown in the focus picture."""

MAP_SEAT_RGB: tuple[tuple[int, int, int], ...] = ((214, 40, 40), (38, 110, 225), (60, 170, 70))
"""Seat colours of the map (three seats; the Battlefield's palette has two)."""

KIND_RGB: dict[str, tuple[int, int, int]] = {
    "start": (96, 120, 80),
    "far": (104, 128, 84),
    "near": (112, 118, 80),
    "center": (120, 104, 78),
}
SHORT: dict[str, str] = {
    "Town": "Town",
    "empty Field": "",
    "Blocked Field": "X",
    "Mine": "Mine",
    "Settlement": "Sett",
    "Resource Field": "Res",
    "Treasure Field": "Tres",
    "Artifact Field": "Art",
    "Shrine": "Shrn",
    "Learning Stone": "Lrn",
    "Temple": "Tmpl",
    "Stables": "Stbl",
    "Trading Post": "Trad",
}


def _seat_rgb(seat: int) -> tuple[int, int, int]:
    return MAP_SEAT_RGB[seat % len(MAP_SEAT_RGB)]


def _pixel(field: str, size: float) -> tuple[float, float]:
    q, r = coords(field)
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


@lru_cache(maxsize=8192)
def _corners(cx: float, cy: float, size: float) -> tuple[tuple[float, float], ...]:
    """The hexagon's corners (worked out once per place: a map's Fields stay put)."""
    return tuple(
        (
            cx + size * math.cos(math.radians(60 * i - 30)),
            cy + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    )


def _short(label: str) -> tuple[str, str]:
    """(name, guard level) of a Field label such as ``"Mine (Gold), guarded (II)"``."""
    name, _, guard = label.partition(", guarded (")
    base, _, resource = name.partition(" (")
    text = SHORT.get(base, base[:4])
    if resource:
        text += " " + resource.rstrip(")")[:1]
    return text, guard.rstrip(")")


def _all_fields(view: MapView) -> dict[str, tuple[str, str | None]]:
    """Field -> (tile kind, label or None when face down)."""
    out: dict[str, tuple[str, str | None]] = {}
    for tile in view.tiles:
        if tile.tile is None:
            q, r = centre(tile.pos)
            out[f"{q},{r}"] = (tile.kind, None)
            for dq, dr in DIRECTIONS:
                out[f"{q + dq},{r + dr}"] = (tile.kind, None)
        else:
            for field, label in tile.fields.items():
                out[field] = (tile.kind, label)
    return out


def _draw(
    view: PublicView, fields: dict[str, tuple[str, str | None]], width: int, size: float
) -> Drawing:
    game = view.map
    assert game is not None
    points = {f: _pixel(f, size) for f in fields}
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    pad = size * 1.2
    scale_w = width
    header = 34
    height = int(max(ys) - min(ys) + 2 * pad) + header + 30
    canvas = Canvas(scale_w, height, PAGE)
    ox = (width - (max(xs) - min(xs))) / 2 - min(xs)
    oy = header + pad - min(ys)
    status = (
        view.reason
        if view.phase == "over"
        else f"Round {view.round} of {game.rounds} · {('Red', 'Blue', 'Green')[game.active % 3]} to act"
    )
    canvas.text((10, 8), status, 18, GOLD, kind="status")
    text_size = max(10, int(size * 0.42))
    for field, (kind, label) in fields.items():
        cx, cy = points[field][0] + ox, points[field][1] + oy
        fill = KIND_RGB.get(kind, PANEL_LINE) if label is not None else (70, 70, 70)
        if label is not None and label.startswith("Blocked"):
            fill = (60, 52, 44)
        flag = game.flags.get(field)
        outline = _seat_rgb(flag) if flag is not None else (40, 40, 36)
        canvas.draw.polygon(
            _corners(cx, cy, size - 1),
            fill=fill,
            outline=outline,
            width=3 if flag is not None else 1,
        )
        canvas.mark(
            "field", field, (int(cx - size), int(cy - size), int(cx + size), int(cy + size))
        )
        if label is None:
            continue
        name, guard = _short(label)
        if name:
            canvas.text(
                (cx, cy - text_size * 0.2),
                name,
                text_size,
                LIGHT,
                anchor="mm",
                stroke=1,
                kind="field_name",
                key=field,
            )
        if guard and field not in game.visited:
            canvas.text(
                (cx, cy + text_size * 0.9),
                guard,
                text_size,
                GOLD,
                anchor="mm",
                stroke=1,
                kind="guard",
                key=field,
            )
        if field in game.visited:
            r = size * 0.16
            canvas.draw.rectangle(
                (
                    cx + size * 0.35 - r,
                    cy - size * 0.55 - r,
                    cx + size * 0.35 + r,
                    cy - size * 0.55 + r,
                ),
                fill=(10, 10, 10),
            )
    for hero in game.heroes:
        if hero.field not in points:
            continue
        cx, cy = points[hero.field][0] + ox, points[hero.field][1] + oy
        radius = size * (0.34 if hero.main else 0.24)
        cy += size * 0.45
        canvas.draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=_seat_rgb(hero.seat),
            outline=LIGHT,
            width=2,
        )
        canvas.text(
            (cx, cy),
            str(hero.mp),
            max(10, int(radius * 1.2)),
            LIGHT,
            anchor="mm",
            kind="hero",
            key=f"{hero.seat}:{'main' if hero.main else 'secondary'}",
        )
    legend = (
        "Outline: flag · black square: visited · numeral: guards · disc: hero (MP)"
        if width > 500
        else "Outline flag · ■ visited · I-VI guards · disc hero"
    )
    canvas.text((10, height - 24), legend, 13, MUTED if width > 500 else DIM, kind="legend")
    return canvas.finish()


def draw_map(view: PublicView) -> Drawing:
    """The whole map, `WIDTH` px wide.

    Rule: homm3core:map-tiles"""
    assert view.map is not None
    fields = _all_fields(view.map)
    span = max(abs(coords(f)[0] + coords(f)[1] / 2) for f in fields) * 2 + 2
    size = min(30.0, WIDTH / (math.sqrt(3) * span))
    return _draw(view, fields, WIDTH, size)


def draw_focus(view: PublicView) -> Drawing:
    """The acting seat's Main hero and the Fields within `FOCUS_RADIUS` of it, 400 px wide
    (names readable at that width).

    Rule: homm3core:map-tiles"""
    game = view.map
    assert game is not None
    hero = next((h for h in game.heroes if h.seat == game.active and h.main), None)
    fields = _all_fields(game)
    if hero is not None:
        hq, hr = coords(hero.field)

        def near(field: str) -> bool:
            q, r = coords(field)
            return (abs(q - hq) + abs(r - hr) + abs(q + r - hq - hr)) // 2 <= FOCUS_RADIUS

        fields = {f: v for f, v in fields.items() if near(f)}
    size = FOCUS_WIDTH / (math.sqrt(3) * (2 * FOCUS_RADIUS + 1.5))
    return _draw(view, fields, FOCUS_WIDTH, size)
