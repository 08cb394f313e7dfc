"""The homm3 content schema: units, heroes, Might & Magic cards, Town boards, Adventure and
Morale cards and the Battlefield board, as pydantic models validated at load.

Rule sections: homm3bf:battlefield-setup (the components each player takes), homm3bf:
adventure-mode.resolving-adventure-cards (Adventure card anatomy), homm3bf:battlefield-
setup.morale-deck (Morale card anatomy). The data lives in ``engine/homm3/data/*.toml``
(public card facts, our own text); `load_content` reads and cross-checks it once.

Card effect vocabulary (the `effect` of a card option; `engine.homm3.cardplay` implements
exactly these): ``stat`` (+N Attack/Defense to a unit until its next attack resolves or
the activation ends, optional ``draw``), ``stat_discard``, ``power`` (Empower paid into a
Spell or Specialty), ``knowledge`` / ``mysticism`` (after a cast), ``school`` (Magic
school Ability), ``archery``, ``artillery``, ``heal``, ``gain_morale``, ``tactics``,
``draw``, ``gain_expert``, ``enemy_discard``, ``triple_die``, ``hourglass``,
``initiative``, ``ground_initiative``, ``step``, ``no_penalty``, ``spec_stat``,
``spec_health``, ``ring``, ``recall``, ``ripple``, ``meteor``, ``reshuffle``; Spells:
``damage``, ``chain``, ``fireball``, ``frost_ring``, ``spell_stat``, ``prayer``, ``bless``,
``cure``, ``paralyse``, ``initiative``, ``disrupt``, ``anti_magic``, ``counterstrike``,
``teleport``, ``fire_wall``, ``force_field``, ``fire_shield``, ``resurrection``; the
reaction and start-of-Combat Abilities ``intelligence``, ``resistance``, ``luck``,
``eagle_eye``, ``ballista``; Adventure (set-aside cards): ``gain``, ``discount``,
``movement``, ``experience``, ``wisdom``, ``scouting``, ``necromancy``, ``scholar``.

Timings beyond the core ones: ``start`` (before any unit activates in the Combat),
``after_enemy_cast`` (right after the enemy casts a Spell, before its effect), and
``after_enemy_attack`` (right after an enemy unit's attack is rolled, before its damage).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Tier = Literal["bronze", "silver", "gold"]
UnitKind = Literal["ground", "ranged", "flying"]
School = Literal["air", "earth", "fire", "water"]
Timing = Literal[
    "instant", "activation", "ongoing", "permanent", "power", "after_cast", "adventure",
    "start", "after_enemy_cast", "after_enemy_attack",
]  # fmt: skip
CardKind = Literal["statistic", "ability", "spell", "artifact", "specialty"]

TIER_ORDER: dict[str, int] = {"bronze": 1, "silver": 2, "gold": 3}
"""Tier rank (Bronze 1, Silver 2, Gold 3); Spells that name tiers compare these ranks."""

SCHOOLS: tuple[School, ...] = ("air", "earth", "fire", "water")
"""The four Schools of Magic."""

COMBAT_EFFECTS = frozenset(
    {
        "stat", "stat_discard", "power", "knowledge", "mysticism", "school", "archery",
        "artillery", "heal", "gain_morale", "tactics", "draw", "gain_expert", "enemy_discard",
        "triple_die", "hourglass", "initiative", "ground_initiative", "step", "no_penalty",
        "spec_stat", "spec_health", "ring", "recall", "ripple", "meteor", "reshuffle",
        "damage", "chain", "fireball", "frost_ring", "spell_stat", "prayer", "bless", "cure",
        "paralyse", "disrupt", "anti_magic", "counterstrike", "teleport", "fire_wall",
        "force_field", "fire_shield", "intelligence", "resistance", "luck", "eagle_eye",
        "ballista", "resurrection",
    }
)  # fmt: skip
"""Effects usable in Combat."""

ADVENTURE_EFFECTS = frozenset(
    {"gain", "discount", "movement", "experience", "wisdom", "scouting", "necromancy", "scholar"}
)
"""Effects of set-aside cards, used during the Adventure Phase."""


class Cost(BaseModel):
    """A price or a gain in Resources (Gold, Building Materials, Valuables)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gold: int = Field(default=0, ge=0)
    materials: int = Field(default=0, ge=0)
    valuables: int = Field(default=0, ge=0)

    def label(self) -> str:
        """``"5 Gold, 3 Building Materials"``; ``"nothing"`` when empty."""
        parts = [
            f"{value} {name}"
            for value, name in (
                (self.gold, "Gold"),
                (self.materials, "Building Materials"),
                (self.valuables, "Valuables" if self.valuables != 1 else "Valuable"),
            )
            if value
        ]
        return ", ".join(parts) or "nothing"


