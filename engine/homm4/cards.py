"""The homm4 card pool schema: pydantic models of every card type, validated at load.

Rule sections: homm4:card-types (and its sub-sections), homm4:heroes-levels-skills-and-spells.
The data itself lives in ``engine/homm4/data/cards.toml`` (our own card text, HoMM IV
facts); `load_card_pool` reads and cross-checks it once per process.

Effect vocabulary
-----------------
Skills, artifacts, objects and town levels all speak one small vocabulary, `EffectKind`,
which the rules engine implements (and only this). Values are whole cards or points:

========================  ==============================================================
kind                      meaning (who benefits)
========================  ==============================================================
army_melee/_ranged/       + to the Melee / Ranged / Defense value of every Creature of the
_defense                  hero's Army in battle (several heroes: the highest value only).
                          A Ranged bonus never gives ranged attack to a creature with 0.
hero_melee/_ranged/       + to the hero's own Melee / Ranged / Defense (Ranged: as above).
_defense
movement                  + Movement Points of an Army the hero leads (hero on top).
sight                     + Sight Radius of an Army the hero is in.
mana                      + Mana points of the hero.
spell_level               the hero may cast spells of this skill's school up to this level
                          (magic primaries only).
spell_power               + to the attack value of the hero's attacking spells.
income                    + cards drawn in the owner's Income Phase.
recover                   after a won battle, return up to N of the army's own Unit cards
                          killed in that battle from the discard pile to the army.
retreat_anywhere          (value 1) the hero may retreat even within 4 hexes of a Town.
mana_multiplier           (town level) the standard Mana pool of all the owner's heroes is
                          multiplied by the value (rulebook: level 4 doubles it).
morale                    (advanced rule) + Morale of every Creature of the hero's side in
                          battle (several heroes: the highest value only); an Object's:
                          of every Creature its controller commands.
luck                      (advanced rule) + Luck, likewise.
========================  ==============================================================

Errata (homm4:errata): card text that still says to draw a card for an action Number is
read as rolling the die (`errata_text`, applied to every card's text at load); the
deck-list parser reads "Arsenal Equipment" as "Artifact" (`engine.homm4.decks`).
"""

from __future__ import annotations

import re
import tomllib
from enum import IntEnum, StrEnum
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator


class Faction(StrEnum):
    """The six factions of HoMM IV plus neutral cards (homm4:card-types)."""

    LIFE = "life"
    ORDER = "order"
    DEATH = "death"
    CHAOS = "chaos"
    NATURE = "nature"
    MIGHT = "might"
    NEUTRAL = "neutral"


class CardType(StrEnum):
    """The seven card types (homm4:card-types)."""

    HERO = "hero"
    UNIT = "unit"
    TOWN = "town"
    OBJECT = "object"
    ARTIFACT = "artifact"
    SKILL = "skill"
    SPELL = "spell"


class School(StrEnum):
    """The five magic schools; each is a Primary Skill's domain (homm4:...primary-magic-skills)."""

    LIFE = "life"
    ORDER = "order"
    DEATH = "death"
    CHAOS = "chaos"
    NATURE = "nature"


class PrimarySkill(StrEnum):
    """The nine Primary Skills (homm4:card-types.skill-cards)."""

    COMBAT = "combat"
    NOBILITY = "nobility"
    SCOUTING = "scouting"
    TACTICS = "tactics"
    LIFE_MAGIC = "life_magic"
    ORDER_MAGIC = "order_magic"
    DEATH_MAGIC = "death_magic"
    CHAOS_MAGIC = "chaos_magic"
    NATURE_MAGIC = "nature_magic"

    @property
    def school(self) -> School | None:
        """The magic school this primary governs, or None for the four might skills."""
        if self.value.endswith("_magic"):
            return School(self.value.removesuffix("_magic"))
        return None


class Rank(IntEnum):
    """Skill mastery: 1 Basic .. 5 Grand Master (homm4:card-types.skill-cards)."""

    BASIC = 1
    ADVANCED = 2
    EXPERT = 3
    MASTER = 4
    GRAND_MASTER = 5


