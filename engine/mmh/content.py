"""The mmh content schema: factions, creatures, heroes, buildings, tiles, markers and cards.

Rule sections: mmh:game-material (and its sub-sections), mmh:game-setup.setting-up-the-player-areas,
mmh:other-game-rules.using-card-effects, mmh:description-of-the-game-board. The data itself
lives in ``engine/mmh/data/*.toml`` (our own names and text, Might & Magic Heroes VI world);
`load_content` reads it, validates every table with pydantic and cross-checks the counts the
rulebook gives (43 encounter markers, 64 skill cards, 20 scrolls, ...), once per process.

Effect vocabulary
-----------------
Skill, scroll and artefact cards speak one small vocabulary, `EffectKind`, which the rules
engine implements (and only this). An `Ability` is a list of effects used in one timing
window (`Window`): ``always`` (a standing bonus) or one of the rulebook's five battle
windows (mmh:course-of-play.battles, "Skills in Battle").

=================  =======================================================================
kind               meaning (value ``v``)
=================  =======================================================================
might/magic/       + v to the hero's Might / Magic / Initiative / Leadership.
initiative/
leadership
movement           + v movement points when the hero is activated.
gather_gold/       + v gold / resources whenever the owner performs Gather Resources.
gather_resources
overwhelm          + v to the hero's overwhelm value.
hero_dice          + v attack dice on the hero's own attack.
army_initiative    + v initiative for the hero's creature stacks.
basic_might        + v might for the basic creatures of the hero's army.
recruit_discount   creatures recruited for the hero cost v gold less (never below 0).
retreat_saving     the hero loses v creatures fewer when he retreats.
misfortune         the first enemy attack on the hero's army in each exchange of blows must
                   reroll all its hits (dice already rerolled stay).
damage             v damage to one enemy stack or encounter marker (heroes take none).
magic_attack       the hero attacks with v attack dice, hitting on his Magic value.
raise_dead         RAISE DEAD v for the hero's army.
shield             the next v damage the hero's army suffers this exchange is ignored.
luck               the hero takes v luck markers (while the supply lasts).
stack_might        + v might for one own stack until the end of the exchange of blows.
stack_initiative   + v initiative for one own stack until the end of the exchange.
weaken             - v might for one enemy stack or marker until the end of the exchange.
slow               - v initiative for one enemy marker until the end of the exchange.
summon             the element marker ``element`` joins the hero's side for this battle.
dispel             no enemy hero may use a scroll card for the rest of this battle.
gold/resources     the owner takes v gold / resources.
=================  =======================================================================
"""

from __future__ import annotations

import tomllib
from collections import Counter
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Faction(StrEnum):
    """The four factions (mmh:game-setup.determine-player-colors)."""

    SANCTUARY = "sanctuary"
    NECROPOLIS = "necropolis"
    HAVEN = "haven"
    STRONGHOLD = "stronghold"


MIGHT_SCHOOLS: tuple[str, ...] = ("exemplar", "war_cries", "tactics", "warfare", "kingdom")
"""Might Exemplar, War Cries, Tactics, Warfare, Kingdom (mmh:game-setup.choosing-the-starting-hero)."""
MAGIC_SCHOOLS: tuple[str, ...] = ("primal", "dark", "light", "earth", "water")
"""Primal, Dark, Light, Earth and Water Magic."""
SCHOOL_NAMES: dict[str, str] = {
    "exemplar": "Might Exemplar",
    "war_cries": "War Cries",
    "tactics": "Tactics",
    "warfare": "Warfare",
    "kingdom": "Kingdom",
    "primal": "Primal Magic",
    "dark": "Dark Magic",
    "light": "Light Magic",
    "earth": "Earth Magic",
    "water": "Water Magic",
}

Colour = Literal["yellow", "purple", "gold"]
"""Encounter colours: ordinary (yellow), dangerous (purple), legendary (gold)."""
COLOUR_NAMES: dict[str, str] = {"yellow": "ordinary", "purple": "dangerous", "gold": "legendary"}

STARTING_ABILITIES: tuple[str, ...] = (
    "aggressor",
    "supply_delivery",
    "mysticism",
    "pathfinder",
    "artefact_finder",
    "inheritance",
    "merchant",
    "landowner",
    "portal_traveler",
    "celebrated_leader",
    "sage",
    "wanderlust",
)
"""The twelve starting abilities of the hero sheets (mmh:game-setup.choosing-the-starting-hero)."""

