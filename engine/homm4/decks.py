"""Deck lists: validation, the Starting Forces choice and reading a pasted deck list.

Rule sections: homm4:setup (deck size, Starting Forces), homm4:errata (Game Board size,
"Arsenal Equipment"), homm4:game-variants.different-starting-forces.

* `validate_deck` / `check_deck`: a deck holds at least 40 cards and at most 10 per Terrain
  Map Section in play (tournaments: exactly 60, or exactly 10 per section); every card id
  is known; one faction can field the Starting Forces (1 Hero, 1 Town, 3 Level 1 Units,
  2 Level 2 Units and 1 Level 3 Unit of that faction, or the agreed Different Starting
  Forces).
* `starting_forces`: which cards of a deck are taken out as its Starting Forces (the rules
  engine calls it at setup); the choice rule is on the function.
* `parse_deck_text` / `deck_text`: the ``/deck import`` and ``/deck export`` text format,
  one line per card: ``3x Orc``, ``2 Medusa``, ``Asylum`` (1 copy), ``Orc x3``.

Messages name the cards of the deck being checked, so they are meant for that deck's
owner only (an ephemeral reply or a DM), never for a game channel.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict

from engine.core.errors import InvalidInput
from engine.core.words import plural
from engine.homm4.cards import (
    ArtifactCard,
    Card,
    CardPool,
    CardType,
    Faction,
    HeroCard,
    ObjectCard,
    SkillCard,
    SpellCard,
    TownCard,
    UnitCard,
    load_card_pool,
)
from engine.homm4.options import DeckSize, StartingForcesOption

MIN_DECK = 40
"""The smallest legal deck (homm4:setup)."""
CARDS_PER_SECTION = 10
"""A deck may hold this many cards per Terrain Map Section in play (homm4:setup)."""
MIN_SECTIONS = 4
"""The smallest Game Board, in Terrain Map Sections (homm4:setup)."""
FORCES_UNITS: dict[int, int] = {1: 3, 2: 2, 3: 1}
"""Starting Forces: Unit level -> how many Unit cards of that level (homm4:setup)."""
TOURNAMENT_DECK = 60
"""The tournament deck size of the errata's first choice (homm4:errata, Game Board size)."""
MAX_COPIES_PER_LINE = 99
"""The largest count a deck list line may give (a typing guard, not a rule)."""

_FACTION_ORDER = {faction: index for index, faction in enumerate(Faction)}
_TYPE_ORDER = {
    kind: index
    for index, kind in enumerate(
        (
            CardType.TOWN,
            CardType.HERO,
            CardType.UNIT,
            CardType.OBJECT,
            CardType.ARTIFACT,
            CardType.SKILL,
            CardType.SPELL,
        )
    )
}