class HeroClass(StrEnum):
    """The eleven hero classes (homm4:card-types.hero-cards)."""

    KNIGHT = "knight"
    CLERIC = "cleric"
    DEATH_KNIGHT = "death_knight"
    NECROMANCER = "necromancer"
    LORD = "lord"
    WIZARD = "wizard"
    ROGUE = "rogue"
    SORCERER = "sorcerer"
    RANGER = "ranger"
    DRUID = "druid"
    BARBARIAN = "barbarian"


class Slot(StrEnum):
    """Artifact slots on a hero (homm4:heroes-levels-skills-and-spells.heroes-and-artifacts)."""

    HEAD = "head"
    NECK = "neck"
    TORSO = "torso"
    CLOAK = "cloak"
    LEFT_HAND = "left_hand"
    RIGHT_HAND = "right_hand"
    LEFT_RING = "left_ring"
    RIGHT_RING = "right_ring"
    FEET = "feet"
    POCKET = "pocket"


class ArtifactCategory(StrEnum):
    """Artifact categories: Treasure (only won from Guards) or a faction's (sold in towns)."""

    TREASURE = "treasure"
    LIFE = "life"
    ORDER = "order"
    DEATH = "death"
    CHAOS = "chaos"
    NATURE = "nature"
    MIGHT = "might"


class EffectKind(StrEnum):
    """The effect vocabulary the rules engine implements (see the module docstring)."""

    ARMY_MELEE = "army_melee"
    ARMY_RANGED = "army_ranged"
    ARMY_DEFENSE = "army_defense"
    HERO_MELEE = "hero_melee"
    HERO_RANGED = "hero_ranged"
    HERO_DEFENSE = "hero_defense"
    MOVEMENT = "movement"
    SIGHT = "sight"
    MANA = "mana"
    SPELL_LEVEL = "spell_level"
    SPELL_POWER = "spell_power"
    INCOME = "income"
    RECOVER = "recover"
    RETREAT_ANYWHERE = "retreat_anywhere"
    MANA_MULTIPLIER = "mana_multiplier"
    MORALE = "morale"
    LUCK = "luck"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Effect(_Model):
    """A fixed effect (artifacts, objects, town levels): ``kind`` with ``value``."""

    kind: EffectKind
    value: int


class SkillEffect(_Model):
    """A skill effect whose value depends on the governing Primary Skill's rank.

    ``values[r - 1]`` is the value at rank ``r`` (Basic=1 .. Grand Master=5). For a
    Primary Skill card the rank is the card's own; for a Secondary Skill it is the rank
    of the Primary Skill it requires (homm4:card-types.skill-cards).
    """

    kind: EffectKind
    values: tuple[int, int, int, int, int]


# ---------------------------------------------------------------- unit abilities
class _Ability(_Model):
    pass


class Flying(_Ability):
    """Flies: ignores Obstacles in battle (may hit the back line in melee) and, with the
    Flying Armies advanced rule, moves over impassable terrain."""

    kind: Literal["flying"] = "flying"


class IgnoresObstacles(_Ability):
    """Ignores Obstacles in battle without flying (teleporting, burrowing...)."""

    kind: Literal["ignores_obstacles"] = "ignores_obstacles"


class NoDistancePenalty(_Ability):
    """Ranged attacks ignore the Distance Penalty (advanced rule)."""

    kind: Literal["no_distance_penalty"] = "no_distance_penalty"


class StrikesTwice(_Ability):
    """Makes two melee attacks in its Phase instead of one."""

    kind: Literal["strikes_twice"] = "strikes_twice"


class ShootsTwice(_Ability):
    """Makes two ranged attacks in its Phase instead of one."""

    kind: Literal["shoots_twice"] = "shoots_twice"


class UnlimitedCounter(_Ability):
    """Counterattacks every time it survives an attack, not once per Round."""

    kind: Literal["unlimited_counter"] = "unlimited_counter"


class NoCounter(_Ability):
    """Its attacks cannot be counterattacked."""

    kind: Literal["no_counter"] = "no_counter"


class MultiTarget(_Ability):
    """A melee attack may strike up to ``targets`` different Creature Stacks (one roll each).

    Errata (homm4:errata): Cerberus 2, Hydra 3.
    """

    kind: Literal["multi_target"] = "multi_target"
    targets: int = Field(ge=2, le=3)