ABILITY_NAMES: dict[str, str] = {
    "aggressor": "Aggressor",
    "supply_delivery": "Supply Delivery",
    "mysticism": "Mysticism",
    "pathfinder": "Pathfinder",
    "artefact_finder": "Artefact Finder",
    "inheritance": "Inheritance",
    "merchant": "Merchant",
    "landowner": "Landowner",
    "portal_traveler": "Portal Traveler",
    "celebrated_leader": "Celebrated Leader",
    "sage": "Sage",
    "wanderlust": "Wanderlust",
}

BattleAbility = Literal[
    "focused", "defender", "resilience", "piercing", "annihilator", "battle_fury", "regeneration"
]
"""Battle abilities (mmh:course-of-play.battles); the last three only on encounter markers."""


class Window(StrEnum):
    """When an ability may be used (mmh:course-of-play.battles, Skills in Battle)."""

    ALWAYS = "always"
    BEFORE = "before"
    START = "start"
    IN_BATTLE = "in_battle"
    AFTER_EXCHANGE = "after_exchange"
    AFTER_BATTLE = "after_battle"


WINDOW_NAMES: dict[Window, str] = {
    Window.ALWAYS: "Always",
    Window.BEFORE: "Before the Battle",
    Window.START: "At the Start of Battle",
    Window.IN_BATTLE: "In Battle",
    Window.AFTER_EXCHANGE: "After the Exchange of Blows",
    Window.AFTER_BATTLE: "After the Battle",
}


class EffectKind(StrEnum):
    """The effect vocabulary (see the module docstring)."""

    MIGHT = "might"
    MAGIC = "magic"
    INITIATIVE = "initiative"
    LEADERSHIP = "leadership"
    MOVEMENT = "movement"
    GATHER_GOLD = "gather_gold"
    GATHER_RESOURCES = "gather_resources"
    OVERWHELM = "overwhelm"
    HERO_DICE = "hero_dice"
    ARMY_INITIATIVE = "army_initiative"
    BASIC_MIGHT = "basic_might"
    RECRUIT_DISCOUNT = "recruit_discount"
    RETREAT_SAVING = "retreat_saving"
    MISFORTUNE = "misfortune"
    DAMAGE = "damage"
    MAGIC_ATTACK = "magic_attack"
    RAISE_DEAD = "raise_dead"
    SHIELD = "shield"
    LUCK = "luck"
    STACK_MIGHT = "stack_might"
    STACK_INITIATIVE = "stack_initiative"
    WEAKEN = "weaken"
    SLOW = "slow"
    SUMMON = "summon"
    DISPEL = "dispel"
    GOLD = "gold"
    RESOURCES = "resources"


PASSIVE_KINDS: frozenset[EffectKind] = frozenset(
    {
        EffectKind.MIGHT,
        EffectKind.MAGIC,
        EffectKind.INITIATIVE,
        EffectKind.LEADERSHIP,
        EffectKind.MOVEMENT,
        EffectKind.GATHER_GOLD,
        EffectKind.GATHER_RESOURCES,
        EffectKind.OVERWHELM,
        EffectKind.HERO_DICE,
        EffectKind.ARMY_INITIATIVE,
        EffectKind.BASIC_MIGHT,
        EffectKind.RECRUIT_DISCOUNT,
        EffectKind.RETREAT_SAVING,
        EffectKind.MISFORTUNE,
    }
)
"""Kinds that are standing bonuses (window ``always``)."""

WINDOW_KINDS: dict[Window, frozenset[EffectKind]] = {
    Window.ALWAYS: PASSIVE_KINDS,
    Window.BEFORE: frozenset({EffectKind.LUCK, EffectKind.DISPEL, EffectKind.SUMMON}),
    Window.START: frozenset(
        {
            EffectKind.STACK_MIGHT,
            EffectKind.STACK_INITIATIVE,
            EffectKind.WEAKEN,
            EffectKind.SLOW,
            EffectKind.SHIELD,
        }
    ),
    Window.IN_BATTLE: frozenset(
        {
            EffectKind.DAMAGE,
            EffectKind.MAGIC_ATTACK,
            EffectKind.RAISE_DEAD,
            EffectKind.SHIELD,
            EffectKind.STACK_MIGHT,
            EffectKind.WEAKEN,
            EffectKind.LUCK,
        }
    ),
    Window.AFTER_EXCHANGE: frozenset({EffectKind.RAISE_DEAD, EffectKind.DAMAGE}),
    Window.AFTER_BATTLE: frozenset(
        {EffectKind.RAISE_DEAD, EffectKind.GOLD, EffectKind.RESOURCES, EffectKind.LUCK}
    ),
}
"""Which kinds each window may use (validated at load)."""

