"""Hero Forge data as validated models: lands, units, heroes, enchantments, board layouts.

Rule sections: heroforge:lands, heroforge:units, heroforge:basic-rules (heroes),
heroforge:enchantments, heroforge:enchantment-lists.

The TOML files in ``data/`` are loaded once and validated by pydantic (`load_catalog`).
Enchantment lists players write themselves use the same `EnchantmentSpec` model, read
from a short text form by `parse_enchantment_list` (one enchantment per line or ``;``):
``Windfall (Instant): economy +300``, ``Iron Banners (Stack) [HighLands]: unit_level +1``.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.core.errors import InvalidInput

PLATE = 5
"""A land plate is PLATE × PLATE squares (5 × 5 inch plates, one square per inch)."""

MIN_LEVEL, MAX_LEVEL = 1, 10
"""Unit levels run from 1 to 10 (heroforge:units: "the maximum level ... is 10")."""

STEP = 50
"""Economy comes in steps of 50 (heroforge:economy)."""

LIST_SIZE = 10
"""Each enchantment list has ten enchantments, numbered 1-10 (heroforge:enchantment-lists)."""

EffectKind = Literal[
    "unit_cost", "fort_cost", "unit_level", "speed", "economy", "extra_rolls", "shift"
]
"""The effect kinds of enchantments (and of player-written lists)."""

LandEffectKind = Literal["unit_level", "speed", "economy"]
"""What a land's stats and red squares may change (heroforge:lands)."""

EnchantmentKind = Literal["permanent", "instant", "stack"]
"""heroforge:enchantments: Permanents, Instants and Stack (a kind of permanent)."""

EFFECT_LIMITS: dict[str, tuple[int, int, int]] = {
    "unit_cost": (-1000, 1000, STEP),
    "fort_cost": (-1000, 1000, STEP),
    "economy": (-1000, 1000, STEP),
    "unit_level": (-3, 3, 1),
    "speed": (-3, 3, 1),
    "extra_rolls": (1, 3, 1),
    "shift": (1, 2, 1),
}
"""Allowed ``(lowest, highest, step)`` amount of each effect kind (never 0)."""


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        """Frozen data is never changed: a deep copy (of a game state) shares it."""
        return self


def check_amount(effect: str, amount: int) -> str | None:
    """Return why ``amount`` is not allowed for ``effect`` (None when it is).

    Rule section: heroforge:economy (costs and economy in steps of 50), heroforge:units
    (levels 1-10, so level changes stay small).
    """
    lo, hi, step = EFFECT_LIMITS[effect]
    if amount == 0:
        return f"{effect} needs a non-zero amount"
    if not lo <= amount <= hi:
        return f"{effect} must be between {lo} and {hi}, got {amount}"
    if amount % step:
        return f"{effect} must be a multiple of {step}, got {amount}"
    return None


def describe_effect(effect: str, amount: int) -> str:
    """A short phrase for an effect (``"units cost 100e more"``, ``"speed +1"``).

    Rule: none (labels).
    """
    if effect in ("unit_cost", "fort_cost"):
        noun = "units" if effect == "unit_cost" else "forts"
        return f"{noun} cost {abs(amount)}e {'more' if amount > 0 else 'less'}"
    if effect == "economy":
        return f"{'+' if amount > 0 else '-'}{abs(amount)}e"
    if effect == "unit_level":
        return f"units {amount:+d} level"
    if effect == "speed":
        return f"speed {amount:+d}"
    if effect == "extra_rolls":
        return f"+{amount} damage roll{'s' if amount > 1 else ''}"
    return f"shift {amount} land plate{'s' if amount > 1 else ''}"


class LandEffect(_M):
    """A land's effect on its owner: ``kind`` changed by ``amount``."""

    kind: LandEffectKind
    amount: int


