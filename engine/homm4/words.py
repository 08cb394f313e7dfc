"""Words for counts in homm4 texts: "1 Movement Point", "2½ Movement Points" (event lines,
prompts and refusals read like English; homm4:game-process). `plural` and `noun_plural` live
in `engine.core.words` (shared by every ruleset) and are re-exported here.
"""

from __future__ import annotations

from engine.core.words import noun_plural, plural

__all__ = ["half_points", "movement_points", "noun_plural", "plural"]


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