ENEMY_TARGET: frozenset[EffectKind] = frozenset(
    {EffectKind.DAMAGE, EffectKind.WEAKEN, EffectKind.SLOW}
)
"""Kinds aimed at one enemy marker on the initiative track."""
OWN_TARGET: frozenset[EffectKind] = frozenset({EffectKind.STACK_MIGHT, EffectKind.STACK_INITIATIVE})
"""Kinds aimed at one of the user's own stacks."""


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Effect(_M):
    """One effect: a kind, its value and (for ``summon``) the element marker."""

    kind: EffectKind
    value: int = Field(default=1, ge=1, le=9)
    element: str | None = None

    @model_validator(mode="after")
    def _element_only_for_summon(self) -> Effect:
        if (self.kind == EffectKind.SUMMON) != (self.element is not None):
            raise ValueError("'element' is given exactly for summon effects")
        return self


class Ability(_M):
    """Effects used together in one window."""

    window: Window
    effects: tuple[Effect, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _kinds_fit_window(self) -> Ability:
        allowed = WINDOW_KINDS[self.window]
        for effect in self.effects:
            if effect.kind not in allowed:
                raise ValueError(f"{effect.kind} cannot be used in window {self.window}")
        enemy = any(e.kind in ENEMY_TARGET for e in self.effects)
        own = any(e.kind in OWN_TARGET for e in self.effects)
        if enemy and own:
            raise ValueError("one ability aims at an enemy or at an own stack, not both")
        return self

    @property
    def target(self) -> Literal["enemy", "own", "none"]:
        """What the ability aims at."""
        if any(e.kind in ENEMY_TARGET for e in self.effects):
            return "enemy"
        if any(e.kind in OWN_TARGET for e in self.effects):
            return "own"
        return "none"

    @property
    def passive(self) -> bool:
        """True for a standing bonus (window ``always``)."""
        return self.window == Window.ALWAYS


# --------------------------------------------------------------------------- creatures
class CreatureSide(_M):
    """One side of a creature marker (mmh:game-setup.choosing-the-starting-hero, creature
    marker layout): name, might, battle abilities (``resilience`` counts symbols)."""

    name: str
    might: int = Field(ge=1, le=7)
    abilities: tuple[BattleAbility, ...] = ()
    resilience: int = Field(default=0, ge=0, le=2)

    @model_validator(mode="after")
    def _creature_abilities(self) -> CreatureSide:
        bad = set(self.abilities) & {"annihilator", "battle_fury", "regeneration", "resilience"}
        if bad:
            raise ValueError(f"creatures cannot have {sorted(bad)} (resilience is a count)")
        return self


class Creature(_M):
    """A creature type of a faction: its capital level, initiative, marker count, both sides."""

    id: str
    faction: Faction
    level: int = Field(ge=1, le=4)
    initiative: int = Field(ge=1, le=9)
    markers: int = Field(ge=1)
    basic: CreatureSide
    elite: CreatureSide


class CapitalLevel(_M):
    """One column of the capital board (mmh:course-of-play.build): the resource cost to
    reach the level and the gold cost of its basic and elite creature."""

    level: int = Field(ge=1, le=4)
    resources: int = Field(ge=0)
    basic_gold: int = Field(ge=0)
    elite_gold: int = Field(ge=0)
    creature: str


class HeroDef(_M):
    """A hero sheet (mmh:game-setup.choosing-the-starting-hero)."""

    id: str
    name: str
    faction: Faction
    reputation: Literal["tears", "balance", "blood"]
    might: int = Field(ge=1, le=7)
    magic: int = Field(ge=0, le=7)
    initiative: int = Field(ge=1, le=9)
    leadership: int = Field(ge=6, le=12)
    ability: str
    master: str | None = None
    leader: str | None = None
    schools: tuple[str, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _known(self) -> HeroDef:
        if self.ability not in STARTING_ABILITIES:
            raise ValueError(f"unknown starting ability {self.ability!r}")
        unknown = set(self.schools) - set(MIGHT_SCHOOLS) - set(MAGIC_SCHOOLS)
        if unknown:
            raise ValueError(f"unknown schools {sorted(unknown)}")
        return self


BuildingEffect = Literal[
    "hall_of_heroes",
    "town_hall",
    "marketplace",
    "temple",
    "barracks",
    "garrison",
    "academy",
    "town_portal",
    "guardian_angel",
    "necromancy",
    "blood_rage",
    "honor",
]


class Building(_M):
    """A building marker (mmh:course-of-play.build): cost, minimum capital level, effect.

    ``faction`` is None for the eight buildings every faction has. ``gold`` is paid as
    well as ``resources`` (the Temple of Asha); the Town Hall's ``either`` means the cost
    is paid in gold or in resources, the builder's choice.
    """

    id: str
    name: str
    faction: Faction | None = None
    effect: BuildingEffect
    resources: int = Field(ge=0)
    gold: int = Field(default=0, ge=0)
    either: bool = False
    level: int = Field(ge=1, le=4)
    vp: int = Field(default=0, ge=0)


class FactionDef(_M):
    """A faction: colour of its wooden markers, capital board, creature types."""

    id: Faction
    name: str
    colour: str
    capital: tuple[CapitalLevel, ...] = Field(min_length=4, max_length=4)


# --------------------------------------------------------------------------- board
Location = Literal[
    "sawmill",
    "mine",
    "arcane_library",
    "stable",
    "arena",
    "crystal_cavern",
    "gold_mine",
    "armorsmith",
    "dragon_nexus",
    "weaponsmith",
    "crystal_of_revelation",
    "dragon_vein",
    "stone_of_enlightenment",
    "portal",
    "dragon_shrine",
]
LOCATION_CODES: dict[str, Location] = {
    "SM": "sawmill",
    "MI": "mine",
    "AL": "arcane_library",
    "ST": "stable",
    "AR": "arena",
    "CC": "crystal_cavern",
    "GM": "gold_mine",
    "AS": "armorsmith",
    "DN": "dragon_nexus",
    "WS": "weaponsmith",
    "CR": "crystal_of_revelation",
    "DV": "dragon_vein",
    "SE": "stone_of_enlightenment",
    "PO": "portal",
    "DS": "dragon_shrine",
}
"""Two-letter codes used in ``tiles.toml``."""
LOCATION_NAMES: dict[str, str] = {
    "sawmill": "Sawmill",
    "mine": "Mine",
    "arcane_library": "Arcane Library",
    "stable": "Stable",
    "arena": "Arena",
    "crystal_cavern": "Crystal Cavern",
    "gold_mine": "Gold Mine",
    "armorsmith": "Armorsmith",
    "dragon_nexus": "Dragon Nexus",
    "weaponsmith": "Weaponsmith",
    "crystal_of_revelation": "Crystal of Revelation",
    "dragon_vein": "Dragon Vein",
    "stone_of_enlightenment": "Stone of Enlightenment",
    "portal": "Portal",
    "dragon_shrine": "Dragon Shrine",
}
CONTROLLABLE: dict[str, tuple[int, int, int]] = {
    "sawmill": (1, 0, 3),
    "mine": (2, 0, 2),
    "crystal_cavern": (3, 0, 1),
    "gold_mine": (0, 4, 0),
    "dragon_nexus": (4, 0, 0),
}
"""Controllable locations: (VP, gold, resources per Gather Resources)
(mmh:description-of-the-game-board.game-board-locations)."""
EXPLORABLE: frozenset[str] = frozenset(
    {
        "arcane_library",
        "stable",
        "arena",
        "armorsmith",
        "weaponsmith",
        "crystal_of_revelation",
        "dragon_vein",
        "stone_of_enlightenment",
        "dragon_shrine",
    }
)
"""Locations with the telescope symbol (explored once per game)."""

Terrain = Literal["open", "water", "mountain", "harbour"]
_TERRAIN_CODES: dict[str, Terrain] = {
    "..": "open",
    "~~": "water",
    "^^": "mountain",
    "HB": "harbour",
}
_ARROWS: dict[str, tuple[int, int]] = {">": (1, 0), "<": (-1, 0), "^": (0, -1), "v": (0, 1)}
_COLOUR_CODES: dict[str, Colour] = {"Y": "yellow", "P": "purple", "G": "gold"}


class TileSpace(_M):
    """One space of a map tile, in the tile's own frame (x right, y down, 0..3)."""

    x: int
    y: int
    terrain: Terrain = "open"
    location: Location | None = None
    encounter: Colour | None = None
    guards: tuple[int, int] | None = None


class Tile(_M):
    """A 4×4 map tile (mmh:game-setup.setting-up-the-game-board): its number, whether it is
    a red capital tile, and its sixteen spaces (row by row)."""

    number: int = Field(ge=1, le=16)
    capital: bool = False
    spaces: tuple[TileSpace, ...] = Field(min_length=16, max_length=16)

    def at(self, x: int, y: int) -> TileSpace:
        """The space at local ``(x, y)``."""
        return self.spaces[y * 4 + x]

    @property
    def portal(self) -> tuple[int, int] | None:
        """Local position of the tile's portal, if it has one."""
        for space in self.spaces:
            if space.location == "portal":
                return (space.x, space.y)
        return None


def parse_tile(raw: dict[str, Any]) -> Tile:
    """Build a `Tile` from its TOML form: ``number``, ``capital`` and four ``rows`` of four
    two-character codes (``..`` open, ``~~`` water, ``^^`` mountain, ``HB`` harbour, a
    location code such as ``SM``, or an encounter symbol: colour Y/P/G and an arrow
    ``> < ^ v`` pointing at the space it guards).

    :raises ValueError: for an unknown code or a malformed row.

    Rule: mmh:description-of-the-game-board.
    """
    rows = raw["rows"]
    if len(rows) != 4:
        raise ValueError(f"tile {raw.get('number')}: 4 rows expected")
    spaces: list[TileSpace] = []
    for y, row in enumerate(rows):
        codes = row.split()
        if len(codes) != 4:
            raise ValueError(f"tile {raw.get('number')}: row {y + 1} needs 4 codes")
        for x, code in enumerate(codes):
            if code in _TERRAIN_CODES:
                spaces.append(TileSpace(x=x, y=y, terrain=_TERRAIN_CODES[code]))
            elif code in LOCATION_CODES:
                spaces.append(TileSpace(x=x, y=y, location=LOCATION_CODES[code]))
            elif len(code) == 2 and code[0] in _COLOUR_CODES and code[1] in _ARROWS:
                dx, dy = _ARROWS[code[1]]
                spaces.append(
                    TileSpace(x=x, y=y, encounter=_COLOUR_CODES[code[0]], guards=(x + dx, y + dy))
                )
            else:
                raise ValueError(f"tile {raw.get('number')}: unknown code {code!r}")
    return Tile(number=raw["number"], capital=raw.get("capital", False), spaces=tuple(spaces))


# --------------------------------------------------------------------------- markers
class Encounter(_M):
    """An encounter marker (mmh:course-of-play.battles, encounter marker layout).

    ``elite`` marks the symbol that lets its controller roll the elite die.
    """

    id: int
    name: str
    colour: Colour
    might: int = Field(ge=1, le=7)
    threat: int = Field(ge=1, le=6)
    initiative: int = Field(ge=1, le=9)
    xp: int = Field(ge=1, le=6)
    chests: int = Field(ge=1, le=3)
    abilities: tuple[BattleAbility, ...] = ()
    resilience: int = Field(default=0, ge=0, le=2)
    elite: bool = False


class Element(_M):
    """An element marker, summoned by a scroll for one battle."""

    id: str
    name: str
    might: int
    initiative: int
    dice: int = Field(ge=1, le=5)
    resilience: int = Field(default=0, ge=0, le=3)


# --------------------------------------------------------------------------- cards
class SkillCard(_M):
    """A might or magic skill card (mmh:other-game-rules.using-card-effects).

    The primary ability serves every hero; the secondary only a hero whose sheet shows
    ``school``: with ``link`` ``or`` he uses one of the two, with ``and`` both.
    """

    id: str
    name: str
    faction: Faction
    deck: Literal["might", "magic"]
    school: str
    reputation: Literal["tears", "balance", "blood"]
    primary: Ability
    link: Literal["or", "and"]
    secondary: Ability

    @model_validator(mode="after")
    def _consistent(self) -> SkillCard:
        schools = MIGHT_SCHOOLS if self.deck == "might" else MAGIC_SCHOOLS
        if self.school not in schools:
            raise ValueError(f"{self.id}: school {self.school} is not a {self.deck} school")
        _check_parts(self.id, self.primary, self.secondary, self.link)
        return self


class ScrollCard(_M):
    """A scroll card: a school of magic, a level 1-5 and a two-part text box
    (mmh:other-game-rules.using-card-effects)."""

    id: str
    name: str
    school: str
    level: int = Field(ge=1, le=5)
    primary: Ability
    link: Literal["or", "and"]
    secondary: Ability

    @model_validator(mode="after")
    def _consistent(self) -> ScrollCard:
        if self.school not in MAGIC_SCHOOLS:
            raise ValueError(f"{self.id}: {self.school} is not a school of magic")
        if self.primary.passive:
            raise ValueError(f"{self.id}: a scroll is used once, it cannot be a standing bonus")
        _check_parts(self.id, self.primary, self.secondary, self.link)
        return self


ArtefactCategory = Literal["clothing", "armor", "weapon", "jewelry", "item"]


class ArtefactCard(_M):
    """An artefact card: category (one per hero per category) and ability; worth 1 VP."""

    id: str
    name: str
    category: ArtefactCategory
    reputation: Literal["tears", "balance", "blood"]
    ability: Ability | None = None


TreasureKind = Literal["gold", "resources", "xp", "scroll", "artefact", "luck"]


class TreasureField(_M):
    """One of the four fields of a treasure card."""

    kind: TreasureKind
    value: int = Field(default=1, ge=1, le=9)


class TreasureCard(_M):
    """A treasure card: four fields, exactly one of them an artefact
    (mmh:other-game-rules.using-card-effects, Treasure Cards)."""

    id: str
    name: str
    fields: tuple[TreasureField, ...] = Field(min_length=4, max_length=4)

    @model_validator(mode="after")
    def _one_artefact(self) -> TreasureCard:
        if sum(1 for f in self.fields if f.kind == "artefact") != 1:
            raise ValueError(f"{self.id}: exactly one field is an artefact")
        return self


class WeekEvent(_M):
    """What a week card does for its round (mmh:course-of-play.revealing-the-week-card).

    All fields default to no effect. ``reveal_*`` is given to every player when the card
    is revealed; the rest last the whole round.
    """

    dark_times: bool = False
    gather_gold: int = 0
    gather_resources: int = 0
    recruit_discount: int = 0
    build_discount: int = 0
    movement: int = 0
    encounter_might: int = 0
    encounter_initiative: int = 0
    hero_dice: int = 0
    hero_cost: int = 0
    reveal_gold: int = 0
    reveal_resources: int = 0
    no_harbours: bool = False
    no_luck: bool = False


class WeekCard(_M):
    """A week card: its moon phase (the back), name and event."""

    id: str
    name: str
    moon: Literal["crescent", "half", "full"]
    event: WeekEvent


def _check_parts(card: str, primary: Ability, secondary: Ability, link: str) -> None:
    if primary.window != secondary.window:
        raise ValueError(f"{card}: both parts of a card share one window")
    if primary.passive and link != "and":
        raise ValueError(f"{card}: standing bonuses are joined by AND")
    targets = (primary.target, secondary.target)
    if link == "and" and "none" not in targets and targets[0] != targets[1]:
        raise ValueError(f"{card}: AND parts aim at the same kind of target")


# --------------------------------------------------------------------------- the whole
class Content(_M):
    """Everything the game's components say, validated and cross-checked."""

    factions: tuple[FactionDef, ...]
    creatures: tuple[Creature, ...]
    heroes: tuple[HeroDef, ...]
    buildings: tuple[Building, ...]
    tiles: tuple[Tile, ...]
    encounters: tuple[Encounter, ...]
    elements: tuple[Element, ...]
    skills: tuple[SkillCard, ...]
    scrolls: tuple[ScrollCard, ...]
    artefacts: tuple[ArtefactCard, ...]
    treasures: tuple[TreasureCard, ...]
    weeks: tuple[WeekCard, ...]

    @model_validator(mode="after")
    def _cross_checks(self) -> Content:
        _check_counts(self)
        _check_factions(self)
        _check_tiles(self)
        names = Counter(a.name for a in self.artefacts)
        for needed in ("Tear of Asha", "Ring of Misfortune", "Gauntlet of the Giant Slayer"):
            if names[needed] != 1:
                raise ValueError(f"the artefact {needed!r} must exist exactly once")
        elements = {e.id for e in self.elements}
        for card in self.scrolls:
            for part in (card.primary, card.secondary):
                for eff in part.effects:
                    if eff.element is not None and eff.element not in elements:
                        raise ValueError(f"{card.id}: unknown element {eff.element}")
        return self

    # lookups ---------------------------------------------------------------
    def faction(self, faction: str) -> FactionDef:
        """The faction ``faction``. :raises KeyError: if unknown."""
        return _index(self.factions, "id")[faction]

    def creature(self, creature: str) -> Creature:
        """The creature type ``creature``. :raises KeyError: if unknown."""
        return _index(self.creatures, "id")[creature]

    def hero(self, hero: str) -> HeroDef:
        """The hero sheet ``hero``. :raises KeyError: if unknown."""
        return _index(self.heroes, "id")[hero]

    def building(self, building: str) -> Building:
        """The building ``building``. :raises KeyError: if unknown."""
        return _index(self.buildings, "id")[building]

    def tile(self, number: int) -> Tile:
        """Map tile number ``number``. :raises KeyError: if unknown."""
        return _index(self.tiles, "number")[number]

    def encounter(self, marker: int) -> Encounter:
        """Encounter marker ``marker``. :raises KeyError: if unknown."""
        return _index(self.encounters, "id")[marker]

    def element(self, element: str) -> Element:
        """Element marker ``element``. :raises KeyError: if unknown."""
        return _index(self.elements, "id")[element]

    def skill(self, card: str) -> SkillCard:
        """Skill card ``card``. :raises KeyError: if unknown."""
        return _index(self.skills, "id")[card]

    def scroll(self, card: str) -> ScrollCard:
        """Scroll card ``card``. :raises KeyError: if unknown."""
        return _index(self.scrolls, "id")[card]

    def artefact(self, card: str) -> ArtefactCard:
        """Artefact card ``card``. :raises KeyError: if unknown."""
        return _index(self.artefacts, "id")[card]

    def treasure(self, card: str) -> TreasureCard:
        """Treasure card ``card``. :raises KeyError: if unknown."""
        return _index(self.treasures, "id")[card]

    def week(self, card: str) -> WeekCard:
        """Week card ``card``. :raises KeyError: if unknown."""
        return _index(self.weeks, "id")[card]

    def faction_creatures(self, faction: str) -> tuple[Creature, ...]:
        """The creature types of ``faction``, level I first."""
        return tuple(sorted((c for c in self.creatures if c.faction == faction), key=_level))

    def faction_heroes(self, faction: str) -> tuple[HeroDef, ...]:
        """The three hero sheets of ``faction``, in data order."""
        return tuple(h for h in self.heroes if h.faction == faction)

    def faction_buildings(self, faction: str) -> tuple[Building, ...]:
        """The nine buildings ``faction`` may construct."""
        return tuple(b for b in self.buildings if b.faction in (None, faction))

    def faction_skills(self, faction: str, deck: str) -> tuple[SkillCard, ...]:
        """The 8 might or 8 magic skill cards of ``faction``."""
        return tuple(s for s in self.skills if s.faction == faction and s.deck == deck)

    def card_name(self, card: str) -> str:
        """The name of any card id (skill, scroll, artefact, treasure, week).

        :raises KeyError: if no card has that id.
        """
        tables: tuple[tuple[Any, ...], ...] = (
            self.skills,
            self.scrolls,
            self.artefacts,
            self.treasures,
            self.weeks,
        )
        for table in tables:
            found = _index(table, "id").get(card)
            if found is not None:
                return str(found.name)
        raise KeyError(card)


def _level(creature: Creature) -> int:
    return creature.level


_INDEXES: dict[tuple[int, str], dict[Any, Any]] = {}
T = TypeVar("T")


def _index(table: tuple[T, ...], key: str) -> dict[Any, T]:
    cache_key = (id(table), key)
    found = _INDEXES.get(cache_key)
    if found is None:
        found = {getattr(item, key): item for item in table}
        _INDEXES[cache_key] = found
    return found


def _check_counts(content: Content) -> None:
    expected = {
        "factions": (len(content.factions), 4),
        "heroes": (len(content.heroes), 12),
        "tiles": (len(content.tiles), 16),
        "encounters": (len(content.encounters), 43),
        "elements": (len(content.elements), 4),
        "skills": (len(content.skills), 64),
        "scrolls": (len(content.scrolls), 20),
        "artefacts": (len(content.artefacts), 20),
        "treasures": (len(content.treasures), 15),
        "weeks": (len(content.weeks), 15),
        "creature markers": (sum(c.markers for c in content.creatures), 104),
    }
    for what, (got, want) in expected.items():
        if got != want:
            raise ValueError(f"{want} {what} expected, the data has {got}")
    for table in (content.skills, content.scrolls, content.artefacts, content.treasures):
        ids = Counter(card.id for card in table)
        dupes = [i for i, n in ids.items() if n > 1]
        if dupes:
            raise ValueError(f"duplicate card ids {dupes}")
    moons = Counter(w.moon for w in content.weeks)
    if sorted(moons.values()) != [5, 5, 5]:
        raise ValueError("5 week cards per moon phase expected")
    categories = Counter(a.category for a in content.artefacts)
    if sorted(categories.values()) != [4, 4, 4, 4, 4]:
        raise ValueError("4 artefacts per category expected")
    if sorted(e.id for e in content.encounters) != list(range(43)):
        raise ValueError("encounter markers are numbered 0..42")


def _check_factions(content: Content) -> None:
    for faction in Faction:
        creatures = content.faction_creatures(faction)
        if [c.level for c in creatures] != [1, 2, 3, 4]:
            raise ValueError(f"{faction}: one creature type per capital level expected")
        board = content.faction(faction).capital
        for level, column in enumerate(board, start=1):
            if column.level != level or column.creature != creatures[level - 1].id:
                raise ValueError(f"{faction}: capital level {level} is inconsistent")
        for creature in creatures:
            if creature.elite.might != creature.basic.might + 1:
                raise ValueError(f"{creature.id}: the elite side is one might stronger")
        # mmh:game-setup.assembling-the-starting-army: 3 elite might-2 and 3 elite might-3
        if (creatures[0].elite.might, creatures[1].elite.might) != (2, 3):
            raise ValueError(f"{faction}: starting creatures must have might 2 and 3 elite")
        if creatures[3].elite.might != 5:
            raise ValueError(f"{faction}: the level IV elite creature has might 5")
        heroes = content.faction_heroes(faction)
        if len(heroes) != 3:
            raise ValueError(f"{faction}: three hero sheets expected")
        for deck in ("might", "magic"):
            if len(content.faction_skills(faction, deck)) != 8:
                raise ValueError(f"{faction}: 8 {deck} skill cards expected")
        own = [b for b in content.buildings if b.faction == faction]
        if len(own) != 1 or len(content.faction_buildings(faction)) != 9:
            raise ValueError(f"{faction}: 9 buildings (one of them its own) expected")
        ids = {c.id for c in creatures}
        for hero in heroes:
            for ref in (hero.master, hero.leader):
                if ref is not None and ref not in ids:
                    raise ValueError(f"{hero.id}: {ref} is not a {faction} creature")
    abilities = Counter(h.ability for h in content.heroes)
    if set(abilities) != set(STARTING_ABILITIES):
        raise ValueError("each of the twelve starting abilities belongs to one hero")
    masters = [h.master for h in content.heroes if h.master]
    leaders = [h.leader for h in content.heroes if h.leader]
    if len(masters) != 4 or len(leaders) != 4:
        raise ValueError("four Master and four Leader abilities expected")


def _check_tiles(content: Content) -> None:
    numbers = sorted(t.number for t in content.tiles)
    if numbers != list(range(1, 17)):
        raise ValueError("map tiles are numbered 1..16")
    for players, last in ((2, 9), (3, 12), (4, 16)):
        red = [t for t in content.tiles if t.capital and t.number <= last]
        if len(red) < players:
            raise ValueError(f"{players} players need {players} red tiles among 1..{last}")
    markers = Counter(e.colour for e in content.encounters)
    symbols: Counter[str] = Counter()
    for tile in content.tiles:
        guarded: set[tuple[int, int]] = set()
        if sum(1 for s in tile.spaces if s.location == "portal") > 1:
            raise ValueError(f"tile {tile.number}: at most one portal")
        for space in tile.spaces:
            if space.encounter is None:
                continue
            symbols[space.encounter] += 1
            assert space.guards is not None
            gx, gy = space.guards
            if not (0 <= gx < 4 and 0 <= gy < 4):
                raise ValueError(f"tile {tile.number}: an arrow points off the tile")
            target = tile.at(gx, gy)
            if target.location is None or target.location == "portal":
                raise ValueError(f"tile {tile.number}: an arrow must point at a location")
            guarded.add((gx, gy))
        for space in tile.spaces:
            if space.location in EXPLORABLE and (space.x, space.y) not in guarded:
                raise ValueError(f"tile {tile.number}: explorable spaces start guarded")
        if tile.capital and sum(1 for s in tile.spaces if _free(s)) < 3:
            raise ValueError(f"tile {tile.number}: a red tile needs room for a capital")
    for colour in ("yellow", "purple", "gold"):
        if symbols[colour] > markers[colour]:
            raise ValueError(f"more {colour} encounter symbols than markers")


def _free(space: TileSpace) -> bool:
    return space.location is None and space.encounter is None and space.terrain == "open"


def _load_toml(name: str) -> dict[str, Any]:
    text = resources.files("engine.mmh.data").joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def load_content() -> Content:
    """Read and validate all mmh data files (cached per process).

    :raises pydantic.ValidationError | ValueError: if the data breaks the schema or the
        rulebook's counts.

    Rule: mmh:game-material.
    """
    factions = _load_toml("factions.toml")
    tiles = _load_toml("tiles.toml")
    markers = _load_toml("encounters.toml")
    cards = _load_toml("cards.toml")
    skills = _load_toml("skills.toml")
    return Content.model_validate(
        {
            "factions": factions["factions"],
            "creatures": factions["creatures"],
            "heroes": factions["heroes"],
            "buildings": factions["buildings"],
            "tiles": [parse_tile(t) for t in tiles["tiles"]],
            "encounters": markers["encounters"],
            "elements": markers["elements"],
            "skills": skills["skills"],
            "scrolls": cards["scrolls"],
            "artefacts": cards["artefacts"],
            "treasures": cards["treasures"],
            "weeks": cards["weeks"],
        }
    )