class RedSquare(_M):
    """A red square: ``at`` (column, row in the plate, 0-4) and its effect on a hero there."""

    at: tuple[int, int]
    kind: LandEffectKind
    amount: int

    @model_validator(mode="after")
    def _inside(self) -> RedSquare:
        if not all(0 <= v < PLATE for v in self.at):
            raise ValueError(f"red square {self.at} is off the plate")
        if self.at == (PLATE // 2, PLATE // 2):
            raise ValueError("the centre square is where heroes start; no red square there")
        return self


class Land(_M):
    """One kind of land plate (heroforge:lands).

    ``fort_price`` None means no fort can be built there (Plain Lands are blank).
    """

    id: str = Field(pattern=r"^[a-z_]+$")
    code: str = Field(pattern=r"^[A-Z]{2}$")
    name: str
    land_class: Literal["plain", "basic", "special"] = Field(alias="class")
    economy: int = Field(ge=0)
    fort_price: int | None = Field(default=None, gt=0)
    cap_bonus: int = Field(default=0, ge=0)
    owner: tuple[LandEffect, ...] = ()
    red: tuple[RedSquare, ...] = ()

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @model_validator(mode="after")
    def _consistent(self) -> Land:
        if self.land_class == "plain" and (
            self.economy or self.fort_price or self.cap_bonus or self.owner or self.red
        ):
            raise ValueError(f"{self.id}: Plain Lands are blank (no stats)")
        if self.land_class != "plain" and self.fort_price is None:
            raise ValueError(f"{self.id}: Basic and Special Lands have a fort price")
        for value in (self.economy, self.fort_price or 0):
            if value % STEP:
                raise ValueError(f"{self.id}: economy and prices are in steps of {STEP}")
        amounts = [(e.kind, e.amount) for e in self.owner] + [(r.kind, r.amount) for r in self.red]
        for kind, amount in amounts:
            if kind == "economy" and amount % STEP:
                raise ValueError(f"{self.id}: economy effects are in steps of {STEP}")
        if len({r.at for r in self.red}) != len(self.red):
            raise ValueError(f"{self.id}: two red squares on one square")
        return self


class UnitType(_M):
    """The unit of one level for sale (heroforge:units)."""

    level: int = Field(ge=MIN_LEVEL, le=MAX_LEVEL)
    name: str
    price: int = Field(gt=0, multiple_of=STEP)


AbilityKind = Literal[
    "unit_level",
    "combat_roll",
    "unit_cost",
    "fort_cost",
    "economy",
    "extra_rolls",
    "retreat",
    "fort_level",
    "shift",
]


class Ability(_M):
    """One hero ability (see ``data/heroes.toml`` for the kinds)."""

    kind: AbilityKind
    amount: int
    face: int | None = Field(default=None, ge=1, le=10)
    text: str

    @model_validator(mode="after")
    def _shape(self) -> Ability:
        if (self.kind == "combat_roll") != (self.face is not None):
            raise ValueError("a combat_roll ability (and only it) names a die face")
        if self.kind in ("unit_cost", "fort_cost", "economy") and self.amount % STEP:
            raise ValueError(f"{self.kind} abilities are in steps of {STEP}")
        if self.kind == "fort_level" and not MIN_LEVEL <= self.amount <= MAX_LEVEL:
            raise ValueError("fort_level must be a level 1-10")
        if self.kind == "retreat" and not 1 <= self.amount <= 9:
            raise ValueError("retreat must be a number 1-9 to roll over")
        return self


class Hero(_M):
    """A hero: faction (None: no faction), cap, speed and abilities (heroforge:basic-rules)."""

    id: str = Field(pattern=r"^[a-z_]+$")
    name: str
    faction: str | None = None
    cap: int = Field(ge=1, le=20)
    speed: int = Field(ge=-3, le=3)
    abilities: tuple[Ability, ...] = ()

    def ability_total(self, kind: str) -> int:
        """The summed amount of this hero's abilities of ``kind`` (0 when none)."""
        return sum(a.amount for a in self.abilities if a.kind == kind)


class EnchantmentSpec(_M):
    """One enchantment of a list (heroforge:enchantments).

    ``kind``: ``permanent`` (carried), ``instant`` (used when received) or ``stack`` (a
    permanent whose effect multiplies with copies of the same name). ``faction``: the
    faction it belongs to (heroforge:factions), or None. ``effect``/``amount``: what it
    does (`EFFECT_LIMITS` gives the allowed amounts).
    """

    name: str = Field(min_length=1, max_length=40)
    kind: EnchantmentKind = "permanent"
    faction: str | None = None
    effect: EffectKind
    amount: int

    @model_validator(mode="after")
    def _amount(self) -> EnchantmentSpec:
        problem = check_amount(self.effect, self.amount)
        if problem:
            raise ValueError(f"{self.name}: {problem}")
        if not re.fullmatch(r"[A-Za-z0-9' \-]+", self.name):
            raise ValueError(f"{self.name!r}: names use letters, digits, spaces, ' and -")
        return self

    def label(self) -> str:
        """``"Iron Banners (Stack) [HighLands]"``: the name with its kind and faction."""
        tag = {"instant": " (Instant)", "stack": " (Stack)", "permanent": ""}[self.kind]
        return f"{self.name}{tag}" + (f" [{self.faction}]" if self.faction else "")

    def text(self) -> str:
        """The list line form (``parse_enchantment_list`` reads it back)."""
        return f"{self.label()}: {self.effect} {self.amount:+d}"

    def stacked(self, count: int) -> str:
        """A Stack of ``count`` copies: ``"Iron Banners (Stack): units +1 level x2 = units
        +2 level"`` (heroforge:enchantments: the first one's effect multiplied by the
        number stacked); the plain `summary` for one copy."""
        return f"{self.label()}: {self.stacked_effect(count)}"

    def stacked_effect(self, count: int) -> str:
        """`stacked` without the label: ``"units +1 level x2 = units +2 level"``; the plain
        `effect_text` for one copy (heroforge:enchantments)."""
        if count == 1:
            return self.effect_text()
        total = self.model_copy(update={"amount": self.amount * count})
        return f"{self.effect_text()} x{count} = {total.effect_text()}"

    def summary(self) -> str:
        """``"Iron Banners (Stack) [HighLands]: units +1 level"``: the `label` and the
        `effect_text` (heroforge:enchantments)."""
        return f"{self.label()}: {self.effect_text()}"

    def effect_text(self) -> str:
        """The effect in words, ``"units +1 level"``, with how long it lasts where the effect
        alone does not say (heroforge:enchantments; README readings): a carried economy or
        shift effect acts ``each turn``; an instant's level, speed or roll change lasts
        ``this turn`` and its cost change is for ``your next fort this turn`` (the rulebook's
        own example)."""
        effect = describe_effect(self.effect, self.amount)
        if self.kind != "instant" and self.effect in ("economy", "shift"):
            effect += " each turn"
        elif self.kind == "instant" and self.effect in ("unit_level", "speed", "extra_rolls"):
            effect += " this turn"
        elif self.kind == "instant" and self.effect in ("unit_cost", "fort_cost"):
            noun = "unit" if self.effect == "unit_cost" else "fort"
            more = "more" if self.amount > 0 else "less"
            effect = f"your next {noun} this turn costs {abs(self.amount)}e {more}"
        return effect


class EnchantmentList(_M):
    """A numbered list of exactly ten enchantments (heroforge:enchantment-lists)."""

    id: str
    name: str
    enchantments: tuple[EnchantmentSpec, ...]

    @model_validator(mode="after")
    def _ten(self) -> EnchantmentList:
        if len(self.enchantments) != LIST_SIZE:
            raise ValueError(
                f"list {self.name}: an enchantment list has exactly {LIST_SIZE} "
                f"enchantments, got {len(self.enchantments)}"
            )
        names = [e.name.lower() for e in self.enchantments]
        if len(set(names)) != len(names):
            raise ValueError(f"list {self.name}: two enchantments share a name")
        return self


class Layout(_M):
    """A ready-made board: rows of land codes, ``B``/``S`` (random Basic/Special), ``.``."""

    id: str
    name: str
    players: tuple[int, int]
    rows: tuple[str, ...]

    def cells(self) -> list[list[str]]:
        """The grid as rows of tokens."""
        return [row.split() for row in self.rows]


class Catalog(_M):
    """Every piece of shipped data, cross-checked."""

    lands: dict[str, Land]
    units: dict[int, UnitType]
    heroes: dict[str, Hero]
    lists: dict[str, EnchantmentList]
    layouts: dict[str, Layout]

    @model_validator(mode="after")
    def _consistent(self) -> Catalog:
        if sorted(self.units) != list(range(MIN_LEVEL, MAX_LEVEL + 1)):
            raise ValueError("there must be exactly one unit per level 1-10")
        codes = [land.code for land in self.lands.values()]
        if len(set(codes)) != len(codes) or {"B", "S"} & set(codes):
            raise ValueError("land codes must be unique (B and S are reserved)")
        factions = self.factions()
        for lst in self.lists.values():
            for spec in lst.enchantments:
                if spec.faction is not None and spec.faction not in factions:
                    raise ValueError(f"{spec.name}: unknown faction {spec.faction}")
        return self

    def factions(self) -> tuple[str, ...]:
        """The factions heroes belong to, sorted."""
        return tuple(sorted({h.faction for h in self.heroes.values() if h.faction}))

    def land_by_code(self, code: str) -> Land | None:
        """The land with the two-letter ``code`` (case-insensitive), or None."""
        code = code.upper()
        return next((land for land in self.lands.values() if land.code == code), None)

    def lands_of(self, land_class: str) -> list[Land]:
        """The lands of one class, in data order."""
        return [land for land in self.lands.values() if land.land_class == land_class]


def _read(name: str) -> dict[str, Any]:
    data = resources.files("engine.heroforge.data")
    return tomllib.loads(data.joinpath(name).read_text(encoding="utf-8"))


@cache
def load_catalog() -> Catalog:
    """Load and validate the shipped data (cached). :raises ValueError: on bad data.

    Rule: heroforge:lands, heroforge:units, heroforge:basic-rules (heroes),
    heroforge:enchantment-lists (the game's data).
    """
    lands = {row["id"]: Land.model_validate(row) for row in _read("lands.toml")["lands"]}
    units = {row["level"]: UnitType.model_validate(row) for row in _read("units.toml")["units"]}
    heroes = {row["id"]: Hero.model_validate(row) for row in _read("heroes.toml")["heroes"]}
    lists = {}
    for row in _read("enchantments.toml")["lists"]:
        specs = tuple(
            EnchantmentSpec(
                name=e["name"],
                kind=e["kind"],
                faction=e.get("faction"),
                effect=e["effect"],
                amount=e["amount"],
            )
            for e in row["enchantments"]
        )
        lists[row["id"]] = EnchantmentList(id=row["id"], name=row["name"], enchantments=specs)
    layouts = {row["id"]: Layout.model_validate(row) for row in _read("layouts.toml")["layouts"]}
    return Catalog(lands=lands, units=units, heroes=heroes, lists=lists, layouts=layouts)


_LINE = re.compile(
    r"^\s*(?:\d+\s*[.)]\s*)?(?P<name>[^:(\[]+?)\s*"
    r"(?:\((?P<kind>[A-Za-z]+)\)\s*)?(?:\[(?P<faction>[A-Za-z ]+)\]\s*)?"
    r":\s*(?P<effect>[a-z_]+)\s+(?P<amount>[+-]?\d+)\s*e?\s*$"
)


def parse_enchantment_line(line: str, factions: tuple[str, ...]) -> EnchantmentSpec:
    """Read one enchantment from its text form (``Name (Stack) [Faction]: effect +N``).

    The kind tag is ``(Instant)``, ``(Stack)`` or absent/``(Permanent)``; the faction is
    one of ``factions`` (any case). Rule section: heroforge:enchantment-lists.

    :raises InvalidInput: naming what could not be read and what is allowed.
    """
    match = _LINE.match(line)
    if match is None:
        raise InvalidInput(
            f"Cannot read the enchantment {line.strip()!r}. Write it as "
            "'Name (Instant|Stack) [Faction]: effect +N', e.g. 'Windfall (Instant): economy +300'."
        )
    kind_word = (match["kind"] or "permanent").lower()
    if kind_word not in ("permanent", "instant", "stack"):
        raise InvalidInput(
            f"{match['name']}: the kind is (Instant), (Stack) or nothing, not ({match['kind']})."
        )
    effect = match["effect"]
    if effect not in EFFECT_LIMITS:
        raise InvalidInput(
            f"{match['name']}: unknown effect {effect!r}; effects are {', '.join(EFFECT_LIMITS)}."
        )
    faction = None
    if match["faction"]:
        wanted = match["faction"].strip().lower()
        faction = next((f for f in factions if f.lower() == wanted), None)
        if faction is None:
            raise InvalidInput(
                f"{match['name']}: unknown faction {match['faction']!r}; factions are {', '.join(factions)}."
            )
    try:
        return EnchantmentSpec(
            name=match["name"].strip(),
            kind=kind_word,
            faction=faction,
            effect=effect,
            amount=int(match["amount"]),
        )
    except ValidationError as error:
        message = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise InvalidInput(f"{message}.") from None


def parse_enchantment_list(text: str, *, list_id: str = "custom") -> EnchantmentList:
    """Read a player-written list: ten enchantments separated by new lines or ``;``.

    Rule section: heroforge:enchantment-lists ("each list must consist of 10
    enchantments labelled from 1-10").

    :raises InvalidInput: for an unreadable line, a bad amount, a wrong count or a
        repeated name (the message says which).
    """
    factions = load_catalog().factions()
    lines = [part for part in re.split(r"[;\n]", text) if part.strip()]
    if len(lines) != LIST_SIZE:
        raise InvalidInput(
            f"An enchantment list has exactly {LIST_SIZE} enchantments (numbered 1-{LIST_SIZE} "
            f"in the order written, separated by ; or new lines); this one has {len(lines)}."
        )
    specs = tuple(parse_enchantment_line(line, factions) for line in lines)
    names = [spec.name.lower() for spec in specs]
    repeated = next(
        (spec.name for i, spec in enumerate(specs) if spec.name.lower() in names[:i]), None
    )
    if repeated is not None:
        raise InvalidInput(
            f"Two enchantments of the list are called {repeated!r}; give each its own name."
        )
    try:
        return EnchantmentList(id=list_id, name="Custom list", enchantments=specs)
    except ValidationError as error:
        message = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise InvalidInput(f"{message}.") from None


def list_text(lst: EnchantmentList) -> str:
    """The text form of a list (``;``-separated), which `parse_enchantment_list` reads.

    Rule: heroforge:enchantment-lists (the written form of a list).
    """
    return "; ".join(spec.text() for spec in lst.enchantments)
