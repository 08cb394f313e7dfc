"""Everything that changes a number: caps, prices, unit levels, speed, damage rolls, income.

Rule sections: heroforge:units (cap, levels 1-10), heroforge:lands and
heroforge:getting-economy-from-lands (land stats, red squares, contested lands),
heroforge:forts (ownership, manned forts collecting economy, cap bonus),
heroforge:combat-with-forts (extra roll per manned fort), heroforge:enchantments
(permanent and stack effects, instants this turn), heroforge:basic-rules (hero abilities).

A hero's *units* are the units in its army and, while the hero stands on the same plate,
the units manning its forts there ("used when using the hero or anything in the same land
plate"). Level changes apply to those units; a fort's units elsewhere keep their level.
"""

from __future__ import annotations

from engine.core.words import plural
from engine.heroforge.catalog import MAX_LEVEL, MIN_LEVEL, Hero, Land, load_catalog
from engine.heroforge.state import Fort, HeroforgeState, Square, Unit

DEFAULT_FORT_LEVEL = 5
"""Forts are level 5 defenders (heroforge:combat-with-forts)."""

DEFAULT_RETREAT = 5
"""A retreat needs a D10 roll over 5 (heroforge:combat)."""

COST_EFFECTS = ("unit_cost", "fort_cost")


def hero_of(state: HeroforgeState, seat: int) -> Hero:
    """The `Hero` card of ``seat``. :raises KeyError: before the hero is chosen.

    Rule: none (a lookup).
    """
    hero = state.player(seat).hero
    if hero is None:
        raise KeyError(f"seat {seat} has no hero yet")
    return load_catalog().heroes[hero]


def land(state: HeroforgeState, label: str) -> Land:
    """The land of plate ``label``.

    Rule: none (a lookup).
    """
    return load_catalog().lands[state.plate(label).land]


def forts_on(state: HeroforgeState, label: str) -> list[Fort]:
    """The forts on plate ``label``, by id.

    Rule: none (a lookup).
    """
    return [f for f in state.forts if f.at.plate == label]


def owner(state: HeroforgeState, label: str) -> int | None:
    """The seat owning plate ``label`` (the one with forts there), or None.

    Rule: heroforge:forts (a fort owns its land).
    """
    forts = forts_on(state, label)
    return forts[0].owner if forts else None


def owned_plates(state: HeroforgeState, seat: int) -> list[str]:
    """Labels of the plates ``seat`` owns, sorted (heroforge:forts)."""
    return sorted({f.at.plate for f in state.forts if f.owner == seat})


def heroes_on(state: HeroforgeState, label: str) -> list[int]:
    """Seats of the living heroes standing on plate ``label``.

    Rule: none (a lookup).
    """
    return [
        p.seat for p in state.players_state if p.alive and p.at is not None and p.at.plate == label
    ]


def contested(state: HeroforgeState, label: str) -> bool:
    """Two or more heroes on a plate make it contested (heroforge:getting-economy-from-lands)."""
    return len(heroes_on(state, label)) >= 2


def in_combat(state: HeroforgeState, seat: int) -> bool:
    """Whether ``seat``'s hero is in a combat (as attacker, or as the defending hero).

    Rule: heroforge:combat.
    """
    return any(c.attacker == seat or (c.fort is None and c.defender == seat) for c in state.combats)


def cap(state: HeroforgeState, seat: int) -> int:
    """The hero's cap plus the cap bonus of every land it owns (heroforge:units, forts)."""
    bonus = sum(land(state, label).cap_bonus for label in owned_plates(state, seat))
    return hero_of(state, seat).cap + bonus


def military(state: HeroforgeState, seat: int) -> int:
    """Units ``seat`` owns, in its army and in its forts (heroforge:units)."""
    in_forts = sum(len(f.units) for f in state.forts if f.owner == seat)
    return len(state.player(seat).army) + in_forts


def _red(state: HeroforgeState, square: Square | None, kind: str) -> int:
    if square is None:
        return 0
    return sum(
        r.amount
        for r in land(state, square.plate).red
        if r.at == (square.cx, square.cy) and r.kind == kind
    )


