"""``/card`` in a Hero Forge channel: the lands, units, heroes and ready-made enchantments
by name, in our own words from the shipped data.

Rule sections: heroforge:lands (a land's stats and red squares), heroforge:units (a unit's
level and price), heroforge:basic-rules and heroforge:factions (a hero's faction, cap,
speed and abilities), heroforge:enchantments and heroforge:enchantment-lists (an
enchantment's kind, faction, effect and the ready-made lists holding it).

Every component has a ``value`` (``land:grassland``, ``unit:4``, ``hero:weir``,
``enchantment:windfall``) used by autocomplete; a lookup also takes the name as shown
(``Grassland``, ``Swordsman``, ``Weir Of HopeSeeking``, ``Windfall``), a land's two-letter
code (``GR``) or a hero's id (``weir``), in any case.
"""

from __future__ import annotations

import difflib
from functools import cache

from engine.heroforge.catalog import EnchantmentSpec, Hero, Land, UnitType, load_catalog

_KIND_WORDS = {
    "permanent": "Permanent (carried until another permanent replaces it)",
    "instant": "Instant (acts when received, then is gone)",
    "stack": "Stack (a permanent; copies of the same name multiply its effect)",
}
_LAND_EFFECTS = {"unit_level": "unit levels", "speed": "speed", "economy": "economy"}


def _signed(kind: str, amount: int) -> str:
    return f"{amount:+d}e" if kind == "economy" else f"{amount:+d}"


def land_text(land: Land) -> str:
    """A land's class and stats: ``"Basic Land (GR). Economy 100e a turn; fort 400e; ..."``."""
    head = f"{land.land_class.capitalize()} Land ({land.code})."
    if land.land_class == "plain":
        return head + " Blank: no economy, no forts, no effects. Heroes start on Plain Lands."
    parts = [
        f"Economy {land.economy}e a turn",
        f"fort {land.fort_price}e",
        f"owning it adds {land.cap_bonus} to the cap",
    ]
    parts += [
        f"its owner gets {_LAND_EFFECTS[e.kind]} {_signed(e.kind, e.amount)}" for e in land.owner
    ]
    text = head + " " + "; ".join(parts) + "."
    if land.red:
        squares = ", ".join(
            f"column {r.at[0] + 1} row {r.at[1] + 1}: {_LAND_EFFECTS[r.kind]} "
            f"{_signed(r.kind, r.amount)}"
            for r in land.red
        )
        text += f" Red squares (for the hero standing there): {squares}."
    return text


def unit_text(unit: UnitType) -> str:
    """``"Level 4 unit, 200e. A damage roll of 4 or more kills it."``"""
    return (
        f"Level {unit.level} unit, {unit.price}e. A damage roll of {unit.level} or more kills "
        "it (its current level, after level changes)."
    )


def hero_text(hero: Hero) -> str:
    """A hero's faction, cap, speed and abilities."""
    faction = hero.faction or "no faction"
    abilities = " ".join(a.text for a in hero.abilities)
    return f"Hero ({faction}). Cap {hero.cap}, speed {hero.speed:+d}. {abilities}".strip()


def enchantment_text(spec: EnchantmentSpec, lists: list[str]) -> str:
    """An enchantment's kind, faction, effect and the ready-made lists holding it."""
    faction = f" Faction: {spec.faction}." if spec.faction else ""
    which = "list" if len(lists) == 1 else "lists"
    where = f" In the ready-made {which}: {', '.join(lists)}." if lists else ""
    return f"{_KIND_WORDS[spec.kind]}.{faction} Effect: {spec.effect_text()}.{where}"


@cache
def components() -> tuple[tuple[str, str, tuple[str, ...], str, str], ...]:
    """Every component: ``(label, value, names, title, text)``; ``names`` are the lower
    case words a lookup accepts."""
    catalog = load_catalog()
    found: list[tuple[str, str, tuple[str, ...], str, str]] = []
    for land in catalog.lands.values():
        names: tuple[str, ...] = (land.name.lower(), land.code.lower(), land.id)
        label = f"{land.name} ({land.code}, {land.land_class} land)"
        found.append((label, f"land:{land.id}", names, land.name, land_text(land)))
    for unit in catalog.units.values():
        names = (unit.name.lower(), f"level {unit.level}")
        label = f"{unit.name} (level {unit.level} unit)"
        found.append((label, f"unit:{unit.level}", names, unit.name, unit_text(unit)))
    for hero in catalog.heroes.values():
        names = (hero.name.lower(), hero.id)
        found.append((f"{hero.name} (hero)", f"hero:{hero.id}", names, hero.name, hero_text(hero)))
    holders: dict[str, list[str]] = {}
    specs: dict[str, EnchantmentSpec] = {}
    for lst in catalog.lists.values():
        for number, spec in enumerate(lst.enchantments, 1):
            key = spec.name.lower()
            specs.setdefault(key, spec)
            holders.setdefault(key, []).append(f"{lst.name} {number}")
    for key, spec in specs.items():
        value = "enchantment:" + key.replace(" ", "_").replace("'", "")
        label = f"{spec.name} (enchantment)"
        found.append((label, value, (key,), spec.label(), enchantment_text(spec, holders[key])))
    return tuple(found)


def lookup(name: str) -> tuple[str, str] | None:
    """``(title, text)`` of the component called ``name`` (a name, code, id or value, any
    case), or None."""
    key = name.strip().lower()
    for _label, value, names, title, text in components():
        if key == value or key in names:
            return title, text
    return None


def suggestions(current: str) -> list[tuple[str, str]]:
    """Up to 25 ``(label, value)`` pairs whose label contains ``current``, names starting
    with it first; when none does, the closest names (so a misspelt name still finds
    its component)."""
    from bot.adapters import ranked_names

    pairs = [(label, value) for label, value, *_ in components()]
    found = ranked_names(pairs, current)
    if not found:
        labels = {label.split(" (")[0].lower(): (label, value) for label, value in pairs}
        close = difflib.get_close_matches(current.strip().lower(), list(labels), n=25, cutoff=0.0)
        found = [labels[name] for name in close]
    return found