class UnitSide(BaseModel):
    """One side (Few or Pack) of a unit card: Attack / Defense / Health / Initiative."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attack: int = Field(ge=0)
    defense: int = Field(ge=0)
    health: int = Field(ge=1)
    initiative: int = Field(ge=1)
    ability: str | None = None


class UnitCard(BaseModel):
    """A faction unit card, double-sided (homm3bf:battlefield-setup: 7 Unit cards)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    faction: str
    tier: Tier
    kind: UnitKind
    few: UnitSide
    pack: UnitSide
    recruit: Cost
    reinforce: Cost

    def side(self, pack: bool) -> UnitSide:
        """The Pack side when ``pack`` else the Few side."""
        return self.pack if pack else self.few


class Structure(BaseModel):
    """The Arrow Tower a defended Town adds in a Siege."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    kind: UnitKind
    attack: int
    defense: int
    health: int
    initiative: int


class UnitAbility(BaseModel):
    """A unit's special ability: its trigger icon and our text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    trigger: Literal["attack", "activation", "passive", "retaliation"]
    text: str


class Hero(BaseModel):
    """A Hero card: its statistics give the starting deck (homm3bf:battlefield-setup)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    id: str
    name: str
    faction: str
    hero_class: str = Field(alias="class")
    type: Literal["might", "magic"]
    attack: int = Field(ge=0)
    defense: int = Field(ge=0)
    power: int = Field(ge=0)
    knowledge: int = Field(ge=0)
    ability: str
    specialty: tuple[str, str, str]


class Effect(BaseModel):
    """One playable effect of a card (a card has one to three)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timing: Timing
    effect: str
    text: str
    amount: int = 0
    stat: Literal["attack", "defense"] | None = None
    draw: int = 0
    rounds: int = 1
    defense: int = 0
    sign: int = 1
    melee: bool = False
    ranged: bool = False
    remove: bool = False
    discard: int = 0
    double: tuple[str, ...] = ()
    tiers: tuple[Tier, ...] = ()
    levels: tuple[tuple[int, ...], ...] = ()
    gold: int = 0
    materials: int = 0
    valuables: int = 0

    @model_validator(mode="after")
    def _known(self) -> Effect:
        if self.effect not in COMBAT_EFFECTS | ADVENTURE_EFFECTS:
            raise ValueError(f"unknown card effect {self.effect!r}")
        return self

    def level_for(self, power: int) -> tuple[int, ...] | None:
        """The highest ``levels`` row whose Empower need is at most ``power`` (None: none)."""
        best = None
        for row in self.levels:
            if row[0] <= power:
                best = row
        return best