def _owned_land_total(state: HeroforgeState, seat: int, kind: str) -> int:
    return sum(
        e.amount
        for label in owned_plates(state, seat)
        for e in land(state, label).owner
        if e.kind == kind
    )


def carried_total(state: HeroforgeState, seat: int, effect: str) -> int:
    """The carried enchantment's ``effect`` amount times its Stack count (0 if other).

    Rule: heroforge:enchantments (a Stack multiplies the effect).
    """
    carried = state.player(seat).enchantment
    if carried is None or carried.spec.effect != effect:
        return 0
    return carried.spec.amount * carried.count


def instant_total(state: HeroforgeState, seat: int, effect: str) -> int:
    """The amount of ``seat``'s instants of ``effect`` in force this turn.

    Rule: heroforge:enchantments (instants; see README: Enchantments).
    """
    return sum(i.spec.amount for i in state.instants if i.seat == seat and i.spec.effect == effect)


def enchanted(state: HeroforgeState, seat: int, effect: str) -> int:
    """Carried plus instant amounts of ``effect`` for ``seat``.

    Rule: heroforge:enchantments.
    """
    return carried_total(state, seat, effect) + instant_total(state, seat, effect)


def level_bonus(state: HeroforgeState, seat: int) -> int:
    """Levels added to ``seat``'s units: hero ability, combat bonus, enchantments, owned
    lands and the red square the hero stands on (heroforge:units, lands, enchantments)."""
    player = state.player(seat)
    return (
        hero_of(state, seat).ability_total("unit_level")
        + player.combat_bonus
        + enchanted(state, seat, "unit_level")
        + _owned_land_total(state, seat, "unit_level")
        + _red(state, player.at, "unit_level")
    )


def clamp_level(level: int) -> int:
    """Keep a level within 1-10 (heroforge:units: the maximum level is 10)."""
    return max(MIN_LEVEL, min(MAX_LEVEL, level))


def army_levels(state: HeroforgeState, seat: int) -> list[tuple[Unit, int]]:
    """``(unit, current level)`` of the hero's army, highest level first (then lowest id).

    Rule: heroforge:units (levels; all damage goes to the highest).
    """
    bonus = level_bonus(state, seat)
    pairs = [(u, clamp_level(u.level + bonus)) for u in state.player(seat).army]
    return sorted(pairs, key=lambda pair: (-pair[1], pair[0].id))


def fort_levels(state: HeroforgeState, fort: Fort) -> list[tuple[Unit, int]]:
    """``(unit, current level)`` of a fort's units, highest first: the owner's level
    changes count while its hero stands on the fort's plate.

    Rule: heroforge:units, heroforge:basic-rules (abilities on the same land plate).
    """
    hero_at = state.player(fort.owner).at
    bonus = level_bonus(state, fort.owner) if hero_at and hero_at.plate == fort.at.plate else 0
    pairs = [(u, clamp_level(u.level + bonus)) for u in fort.units]
    return sorted(pairs, key=lambda pair: (-pair[1], pair[0].id))


def fort_level(state: HeroforgeState, fort: Fort) -> int:
    """The level a cleared fort defends with: 5, or the owner's hero ability.

    Rule: heroforge:combat-with-forts (Forts are Level 5 Defenders).
    """
    hero = hero_of(state, fort.owner)
    return next((a.amount for a in hero.abilities if a.kind == "fort_level"), DEFAULT_FORT_LEVEL)


def unit_price(state: HeroforgeState, seat: int, level: int) -> int:
    """What the unit of ``level`` costs ``seat`` now (never below 0).

    Rule: heroforge:units (prices: our choice, see README: Units and the cap).
    """
    base = load_catalog().units[level].price
    change = hero_of(state, seat).ability_total("unit_cost") + enchanted(state, seat, "unit_cost")
    return max(0, base + change)


def fort_price(state: HeroforgeState, seat: int, label: str) -> int | None:
    """What a fort on plate ``label`` costs ``seat`` now (None: no fort can be built).

    Rule: heroforge:forts.
    """
    base = land(state, label).fort_price
    if base is None:
        return None
    change = hero_of(state, seat).ability_total("fort_cost") + enchanted(state, seat, "fort_cost")
    return max(0, base + change)