class Spellcaster(_Ability):
    """Attacks with a spell instead of shooting: ``spell_attack`` replaces the ranged value
    for spell attacks, which may target any enemy Creature and can never be
    counterattacked (homm4:battles.making-support, Casting Spells)."""

    kind: Literal["spellcaster"] = "spellcaster"
    spell: str
    spell_attack: int = Field(ge=1)


class Toll(_Ability):
    """Pays a toll: its owner draws ``cards`` more in each Income Phase while it is in an
    Army or a Town garrison (homm4:income-phase.additional-income)."""

    kind: Literal["toll"] = "toll"
    cards: int = Field(ge=1)


class RequiresObject(_Ability):
    """May be bought only while its buyer controls the named Object card (e.g. Titans need a
    Gem Mine, homm4:errata)."""

    kind: Literal["requires_object"] = "requires_object"
    object: str


class Undead(_Ability):
    """Undead: Morale has no effect on it (advanced rule)."""

    kind: Literal["undead"] = "undead"


Ability = Annotated[
    Flying
    | IgnoresObstacles
    | NoDistancePenalty
    | StrikesTwice
    | ShootsTwice
    | UnlimitedCounter
    | NoCounter
    | MultiTarget
    | Spellcaster
    | Toll
    | RequiresObject
    | Undead,
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------- card types
class _Card(_Model):
    """Fields every card has. ``id`` is a lowercase slug, unique in the pool."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    text: str = ""


class _Fighter(_Card):
    """Battle statistics shared by heroes and units (homm4:card-types.unit-cards)."""

    cost: int | None = Field(ge=0, description="cards to discard; None is the 'X' cost")
    melee: int = Field(ge=0)
    ranged: int = Field(ge=0)
    defense: int = Field(ge=0)
    movement: int = Field(ge=1, description="Movement Points per turn")
    phase: int = Field(ge=1, le=10, description="the battle Phase it attacks in")


class HeroCard(_Fighter):
    """A hero (homm4:card-types.hero-cards). Its level is 1 + its inventory's skill cards."""

    type: Literal["hero"] = "hero"
    faction: Faction
    hero_class: HeroClass
    starting_primary: PrimarySkill
    starting_secondary: str | None = Field(
        default=None, description="id of the Secondary Skill card it starts with"
    )


class UnitCard(_Fighter):
    """A creature (homm4:card-types.unit-cards).

    ``cost`` may be left out in the data: an "X" cost unit (None) can never be bought and
    cannot identify a Creature Dwelling (homm4:movement-phase.creature-dwellings).
    """

    type: Literal["unit"] = "unit"
    cost: int | None = Field(default=None, ge=0, description="cards to discard; None is 'X'")
    faction: Faction
    level: int = Field(ge=1, le=4)
    abilities: tuple[Ability, ...] = ()

    def ability(self, kind: str) -> Any | None:
        """Return this unit's ability of ``kind``, or None."""
        return next((a for a in self.abilities if a.kind == kind), None)


class TownLevel(_Model):
    """What a Town offers at one level (homm4:purchase-phase, homm4:card-types.town-cards).

    Attributes:
        units: unit card ids that become buyable at this level (cumulative with lower levels).
        spell_schools / max_spell_level: spells a visiting hero may learn at this level.
        artifact_categories: artifact categories on sale at this level (cumulative).
        skills_for_sale: skill card ids a hero may buy here (e.g. Haven's University).
        skill_price: the price in cards of one of those skills.
        effects: effects for the owner while the town is at least this level.
    """

    units: tuple[str, ...] = ()
    spell_schools: tuple[School, ...] = ()
    max_spell_level: int = Field(default=0, ge=0, le=5)
    artifact_categories: tuple[ArtifactCategory, ...] = ()
    skills_for_sale: tuple[str, ...] = ()
    skill_price: int = Field(default=0, ge=0)
    effects: tuple[Effect, ...] = ()


class TownCard(_Card):
    """A Town (homm4:card-types.town-cards): four levels, index 0 is level 1."""

    type: Literal["town"] = "town"
    faction: Faction
    town: str = Field(description="the town type's name, e.g. 'Asylum'")
    levels: tuple[TownLevel, TownLevel, TownLevel, TownLevel]


class ObjectCard(_Card):
    """A Strategic Object (homm4:card-types.object-cards): a mine or another object."""

    type: Literal["object"] = "object"
    object_type: Literal["mine", "strategic"]
    effects: tuple[Effect, ...] = ()


class ArtifactCard(_Card):
    """An Artifact (homm4:card-types.artifact-cards).

    ``slots`` lists alternatives: the artifact fills every slot of one alternative (a
    two-handed sword: ``[["left_hand", "right_hand"]]``; a ring: ``[["left_ring"],
    ["right_ring"]]``). ``cost`` is None for Treasure artifacts, which are never sold.
    """

    type: Literal["artifact"] = "artifact"
    category: ArtifactCategory
    cost: int | None = Field(default=None, ge=1)
    slots: tuple[tuple[Slot, ...], ...] = Field(min_length=1)
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="after")
    def _treasure_not_sold(self) -> ArtifactCard:
        if (self.category is ArtifactCategory.TREASURE) != (self.cost is None):
            raise ValueError("Treasure artifacts have no cost; every other artifact has one")
        return self