class StartingForces(BaseModel):
    """The Starting Forces taken out of a deck at setup (homm4:setup).

    Attributes:
        faction: the faction all of them belong to.
        town: the Town card id (the "free" Town).
        hero: the Hero card id (on top of the Army Stack).
        units: the Unit card ids, level by level (standard: three Level 1, two Level 2,
            one Level 3, in that order).
        more_heroes: further Hero card ids (Different Starting Forces with more than one
            Hero; homm4:game-variants.different-starting-forces).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    faction: Faction
    town: str
    hero: str
    units: tuple[str, ...]
    more_heroes: tuple[str, ...] = ()

    @property
    def heroes(self) -> tuple[str, ...]:
        """Every starting Hero card id, the one on top first."""
        return (self.hero, *self.more_heroes)

    @property
    def cards(self) -> tuple[str, ...]:
        """All card ids: the Town, then the Heroes, then the Units."""
        return (self.town, *self.heroes, *self.units)


def forces_plan(forces: StartingForcesOption | None = None) -> tuple[dict[int, int], int]:
    """Return ``({unit level: count}, heroes)`` of the Starting Forces: the standard ones
    (3 Level 1, 2 Level 2, 1 Level 3, 1 Hero; homm4:setup) or the agreed Different
    Starting Forces (homm4:game-variants.different-starting-forces)."""
    if forces is None:
        return dict(FORCES_UNITS), 1
    return {level: n for level, n in enumerate(forces.units, start=1) if n}, forces.heroes


def deck_size_limits(map_sections: int, deck_size: DeckSize = "casual") -> tuple[int, int]:
    """Return ``(smallest, largest)`` legal deck size for a board of ``map_sections``.

    Casual: at least 40 cards, at most 10 per Terrain Map Section (homm4:setup; with 4
    sections both limits are 40). Tournaments (homm4:errata, Game Board size): exactly 60
    cards (``tournament-60``) or exactly 10 per section (``tournament-sections``).
    """
    if deck_size == "tournament-60":
        return TOURNAMENT_DECK, TOURNAMENT_DECK
    if deck_size == "tournament-sections":
        return CARDS_PER_SECTION * map_sections, CARDS_PER_SECTION * map_sections
    return MIN_DECK, CARDS_PER_SECTION * map_sections


def validate_deck(
    cards: Mapping[str, int],
    map_sections: int,
    pool: CardPool | None = None,
    *,
    deck_size: DeckSize = "casual",
    forces: StartingForcesOption | None = None,
) -> list[str]:
    """Return every problem of the deck ``cards`` (card id -> copies), or ``[]`` if legal.

    Checks (homm4:setup): each count is a whole number of at least 1; each id is a card of
    the pool (an unknown id is named, with the closest card name as a hint); the total is
    within `deck_size_limits` (casual 40 .. 10 x ``map_sections``, or a tournament size,
    homm4:errata); ``map_sections`` (every section in play, underground included) is at
    least 4; one faction has a Town, the Heroes and the Units of the Starting Forces in the
    deck (standard: a Hero, 3 Level 1, 2 Level 2 and 1 Level 3 Unit cards; or ``forces``,
    homm4:game-variants.different-starting-forces).

    :param pool: the card pool (default: the shipped pool).
    :returns: one readable sentence per problem, in the order above.
    """
    pool = pool or load_card_pool()
    plan = forces_plan(forces)
    problems: list[str] = []
    for card_id, count in sorted(cards.items()):
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            problems.append(
                f"The count of {card_id!r} must be a whole number of at least 1, not {count!r}."
            )
        if card_id not in pool.cards:
            problems.append(f"Unknown card id {card_id!r}{_hint(card_id, pool)}.")
    total = sum(c for c in cards.values() if isinstance(c, int) and not isinstance(c, bool))
    if map_sections < MIN_SECTIONS:
        problems.append(
            f"A Game Board needs at least {MIN_SECTIONS} Terrain Map Sections, not {map_sections}."
        )
    sections = max(map_sections, MIN_SECTIONS)
    smallest, largest = deck_size_limits(sections, deck_size)
    if deck_size != "casual" and total != smallest:
        problems.append(
            f"The deck has {plural(total, 'card')}; a tournament deck here holds exactly {smallest}."
        )
    elif total < smallest:
        problems.append(
            f"The deck has {plural(total, 'card')}; a deck needs at least {smallest} "
            f"({smallest - total} more)."
        )
    elif total > largest:
        problems.append(
            f"The deck has {plural(total, 'card')}; with {sections} Terrain Map "
            f"Sections a deck may hold at most {largest} ({CARDS_PER_SECTION} per section): "
            f"remove {total - largest}."
        )
    known = {k: v for k, v in cards.items() if k in pool.cards and isinstance(v, int) and v > 0}
    if _forces_faction(known, pool, plan) is None:
        problems.append(_forces_problem(known, pool, plan))
    return problems


def check_deck(
    cards: Mapping[str, int],
    map_sections: int,
    pool: CardPool | None = None,
    *,
    deck_size: DeckSize = "casual",
    forces: StartingForcesOption | None = None,
) -> None:
    """Raise if the deck is not legal (homm4:setup); see `validate_deck` for the checks.

    :raises InvalidInput: listing every problem, one per line.
    """
    problems = validate_deck(cards, map_sections, pool, deck_size=deck_size, forces=forces)
    if problems:
        raise InvalidInput("This deck is not legal:\n" + "\n".join(f"- {p}" for p in problems))


def forces_factions(
    cards: Mapping[str, int],
    pool: CardPool | None = None,
    forces: StartingForcesOption | None = None,
) -> list[Faction]:
    """Return the factions that can field complete Starting Forces from ``cards``, in
    `Faction` order (homm4:setup). Unknown ids are ignored."""
    pool = pool or load_card_pool()
    plan = forces_plan(forces)
    known = {k: v for k, v in cards.items() if k in pool.cards and v > 0}
    return [f for f in Faction if f is not Faction.NEUTRAL and not _missing(known, pool, f, plan)]


def starting_forces(
    cards: Mapping[str, int],
    pool: CardPool | None = None,
    forces: StartingForcesOption | None = None,
) -> StartingForces:
    """Choose the Starting Forces of the deck ``cards`` (card id -> copies) (homm4:setup).

    The choice is deterministic:

    1. Faction: among the factions that can field them, the one with the most cards in the
       deck; ties go to the earlier faction in `Faction` order (life, order, death, chaos,
       nature, might).
    2. Town: that faction's Town card with the most copies; ties by card id.
    3. Hero: that faction's Hero card with the most copies; ties by card id (with several
       starting Heroes: the next different Hero cards by the same order).
    4. Units, level by level (3 of Level 1, 2 of Level 2, 1 of Level 3, or the agreed
       counts), one card at a time: the Unit type of that level with the most copies still
       left in the deck; ties go first to a type the chosen Town sells (at any level), then
       by card id. So a deck with 6 Squires and 5 Crossbowmen starts with Squire,
       Crossbowman, Squire.

    :param forces: Different Starting Forces (homm4:game-variants.different-starting-forces),
        or None for the standard ones.
    :raises InvalidInput: if no faction can field them (the message says what is missing).
    """
    pool = pool or load_card_pool()
    plan = forces_plan(forces)
    known = {k: v for k, v in cards.items() if k in pool.cards and v > 0}
    faction = _forces_faction(known, pool, plan)
    if faction is None:
        raise InvalidInput(_forces_problem(known, pool, plan))
    town = _most_copies(known, pool, faction, TownCard)
    hero_ids = sorted(
        (
            cid
            for cid in known
            if isinstance(pool.get(cid), HeroCard)
            and getattr(pool.get(cid), "faction", None) is faction
        ),
        key=lambda cid: (-known[cid], cid),
    )[: plan[1]]
    town_card = pool.get(town)
    assert isinstance(town_card, TownCard)
    sold = {unit for level in town_card.levels for unit in level.units}
    left = dict(known)
    units: list[str] = []
    for level, need in plan[0].items():
        for _ in range(need):
            choices = [cid for cid in _units(known, pool, faction, level) if left[cid] > 0]
            pick = min(choices, key=lambda cid: (-left[cid], cid not in sold, cid))
            left[pick] -= 1
            units.append(pick)
    return StartingForces(
        faction=faction,
        town=town,
        hero=hero_ids[0],
        units=tuple(units),
        more_heroes=tuple(hero_ids[1:]),
    )


# ------------------------------------------------------------------ deck list text
_LINE = re.compile(
    r"^(?:(?P<pre>\d+)\s*[x×*]?\s+|(?P<prex>\d+)\s*[x×*])?\s*(?P<name>.*?)"
    r"(?:\s*(?:[x×*]\s*(?P<post>\d+)|\((?P<paren>\d+)\)))?$",
    re.IGNORECASE,
)
_RANK_WORDS = {
    "basic": "basic",
    "advanced": "basic",
    "expert": "expert",
    "master": "master",
    "grand master": "grand_master",
    "grandmaster": "grand_master",
}
_TYPE_WORDS: dict[str, CardType] = {
    "town": CardType.TOWN,
    "hero": CardType.HERO,
    "unit": CardType.UNIT,
    "creature": CardType.UNIT,
    "object": CardType.OBJECT,
    "strategic object": CardType.OBJECT,
    "artifact": CardType.ARTIFACT,
    "arsenal equipment": CardType.ARTIFACT,
    "skill": CardType.SKILL,
    "spell": CardType.SPELL,
}
"""Card type words a deck list may use as a heading or a ``Type: card`` prefix. "Arsenal
Equipment" is fully interchangeable with "Artifact" (homm4:errata)."""
_TYPE_NAMES: dict[type[Card], str] = {
    TownCard: "Town",
    HeroCard: "Hero",
    UnitCard: "Unit",
    ObjectCard: "Object",
    ArtifactCard: "Artifact",
    SkillCard: "Skill",
    SpellCard: "Spell",
}
_ALIASES = {
    "ifrit": "efreet",
    "ifrits": "efreet",
    "magi": "mage",
    "gold golem": "golden_golem",
    "fairy dragon": "faerie_dragon",
    "offense": "attack",
    "battle": "combat_basic",
}