def speed(state: HeroforgeState, seat: int) -> int:
    """Spaces added to the D6 move roll: the hero's speed, owned lands, the red square
    the hero starts on, enchantments (heroforge:basic-rules)."""
    player = state.player(seat)
    return (
        hero_of(state, seat).speed
        + _owned_land_total(state, seat, "speed")
        + _red(state, player.at, "speed")
        + enchanted(state, seat, "speed")
    )


def manned_forts(state: HeroforgeState, seat: int, label: str) -> list[Fort]:
    """``seat``'s manned forts on plate ``label``.

    Rule: heroforge:manning-forts.
    """
    return [f for f in forts_on(state, label) if f.owner == seat and f.manned]


def hero_rolls(state: HeroforgeState, seat: int) -> int:
    """Damage rolls of ``seat``'s hero in an attack or defence phase: one, plus one per
    manned fort of its own on its plate (heroforge:combat-with-forts), plus abilities and
    enchantments."""
    player = state.player(seat)
    forts = len(manned_forts(state, seat, player.at.plate)) if player.at else 0
    return (
        1
        + forts
        + hero_of(state, seat).ability_total("extra_rolls")
        + enchanted(state, seat, "extra_rolls")
    )


def fort_rolls(manned: int, attacked_manned: bool) -> int:
    """Damage rolls of the manned forts on a plate defending one of them.

    heroforge:combat-with-forts gives two examples: 4 manned forts have 4 rolls, 2 have 3.
    Both fit: every manned fort rolls, the fort under attack rolls once more while it is
    still manned, and the forts roll at most 4 times in all (a plate holds at most 4).
    """
    if manned == 0:
        return 0
    return min(4, manned + (1 if attacked_manned else 0))


def retreat_needs(state: HeroforgeState, seat: int) -> int:
    """The D10 roll a retreat must beat: 5, or the hero's ability.

    Rule: heroforge:combat (retreat).
    """
    hero = hero_of(state, seat)
    return next((a.amount for a in hero.abilities if a.kind == "retreat"), DEFAULT_RETREAT)


def shifts_per_turn(state: HeroforgeState, seat: int) -> int:
    """Plates ``seat`` may shift on its turn from carried enchantments and abilities.

    Rule: heroforge:land-shifting.
    """
    return hero_of(state, seat).ability_total("shift") + carried_total(state, seat, "shift")


def income(state: HeroforgeState, seat: int) -> list[tuple[int, str]]:
    """The economy ``seat`` collects at the start of its turn, as ``(e, source)`` lines.

    heroforge:getting-economy-from-lands and heroforge:forts: each manned fort collects its
    land's economy; the hero collects the economy of the land it stands on (plus a red
    economy square under it) unless the land is contested, has a manned fort (anyone's) or
    belongs to another player; a contested land gives nothing to anyone. Owned lands'
    economy effects, the hero's ability and enchantments add (or take) economy.
    """
    lines: list[tuple[int, str]] = []
    for label in owned_plates(state, seat):
        the_land = land(state, label)
        if contested(state, label):
            continue
        manned = len(manned_forts(state, seat, label))
        if manned and the_land.economy:
            lines.append((the_land.economy * manned, f"{plural(manned, 'manned fort')} on {label}"))
    player = state.player(seat)
    if player.at is not None:
        label = player.at.plate
        the_land = land(state, label)
        here_owner = owner(state, label)
        blocked = (
            contested(state, label)
            or any(f.manned for f in forts_on(state, label))
            or (here_owner is not None and here_owner != seat)
        )
        amount = the_land.economy + _red(state, player.at, "economy") if the_land.economy else 0
        if amount and not blocked:
            lines.append((amount, f"the hero on {the_land.name} ({label})"))
    bonus = _owned_land_total(state, seat, "economy")
    if bonus:
        lines.append((bonus, "owned lands"))
    ability = hero_of(state, seat).ability_total("economy")
    if ability:
        lines.append((ability, "the hero's ability"))
    carried = carried_total(state, seat, "economy")
    if carried:
        lines.append((carried, "the carried enchantment"))
    return lines