class SkillCard(_Card):
    """A Skill card (homm4:card-types.skill-cards).

    A Primary Skill card has ``secondary=False`` and ``ranks``: (1, 2) for the
    Basic/Advanced card (two sides of one card), (3,), (4,) or (5,) for Expert, Master and
    Grand Master. A Secondary Skill card has ``secondary=True``, ``ranks=()`` and
    ``primary`` names the Primary Skill it requires.
    """

    type: Literal["skill"] = "skill"
    primary: PrimarySkill
    secondary: bool = False
    ranks: tuple[int, ...] = ()
    effects: tuple[SkillEffect, ...] = ()

    @model_validator(mode="after")
    def _ranks_fit(self) -> SkillCard:
        if self.secondary and self.ranks:
            raise ValueError("a Secondary Skill card has no ranks of its own")
        if not self.secondary and self.ranks not in ((1, 2), (3,), (4,), (5,)):
            raise ValueError("a Primary Skill card covers ranks (1, 2), (3,), (4,) or (5,)")
        return self


class SpellTarget(StrEnum):
    """Whom a spell affects."""

    ONE_ENEMY = "one_enemy"
    ALL_ENEMY_FRONT = "all_enemy_front"
    ALL_ENEMIES = "all_enemies"
    ONE_FRIEND = "one_friend"
    ALL_FRIENDS = "all_friends"
    OWN_ARMY = "own_army"


class SpellCard(_Card):
    """A Spell (homm4:card-types.spell-cards, ...casting-spells, ...mana).

    ``effect`` is one of:

    * ``attack``: an attack at ``power`` + the caster's level (+ spell_power) against each
      target, resolved like any attack (die roll, defense, mass attack allowed on a single
      target) but never counterattacked and never reduced by walls.
    * ``stat``: ``stat`` (melee, ranged, defense) changed by ``power`` (negative for a
      curse) on the targets until the end of the battle; with the Morale / Luck advanced
      rules, ``morale`` / ``luck`` change those values of the targets too.
    * ``resurrect``: return up to ``power`` Unit cards of the target friendly Creature
      Stack's type killed in this battle from the discard pile to that stack.
    * ``movement``: (adventure) the caster's Army gains ``power`` Movement Points this turn.
    * ``sight``: (adventure) the caster's Army's Sight Radius grows by ``power`` this turn.

    ``timing`` is ``battle`` (cast instead of the hero's attack in its Phase) or
    ``adventure`` (cast during the Movement Phase, once per hero per turn).
    """

    type: Literal["spell"] = "spell"
    school: School
    level: int = Field(ge=1, le=5)
    mana: int = Field(ge=1)
    timing: Literal["battle", "adventure"] = "battle"
    effect: Literal["attack", "stat", "resurrect", "movement", "sight"]
    target: SpellTarget
    power: int
    stat: Literal["melee", "ranged", "defense"] | None = None
    morale: int = Field(default=0, ge=-5, le=5)
    luck: int = Field(default=0, ge=-3, le=3)

    @model_validator(mode="after")
    def _stat_given(self) -> SpellCard:
        if (self.effect == "stat") != (self.stat is not None):
            raise ValueError("'stat' is required for stat spells and only for them")
        if (self.morale or self.luck) and self.effect != "stat":
            raise ValueError("only stat spells change Morale or Luck")
        if (self.timing == "adventure") != (self.effect in ("movement", "sight")):
            raise ValueError("movement and sight spells are the adventure spells")
        return self


