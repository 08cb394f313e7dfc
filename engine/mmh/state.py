"""The mmh game state: seats and their capitals, heroes and armies, the board, decks, the
round, the action in progress, queued choices and the battle.

Rule sections: mmh:game-setup (and sub-sections), mmh:course-of-play, mmh:course-of-play.battles.

Cards are named by their id in the content (every skill, scroll, artefact, treasure and week
card exists once, so the id is the card). Every card and marker is in exactly one place at
all times (`engine.mmh.audit` checks it): a deck, a discard pile, a hero, a queued choice,
the Temple of Asha, the board or the box. Spaces are numbered ``y * width + x`` on the
assembled board (``engine.mmh.board``); ``None`` for a hero's space means "in the capital".
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.model import GameState
from engine.mmh.options import MmhOptions


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Unit(_M):
    """A creature marker in an army: its type, which side is up, damage markers on it
    (only during a battle, for Resilience)."""

    creature: str
    elite: bool
    wounds: int = 0


class Hero(_M):
    """A hero in play (mmh:game-setup.choosing-the-starting-hero).

    ``scrolls`` are held face down (private); skills, artefacts and trophies are face up.
    ``trophies`` are defeated encounter markers kept for their XP.
    """

    id: str
    owner: int
    space: int | None = None
    army: list[Unit] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)
    scrolls: list[str] = Field(default_factory=list)
    artefacts: list[str] = Field(default_factory=list)
    trophies: list[int] = Field(default_factory=list)
    luck: int = 0


class ActionCard(_M):
    """One action card: its number (1-3 boots, 4 the Marketplace's scale), its two
    actions and whether it has been used this round (mmh:course-of-play.playing-action-cards)."""

    number: int
    actions: tuple[str, str]
    used: bool = False


class Seat(_M):
    """One player's area (mmh:game-setup.setting-up-the-player-areas).

    ``vp_bonus`` counts permanent victory points (Crystal of Revelation); the rest of the
    VP total is computed from controlled spaces, artefacts and buildings (`engine.mmh.score`).
    ``reserve`` maps creature type -> markers not in any army.
    """

    seat: int
    faction: str
    capital: int | None = None
    level: int = 1
    buildings: list[str] = Field(default_factory=list)
    gold: int = 7
    resources: int = 5
    vp_bonus: int = 0
    cards: list[ActionCard] = Field(default_factory=list)
    reserve: dict[str, int] = Field(default_factory=dict)
    might_deck: list[str] = Field(default_factory=list)
    might_discard: list[str] = Field(default_factory=list)
    magic_deck: list[str] = Field(default_factory=list)
    magic_discard: list[str] = Field(default_factory=list)
    heroes: list[str] = Field(default_factory=list)
    unused_heroes: list[str] = Field(default_factory=list)
    temple_artefact: str | None = None


class PlacedTile(_M):
    """A map tile on the board: which one, its grid slot (column, row) and its turn
    (quarter turns clockwise)."""

    tile: int
    slot: tuple[int, int]
    rotation: int = Field(ge=0, le=3)


class Activation(_M):
    """The hero being activated (mmh:course-of-play.activate-hero): movement points left,
    battles left, whether he began on a harbour, the spaces entered so far."""

    hero: str
    mp: int
    battles: int = 1
    harbour_start: bool = False
    path: list[int] = Field(default_factory=list)


class ActionStep(_M):
    """The action being performed by the active player (after playing an action card)."""

    kind: Literal["build", "recruit", "hero"]
    card: int
    recruited: int = 0
    activation: Activation | None = None
    activated: list[str] = Field(default_factory=list)


# ----------------------------------------------------------------------- queued choices
class _Prompt(_M):
    seat: int
    hero: str


class KeepCard(_Prompt):
    """Draw-N-keep-1 (level-up skills, artefacts, Mysticism scrolls): ``cards`` are seen by
    the owner only until one is kept."""

    kind: Literal["keep"] = "keep"
    pile: Literal["might", "magic", "scroll", "artefact"]
    cards: list[str]


class ArtefactSwap(_Prompt):
    """A new artefact of a category the hero already has: keep one, discard the other."""

    kind: Literal["swap"] = "swap"
    new: str
    old: str


class ScrollRoom(_Prompt):
    """The hero may draw ``count`` scroll cards (keep 1) but holds as many as his Magic:
    discard one first, or forgo the draw (mmh:other-game-rules.using-card-effects)."""

    kind: Literal["scroll_room"] = "scroll_room"
    count: int


class TreasureChoice(_Prompt):
    """A drawn treasure card: choose ``picks`` different fields (``artefact`` False: not
    the artefact field, after an ordinary encounter)."""

    kind: Literal["treasure"] = "treasure"
    card: str
    picks: int
    artefact: bool = True


class XpSpend(_Prompt):
    """Treasure XP that must be spent at once on a level-up (with trophies) or is lost."""

    kind: Literal["xp"] = "xp"
    xp: int


class SkillDraw(_Prompt):
    """A free skill card: choose the might or magic deck (Stone of Enlightenment, a won
    hero battle: draw 2 keep 1; Sage: draw 1)."""

    kind: Literal["skill_draw"] = "skill_draw"
    draw: int = 2


class DragonVein(_Prompt):
    """Search the treasure, scroll and artefact discard piles for one card."""

    kind: Literal["dragon_vein"] = "dragon_vein"


class ArenaRecruit(_Prompt):
    """Recruit up to ``left`` more creatures of the faction for the hero (Arena)."""

    kind: Literal["arena"] = "arena"
    left: int = 3


class Raise(_Prompt):
    """RAISE DEAD ``points`` for the hero's army; ``fallen`` counts creatures destroyed in
    the battle by type (mmh:course-of-play.battles, Reviving Creatures)."""

    kind: Literal["raise"] = "raise"
    points: int
    fallen: dict[str, int] = Field(default_factory=dict)


class Reward(_Prompt):
    """The winner of a hero battle: 1 skill card (no XP) or 1 artefact of ``loser``."""

    kind: Literal["reward"] = "reward"
    loser: str


class ControlChoice(_Prompt):
    """The active hero passes through or stops on the unguarded controllable ``space``:
    his player may take control of it, or leave it (mmh:course-of-play.activate-hero,
    Controlling Game Board Spaces)."""

    kind: Literal["control"] = "control"
    space: int


class LeadershipCut(_Prompt):
    """The hero's Leadership dropped below his army's size: his player chooses ``count``
    creatures to go back to the reserve ("This value may never be exceeded",
    mmh:game-setup.choosing-the-starting-hero)."""

    kind: Literal["leadership"] = "leadership"
    count: int


Prompt = Annotated[
    KeepCard
    | ArtefactSwap
    | ScrollRoom
    | TreasureChoice
    | XpSpend
    | SkillDraw
    | DragonVein
    | ArenaRecruit
    | Raise
    | Reward
    | ControlChoice
    | LeadershipCut,
    Field(discriminator="kind"),
]


# ----------------------------------------------------------------------------- battle
class BUnit(_M):
    """A marker on the initiative track: a creature stack (by type), a hero, an encounter
    marker (``extra``: the additional Dark Times marker) or an element marker."""

    id: int
    side: Literal[0, 1]
    kind: Literal["stack", "hero", "encounter", "element"]
    hero: str | None = None
    creature: str | None = None
    marker: int | None = None
    extra: bool = False
    element: str | None = None
    damage: int = 0
    alive: bool = True


class Buff(_M):
    """An until-end-of-exchange modifier on a track marker."""

    unit: int
    stat: Literal["might", "initiative"]
    value: int


class Roll(_M):
    """The attack being resolved: dice, which were rerolled, the elite die, the stage."""

    unit: int
    mights: list[int] = Field(default_factory=list)
    dice: list[int] = Field(default_factory=list)
    rerolled: list[bool] = Field(default_factory=list)
    elite: int | None = None
    elite_rerolled: bool = False
    skulls: int = 0
    laurel: bool = False
    negated: bool = False
    focused: bool = False
    target: int | None = None
    piercing: bool = False
    annihilator: bool = False
    stage: Literal["elite", "rerolls", "luck", "laurel", "damage"] = "elite"


class LastAttack(_M):
    """The last resolved attack, for the picture and the log."""

    unit: int
    dice: list[int]
    elite: int | None
    hits: int
    damage: int


class Battle(_M):
    """A battle in progress (mmh:course-of-play.battles).

    Side 0 is the active hero; side 1 the encounter markers (controlled by ``controller``)
    or the defending hero. ``step`` says what is awaited.
    """

    kind: Literal["encounter", "hero"]
    space: int
    purpose: Literal["enter", "explore", "control", "hero"]
    location: int | None = None
    encounter_space: int | None = None
    attacker: str
    defender: str | None = None
    controller: int | None = None
    units: list[BUnit] = Field(default_factory=list)
    order: list[int] = Field(default_factory=list)
    exchange: int = 0
    pos: int = 0
    step: Literal[
        "honor", "window", "turn", "negate", "luck", "laurel", "angel", "assign", "retreat"
    ] = "window"
    window: str | None = None
    window_seats: list[int] = Field(default_factory=list)
    honor: Literal["all", "none"] | None = None
    roll: Roll | None = None
    damage: int = 0
    elite_damage: int = 0
    piercing: bool = False
    forced: int | None = None
    damage_side: int = 1
    resume: Literal["turn", "window"] = "turn"
    fallen: dict[str, dict[str, int]] = Field(default_factory=dict)
    buffs: list[Buff] = Field(default_factory=list)
    shields: dict[str, int] = Field(default_factory=dict)
    used: dict[str, list[str]] = Field(default_factory=dict)
    exchange_used: dict[str, list[str]] = Field(default_factory=dict)
    dispelled: list[int] = Field(default_factory=list)
    angel_used: list[int] = Field(default_factory=list)
    misfortune_used: list[str] = Field(default_factory=list)
    retreat_seats: list[int] = Field(default_factory=list)
    loser_side: int | None = None
    retreated: bool = False
    last: LastAttack | None = None


class MmhState(GameState):
    """A whole mmh game (see the module docstring)."""

    ruleset: Literal["mmh"] = "mmh"
    options: MmhOptions
    phase: Literal["tiles", "capitals", "heroes", "play", "over"] = "tiles"
    turn: int = 0
    round: int = 0
    width: int = 0
    height: int = 0
    tiles: list[PlacedTile] = Field(default_factory=list)
    tile_stack: list[int] = Field(default_factory=list)
    capital_order: list[int] = Field(default_factory=list)
    seats: list[Seat] = Field(default_factory=list)
    heroes: dict[str, Hero] = Field(default_factory=dict)
    encounters: dict[int, int] = Field(default_factory=dict)
    encounter_box: list[int] = Field(default_factory=list)
    exploration_markers: list[int] = Field(default_factory=list)
    explored: list[int] = Field(default_factory=list)
    control: dict[int, int] = Field(default_factory=dict)
    scroll_deck: list[str] = Field(default_factory=list)
    scroll_discard: list[str] = Field(default_factory=list)
    artefact_deck: list[str] = Field(default_factory=list)
    artefact_discard: list[str] = Field(default_factory=list)
    treasure_deck: list[str] = Field(default_factory=list)
    treasure_discard: list[str] = Field(default_factory=list)
    week_stack: list[str] = Field(default_factory=list)
    week_past: list[str] = Field(default_factory=list)
    week_box: list[str] = Field(default_factory=list)
    week: str | None = None
    luck_supply: int = 13
    element_supply: list[str] = Field(default_factory=list)
    start_player: int = 0
    active: int = 0
    action: ActionStep | None = None
    queue: list[Prompt] = Field(default_factory=list)
    battle: Battle | None = None
    winners: list[int] = Field(default_factory=list)
    end_reason: str = ""
    last_path: list[int] = Field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> MmhState:
        """A deep copy through plain data (about 20x faster than copying model by model);
        `Ruleset.apply` copies the state before every command."""
        return type(self).model_validate(self.model_dump())

    def seat_of(self, seat: int) -> Seat:
        """The `Seat` record of seat number ``seat``."""
        return self.seats[seat]