def parse_deck_text(text: str, pool: CardPool | None = None) -> dict[str, int]:
    """Read a pasted deck list into ``{card id: copies}`` (``/deck import``; homm4:setup).

    One card per line: ``3x Orc``, ``3 x Orc``, ``3 Orc``, ``Orc x3``, ``Orc (3)`` or just
    ``Asylum`` (1 copy). A card is named by its name or its id, in any case, with or
    without apostrophes and hyphens (``alchemists lab``, ``Alchemist's Lab`` and
    ``alchemists_lab`` all work); a plain plural (``Orcs``, ``Wolves``) and the rulebook's
    other names (``Ifrit``, ``Magi``) work too. Primary Skill cards are named like
    ``Basic Tactics``, ``Tactics Expert`` or ``Grand Master Combat``. Blank lines and lines
    starting with ``#`` or ``//`` are skipped; a card named on several lines adds up.
    A card type may head a group of lines (``Artifacts:``, ``Units (21)``) or prefix one
    line (``Artifact: Spyglass``); the cards named under it must be of that type.
    "Arsenal Equipment" is read as "Artifact" (homm4:errata). Whether the result is a
    legal deck is `validate_deck`'s job.

    :raises InvalidInput: naming every line that could not be read (with a suggestion for
        a misspelt card), or if the text names no card at all.
    """
    pool = pool or load_card_pool()
    index = _name_index(pool)
    deck: dict[str, int] = {}
    problems: list[str] = []
    heading: CardType | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("-•").strip()
        if not line or line.startswith(("#", "//")):
            continue
        header = _type_heading(line)
        if header is not None:
            heading = header
            continue
        expected, line = _type_prefix(line, heading)
        match = _LINE.match(line)
        name = match.group("name").strip() if match else line
        counts = [match.group(g) for g in ("pre", "prex", "post", "paren")] if match else []
        given = [int(c) for c in counts if c is not None]
        if len(given) > 1:
            problems.append(f"Line {number}: {raw.strip()!r} gives two counts; give one.")
            continue
        count = given[0] if given else 1
        if not 1 <= count <= MAX_COPIES_PER_LINE:
            problems.append(
                f"Line {number}: {raw.strip()!r}: the count must be 1 to {MAX_COPIES_PER_LINE}."
            )
            continue
        card_id = _lookup(name, index)
        if card_id is None:
            problems.append(
                f"Line {number}: {name!r} is not a card of the pool{_hint(name, pool)}."
            )
            continue
        found = pool.get(card_id)
        if expected is not None and found.type != expected.value:
            kind = _TYPE_NAMES.get(type(found), found.type)
            wanted = expected.value.title()
            article = "an" if wanted[0] in "AEIOU" else "a"
            problems.append(
                f"Line {number}: {found.name} is a {kind} card, not {article} {wanted}."
            )
            continue
        deck[card_id] = deck.get(card_id, 0) + count
    if problems:
        raise InvalidInput("Could not read the deck list:\n" + "\n".join(problems))
    if not deck:
        raise InvalidInput("The deck list names no card; write one card per line, e.g. '3x Orc'.")
    return deck


