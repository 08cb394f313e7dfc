"""Conservation checks of an mmh state: every card and marker in exactly one place.

Rule sections: mmh:game-material (the component counts). Used by the random playouts and
``heroes-table simulate``.
"""

from __future__ import annotations

from collections import Counter

from engine.mmh.common import content
from engine.mmh.heroes import leadership
from engine.mmh.state import ArtefactSwap, KeepCard, LeadershipCut, MmhState, TreasureChoice


def problems(state: MmhState) -> list[str]:
    """Broken invariants of ``state`` (empty when sound).

    Rule: mmh:game-material.
    """
    found: list[str] = []
    found += _cards(state)
    found += _markers(state)
    found += _armies(state)
    return found


def _count(places: list[list[str]], expected: set[str], what: str) -> list[str]:
    seen = Counter(card for place in places for card in place)
    errors = [f"{what} {card} is in {n} places" for card, n in seen.items() if n > 1]
    missing = expected - set(seen)
    extra = set(seen) - expected
    if missing:
        errors.append(f"{what} cards missing: {sorted(missing)[:5]}")
    if extra:
        errors.append(f"unknown {what} cards: {sorted(extra)[:5]}")
    return errors


def _cards(state: MmhState) -> list[str]:
    c = content()
    heroes = list(state.heroes.values())
    keeps = [p for p in state.queue if isinstance(p, KeepCard)]
    errors: list[str] = []
    scrolls = [state.scroll_deck, state.scroll_discard, *[h.scrolls for h in heroes]]
    scrolls += [p.cards for p in keeps if p.pile == "scroll"]
    errors += _count(scrolls, {s.id for s in c.scrolls}, "scroll")
    arts = [state.artefact_deck, state.artefact_discard, *[h.artefacts for h in heroes]]
    arts += [p.cards for p in keeps if p.pile == "artefact"]
    arts += [[s.temple_artefact] for s in state.seats if s.temple_artefact]
    errors += _count(arts, {a.id for a in c.artefacts}, "artefact")
    for hero in heroes:
        categories = Counter(c.artefact(a).category for a in hero.artefacts)
        swapping = any(isinstance(p, ArtefactSwap) and p.hero == hero.id for p in state.queue)
        if any(n > 1 for n in categories.values()) and not swapping:
            errors.append(f"{hero.id} holds two artefacts of one category")
    treasures = [state.treasure_deck, state.treasure_discard]
    treasures += [[p.card] for p in state.queue if isinstance(p, TreasureChoice)]
    errors += _count(treasures, {t.id for t in c.treasures}, "treasure")
    weeks = [state.week_stack, state.week_past, state.week_box]
    weeks += [[state.week]] if state.week else []
    errors += _count(weeks, {w.id for w in c.weeks}, "week")
    for seat in state.seats:
        skills = [seat.might_deck, seat.might_discard, seat.magic_deck, seat.magic_discard]
        skills += [h.skills for h in heroes if h.owner == seat.seat]
        skills += [p.cards for p in keeps if p.pile in ("might", "magic") and p.seat == seat.seat]
        own = {s.id for s in c.skills if s.faction == seat.faction}
        errors += _count(skills, own, f"{seat.faction} skill")
    return errors


def _markers(state: MmhState) -> list[str]:
    c = content()
    errors: list[str] = []
    places = [list(state.encounters.values()), state.encounter_box]
    places += [h.trophies for h in state.heroes.values()]
    if state.battle is not None and state.battle.kind == "encounter":
        places.append(
            [
                u.marker
                for u in state.battle.units
                if u.kind == "encounter" and not u.extra and u.marker is not None
            ]
        )
    seen = Counter(m for place in places for m in place)
    if sorted(seen) != list(range(len(c.encounters))) or any(n != 1 for n in seen.values()):
        errors.append("an encounter marker is missing or in two places")
    luck = state.luck_supply + sum(h.luck for h in state.heroes.values())
    if luck != 13:
        errors.append(f"{luck} luck markers instead of 13")
    elements = list(state.element_supply)
    if state.battle is not None:
        elements += [
            u.element for u in state.battle.units if u.kind == "element" and u.alive and u.element
        ]
    if sorted(elements) != sorted(e.id for e in c.elements):
        errors.append(f"element markers: {sorted(elements)}")
    for space in state.exploration_markers:
        if state.exploration_markers.count(space) > 1:
            errors.append(f"two exploration markers on space {space}")
    return errors


def _armies(state: MmhState) -> list[str]:
    c = content()
    errors: list[str] = []
    for seat in state.seats:
        for kind in c.faction_creatures(seat.faction):
            in_armies = sum(
                1 for h in seat.heroes for u in state.heroes[h].army if u.creature == kind.id
            )
            if in_armies + seat.reserve.get(kind.id, 0) != kind.markers:
                errors.append(
                    f"{kind.id}: {in_armies} in armies + {seat.reserve.get(kind.id, 0)} in reserve != {kind.markers}"
                )
        for hid in seat.heroes:
            hero = state.heroes[hid]
            cutting = any(isinstance(p, LeadershipCut) and p.hero == hid for p in state.queue)
            if len(hero.army) > leadership(state, hero) and not cutting:
                errors.append(
                    f"{hid} has {len(hero.army)} creatures over Leadership {leadership(state, hero)}"
                )
            if state.battle is None and any(u.wounds for u in hero.army):
                errors.append(f"{hid} keeps damage markers after the battle")
        if len(seat.heroes) > 3:
            errors.append(f"seat {seat.seat} controls {len(seat.heroes)} heroes")
    if state.battle is None:
        spaces = Counter(h.space for h in state.heroes.values() if h.space is not None)
        for space, _n in spaces.items():
            owners = {h.owner for h in state.heroes.values() if h.space == space}
            if len(owners) > 1:
                errors.append(f"heroes of two players share space {space}")
    return errors
