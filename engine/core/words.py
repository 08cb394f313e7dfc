"""Words for counts in player-facing texts of every ruleset: "1 card", "2 cards", "1 hit",
"3 hits", "2 Armies" (event lines, prompts and refusals read like English, never
"card(s)")."""

from __future__ import annotations

_IRREGULAR = {"Hero": "Heroes", "hero": "heroes"}


def plural(count: int | float, singular: str, plural_form: str | None = None) -> str:
    """Return ``"<count> <noun>"`` with the noun in the singular for exactly 1, else the
    plural (``plural_form``, an irregular plural such as Armies / Heroes, or the noun +
    ``s``); the plural form of a phrase changes its last word only.

    >>> plural(1, "card"), plural(3, "card"), plural(2, "Army"), plural(0, "Secondary Skill card")
    ('1 card', '3 cards', '2 Armies', '0 Secondary Skill cards')
    """
    shown = f"{count:g}" if isinstance(count, float) else str(count)
    if count == 1:
        return f"{shown} {singular}"
    return f"{shown} {plural_form or noun_plural(singular)}"


def noun_plural(singular: str) -> str:
    """Return the plural of ``singular`` (a noun or a phrase ending in one).

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