def card_type_word(text: str) -> CardType | None:
    """Return the card type a word names (``units``, ``Artifact``, ``Arsenal Equipment``),
    or None (homm4:card-types; homm4:errata: "Arsenal Equipment" is "Artifact")."""
    key = _norm(text)
    if key in _TYPE_WORDS:
        return _TYPE_WORDS[key]
    for guess in _singular(key):
        if guess in _TYPE_WORDS:
            return _TYPE_WORDS[guess]
    return None


def _type_heading(line: str) -> CardType | None:
    """A heading line: only a card type word, optionally with a count and a colon
    (``Artifacts (3):``, ``Arsenal Equipment``, ``Units``)."""
    match = re.fullmatch(r"(?P<word>[^:()\d]+?)\s*(?:\(\s*\d+\s*\))?\s*:?", line.strip())
    return card_type_word(match.group("word")) if match else None


def _type_prefix(line: str, heading: CardType | None) -> tuple[CardType | None, str]:
    """Split ``"Artifact: Spyglass"`` into (artifact, ``"Spyglass"``); else the heading."""
    if ":" in line:
        head, rest = line.split(":", 1)
        kind = card_type_word(head)
        if kind is not None and rest.strip():
            return kind, rest.strip()
    return heading, line


def deck_text(cards: Mapping[str, int], pool: CardPool | None = None) -> str:
    """Write ``cards`` as deck list text that `parse_deck_text` reads back (homm4:setup).

    Lines are ``3x Orc``, grouped by card type (town, hero, unit, object, artifact, skill,
    spell), then by name. Unknown ids are written as they are.
    """
    pool = pool or load_card_pool()

    def order(item: tuple[str, int]) -> tuple[int, str, str]:
        card = pool.cards.get(item[0])
        if card is None:
            return (len(_TYPE_ORDER), item[0], item[0])
        return (_TYPE_ORDER[CardType(card.type)], card.name, item[0])

    lines = []
    for card_id, count in sorted(cards.items(), key=order):
        card = pool.cards.get(card_id)
        lines.append(f"{count}x {card.name if card else card_id}")
    return "\n".join(lines)


