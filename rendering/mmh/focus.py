"""Might & Magic Heroes' focus pictures (`rendering.focus`, issue 16): the map around the
active hero, and the initiative track around the marker due, each under a band saying
what is owed."""

from __future__ import annotations

from engine.core.model import seat_name
from engine.mmh.views import HeroView, PublicView
from rendering.canvas import Drawing
from rendering.focus import Focus, FocusSpec, Line, union, whole_box
from rendering.mmh.palette import HIGHLIGHT, LIGHT, PAGE


def active_hero(view: PublicView) -> HeroView | None:
    """The hero a map decision is about: the one being activated, else the active
    seat's first hero on the map; None when that seat has none there."""
    heroes = {h.id: h for h in view.heroes}
    action = view.action
    if action is not None and action.activation is not None:
        found = heroes.get(action.activation.hero)
        if found is not None and found.space is not None:
            return found
    own = [h for h in view.heroes if h.owner == view.active and h.space is not None]
    return own[0] if own else None


def board_focus(view: PublicView, whole: Drawing) -> Focus:
    """Around the active hero (`active_hero`; the active seat's capital, else the map's
    middle); the band: round and week, what is owed and the hero's line."""
    status = {m.key: m.text for m in whole.of_kind("status") if m.text}
    head = " · ".join(status[k] for k in ("round", "week") if k in status)
    lines = [Line(head, LIGHT, "bold", 1.25, "title")] if head else []
    if view.result.finished:
        lines.append(Line(view.result.reason, HIGHLIGHT, "medium", 1.0, "pending"))
    elif view.pending:
        lines.append(Line(view.pending[0].prompt, HIGHLIGHT, "medium", 1.0, "pending"))
    hero = active_hero(view)
    around = None
    if hero is not None:
        lines.append(
            Line(
                f"{hero.name} @ {hero.space}: {len(hero.army)}/{hero.leadership} creatures, "
                f"might {hero.might}, magic {hero.magic}, {hero.xp} XP, luck {hero.luck}",
                LIGHT,
                "regular",
                1.0,
                f"hero:{hero.id}",
            )
        )
        around = union(m.box for m in whole.of_kind("hero") if m.key == hero.id)
    if around is None:
        name = seat_name(view.active)
        around = union(m.box for m in whole.of_kind("capital") if m.key == name)
    if around is None:
        around = union(
            m.box for m in whole.marks if m.kind in ("location", "encounter")
        ) or whole_box(whole)
    return Focus(around, lines)


def track_focus(view: PublicView, whole: Drawing) -> Focus:
    """The initiative track around the marker due (its start when none). No band: the
    track picture is short, so the cut holds its title, the last attack and what is owed
    already, at the cut's width."""
    units = whole.of_kind("unit_card") or whole.of_kind("unit")
    battle = view.battle
    around = None
    if battle is not None and battle.current is not None:
        around = union(m.box for m in units if m.key == str(battle.current))
    around = around or union(m.box for m in units[:1]) or whole_box(whole)
    return Focus(around, (), union(m.box for m in units))


BOARD = FocusSpec(board_focus, PAGE)
"""The map's focus: every label in the cut (location codes, encounter might/threat and
numbers, edge names) reads at least 9 px at a phone's 400 px."""

TRACK = FocusSpec(track_focus, PAGE, height_ratio=1.0)
"""The initiative track's focus: every label in the cut reads at least 9 px at 400 px."""
