"""The homm3 game state: players (Hero, deck zones, Town, army, Morale), the shared decks,
the Adventure round and the Battlefield Combat, as pydantic models.

Rule sections: homm3bf:battlefield-setup (what each player holds), homm3turn:hand-limit,
homm3turn:spending-the-token (Town tokens), homm3turn:gaining-morale (Morale), homm3bf:
battlefield-combat (the Combat). Card instances are numbers (``#17``) mapped to card ids in
``cards``; each instance lies in exactly one zone (`engine.homm3.audit`). Hidden zones:
decks, hands, the Adventure hand, the cards a seat is looking at, the Spell Scroll.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.model import GameState
from engine.homm3.map_state import MapGame

Mode = Literal["skirmish", "adventure", "map"]
Template = Literal["short", "medium", "large"]


class Resources(BaseModel):
    """Gold, Building Materials and Valuables held (or an income per Resource round)."""

    model_config = ConfigDict(extra="forbid")

    gold: int = 0
    materials: int = 0
    valuables: int = 0

    def covers(self, gold: int = 0, materials: int = 0, valuables: int = 0) -> bool:
        """Whether these Resources pay for the given amounts."""
        return self.gold >= gold and self.materials >= materials and self.valuables >= valuables

    def label(self) -> str:
        """``"15 Gold, 3 Building Materials, 1 Valuable"``."""
        return (
            f"{self.gold} Gold, {self.materials} Building Materials, "
            f"{self.valuables} Valuable{'s' if self.valuables != 1 else ''}"
        )


class ArmyUnit(BaseModel):
    """A unit card a player owns outside Combat (its side and any stun)."""

    model_config = ConfigDict(extra="forbid")

    unit: str
    pack: bool = False
    paralysed: bool = False


class TownTokens(BaseModel):
    """The Town Action tokens; True means active (homm3turn:spending-the-token)."""

    model_config = ConfigDict(extra="forbid")

    build: bool = True
    population: bool = True
    spellbook: bool = True


class Player(BaseModel):
    """One seat: Hero, Might & Magic card zones, Town, army, Resources and Morale.

    Attributes:
        experience: total Experience; the Level is 1 + experience // 2, at most 7 (2
            Experience per Level) unless ``level`` was set by a Skirmish template.
        experts: unspent Expert uses (homm3bf:...the-deck-of-might-and-magic).
        aside: single-use cards set aside during the Adventure (homm3bf:adventure-mode).
        scroll: the Spell on a Spell Scroll (castable in the final Combat).
        permanent: the Permanent card in play (at most one).
        positive / negative: face-up Morale cards; ``positive_token`` / ``negative_token``
            are the Core Game tokens used when a Morale deck runs out.
        adventure_hand: Adventure cards in hand (the chosen one and the saved one).
    """

    model_config = ConfigDict(extra="forbid")

    seat: int
    faction: str
    hero: str
    level: int = 1
    experience: int = 0
    deck: list[int] = Field(default_factory=list)
    hand: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    removed: list[int] = Field(default_factory=list)
    aside: list[int] = Field(default_factory=list)
    scroll: list[int] = Field(default_factory=list)
    permanent: list[int] = Field(default_factory=list)
    experts: int = 0
    resources: Resources = Field(default_factory=Resources)
    income: Resources = Field(default_factory=Resources)
    buildings: list[str] = Field(default_factory=list)
    tokens: TownTokens = Field(default_factory=TownTokens)
    guild_round: int = 0
    army: list[ArmyUnit] = Field(default_factory=list)
    positive: list[int] = Field(default_factory=list)
    negative: list[int] = Field(default_factory=list)
    positive_token: bool = False
    negative_token: bool = False
    discard_hand: bool = False
    adventure_hand: list[int] = Field(default_factory=list)
    resolved: list[int] = Field(default_factory=list)
    resolved_this_round: bool = False
    movement: int = 0
    discount: int = 0
    blacksmith_used: bool = False


class Step(BaseModel):
    """One pending effect step of a seat (Adventure rewards, searches, set-up picks)."""

    model_config = ConfigDict(extra="forbid")

    step: str
    args: dict[str, Any] = Field(default_factory=dict)


class Choice(BaseModel):
    """A choice a seat owes: pick one option by its index with ``choose``.

    ``private`` choices show their option labels only to that seat (cards it looks at).
    """

    model_config = ConfigDict(extra="forbid")

    kind: str
    prompt: str
    options: list[str]
    private: bool = False
    data: dict[str, Any] = Field(default_factory=dict)


class AdventureRound(BaseModel):
    """Where the Adventure round stands (homm3bf:adventure-mode.round-structure).

    ``stage``: ``start`` (income / Astrologers), ``draw`` (the starting player keeps 1 of
    3), ``pass`` (the other keeps 1 of 2), ``turns`` (each player's turn), ``done``, and
    after the last round ``react`` (homm3turn:reacting-to-combat: before the final Combat is
    set up, the seats in ``reacting`` may take Town actions, the first of them now).
    """

    model_config = ConfigDict(extra="forbid")

    stage: Literal["start", "draw", "pass", "turns", "done", "react"] = "start"
    starter: int = 0
    active: int = 0
    finished: list[int] = Field(default_factory=list)
    drawn: list[int] = Field(default_factory=list)
    redrawn: bool = False
    reacting: list[int] = Field(default_factory=list)


class Modifier(BaseModel):
    """A temporary change to a unit in Combat.

    ``until``: ``attack`` (the unit's next attack resolves, or the activation ends),
    ``defended`` (the next attack against it resolves, or the activation ends),
    ``round`` (end of the Combat round), ``rounds2`` (end of the next round), ``combat``.
    """

    model_config = ConfigDict(extra="forbid")

    stat: Literal["attack", "defense", "initiative", "health"]
    amount: int
    until: Literal["attack", "defended", "round", "rounds2", "combat"]
    source: str


class CombatUnit(BaseModel):
    """A unit on the Battlefield (its number is shown on the board and in commands)."""

    model_config = ConfigDict(extra="forbid")

    number: int
    seat: int
    unit: str
    pack: bool
    damage: int = 0
    hex: str | None = None
    activated: bool = False
    retaliated: bool = False
    extra_retaliation: bool = False
    defending: bool = False
    paralysed: bool = False
    modifiers: list[Modifier] = Field(default_factory=list)
    flags: list[str] = Field(default_factory=list)
    moved: int = 0
    start_hex: str | None = None
    alive: bool = True


class Placed(BaseModel):
    """An Obstacle token (or a Wall/Gate, or a spell effect marker) on the board."""

    model_config = ConfigDict(extra="forbid")

    token: int
    kind: Literal["obstacle", "wall", "gate", "fire_wall", "force_field"]
    name: str
    hexes: list[str]
    owner: int | None = None
    damage: int = 0
    until_round: int = 0


class AttackWindow(BaseModel):
    """An attack from its declaration to its damage (homm3bf:...the-deck-of-might-and-magic;
    core: before a unit attacks both players may play cards, then the Attack die is rolled).

    ``priority``: the seat that may play now; the card window closes after two passes in
    a row. ``stage``: ``cards`` (the window is open), ``rolled`` (the Attack die is
    final), ``braced`` (Braced Pikes were offered), ``guarded`` (the Defense token's die
    too), ``blow`` (the result is computed next), ``angel`` (a Guardian Angel was
    offered), ``resurrection`` (the damage would bring the target to 0 Health and its
    owner may cast Resurrection), ``hit`` (the damage is dealt next), ``gaze`` (Stone
    Gaze's die was rolled: a 0 Paralyses). ``rolls``: the Attack dice thrown (two under the Ranged penalty); ``guard``,
    ``blow``, ``gaze``: the later dice; ``damage`` / ``attack_value`` / ``defense_value``
    / ``note``: the computed result; ``cancelled``: Resurrection cancelled the attack.
    """

    model_config = ConfigDict(extra="forbid")

    attacker: int
    target: int
    retaliation: bool = False
    second: bool = False
    priority: int
    passes: int = 0
    die: int | None = None
    stage: Literal[
        "cards", "rolled", "braced", "guarded", "blow", "angel", "resurrection", "hit", "gaze"
    ] = "cards"
    rolls: list[int] = Field(default_factory=list)
    guard: int | None = None
    blow: int | None = None
    gaze: int | None = None
    damage: int | None = None
    attack_value: int = 0
    defense_value: int = 0
    note: str = ""
    cancelled: bool = False

    @model_validator(mode="after")
    def _saved_rolled(self) -> AttackWindow:
        # States saved before the stages existed: a die thrown means the roll is done.
        if self.die is not None and self.stage == "cards":
            self.stage = "rolled"
            self.rolls = self.rolls or [self.die]
        return self


class Reaction(BaseModel):
    """A Spell just cast, waiting for the other side's answer before its effect resolves
    (Resistance: "immediately after the enemy casts a spell").

    ``seat`` may answer; ``caster`` cast ``card`` (option ``option``) with ``command`` (the
    Play command as a dict), ``power`` Empower at level row ``level``; ``draws`` cards the
    caster still draws (Sorcery paid as Empower); ``window``: it was cast in an attack
    window; ``context``: where it was cast (``activation``, ``window``, ``opening``,
    ``resurrection``).
    """

    model_config = ConfigDict(extra="forbid")

    seat: int
    caster: int
    card: int
    option: int = 0
    command: dict[str, Any] = Field(default_factory=dict)
    power: int = 0
    level: list[int] = Field(default_factory=list)
    spent: list[int] = Field(default_factory=list)
    draws: int = 0
    context: str = "activation"


class Opening(BaseModel):
    """The moment before any unit activates in the Combat (Intelligence, Tactics):
    ``priority`` may play or pass; two passes in a row close it. ``cast``: the seat that
    played Intelligence and now casts its Spell; ``free``: that Spell does not count toward
    the round's limit (Intelligence's Expert effect)."""

    model_config = ConfigDict(extra="forbid")

    priority: int
    passes: int = 0
    cast: int | None = None
    free: bool = False


class Bonus(BaseModel):
    """A side-wide Combat effect: ``archery`` (+Attack to Ranged units against units that are
    not adjacent, +Defense), ``ground_initiative`` (+Initiative to Ground units) or
    ``no_penalty`` (Ranged units suffer no Combat penalty). ``until_round`` 0: the Combat."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    kind: Literal["archery", "ground_initiative", "no_penalty"]
    attack: int = 0
    defense: int = 0
    until_round: int = 0


class LastAttack(BaseModel):
    """The last resolved attack, for the picture and the log."""

    model_config = ConfigDict(extra="forbid")

    attacker: int
    target: int
    attack: int
    die: int
    defense: int
    damage: int
    note: str = ""


class CombatState(BaseModel):
    """The Battlefield Combat (homm3bf:battlefield-combat).

    ``stage``: ``obstacles`` (placing in turns), ``deploy`` (placing units in turns),
    ``round`` (activations), ``over``. ``token`` holds the Initiative token. ``reaction``:
    a Spell waiting for Resistance; ``opening``: the start of the Combat before any unit
    activates; ``luck``: seat -> the Combat round in which its Expert Luck lets it reroll
    each of its dice once; ``splash``: the hex of the target of a Pack of Liches' attack,
    next to which its Death Cloud may strike.
    """

    model_config = ConfigDict(extra="forbid")

    stage: Literal["obstacles", "deploy", "round", "over"] = "obstacles"
    round: int = 0
    first: int = 0
    token: int = 0
    placing: int = 0
    passes: int = 0
    pool: list[int] = Field(default_factory=list)
    placed: list[Placed] = Field(default_factory=list)
    zones: dict[int, str] = Field(default_factory=dict)
    units: list[CombatUnit] = Field(default_factory=list)
    siege: int | None = None
    tower: int | None = None
    active: int | None = None
    chooser: int | None = None
    acted: bool = False
    attacks: int = 0
    target: int | None = None
    tie_initiative: int | None = None
    tie_last: int | None = None
    tie_seen: bool = False
    window: AttackWindow | None = None
    spells: dict[int, int] = Field(default_factory=dict)
    spell_bonus: dict[int, int] = Field(default_factory=dict)
    last_cast: dict[str, Any] = Field(default_factory=dict)
    bonuses: list[Bonus] = Field(default_factory=list)
    last: LastAttack | None = None
    reaction: Reaction | None = None
    opening: Opening | None = None
    luck: dict[int, int] = Field(default_factory=dict)
    splash: str | None = None
    regular: bool = False

    def end(self) -> None:
        """End the Combat (homm3bf:skirmish-mode.victory-condition): the attack and its card
        window, a Spell waiting for an answer, the Combat's start, the activation and the
        choice of the next unit close with it. Each names units, and the last of a side has
        just fallen (a card played in an attack's window may defeat the attacker); the last
        resolved attack stays as the record shown."""
        self.stage = "over"
        self.window = None
        self.reaction = None
        self.opening = None
        self.active = None
        self.chooser = None
        self.target = None
        self.splash = None


class Homm3State(GameState):
    """A whole homm3 game (Skirmish or Adventure, ending in Battlefield Combat).

    Attributes:
        turn: turns played (Adventure player turns plus Combat activations).
        phase: ``setup`` (deck preparation), ``adventure``, ``combat``, ``over``.
        first: the first player (rolled at set-up, homm3bf:battlefield-setup).
        seats: one `Player` per seat (seat order).
        cards: card instance number -> card id (Might & Magic, Adventure and Morale cards).
        queue / choice: per seat, effect steps still to resolve and the open `Choice`.
        looking: per seat, cards that seat is looking at (a Search or a draw).
    """

    ruleset: Literal["homm3"] = "homm3"
    mode: Mode = "skirmish"
    template: Template = "short"
    rounds: int = 0
    round: int = 0
    turn: int = 0
    phase: Literal["setup", "adventure", "combat", "map", "over"] = "setup"
    first: int = 0
    seats: list[Player] = Field(default_factory=list)
    cards: dict[int, str] = Field(default_factory=dict)
    next_card: int = 1
    ability_deck: list[int] = Field(default_factory=list)
    ability_discard: list[int] = Field(default_factory=list)
    artifact_deck: list[int] = Field(default_factory=list)
    artifact_discard: list[int] = Field(default_factory=list)
    spell_deck: list[int] = Field(default_factory=list)
    spell_discard: list[int] = Field(default_factory=list)
    adventure_deck: list[int] = Field(default_factory=list)
    adventure_discard: list[int] = Field(default_factory=list)
    positive_deck: list[int] = Field(default_factory=list)
    negative_deck: list[int] = Field(default_factory=list)
    looking: dict[int, list[int]] = Field(default_factory=dict)
    queue: dict[int, list[Step]] = Field(default_factory=dict)
    choice: dict[int, Choice] = Field(default_factory=dict)
    adventure: AdventureRound | None = None
    combat: CombatState | None = None
    siege: int | None = None
    winners: list[int] = Field(default_factory=list)
    reason: str = ""
    map: MapGame | None = None
    board: Homm3State | None = None

    @model_validator(mode="after")
    def _saved_reroll(self) -> Homm3State:
        # States saved before every die could be rerolled: the only reroll was the
        # attacker's Attack die with the Positive token ("Keep" / "Spend and reroll").
        window = self.combat.window if self.combat is not None else None
        for choice in self.choice.values():
            if choice.kind != "reroll" or "faces" in choice.data or window is None:
                continue
            face = {-1: 1, 0: 3, 1: 5}[window.die if window.die is not None else 0]
            choice.options = [
                choice.options[0],
                f"Reroll ({window.die or 0:+d}) with the Positive Morale token",
            ]
            choice.data = {
                "die": "attack",
                "faces": [face],
                "then": "attack",
                "args": {"stage": "rolled"},
                "best": 1,
                "luck_used": [],
                "picks": [[0, "token"]],
            }
        return self

    @model_validator(mode="after")
    def _saved_over(self) -> Homm3State:
        # Games saved when a victory left the attack window (or the activation) of a fallen
        # unit open: the finished Combat closes them, so the game can be shown again.
        if self.phase == "over" and self.combat is not None:
            self.combat.end()
        return self

    def player(self, seat: int) -> Player:
        """The `Player` at ``seat``."""
        return self.seats[seat]

    def card_id(self, instance: int) -> str:
        """The card id of instance ``#instance``."""
        return self.cards[instance]
