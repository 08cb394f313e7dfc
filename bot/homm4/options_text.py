"""The homm4 ``options`` text of ``/game new`` and ``/game options``: the Advanced Rules,
Game Variants and the tournament deck size in a few words, read into `Homm4Options` fields,
written back for the lobby, and suggested as the host types.

Rule sections: homm4:advanced-rules (and its sub-sections), homm4:game-variants (and its
sub-sections), homm4:terrain-map-sections-with-underground, homm4:errata (deck size).

Words (separated by spaces; ``none`` clears everything):

* ``morale``, ``luck``, ``flying``, ``native``, ``distance``, ``other-factions``,
  ``resurrection``, ``potions``, ``trading``, ``diplomacy``: one Advanced Rule each;
  ``advanced``: all ten.
* ``teams=1+3/2+4`` (seat numbers, 1 = Red, or colours: ``teams=red+green/blue+yellow``).
* ``forces=6,4,2,1``: Units of Level 1, 2, 3, 4 everyone starts with; ``heroes=2``.
* ``predeveloped=1,1``: Primary and Secondary Skill cards per starting Hero;
  ``artifacts=1,1``: Treasure and other Artifacts per player; ``spells=no``: no starting
  Spells for magic Heroes.
* ``underground`` or ``underground=2``: underground sections (a second map).
* ``campaign``: Heroes that survived this channel's last game join their players.
* ``tournament=60`` or ``tournament=sections``: the tournament deck size.

The text is the whole list: ``/game options options:...`` replaces the previous one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from bot.errors import BadOption
from engine.core.model import SEAT_COLOURS

SWITCHES: dict[str, tuple[str, str]] = {
    "morale": ("morale", "Morale: two attacks or none, by a die each Round"),
    "luck": ("luck", "Luck: extra dice, keep the best or the worst"),
    "flying": ("flying", "Flying Armies: 1 MP a hex, over impassable terrain"),
    "native": ("native_lands", "Native and Special Lands: terrain movement, +1/+2, Mana"),
    "distance": ("distance_penalties", "Distance Penalties: back line to back line -2"),
    "other-factions": ("other_faction_heroes", "Buy Heroes of other factions for 4 cards"),
    "resurrection": ("resurrection", "Resurrecting Fallen Heroes in a friendly Town"),
    "potions": ("potions", "Potions of Immortality: every Hero survives one killing blow"),
    "trading": ("resource_trading", "Resource Trading: lend an Object's bonus (/deal sell)"),
    "diplomacy": ("diplomacy", "Diplomacy: pay cards, hand over Armies (/deal)"),
}
"""Switch word -> (`Homm4Options` field, what it does)."""

ALIASES: dict[str, str] = {
    "native-lands": "native",
    "lands": "native",
    "flying-armies": "flying",
    "distance-penalties": "distance",
    "other-faction-heroes": "other-factions",
    "resource-trading": "trading",
    "potion": "potions",
    "team": "teams",
}

VALUED: dict[str, str] = {
    "teams=": "Team Play, e.g. teams=1+3/2+4 (seats or colours)",
    "forces=": "Different Starting Forces: Units per level, e.g. forces=6,4,2,1",
    "heroes=": "starting Heroes with Different Starting Forces, e.g. heroes=2",
    "predeveloped=": "Pre-developed Heroes: Primary,Secondary Skills per Hero, e.g. predeveloped=1,1",
    "artifacts=": "Pre-developed Heroes: Treasure,other Artifacts per player, e.g. artifacts=1,1",
    "spells=no": "Pre-developed Heroes without starting Spells",
    "underground=": "underground sections (a second map), e.g. underground=2",
    "tournament=": "tournament decks: tournament=60 or tournament=sections",
}
"""Words with a value -> what they do (for suggestions)."""

OTHERS: dict[str, str] = {
    "advanced": "all ten Advanced Rules",
    "campaign": "Heroes that survived this channel's last game join their players",
    "none": "the base game: no Advanced Rule, no variant",
}

ADVANCED_FIELDS = {field for field, _ in SWITCHES.values()} | {
    "teams",
    "starting_forces",
    "pre_developed",
    "underground",
    "campaign",
    "deck_size",
}
"""The `Homm4Options` fields the options text sets (all of them: the text is the list)."""


def _numbers(word: str, text: str, count: int) -> list[int]:
    parts = [p for p in re.split(r"[,/;x+ ]+", text.strip()) if p]
    if len(parts) != count or not all(p.isdigit() for p in parts):
        raise BadOption(f"{word}= takes {count} whole numbers separated by commas, not {text!r}.")
    return [int(p) for p in parts]


def _seat(text: str, where: str) -> int:
    cleaned = text.strip().lower()
    colours = [c.lower() for c in SEAT_COLOURS]
    if cleaned in colours:
        return colours.index(cleaned)
    if cleaned.isdigit() and 1 <= int(cleaned) <= len(SEAT_COLOURS):
        return int(cleaned) - 1
    raise BadOption(
        f"{where}: {text!r} is not a seat; use numbers (1 = Red) or colours "
        f"({', '.join(SEAT_COLOURS)})."
    )


def _teams(text: str) -> list[list[int]]:
    teams = [t for t in re.split(r"\s*/\s*|\s*vs\s*", text.strip()) if t]
    if len(teams) < 2:
        raise BadOption("teams= needs at least two teams separated by /, e.g. teams=1+3/2+4.")
    return [[_seat(s, "teams") for s in re.split(r"[+,&]", team) if s.strip()] for team in teams]


def parse_options_text(text: str) -> dict[str, Any]:
    """Read an options text (see the module docstring) into `Homm4Options` fields: every
    field of `ADVANCED_FIELDS`, the ones not named at their base-game value.

    :raises BadOption: naming the word that could not be read and what is allowed.
    """
    result: dict[str, Any] = {field: False for field, _ in SWITCHES.values()}
    result.update(
        teams=[],
        starting_forces=None,
        pre_developed=None,
        underground=0,
        campaign=None,
        deck_size="casual",
    )
    forces: dict[str, Any] = {}
    developed: dict[str, Any] = {}
    for raw in text.replace(";", " ").split():
        word, _, value = raw.partition("=")
        key = ALIASES.get(word.lower(), word.lower())
        if key in ("none", "base"):
            continue
        if key == "advanced":
            result.update({field: True for field, _ in SWITCHES.values()})
        elif key in SWITCHES and not value:
            result[SWITCHES[key][0]] = True
        elif key == "teams":
            result["teams"] = _teams(value)
        elif key == "forces":
            forces["units"] = _numbers("forces", value, 4)
        elif key == "heroes":
            forces["heroes"] = _numbers("heroes", value, 1)[0]
        elif key == "predeveloped":
            primary, secondary = _numbers("predeveloped", value or "1,1", 2)
            developed.update(primary=primary, secondary=secondary)
        elif key == "artifacts":
            treasure, other = _numbers("artifacts", value, 2)
            developed.update(treasure=treasure, other=other)
        elif key == "spells":
            if value.lower() not in ("no", "off", "yes", "on"):
                raise BadOption("spells= is yes or no.")
            developed["spells"] = value.lower() in ("yes", "on")
        elif key == "underground":
            result["underground"] = _numbers("underground", value, 1)[0] if value else 2
        elif key == "campaign" and not value:
            result["campaign"] = {"heroes": []}
        elif key == "tournament":
            kinds = {"": "tournament-60", "60": "tournament-60", "sections": "tournament-sections"}
            if value.lower() not in kinds:
                raise BadOption("tournament= is 60 or sections.")
            result["deck_size"] = kinds[value.lower()]
        else:
            known = [*SWITCHES, *ALIASES, *(k.rstrip("=") for k in VALUED), *OTHERS]
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise BadOption(
                f"{raw!r} is not a game option.{hint} Options: {', '.join(SWITCHES)}, advanced, "
                "teams=1+3/2+4, forces=6,4,2,1, heroes=2, predeveloped=1,1, artifacts=1,1, "
                "spells=no, underground=2, campaign, tournament=60|sections, none."
            )
    if forces:
        result["starting_forces"] = {"units": [3, 2, 1, 0], "heroes": 1, **forces}
    if developed:
        result["pre_developed"] = {"primary": 0, "secondary": 0, **developed}
    return result


def options_text(options: Mapping[str, Any]) -> str:
    """Write the advanced part of engine options (a dumped `Homm4Options`) back as an
    options text (``"morale luck teams=1+3/2+4"``; ``"none"`` for the base game)."""
    words = [word for word, (field, _) in SWITCHES.items() if options.get(field)]
    teams = options.get("teams") or []
    if teams:
        words.append("teams=" + "/".join("+".join(str(s + 1) for s in team) for team in teams))
    forces = options.get("starting_forces")
    if forces:
        words.append("forces=" + ",".join(str(n) for n in forces.get("units", (3, 2, 1, 0))))
        if forces.get("heroes", 1) != 1:
            words.append(f"heroes={forces['heroes']}")
    developed = options.get("pre_developed")
    if developed:
        words.append(f"predeveloped={developed.get('primary', 0)},{developed.get('secondary', 0)}")
        if developed.get("treasure") or developed.get("other"):
            words.append(f"artifacts={developed.get('treasure', 0)},{developed.get('other', 0)}")
        if developed.get("spells") is False:
            words.append("spells=no")
    if options.get("underground"):
        words.append(f"underground={options['underground']}")
    if options.get("campaign") is not None:
        words.append("campaign")
    size = options.get("deck_size", "casual")
    if size != "casual":
        words.append("tournament=" + ("60" if size == "tournament-60" else "sections"))
    return " ".join(words) or "none"


def word_forms() -> list[str]:
    """Every word of the options text and what it does, one line each (for /help)."""
    return [
        *(f"{word} — {what}" for word, (_, what) in SWITCHES.items()),
        *(f"{word} — {what}" for word, what in OTHERS.items()),
        *(f"{word.rstrip('=')}=… — {what}" for word, what in VALUED.items() if word.endswith("=")),
        "spells=no — " + VALUED["spells=no"],
    ]


def suggest_options(current: str) -> list[tuple[str, str]]:
    """Autocomplete for the options text: the text typed so far plus one more word, for
    every word not yet used (at most 25 ``(name, value)`` pairs, ≤ 100 characters)."""
    words = current.split()
    ends_with_space = current.endswith(" ") or not current
    done = words if ends_with_space else words[:-1]
    partial = "" if ends_with_space else words[-1].lower()
    used = {ALIASES.get(w.split("=")[0].lower(), w.split("=")[0].lower()) for w in done}
    prefix = " ".join(done)
    catalogue = [
        *((w, what) for w, (_, what) in SWITCHES.items()),
        *((w, what) for w, what in OTHERS.items()),
        *VALUED.items(),
    ]
    pairs: list[tuple[str, str]] = []
    for word, what in catalogue:
        if word.split("=")[0] in used or not word.startswith(partial.split("=")[0]):
            continue
        value = f"{prefix} {word}".strip()
        if len(value) > 100:
            continue
        pairs.append((f"{value} — {what}"[:100], value))
    return pairs[:25]
