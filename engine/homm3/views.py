"""What a seat (or everyone) may see of a homm3 game, as pydantic models.

Public: Heroes, Levels, Resources, Towns, armies, face-up Morale cards, the Permanent
card, counts of every hidden zone, the face-up discard piles, the Battlefield and the
pending prompts. A `SeatView` adds that seat's hand, set-aside cards, Spell Scroll,
Adventure hand, the cards it is looking at and its open choice with its options.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class CardRef(BaseModel):
    """A card instance as shown: its number, id and name."""

    model_config = ConfigDict(frozen=True)

    number: int
    id: str
    name: str


class ArmyView(BaseModel):
    """A unit card a player owns (outside Combat)."""

    model_config = ConfigDict(frozen=True)

    unit: str
    name: str
    tier: str
    pack: bool
    paralysed: bool


class PlayerView(BaseModel):
    """A player's public side."""

    model_config = ConfigDict(frozen=True)

    seat: int
    colour: str
    hero: str
    hero_name: str
    hero_type: str
    faction: str
    level: int
    experience: int
    hand_limit: int
    experts: int
    expert_limit: int
    hand: int
    deck: int
    discard: list[CardRef]
    removed: int
    aside: int
    scroll: int
    permanent: list[CardRef]
    gold: int
    materials: int
    valuables: int
    income_gold: int
    income_materials: int
    income_valuables: int
    buildings: list[str]
    build_token: bool
    population_token: bool
    spellbook_token: bool
    army: list[ArmyView]
    positive: list[CardRef]
    negative: list[CardRef]
    positive_token: bool
    negative_token: bool
    adventure_hand: int
    resolved: list[CardRef]


class UnitView(BaseModel):
    """A unit on the Battlefield with its current values."""

    model_config = ConfigDict(frozen=True)

    number: int
    seat: int
    unit: str
    name: str
    tier: str
    kind: str
    pack: bool
    hex: str | None
    damage: int
    health: int
    attack: int
    defense: int
    initiative: int
    activated: bool
    retaliated: bool
    defending: bool
    paralysed: bool
    effects: list[str]
    alive: bool


class PlacedView(BaseModel):
    """An Obstacle, Wall, Gate or spell marker on the board."""

    model_config = ConfigDict(frozen=True)

    kind: str
    name: str
    hexes: list[str]
    damage: int = 0


class CombatView(BaseModel):
    """The Battlefield."""

    model_config = ConfigDict(frozen=True)

    stage: str
    round: int
    token: int
    placing: int
    zones: dict[int, str]
    siege: int | None
    placed: list[PlacedView]
    pool: list[int]
    units: list[UnitView]
    active: int | None
    order: list[int]
    window: str | None
    last_attack: str | None
    spells: dict[int, int]


class AdventureView(BaseModel):
    """The Adventure round."""

    model_config = ConfigDict(frozen=True)

    stage: str
    starter: int
    active: int
    deck: int
    discard: list[CardRef]


class MapTileView(BaseModel):
    """A tile of the map: face down (``tile`` None, no Fields) or face up with its Fields
    (``"q,r"`` -> label)."""

    model_config = ConfigDict(frozen=True)

    pos: tuple[int, int]
    kind: str
    tile: str | None
    fields: dict[str, str]


class MapHeroView(BaseModel):
    """A hero on the map."""

    model_config = ConfigDict(frozen=True)

    seat: int
    main: bool
    field: str
    mp: int


class MapView(BaseModel):
    """The map game's public part: tiles, flags, Black Cubes, heroes, pool sizes, Faction
    Cubes held, eliminated seats, and the real seats of a Combat's two sides."""

    model_config = ConfigDict(frozen=True)

    scenario: str
    rounds: int
    active: int
    tiles: list[MapTileView]
    flags: dict[str, int]
    visited: list[str]
    heroes: list[MapHeroView]
    pools: dict[int, int]
    cubes: dict[int, list[int]]
    eliminated: list[int]
    battle_seats: list[int]
    neutral_battle: bool


class PublicView(BaseModel):
    """Everything everyone may see."""

    model_config = ConfigDict(frozen=True)

    ruleset: str
    version: int
    mode: str
    template: str
    phase: str
    round: int
    rounds: int
    turn: int
    first: int
    players: list[PlayerView]
    ability_deck: int
    artifact_deck: int
    spell_deck: int
    ability_discard: list[CardRef]
    artifact_discard: list[CardRef]
    spell_discard: list[CardRef]
    positive_deck: int
    negative_deck: int
    adventure: AdventureView | None
    combat: CombatView | None
    prompts: list[str]
    winners: list[int]
    reason: str
    map: MapView | None = None


class ChoiceView(BaseModel):
    """The seat's open choice with every option."""

    model_config = ConfigDict(frozen=True)

    kind: str
    prompt: str
    options: list[str]


class SeatView(PublicView):
    """The public view plus one seat's own hidden cards."""

    seat: int
    hand: list[CardRef]
    aside_cards: list[CardRef]
    scroll_cards: list[CardRef]
    adventure_cards: list[CardRef]
    looking: list[CardRef]
    choice: ChoiceView | None
