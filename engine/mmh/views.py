"""What a seat, or everyone, may see of an mmh game: the models rendering and the bot read.

Rule sections: mmh:other-game-rules.using-card-effects (scrolls are held face down),
mmh:game-setup.preparing-card-decks (decks face down). Everything on the table is public:
the board, capitals, heroes, armies, skill and artefact cards, trophies, luck markers, the
week card. Private: the scrolls a hero holds (only their number is public), the cards
drawn for a keep-one choice, the order of every deck and the contents of discard piles
(their sizes are public; a Dragon Vein shows them to the searcher).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core.model import Decision, Result


class _V(BaseModel):
    model_config = ConfigDict(frozen=True)


class EncounterView(_V):
    """An encounter marker, face up."""

    id: int
    name: str
    colour: str
    might: int
    threat: int
    initiative: int
    xp: int
    chests: int
    abilities: tuple[str, ...]
    resilience: int
    elite: bool


class SpaceView(_V):
    """One board space and what lies on it."""

    index: int
    label: str
    x: int
    y: int
    tile: int
    red: bool
    terrain: str
    location: str | None
    symbol: str | None
    guards: str | None
    encounter: EncounterView | None
    control: int | None
    exploration_marker: bool
    capital: int | None


class UnitView(_V):
    """A creature marker of an army."""

    creature: str
    name: str
    elite: bool
    might: int
    level: int


class HeroView(_V):
    """A hero sheet and what lies next to it."""

    id: str
    name: str
    owner: int
    faction: str
    space: str | None
    might: int
    magic: int
    initiative: int
    leadership: int
    overwhelm: int
    ability: str
    master: str | None
    leader: str | None
    schools: tuple[str, ...]
    army: tuple[UnitView, ...]
    skills: tuple[str, ...]
    artefacts: tuple[str, ...]
    scrolls: int
    trophies: tuple[int, ...]
    xp: int
    luck: int
    next_level_cost: int


class ActionCardView(_V):
    """An action card: number, its two actions, face down (used) or up."""

    number: int
    actions: tuple[str, str]
    used: bool


class SeatPublic(_V):
    """A player's area as everyone sees it."""

    seat: int
    faction: str
    capital: str | None
    level: int
    buildings: tuple[str, ...]
    gold: int
    resources: int
    vp: int
    cards: tuple[ActionCardView, ...]
    reserve: dict[str, int]
    heroes: tuple[str, ...]
    unused_heroes: tuple[str, ...]
    might_deck: int
    magic_deck: int
    might_discard: int
    magic_discard: int
    temple_artefact: str | None


class ActivationView(_V):
    """The hero being activated."""

    hero: str
    mp: int
    battles: int


class ActionView(_V):
    """The action in progress."""

    kind: str
    card: int
    recruited: int
    activation: ActivationView | None
    activated: tuple[str, ...]


class TrackUnitView(_V):
    """A marker on the initiative track."""

    id: int
    side: int
    kind: Literal["stack", "hero", "encounter", "element"]
    name: str
    initiative: int
    alive: bool
    elite: int
    basic: int
    damage: int
    dice: int
    might: int


class BattleView(_V):
    """A battle in progress."""

    kind: str
    space: str
    exchange: int
    step: str
    window: str | None
    attacker: str
    defender: str | None
    controller: int | None
    units: tuple[TrackUnitView, ...]
    order: tuple[int, ...]
    current: int | None
    honor: str | None
    damage: int
    last_dice: tuple[int, ...]
    last_elite: int | None
    last_unit: int | None
    last_damage: int


class PromptView(_V):
    """A queued choice, without hidden cards (``card`` is a face-up treasure card)."""

    seat: int
    kind: str
    hero: str
    card: str | None = None


class PublicView(_V):
    """What everyone may see."""

    ruleset: Literal["mmh"] = "mmh"
    version: int
    phase: str
    round: int
    turn: int
    players: int
    width: int
    height: int
    week: str | None
    weeks_left: int
    dark_times: bool
    start_player: int
    active: int
    spaces: tuple[SpaceView, ...]
    seats: tuple[SeatPublic, ...]
    heroes: tuple[HeroView, ...]
    scroll_deck: int
    artefact_deck: int
    treasure_deck: int
    scroll_discard: int
    artefact_discard: int
    treasure_discard: int
    luck_supply: int
    action: ActionView | None
    battle: BattleView | None
    queue: tuple[PromptView, ...]
    last_path: tuple[str, ...]
    pending: tuple[Decision, ...]
    result: Result
    threshold: int


class SeatView(PublicView):
    """The public view plus what one seat alone may see."""

    seat: int
    scrolls: dict[str, tuple[str, ...]]
    choice: tuple[str, ...]
    discards: dict[str, tuple[str, ...]]
