"""homm4's focus pictures (`rendering.focus`, issue 16): the hexes around the acting Army
on the Game Board, and the two Melee Lines of a battle, each under a band saying whose
turn it is and what is owed."""

from __future__ import annotations

from engine.homm4.views import ArmyView, PublicView
from rendering.canvas import Drawing
from rendering.focus import Focus, FocusSpec, Line, mark_texts, union, whole_box
from rendering.homm4.battle import waiting_line
from rendering.homm4.palette import HIGHLIGHT, LIGHT, MUTED, PAGE


def acting_army(view: PublicView) -> ArmyView | None:
    """The Army a board decision is about: the one that just moved when its owner is
    still to act, else the active seat's first Army still to move (its first at all);
    None when the active seat has none on the board."""
    own = [a for a in view.armies if a.owner == view.active]
    if view.last_move and view.last_move_owner == view.active:
        moved = [a for a in own if a.label == view.last_move[-1]]
        if moved:
            return moved[0]
    waiting = [a for a in own if not a.done]
    chosen = waiting or own
    return chosen[0] if chosen else None


def board_focus(view: PublicView, whole: Drawing) -> Focus:
    """Around the acting Army (`acting_army`; the hex of a battle being deployed), with
    its last move kept in the cut; the band: the strip's title, its note and the Army's
    line (``N10 · Lord Cassius +6 · MP 2/5``)."""
    lines = [Line(t, LIGHT, "bold", 1.25, "title") for t in mark_texts(whole, "title")]
    lines += [Line(t, HIGHLIGHT, "medium", 1.0, "note") for t in mark_texts(whole, "note")]
    army = acting_army(view)
    around = None
    keep = None
    if view.battle is not None:
        hexes = [m.box for m in whole.of_kind("hex") if m.key == view.battle.label]
        around = union(hexes)
    elif army is not None:
        key = f"army:{army.id}"
        around = union(m.box for m in whole.of_kind("army") if m.key == key)
        lines += [
            Line(f"Army {army.id}: {t}", LIGHT, "regular", 1.0, key)
            for t in mark_texts(whole, "army_line", key)
        ]
        if view.last_move_owner == army.owner and view.last_move[-1:] == (army.label,):
            keep = union([*(m.box for m in whole.of_kind("path")), *([around] if around else [])])
    if around is None:
        around = union(m.box for m in whole.of_kind("hex")) or whole_box(whole)
    return Focus(around, lines, keep)


def battle_focus(view: PublicView, whole: Drawing) -> Focus:
    """The two Melee Lines (where the fighting is: their Creatures and the Town card
    standing on the defender's), the Ranged Lines as far as the width allows; the band: the title, who attacks and defends, what is awaited and the last
    attack with its roll."""
    lines = [Line(t, LIGHT, "bold", 1.25, "title") for t in mark_texts(whole, "title")]
    sides = mark_texts(whole, "side")
    if sides:
        lines.append(Line(" · ".join(sides), LIGHT, "regular", 1.0, "sides"))
    if view.battle is not None:
        lines.append(Line(waiting_line(view), HIGHLIGHT, "medium", 1.0, "stage"))
    lines += [
        Line(m.text, MUTED if m.key == "who" else LIGHT, "regular", 1.0, f"last_attack:{m.key}")
        for m in whole.of_kind("last_attack")
        if m.text
    ]
    melee = union(m.box for m in whole.of_kind("column") if m.key.endswith(":melee"))
    battle = view.battle
    if battle is not None:
        in_melee = {str(c.id) for c in battle.creatures if c.line == "melee"}
        melee = union(
            [
                *(m.box for m in whole.of_kind("creature") if m.key in in_melee),
                *(m.box for m in whole.of_kind("town_tile")),
                *([melee] if melee else []),
            ]
        )
    around = melee or union(m.box for m in whole.of_kind("creature")) or whole_box(whole)
    return Focus(around, lines)


BOARD = FocusSpec(board_focus, PAGE, clipped=frozenset({"hex", "path"}))
"""The board's focus: every label in the cut (hex names, Town levels, Guards, Army
numbers) reads at least 9 px at a phone's 400 px."""

BATTLE = FocusSpec(battle_focus, PAGE, frozenset({"caption"}), height_ratio=1.0)
"""The battle's focus: every label in the cut (stat names, markers, numbers) reads at
least 9 px at a phone's 400 px, bar the small "Phase" caption over each Creature's Phase
number (the number itself reads 16 px)."""