# ------------------------------------------------------------------ helpers
def _units(cards: Mapping[str, int], pool: CardPool, faction: Faction, level: int) -> list[str]:
    """Unit ids of ``faction`` and ``level`` in ``cards``, sorted by id."""
    found = []
    for card_id in sorted(cards):
        card = pool.get(card_id)
        if isinstance(card, UnitCard) and card.faction is faction and card.level == level:
            found.append(card_id)
    return found


def _count(cards: Mapping[str, int], pool: CardPool, faction: Faction, kind: type[Card]) -> int:
    return sum(
        n
        for cid, n in cards.items()
        if isinstance(pool.get(cid), kind) and getattr(pool.get(cid), "faction", None) is faction
    )


Plan = tuple[dict[int, int], int]


def _hero_kinds(cards: Mapping[str, int], pool: CardPool, faction: Faction) -> int:
    """How many different Hero cards of ``faction`` the deck holds."""
    return sum(
        1
        for cid in cards
        if isinstance(pool.get(cid), HeroCard)
        and getattr(pool.get(cid), "faction", None) is faction
    )


def _missing(
    cards: Mapping[str, int], pool: CardPool, faction: Faction, plan: Plan = (FORCES_UNITS, 1)
) -> list[str]:
    """What ``faction`` lacks for the Starting Forces, as phrases (``[]``: nothing)."""
    missing = []
    if _count(cards, pool, faction, TownCard) < 1:
        missing.append("a Town")
    heroes = _hero_kinds(cards, pool, faction)
    if heroes < plan[1]:
        missing.append(
            "a Hero" if plan[1] == 1 else plural(plan[1] - heroes, "more different Hero card")
        )
    for level, need in plan[0].items():
        have = sum(cards[cid] for cid in _units(cards, pool, faction, level))
        if have < need:
            noun = "Unit" if need - have == 1 else "Units"
            missing.append(f"{need - have} more Level {level} {noun} (has {have} of {need})")
    return missing


def _shortfall(
    cards: Mapping[str, int], pool: CardPool, faction: Faction, plan: Plan = (FORCES_UNITS, 1)
) -> int:
    """How many cards ``faction`` lacks for the Starting Forces (0: none)."""
    short = max(0, 1 - _count(cards, pool, faction, TownCard))
    short += max(0, plan[1] - _hero_kinds(cards, pool, faction))
    for level, need in plan[0].items():
        short += max(0, need - sum(cards[cid] for cid in _units(cards, pool, faction, level)))
    return short


def _forces_faction(
    cards: Mapping[str, int], pool: CardPool, plan: Plan = (FORCES_UNITS, 1)
) -> Faction | None:
    able = [f for f in Faction if f is not Faction.NEUTRAL and _missing(cards, pool, f, plan) == []]
    if not able:
        return None

    def size(faction: Faction) -> int:
        return sum(
            n for cid, n in cards.items() if getattr(pool.get(cid), "faction", None) is faction
        )

    return min(able, key=lambda f: (-size(f), _FACTION_ORDER[f]))