Card = Annotated[
    HeroCard | UnitCard | TownCard | ObjectCard | ArtifactCard | SkillCard | SpellCard,
    Field(discriminator="type"),
]
_CARD_ADAPTER: TypeAdapter[Card] = TypeAdapter(Card)


class DeckList(_Model):
    """A ready-made deck: ``cards`` maps card id -> copies (homm4:setup)."""

    id: str
    name: str
    faction: Faction
    cards: dict[str, int]

    @property
    def size(self) -> int:
        """Total number of cards."""
        return sum(self.cards.values())


class CardPool(_Model):
    """The whole card pool and the ready-made decks, cross-checked at load."""

    cards: dict[str, Card]
    decks: dict[str, DeckList]

    def get(self, card_id: str) -> Card:
        """Return the card ``card_id``. :raises KeyError: if unknown."""
        return self.cards[card_id]

    @model_validator(mode="after")
    def _references_exist(self) -> CardPool:
        problems: list[str] = []

        def need(card_id: str, kind: type[BaseModel], where: str) -> None:
            card = self.cards.get(card_id)
            if not isinstance(card, kind):
                problems.append(f"{where}: {card_id!r} is not a known {kind.__name__}")

        for card in self.cards.values():
            if isinstance(card, HeroCard) and card.starting_secondary:
                need(card.starting_secondary, SkillCard, card.id)
            if isinstance(card, TownCard):
                for level in card.levels:
                    for unit in level.units:
                        need(unit, UnitCard, card.id)
                    for skill in level.skills_for_sale:
                        need(skill, SkillCard, card.id)
            if isinstance(card, UnitCard):
                for ability in card.abilities:
                    if isinstance(ability, RequiresObject):
                        need(ability.object, ObjectCard, card.id)
        for deck in self.decks.values():
            for card_id in deck.cards:
                if card_id not in self.cards:
                    problems.append(f"deck {deck.id}: unknown card {card_id!r}")
        if problems:
            raise ValueError("; ".join(problems))
        return self


_DRAW_FOR_NUMBER = re.compile(
    r"draw (?:a|one) card (?:to get|for) (?:an |the )?action number", re.IGNORECASE
)


def errata_text(text: str) -> str:
    """Return card text with the errata applied: "draw a card to get an action Number"
    becomes "roll the die" (homm4:errata: the die replaced the printed action Numbers)."""
    return _DRAW_FOR_NUMBER.sub("roll the die", text)


def parse_cards(raw: dict[str, Any]) -> CardPool:
    """Build a `CardPool` from parsed TOML: ``{"cards": [...], "decks": [...]}``. Every
    card's text goes through `errata_text`.

    :raises pydantic.ValidationError: on any schema or cross-reference problem.
    Rule: homm4:card-types.
    """
    items = [
        {**item, "text": errata_text(item["text"])} if isinstance(item.get("text"), str) else item
        for item in raw.get("cards", [])
    ]
    cards = [_CARD_ADAPTER.validate_python(item) for item in items]
    by_id: dict[str, Card] = {}
    for card in cards:
        if card.id in by_id:
            raise ValueError(f"duplicate card id {card.id!r}")
        by_id[card.id] = card
    decks = {d["id"]: DeckList.model_validate(d) for d in raw.get("decks", [])}
    return CardPool(cards=by_id, decks=decks)


@cache
def load_card_pool() -> CardPool:
    """Load and validate the shipped card pool (cached for the process).

    :raises pydantic.ValidationError | ValueError: if the shipped data is inconsistent.
    Rule: homm4:card-types.
    """
    data = resources.files("engine.homm4.data")
    raw: dict[str, Any] = {"cards": [], "decks": []}
    for name in ("cards.toml", "decks.toml"):
        parsed = tomllib.loads(data.joinpath(name).read_text(encoding="utf-8"))
        for key in raw:
            raw[key].extend(parsed.get(key, []))
    return parse_cards(raw)