class Card(BaseModel):
    """A Might & Magic card: Statistic, Ability, Spell, Artifact or Specialty.

    Statistic and Ability cards have ``basic`` and (except Empowered ones) ``expert``
    effects; Spells one ``spell`` effect (any Spell may instead be discarded for +1 Empower);
    Artifacts and Specialties one or two ``options``. ``siege``: the card is used only in a
    Siege, so its deck holds it only when the final Combat is one.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    kind: CardKind
    adventure: Literal["deck", "aside"] = "deck"
    siege: bool = False
    empowered: bool = False
    school: Literal["air", "earth", "fire", "water", "any"] | None = None
    level: Literal["basic", "expert"] | None = None
    rank: Literal["minor", "major", "relic"] | None = None
    faction: str | None = None
    hero: str | None = None
    tier: int | None = None
    basic: Effect | None = None
    expert: Effect | None = None
    spell: Effect | None = None
    options: tuple[Effect, ...] = ()

    def effects(self) -> list[tuple[int, bool, Effect]]:
        """Every playable effect as ``(option index, uses Expert, effect)``.

        Statistic/Ability: ``(0, False, basic)`` and ``(1, True, expert)`` (Empowered cards
        only the first, without Expert); Spell: ``(0, False, spell)``; Artifact/Specialty:
        one row per option.
        """
        if self.kind == "spell" and self.spell is not None:
            return [(0, False, self.spell)]
        if self.kind in ("statistic", "ability"):
            rows: list[tuple[int, bool, Effect]] = []
            if self.basic is not None:
                rows.append((0, False, self.basic))
            if self.expert is not None:
                rows.append((1, True, self.expert))
            return rows
        return [(i, False, e) for i, e in enumerate(self.options)]

    def option(self, index: int) -> tuple[bool, Effect] | None:
        """The effect at ``index`` and whether it uses an Expert; None if there is none."""
        for i, expert, effect in self.effects():
            if i == index:
                return expert, effect
        return None

    @property
    def type_line(self) -> str:
        """``"Spell · Fire · Expert"``, ``"Artifact · Relic"``, ``"Ability"``..."""
        parts = [self.kind.capitalize()]
        if self.school:
            parts.append("any School" if self.school == "any" else self.school.capitalize())
        if self.level:
            parts.append(self.level.capitalize())
        if self.rank:
            parts.append(self.rank.capitalize())
        if self.kind == "specialty" and self.tier:
            parts.append(f"Level {'I' if self.tier == 1 else 'IV' if self.tier == 4 else 'VI'}")
        return " · ".join(parts)


class Building(BaseModel):
    """A Town building (homm3turn:build-token)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    cost: Cost
    effect: Literal[
        "city_hall", "citadel", "mage_guild", "dwelling", "morale_income", "blacksmith",
        "amplifier", "cover", "vortex",
    ]  # fmt: skip
    tier: Tier | None = None


class CityHall(BaseModel):
    """A faction's City Hall: its Gold, or the faction's alternative."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gold: int
    alternative: Literal["movement", "reinforce_bronze", "valuables"]


class Faction(BaseModel):
    """A faction's Town board."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = ""
    name: str
    colour: str
    city_hall: CityHall
    spell_cost: int
    building: tuple[Building, ...]

    def get(self, building_id: str) -> Building | None:
        """The building with this id, or None."""
        return next((b for b in self.building if b.id == building_id), None)


class EventCard(BaseModel):
    """An Adventure-Event card."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    copies: int = Field(ge=1)
    text: str
    saveable: bool = True
    steps: tuple[dict[str, Any], ...]


class CombatLevel(BaseModel):
    """One Combat Power level of an Adventure-Combat card and its Battle Reward."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    power: int
    text: str
    steps: tuple[dict[str, Any], ...]


class CombatCard(BaseModel):
    """An Adventure-Combat card: three Combat Power levels and a Basic Reward."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    copies: int = Field(ge=1)
    basic: tuple[dict[str, Any], ...]
    levels: tuple[CombatLevel, CombatLevel, CombatLevel]


class MoraleCard(BaseModel):
    """A Positive or Negative Morale card (our own cards, see README)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    text: str
    effect: str | None = None
    trigger: str | None = None
    stat: Literal["attack", "defense"] | None = None
    amount: int = 0
    battlefield: bool = False


class TokenSide(BaseModel):
    """The Obstacle side of a token: a name and the hexes it covers (axial offsets)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    shape: tuple[tuple[int, int], ...]


class SiegeSide(BaseModel):
    """The Wall/Gate side of a token and where a Siege puts it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["wall", "gate"]
    hexes: tuple[str, ...]


class ObstacleToken(BaseModel):
    """A double-sided Obstacle token (homm3bf:battlefield-combat.place-obstacles)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    obstacle: TokenSide
    siege: SiegeSide | None = None
    effect: str | None = None


class Board(BaseModel):
    """The Battlefield board geometry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    columns: int
    rows: int
    zone_columns: int
    wall_column: int
    token: tuple[ObstacleToken, ...]


