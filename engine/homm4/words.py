"""Words for counts in homm4 texts: "1 card", "2 cards", "1 Movement Point", "2½ Movement
Points" (event lines, prompts and refusals read like English; homm4:game-process).
"""

from __future__ import annotations

_IRREGULAR = {"Hero": "Heroes", "hero": "heroes"}


def plural(count: int | float, singular: str, plural_form: str | None = None) -> str:
    """Return ``"<count> <noun>"`` with the noun in the singular for exactly 1, else the
    plural (``plural_form``, an irregular plural such as Armies / Heroes, or the noun +
    ``s``); the plural form of a phrase changes its last word only (homm4:game-process).

    >>> plural(1, "card"), plural(3, "card"), plural(2, "Army"), plural(0, "Secondary Skill card")
    ('1 card', '3 cards', '2 Armies', '0 Secondary Skill cards')
    """
    shown = f"{count:g}" if isinstance(count, float) else str(count)
    if count == 1:
        return f"{shown} {singular}"
    return f"{shown} {plural_form or noun_plural(singular)}"


def noun_plural(singular: str) -> str:
    """Return the plural of ``singular`` (a noun or a phrase ending in one;
    homm4:game-process).

    >>> noun_plural("Movement Point"), noun_plural("Army"), noun_plural("Spell")
    ('Movement Points', 'Armies', 'Spells')
    """
    head, _, last = singular.rpartition(" ")
    if last in _IRREGULAR:
        word = _IRREGULAR[last]
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "o", "u"):
        word = last[:-1] + "ies"
    elif last.endswith(("s", "x", "ch", "sh")):
        word = last + "es"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def half_points(mp2: int) -> str:
    """Return half points as a number with ``½``: ``5`` -> ``"2½"``, ``4`` -> ``"2"``,
    ``1`` -> ``"½"`` (homm4:movement-phase.movement-points-and-terrain)."""
    whole, half = divmod(mp2, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def movement_points(mp2: int) -> str:
    """Return Movement Points given in half points: ``"1 Movement Point"``, ``"0 Movement
    Points"``, ``"2½ Movement Points"`` (homm4:movement-phase.movement-points-and-terrain).

    >>> movement_points(2), movement_points(5), movement_points(0)
    ('1 Movement Point', '2½ Movement Points', '0 Movement Points')
    """
    return f"{half_points(mp2)} Movement Point{'' if mp2 == 2 else 's'}"