def _plan_text(plan: Plan) -> str:
    units = ", ".join(
        f"{n} Level {level} Unit{'s' if n != 1 else ''}" for level, n in plan[0].items()
    )
    heroes = "1 Hero" if plan[1] == 1 else f"{plan[1]} different Heroes"
    return f"{heroes}, 1 Town{', ' + units if units else ''}"


def _forces_problem(
    cards: Mapping[str, int], pool: CardPool, plan: Plan = (FORCES_UNITS, 1)
) -> str:
    """Explain why no faction can field the Starting Forces, naming the closest faction."""
    if plan == (FORCES_UNITS, 1):
        rule = (
            "No faction can field the Starting Forces (1 Hero, 1 Town, 3 Level 1 Units, "
            "2 Level 2 Units and 1 Level 3 Unit, all of one faction)"
        )
    else:
        rule = f"No faction can field the Starting Forces ({_plan_text(plan)}, all of one faction)"
    factions = [f for f in Faction if f is not Faction.NEUTRAL]
    if not any(getattr(pool.get(cid), "faction", None) in factions for cid in cards):
        return rule + "."
    closest = min(factions, key=lambda f: (_shortfall(cards, pool, f, plan), _FACTION_ORDER[f]))
    missing = _missing(cards, pool, closest, plan)
    return f"{rule}: the closest, {closest.value.title()}, lacks {_join(missing)}."


def _most_copies(
    cards: Mapping[str, int], pool: CardPool, faction: Faction, kind: type[Card]
) -> str:
    candidates = [
        cid
        for cid in cards
        if isinstance(pool.get(cid), kind) and getattr(pool.get(cid), "faction", None) is faction
    ]
    return min(candidates, key=lambda cid: (-cards[cid], cid))


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _norm(text: str) -> str:
    """Lowercase, accents and punctuation dropped, words single-spaced."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = text.lower().replace("_", " ").replace("'", "").replace("’", "")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def _singular(word: str) -> list[str]:
    """Plain English singular guesses for the last word of a name (``wolves`` -> ``wolf``)."""
    guesses = []
    if word.endswith("ves"):
        guesses.append(word[:-3] + "f")
    if word.endswith("men"):
        guesses.append(word[:-3] + "man")
    if word.endswith("ies"):
        guesses.append(word[:-3] + "y")
    if word.endswith("es"):
        guesses.append(word[:-2])
    if word.endswith("s"):
        guesses.append(word[:-1])
    return guesses


def _name_index(pool: CardPool) -> dict[str, str]:
    """Normalised name / id / alias -> card id."""
    index: dict[str, str] = {}
    for card in pool.cards.values():
        index.setdefault(_norm(card.id), card.id)
        index.setdefault(_norm(card.name), card.id)
        if isinstance(card, SkillCard) and not card.secondary:
            skill = _norm(card.primary.value)
            for word, suffix in _RANK_WORDS.items():
                if card.id == f"{card.primary.value}_{suffix}":
                    index.setdefault(f"{word} {skill}", card.id)
                    index.setdefault(f"{skill} {word}", card.id)
    for alias, card_id in _ALIASES.items():
        if card_id in pool.cards:
            index.setdefault(alias, card_id)
    return index


def _lookup(name: str, index: Mapping[str, str]) -> str | None:
    key = _norm(name)
    if key in index:
        return index[key]
    words = key.split(" ")
    for guess in _singular(words[-1]):
        candidate = " ".join([*words[:-1], guess])
        if candidate in index:
            return index[candidate]
    return None


def _hint(name: str, pool: CardPool) -> str:
    """``" (did you mean 'Orc'?)"`` for the closest card name or id, or ``""``."""
    names = {_norm(card.name): card.name for card in pool.cards.values()}
    names.update({_norm(card.id): card.name for card in pool.cards.values()})
    close = difflib.get_close_matches(_norm(name), list(names), n=1, cutoff=0.6)
    return f" (did you mean {names[close[0]]!r}?)" if close else ""
