"""homm3's focus pictures (`rendering.focus`, issue 16): the Battlefield around the active
unit, the Adventure panel of the player to act, and the map around the acting Main hero
(``mode: map``), each under a band saying what is owed."""

from __future__ import annotations

from engine.homm3.views import PublicView
from rendering.canvas import Drawing
from rendering.focus import Focus, FocusSpec, Line, mark_texts, union, whole_box
from rendering.homm3.palette import GOLD, LIGHT, MUTED, PAGE


def _band(whole: Drawing) -> list[Line]:
    lines = [Line(t, LIGHT, "bold", 1.25, "title") for t in mark_texts(whole, "title")]
    lines += [Line(t, MUTED, "regular", 1.0, "token") for t in mark_texts(whole, "token", "")]
    return lines


def battle_focus(view: PublicView, whole: Drawing) -> Focus:
    """The whole Battlefield (its 13 columns, letters and numbers: nothing of the lists
    under it), centred on the active unit; the band: the title, the Initiative token, what
    is owed, the units still to act, the last attack (when the prompt does not already say
    it) and, per player, each unit on the board by number, name and hex (the names inside
    the hexes are small)."""
    lines = _band(whole)
    prompts = mark_texts(whole, "prompt")
    lines += [Line(t, GOLD, "medium", 1.0, "prompt") for t in prompts]
    order = mark_texts(whole, "order")
    if order:
        lines.append(Line("Still to act: " + " · ".join(order), LIGHT, "regular", 1.0, "order"))
    lines += [
        Line(t, MUTED, "regular", 1.0, "last_attack")
        for t in mark_texts(whole, "last_attack")
        if not any(p.startswith(t) for p in prompts)
    ]
    combat = view.combat
    if combat is not None:
        for player in view.players:
            units = [
                f"[{u.number}] {'Pack' if u.pack else 'Few'} of {u.name} {u.hex}"
                for u in combat.units
                if u.seat == player.seat and u.alive and u.hex is not None
            ]
            if units:
                text = f"{player.colour.title()}: " + " · ".join(units)
                lines.append(Line(text, LIGHT, "regular", 1.0, f"units:{player.colour}"))
    board = union(m.box for m in whole.marks if m.kind in ("hex", "edge", "unit")) or whole_box(
        whole
    )
    around = board
    if combat is not None and combat.active is not None:
        around = (
            union(m.box for m in whole.of_kind("unit") if m.key == f"unit:{combat.active}") or board
        )
    return Focus(around, lines, board, board)


def adventure_focus(view: PublicView, whole: Drawing) -> Focus:
    """The panel of the player to act (Resources, tokens, buildings, army, Morale); the
    band: the title, the round and what is owed."""
    lines = [Line(t, LIGHT, "bold", 1.25, "title") for t in mark_texts(whole, "title")]
    prompt = view.reason if view.phase == "over" else (view.prompts[0] if view.prompts else "")
    if prompt:
        lines.append(Line(prompt, GOLD, "medium", 1.0, "prompt"))
    seat = view.adventure.active if view.adventure is not None else view.first
    players = {p.seat: p for p in view.players}
    player = players.get(seat)
    panel = None
    if player is not None:
        panel = union(
            m.box for m in whole.marks if m.key == player.colour or m.key.startswith(f"{seat}:")
        )
    around = panel or whole_box(whole)
    # below the title (the band says it); the round track when it fits beside the panel
    title = union(m.box for m in whole.of_kind("title"))
    within = (0, title[3] + 1, *whole.size) if title is not None else None
    track = union(m.box for m in whole.marks if m.kind in ("round", "round_kind"))
    keep = union([around, track]) if track is not None else None
    return Focus(around, lines, keep, within)


def map_focus(view: PublicView, whole: Drawing) -> Focus:
    """The map's Fields around the acting seat's Main hero (the whole map when it has none);
    the band: the status line (round, who acts) and what is owed. The map's own status line
    and legend are left out of the cut (the band says the status again).

    Rule: homm3core:map-tiles, homm3turn:tracking-allies"""
    lines = [Line(t, LIGHT, "bold", 1.25, "title") for t in mark_texts(whole, "status")]
    prompt = view.reason if view.phase == "over" else (view.prompts[0] if view.prompts else "")
    if prompt:
        lines.append(Line(prompt, GOLD, "medium", 1.0, "prompt"))
    board = union(m.box for m in whole.of_kind("field")) or whole_box(whole)
    game = view.map
    around = board
    if game is not None:
        hero = union(m.box for m in whole.of_kind("hero") if m.key == f"{game.active}:main")
        near = [
            m.box
            for m in whole.of_kind("field")
            if hero is not None
            and abs((m.box[0] + m.box[2]) / 2 - (hero[0] + hero[2]) / 2)
            <= 3 * (m.box[2] - m.box[0])
        ]
        around = hero or board
        keep = union(near) if near else board
        return Focus(around, lines, keep, board)
    return Focus(around, lines, board, board)


BATTLE = FocusSpec(
    battle_focus, PAGE, frozenset({"unit_name", "placed_label"}), 0.8, frozenset({"hex"})
)
"""The Battlefield's focus: every label in the cut reads at least 9 px at a phone's
400 px, bar the unit names and Obstacle names written small inside the hexes (the band
names each unit with its hex, and "On the board:" of the whole picture the Obstacles)."""

ADVENTURE = FocusSpec(adventure_focus, PAGE)
"""The Adventure's focus: every label in the cut reads at least 9 px at 400 px."""

MAP = FocusSpec(map_focus, PAGE, frozenset({"legend"}), clipped=frozenset({"field"}))
"""The map's focus: every Field name, guard level and hero's MP in the cut reads at least
9 px at 400 px (the legend is exempt: it is not needed to act)."""