class Content(BaseModel):
    """Every piece of homm3 content, validated and cross-checked."""

    model_config = ConfigDict(frozen=True)

    units: dict[str, UnitCard]
    unit_abilities: dict[str, UnitAbility]
    arrow_tower: Structure
    heroes: dict[str, Hero]
    cards: dict[str, Card]
    decks: dict[str, tuple[str, ...]]
    factions: dict[str, Faction]
    events: dict[str, EventCard]
    combats: dict[str, CombatCard]
    positive: dict[str, MoraleCard]
    negative: dict[str, MoraleCard]
    board: Board

    def faction_units(self, faction: str) -> list[UnitCard]:
        """The 7 units of ``faction`` in tier order (Bronze first), as listed."""
        units = [u for u in self.units.values() if u.faction == faction]
        return sorted(units, key=lambda u: TIER_ORDER[u.tier])

    def heroes_of(self, faction: str) -> list[Hero]:
        """The heroes of ``faction``."""
        return [h for h in self.heroes.values() if h.faction == faction]

    def adventure_name(self, card_id: str) -> str:
        """The name of an Adventure card id."""
        if card_id in self.events:
            return self.events[card_id].name
        return self.combats[card_id].name

    def card_name(self, card_id: str) -> str:
        """The name of any card id (Might & Magic, Adventure or Morale)."""
        if card_id in self.cards:
            return self.cards[card_id].name
        if card_id in self.positive:
            return self.positive[card_id].name
        if card_id in self.negative:
            return self.negative[card_id].name
        return self.adventure_name(card_id)


def _check(content: Content) -> None:
    for unit in content.units.values():
        for side in (unit.few, unit.pack):
            if side.ability and side.ability not in content.unit_abilities:
                raise ValueError(f"{unit.id}: unknown ability {side.ability}")
        if unit.faction not in content.factions:
            raise ValueError(f"{unit.id}: unknown faction {unit.faction}")
    for faction in content.factions:
        if len(content.faction_units(faction)) != 7:
            raise ValueError(f"{faction}: a faction needs 7 units")
    for hero in content.heroes.values():
        for card in (hero.ability, *hero.specialty):
            if card not in content.cards:
                raise ValueError(f"{hero.id}: unknown card {card}")
        start = hero.attack + hero.defense + hero.power + hero.knowledge
        arrows = 1 if hero.type == "might" else 2
        if start + arrows + 2 != 9:
            raise ValueError(f"{hero.id}: the starting deck must hold 9 cards")
    for deck, ids in content.decks.items():
        for card in ids:
            if card not in content.cards:
                raise ValueError(f"deck {deck}: unknown card {card}")
    if (
        sum(e.copies for e in content.events.values())
        + sum(c.copies for c in content.combats.values())
        != 50
    ):
        raise ValueError("the Adventure deck must hold 50 cards")
    if len(content.positive) != 10 or len(content.negative) != 10:
        raise ValueError("each Morale deck holds 10 cards")


def parse_content(raw: dict[str, dict[str, Any]]) -> Content:
    """Validate raw TOML tables (one per data file) into `Content`.

    :raises pydantic.ValidationError | ValueError: for inconsistent data.
    Rule: homm3bf:component-list
    """
    units = {u["id"]: UnitCard.model_validate(u) for u in raw["units"]["unit"]}
    factions = {}
    for key, value in raw["towns"]["faction"].items():
        factions[key] = Faction.model_validate({**value, "id": key})
    content = Content(
        units=units,
        unit_abilities={
            k: UnitAbility.model_validate(v) for k, v in raw["units"]["ability"].items()
        },
        arrow_tower=Structure.model_validate(raw["units"]["structure"][0]),
        heroes={h["id"]: Hero.model_validate(h) for h in raw["heroes"]["hero"]},
        cards={c["id"]: Card.model_validate(c) for c in raw["cards"]["card"]},
        decks={k: tuple(v) for k, v in raw["cards"]["decks"].items()},
        factions=factions,
        events={e["id"]: EventCard.model_validate(e) for e in raw["adventure"]["event"]},
        combats={c["id"]: CombatCard.model_validate(c) for c in raw["adventure"]["combat"]},
        positive={m["id"]: MoraleCard.model_validate(m) for m in raw["morale"]["positive"]},
        negative={m["id"]: MoraleCard.model_validate(m) for m in raw["morale"]["negative"]},
        board=Board.model_validate(raw["battlefield"]),
    )
    _check(content)
    return content


@cache
def load_content() -> Content:
    """Load and validate the shipped homm3 content (cached for the process).

    :raises pydantic.ValidationError | ValueError: if the shipped data is inconsistent.
    Rule: homm3bf:component-list
    """
    data = resources.files("engine.homm3.data")
    raw = {
        name: tomllib.loads(data.joinpath(f"{name}.toml").read_text(encoding="utf-8"))
        for name in ("units", "heroes", "cards", "towns", "adventure", "morale", "battlefield")
    }
    return parse_content(raw)
