"""The homm4 game state: every card's zone, the board, armies, sites, turn and battle.

Rule sections: homm4:setup, homm4:game-process, homm4:battles (and sub-sections).

Cards are *instances* numbered ``0..N-1`` (`Homm4State.card_defs[i]` is instance ``i``'s card
id in the pool, `Homm4State.card_owner[i]` the seat whose deck it came from). Every instance
is in exactly one zone at all times (the invariant the random-playout test checks):

* a player's ``deck``, ``discard``, ``hand``, ``risk``, ``free_town`` or
  ``starting_stack``;
* an Army's ``cards`` (units and heroes, top first) or a hero's `Inventory`;
* a `Site`'s ``card`` (the card that identified it), ``guard`` or ``garrison``;
* a `Guard` being formed (`ChipIn.guard`) or a card being played in the open
  (`Homm4State.limbo`, e.g. a spell card cast in battle until the battle ends);
* a dead Hero face down (`Homm4State.fallen_heroes`, advanced rule; its inventory stays
  in `Homm4State.inventories`), or one killed in the battle being fought
  (`Battle.dead_heroes`).

Discarded cards always go to the discard pile of the seat whose deck they came from.
Movement Points are kept in half points (``mp2``) so that ½-cost terrain (advanced rules)
needs no floats.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.model import GameState
from engine.homm4.hexes import Hex
from engine.homm4.options import Homm4Options


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Player(_M):
    """One seat's cards and per-turn flags (homm4:setup, homm4:start-of-the-game).

    ``deck[0]`` is the top of the draw deck. ``free_town`` is the Town card set aside at
    setup until it identifies a Town icon. ``starting_stack`` holds the other Starting
    Forces (Hero on top) until the seat places its first Army token.
    """

    seat: int
    deck: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    hand: list[int] = Field(default_factory=list)
    risk: list[int] = Field(default_factory=list)
    free_town: int | None = None
    starting_stack: list[int] = Field(default_factory=list)
    eliminated: bool = False


class Inventory(_M):
    """Cards under a Hero card (homm4:heroes-levels-skills-and-spells.hero-level).

    ``artifacts`` maps artifact instance -> the slots it fills. ``mana_spent`` counts mana
    used in the current battle; ``cast_this_turn`` marks an adventure spell cast this turn.
    ``advanced`` lists the Basic/Advanced Primary Skill cards turned over to their Advanced
    side (a B/A card of the hero's starting primary always shows Advanced; see
    `engine.homm4.heroes`).
    """

    skills: list[int] = Field(default_factory=list)
    advanced: list[int] = Field(default_factory=list)
    spells: list[int] = Field(default_factory=list)
    artifacts: dict[int, list[str]] = Field(default_factory=dict)
    mana_spent: int = 0
    cast_this_turn: bool = False


class Army(_M):
    """An Army Stack and its token on the board (homm4:movement-phase.managing-armies).

    ``cards`` is top first: a hero on top if there is one, else the unit with the most
    Movement Points. ``mp2`` is the Movement Points left this turn, in half points.
    ``done`` marks an army whose movement has ended (merged, exchanged, fought).
    ``moved`` marks an army that has moved this turn (it may no longer split);
    ``sight_bonus`` is this turn's extra Sight Radius from an adventure spell.
    """

    id: int
    owner: int
    token: int
    hex: Hex
    cards: list[int]
    mp2: int = 0
    done: bool = False
    moved: bool = False
    sight_bonus: int = 0


class Site(_M):
    """A Town, Creature Dwelling or Object icon printed on the board.

    Attributes:
        kind: ``town``, ``dwelling`` or ``object``.
        card: the instance that identified it (Town / Unit / Object or Artifact card), or
            None while unidentified (or after its Artifact was taken: ``spent``).
        free_town: identified with a "free" Town card (no Guard, homm4:movement-phase.towns).
        owner: the seat that controls it (captured), or None.
        level: Town level 1-4 (towns only).
        guard: the Guard Stack's instances, top first (homm4:chipping-in-for-the-guard).
        guard_player: the seat that controls the Guard Stack in battle.
        garrison: Unit / Hero instances placed under a Town card (homm4:purchase-phase).
        upgraded_turn: the turn number in which the town was last upgraded.
        spent: an Artifact icon whose Artifact has been taken.
        declined: seats that passed on identifying it this turn (not offered again).
        entrance: the pair number (the coin) of an underground entrance on this Object
            icon, or None (homm4:terrain-map-sections-with-underground).
        found: an entrance that has been found (its Guard chipped in); Armies travel
            from it to its pair.
        sold_to: Resource Trading: the seat using this Object's bonus while it is "sold",
            or None (homm4:advanced-rules.resource-trading).
        sold_turn: the turn number in which it was sold (it returns at the end of its
            controller's next turn).
    """

    id: int
    kind: Literal["town", "dwelling", "object"]
    hex: Hex
    card: int | None = None
    free_town: bool = False
    owner: int | None = None
    level: int = 1
    guard: list[int] = Field(default_factory=list)
    guard_player: int | None = None
    garrison: list[int] = Field(default_factory=list)
    upgraded_turn: int | None = None
    spent: bool = False
    declined: list[int] = Field(default_factory=list)
    entrance: int | None = None
    found: bool = False
    sold_to: int | None = None
    sold_turn: int | None = None


class PlacedSection(_M):
    """A Terrain Map Section on the board: which one, where (macro slot), turned how."""

    section: str
    slot: Hex
    rotation: int = Field(ge=0, le=5)


# ----------------------------------------------------------------------- battle
class Support(_M):
    """A pending Support bonus (homm4:battles.making-support): +``value`` on the supported
    creature's next attack, valid only against targets the supporter could attack itself.
    """

    supporter: int
    value: int
    can_hit_back_line: bool
    can_hit_front_line: bool = True
    can_hit_walls: bool = False


class StatMod(_M):
    """A battle-long modifier from a spell: ``stat`` += ``amount`` (``morale`` and ``luck``
    only with those advanced rules)."""

    stat: Literal["melee", "ranged", "defense", "morale", "luck"]
    amount: int
    source: int


class Creature(_M):
    """A Creature or Creature Stack in battle (homm4:battles.tactical-deployment).

    ``cards`` is top first; a hero is always alone. ``side`` is 0 for the Attacker and 1
    for the Defender. Flags follow the rulebook's card orientations: ``grouped`` (Swarm),
    ``defending`` (Protect), ``countered`` (counterattacked this Round). Morale (advanced
    rule): ``morale_extra`` a second action still owed this Round, ``demoralized`` no
    attack at all this Round.
    """

    id: int
    side: Literal[0, 1]
    cards: list[int]
    line: Literal["melee", "ranged"]
    army: int | None = None
    acted: bool = False
    attacks_left: int = 0
    grouped: bool = False
    defending: bool = False
    countered: bool = False
    supports: list[Support] = Field(default_factory=list)
    mods: list[StatMod] = Field(default_factory=list)
    killed: list[int] = Field(default_factory=list)
    morale_extra: bool = False
    demoralized: bool = False


class AttackRecord(_M):
    """The last attack, for the battlefield picture and the log."""

    attacker: int
    targets: list[int]
    mode: Literal["melee", "ranged", "spell", "counter"]
    attack_value: int
    roll: int
    total: int
    defense: int
    killed: int
    walls: bool = False


class Fallen(_M):
    """A card killed in the current battle: which side, and where it came from (``army``
    id for an Army, else ``zone`` ``guard`` / ``garrison`` of the battle's site). Used by
    resurrecting Spells and the ``recover`` effect."""

    card: int
    side: Literal[0, 1]
    army: int | None = None
    zone: Literal["army", "guard", "garrison"] = "army"


class Battle(_M):
    """A battle in progress (homm4:battles).

    Attributes:
        hex: where it is fought. site: the Site fought over, if any.
        attacker / defender: the seats commanding each side (a Guard's controller for a
            Guard Stack).
        defender_kind: ``army`` (open field), ``guard`` or ``town`` (walls apply).
        attacker_armies / defender_armies: the Army ids involved (none for a Guard;
            a town's garrison fights from ``site``).
        walls: ``none`` outside towns; else ``intact``, ``breach`` or ``sack``.
        stage: ``deploy`` (side ``to_act`` deploys), ``fight``, ``counter`` (the side
            ``to_act`` decides a counterattack), ``fill_front`` (side ``to_act`` must move
            a creature forward), ``retreat`` / ``surrender_offer`` / ``surrender_answer``
            at the end of a Round.
        round / phase: Round number (from 1) and Phase 1-10.
        to_act: the side whose decision is awaited.
        surrender_cards: cards offered in a pending surrender offer.
        counter_pending: (counterattacker creature id, attacker creature id, mode).
        turn_side: the side whose creatures act in the current Phase (``to_act`` may be
            the other side while it decides a counterattack or fills its front line).
        acting: a creature in the middle of its Phase (a second attack still to make:
            strikes/shoots twice); ``acting_mode`` the mode of those attacks.
        counter_queue: further counterattacks waiting after ``counter_pending``
            (a multi-target attack), same shape.
        fallen: cards killed in this battle (for resurrection and ``recover``).
        spells_cast: Spell card -> the hero who cast it in this battle (the card waits
            in ``Homm4State.limbo`` until the battle ends).
        surrender_pay: the Hand cards named by a pending surrender offer (empty: the
            engine chooses them by `payment.auto_pay` on acceptance). Never shown.
        morale_round: the Round whose Morale roll has been made (advanced rule).
        morale_roll: that Round's Morale value (the die), or None when no Creature had
            Morale other than 0.
        potions_used: Heroes whose Potion of Immortality is used up in this battle.
        dead_heroes: Heroes killed in this battle under the Resurrecting Fallen Heroes
            rule, face down until the battle ends.
    """

    hex: Hex
    site: int | None = None
    attacker: int
    defender: int
    defender_kind: Literal["army", "guard", "town"]
    attacker_armies: list[int] = Field(default_factory=list)
    defender_armies: list[int] = Field(default_factory=list)
    walls: Literal["none", "intact", "breach", "sack"] = "none"
    stage: Literal[
        "deploy",
        "fight",
        "counter",
        "fill_front",
        "retreat",
        "surrender_offer",
        "surrender_answer",
    ] = "deploy"
    round: int = 1
    phase: int = 1
    to_act: Literal[0, 1] = 0
    creatures: list[Creature] = Field(default_factory=list)
    reserve: list[int] = Field(default_factory=list)
    next_creature: int = 1
    surrender_cards: int = 0
    counter_pending: tuple[int, int, str] | None = None
    last_attack: AttackRecord | None = None
    turn_side: Literal[0, 1] = 0
    acting: int | None = None
    acting_mode: Literal["melee", "ranged", "spell"] | None = None
    counter_queue: list[tuple[int, int, str]] = Field(default_factory=list)
    fallen: list[Fallen] = Field(default_factory=list)
    spells_cast: dict[int, int] = Field(default_factory=dict)
    surrender_pay: list[int] = Field(default_factory=list)
    morale_round: int = 0
    morale_roll: int | None = None
    potions_used: list[int] = Field(default_factory=list)
    dead_heroes: list[tuple[int, int | None]] = Field(default_factory=list)


# ---------------------------------------------------------------- interruptions
class ScoutOffer(_M):
    """A scouted, unidentified site waiting to be identified (homm4:movement-phase.scouting-terrain).

    ``scout`` found it; ``offeree`` is asked now (the scout first, then clockwise for
    stolen intelligence); ``asked`` are the seats already asked.
    """

    kind: Literal["scout"] = "scout"
    site: int
    scout: int
    offeree: int
    asked: list[int] = Field(default_factory=list)


class ChipIn(_M):
    """A Guard being formed (homm4:chipping-in-for-the-guard); waiting for the Guard
    Player to reinforce it from Hand or Risk Stack."""

    kind: Literal["chip_in"] = "chip_in"
    site: int
    identifier: int
    guard_player: int
    guard: list[int]


class SkillAward(_M):
    """After a won battle, each surviving hero who fought may learn one Skill card
    (homm4:heroes-levels-skills-and-spells.hero-level)."""

    kind: Literal["skill_award"] = "skill_award"
    seat: int
    heroes: list[int]


class ArtifactRoom(_M):
    """A captured Artifact that fits no free slot: the owner discards one to make room."""

    kind: Literal["artifact_room"] = "artifact_room"
    seat: int
    hero: int
    artifact: int


Interrupt = Annotated[ScoutOffer | ChipIn | SkillAward | ArtifactRoom, Field(discriminator="kind")]


class FallenHero(_M):
    """A dead Hero, face down with its inventory (homm4:advanced-rules.resurrecting-fallen-heroes).

    ``seat`` controlled it; ``army`` is the friendly Army carrying it to a Town, or None
    while it lies on ``hex`` under an Object token numbered ``token``.
    """

    hero: int
    seat: int
    hex: Hex
    army: int | None = None
    token: int = 0


class LastMove(_M):
    """The last movement, for the board picture: the army and the hexes it crossed."""

    army: int
    owner: int
    path: list[Hex]


class Homm4State(GameState):
    """The whole homm4 game (see the module docstring for zones and units).

    ``phase``: ``develop`` (Pre-developed Heroes: each seat chooses its starting Heroes'
    cards from its own deck, `to_develop`), ``assemble`` (board being built, manual
    assembly), ``entrances`` (underground with manual assembly: the seats place the
    entrance coins in turn order, from ``setup_first``), ``setup`` (each seat in turn
    chooses its Risk Stack then places its Army token), ``purchase``, ``movement``,
    ``closing``, ``over``. The Income Phase is applied automatically at the start of a turn.
    ``interrupts`` is a queue: the first entry is being decided; a `Battle` in ``battle``
    takes precedence over the queue. ``fallen_heroes`` are dead Heroes waiting for
    resurrection (advanced rule); ``next_token`` numbers the Object tokens that mark them.
    ``to_develop`` lists the ``(seat, Hero)`` pairs still to be developed, each seat's
    Heroes top first (homm4:game-variants.pre-developed-heroes), and ``developed`` the
    Heroes already given their cards; ``setup_first`` is the
    seat that sets up first and plays first (set when the board is assembled).
    """

    ruleset: Literal["homm4"] = "homm4"
    options: Homm4Options
    card_defs: list[str]
    card_owner: list[int]
    players_state: list[Player]
    sections: list[PlacedSection] = Field(default_factory=list)
    section_pile: list[str] = Field(default_factory=list)
    label_origin: tuple[int, int] = (0, 0)
    sites: list[Site] = Field(default_factory=list)
    armies: list[Army] = Field(default_factory=list)
    next_army_id: int = 1
    inventories: dict[int, Inventory] = Field(default_factory=dict)
    limbo: list[int] = Field(default_factory=list)
    phase: Literal[
        "develop", "assemble", "entrances", "setup", "purchase", "movement", "closing", "over"
    ] = "assemble"
    active: int = 0
    turn: int = 0
    round: int = 0
    setup_step: Literal["risk", "army"] = "risk"
    setup_done: list[int] = Field(default_factory=list)
    interrupts: list[Interrupt] = Field(default_factory=list)
    battle: Battle | None = None
    last_move: LastMove | None = None
    winners: list[int] = Field(default_factory=list)
    fallen_heroes: list[FallenHero] = Field(default_factory=list)
    next_token: int = 1
    to_develop: list[tuple[int, int]] = Field(default_factory=list)
    developed: list[int] = Field(default_factory=list)
    setup_first: int = 0

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Homm4State:
        """Return an independent copy through the canonical JSON.

        `Ruleset.apply` copies the state before every command (``model_copy(deep=True)``
        calls this); the JSON round trip is exact (the simulator checks it after every
        command) and several times faster than `copy.deepcopy` on this many small models.
        """
        return type(self).model_validate_json(self.model_dump_json())
