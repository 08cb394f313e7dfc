"""The initiative track during a battle: every marker left to right in attack order, with
its dice, might, creatures and damage; the marker due highlighted; the last roll.

Rule sections: mmh:course-of-play.battles (initiative track, attacks, the elite die).
Only public facts are drawn (a battle is fought in the open).
"""

from __future__ import annotations

from engine.core.model import seat_name
from engine.core.words import plural
from engine.mmh.battle import ELITE_FACES
from engine.mmh.views import PublicView, TrackUnitView
from rendering.canvas import Canvas, Drawing, ellipsize
from rendering.mmh import palette as p

BOX_W = 150
BOX_H = 132
GAP = 10
MARGIN = 20


def draw_track(view: PublicView) -> Drawing:
    """Draw the initiative track of the battle in ``view``.

    :raises ValueError: if no battle is in progress.
    """
    battle = view.battle
    if battle is None:
        raise ValueError("no battle in progress")
    units = {u.id: u for u in battle.units}
    shown = [units[i] for i in battle.order if i in units] or list(battle.units)
    extra = [u for u in battle.units if u.id not in battle.order]
    row = shown + extra
    width = max(MARGIN * 2 + len(row) * (BOX_W + GAP), 720)
    height = 300
    canvas = Canvas(width, height, p.PAGE)
    title = f"Battle at {battle.space} · exchange {battle.exchange}"
    if view.dark_times and battle.kind == "encounter":
        title += " · Dark Times"
    canvas.text((MARGIN, 14), title, 20, p.LIGHT, weight="bold", kind="status", key="title")
    sides = _sides(view)
    canvas.text((MARGIN, 42), sides, 16, p.MUTED)
    y = 70
    for index, unit in enumerate(row):
        x = MARGIN + index * (BOX_W + GAP)
        _unit(canvas, view, unit, x, y, current=unit.id == battle.current)
    _last_roll(canvas, view, MARGIN, y + BOX_H + 18)
    return canvas.finish()


def _commander(view: PublicView, unit: TrackUnitView) -> str:
    """Who commands a marker: the active player's side, the defending hero's player, or
    the encounter's controller (the rulebook's attacker/defender change with every roll,
    so the sides are named by their players)."""
    battle = view.battle
    assert battle is not None
    heroes = {h.id: h for h in view.heroes}
    if unit.side == 0:
        return f"{seat_name(heroes[battle.attacker].owner)} (active)"
    if battle.defender is not None:
        return seat_name(heroes[battle.defender].owner)
    if battle.controller is None:
        return "encounter"
    return f"{seat_name(battle.controller)} commands"


def _sides(view: PublicView) -> str:
    battle = view.battle
    assert battle is not None
    heroes = {h.id: h for h in view.heroes}
    attacker = heroes[battle.attacker]
    text = f"{attacker.name} ({seat_name(attacker.owner)})"
    if battle.defender is not None:
        defender = heroes[battle.defender]
        return f"{text} against {defender.name} ({seat_name(defender.owner)})"
    who = seat_name(battle.controller) if battle.controller is not None else "—"
    return f"{text} against an encounter controlled by {who}"


def _unit(
    canvas: Canvas, view: PublicView, unit: TrackUnitView, x: int, y: int, *, current: bool
) -> None:
    battle = view.battle
    assert battle is not None
    draw = canvas.draw
    if unit.kind == "encounter":
        owner = battle.controller
        fill = (96, 70, 110)
    else:
        hero = next(
            h
            for h in view.heroes
            if h.id in (battle.attacker, battle.defender) and _side_of(view, h.id) == unit.side
        )
        owner = hero.owner
        fill = p.PANEL
    outline = p.HIGHLIGHT if current else p.seat_rgb(owner if unit.kind != "encounter" else None)
    draw.rounded_rectangle(
        (x, y, x + BOX_W, y + BOX_H), 10, fill=fill, outline=outline, width=4 if current else 2
    )
    canvas.mark("unit_card", str(unit.id), (x - 1, y - 1, x + BOX_W + 2, y + BOX_H + 2))
    if not unit.alive:
        draw.line((x + 6, y + 6, x + BOX_W - 6, y + BOX_H - 6), fill=(200, 60, 60), width=3)
    canvas.text((x + 8, y + 8), f"[{unit.id}]", 16, p.GOLD, weight="bold")
    canvas.text((x + BOX_W - 8, y + 8), f"init {unit.initiative}", 16, p.LIGHT, anchor="ra")
    canvas.text(
        (x + 8, y + 30),
        ellipsize(unit.name, BOX_W - 16, 16),
        16,
        p.LIGHT,
        weight="bold",
        kind="unit",
        key=str(unit.id),
    )
    lines = []
    if unit.kind == "stack":
        lines.append(f"{unit.elite} elite · {unit.basic} basic")
    if unit.kind == "encounter":
        lines.append(f"damage {unit.damage}")
    if unit.kind == "element":
        lines.append(f"damage {unit.damage}")
    if unit.kind == "hero":
        lines.append("hero (no damage)")
    lines.append(f"{plural(unit.dice, 'die', 'dice')} · might {unit.might}")
    lines.append(_commander(view, unit))
    for i, line in enumerate(lines):
        canvas.text((x + 8, y + 56 + i * 20), line, 16, p.MUTED if i == len(lines) - 1 else p.LIGHT)


def _side_of(view: PublicView, hero: str) -> int:
    battle = view.battle
    assert battle is not None
    return 0 if hero == battle.attacker else 1


def _last_roll(canvas: Canvas, view: PublicView, x: int, y: int) -> None:
    battle = view.battle
    assert battle is not None
    if battle.last_unit is None:
        canvas.text((x, y), "No attack yet.", 15, p.MUTED)
        return
    dice = " ".join(str(d) for d in battle.last_dice) or "no d8"
    text = f"Last attack by [{battle.last_unit}]: {dice}"
    if battle.last_elite is not None:
        text += f" + elite die: {ELITE_FACES[battle.last_elite]}"
    text += f" = {battle.last_damage} damage"
    canvas.text((x, y), text, 16, p.LIGHT, kind="status", key="last")
    if view.pending:
        canvas.text(
            (x, y + 26), view.pending[0].prompt, 15, p.HIGHLIGHT, kind="status", key="pending"
        )
