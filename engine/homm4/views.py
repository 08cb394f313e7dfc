"""What a seat, or everyone, may see of a homm4 game: the models rendering and the bot read.

Rule section: homm4:card-types (which cards are face up). Face-up cards (Army Stacks,
Guard Stacks, garrisons, Town/Dwelling/Object cards on the table, discard piles, the free
Town card, inventories) are public. Hands, Risk Stacks and draw decks are private: the
public view has only their sizes; `SeatView` adds the seat's own Hand and Risk Stack.

Every card appears as a `CardRef`: its instance number (what commands accept) and its
card id in the pool (look up name, stats and text with `engine.homm4.cards.load_card_pool`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core.model import Decision, Result


class _V(BaseModel):
    model_config = ConfigDict(frozen=True)


class CardRef(_V):
    """One card instance: ``id`` (``#17`` in commands and images) and ``card`` (pool id)."""

    id: int
    card: str


class HexView(_V):
    """One board hex: axial ``q, r``, its label (``"C4"``), terrain code, section index."""

    q: int
    r: int
    label: str
    terrain: str
    section: int
    edge: bool


class SiteView(_V):
    """A Town / Creature Dwelling / Object icon and what is known about it.

    ``status``: ``unidentified``, ``identified`` (no Guard, nobody controls it),
    ``guarded``, ``owned`` or ``spent`` (an Artifact already taken). ``entrance``: the coin
    (pair number) of an underground entrance on this Object icon — the coins are placed
    openly at set-up, so every entrance is shown, found or not —, ``entrance_found``
    whether an Army has found it (its Guard chipped in; Armies may pass to its pair);
    ``sold_to``: the seat using a sold Object's bonus (Resource Trading).
    """

    id: int
    kind: Literal["town", "dwelling", "object"]
    q: int
    r: int
    label: str
    status: Literal["unidentified", "identified", "guarded", "owned", "spent"]
    card: CardRef | None = None
    free_town: bool = False
    owner: int | None = None
    level: int | None = None
    guard: tuple[CardRef, ...] = ()
    guard_player: int | None = None
    garrison: tuple[CardRef, ...] = ()
    entrance: int | None = None
    entrance_found: bool = False
    sold_to: int | None = None


class InventoryView(_V):
    """A hero's inventory: skills, learned spells, equipped artifacts with their slots."""

    hero: CardRef
    level: int
    mana: int
    mana_spent: int
    skills: tuple[CardRef, ...] = ()
    spells: tuple[CardRef, ...] = ()
    artifacts: tuple[tuple[CardRef, tuple[str, ...]], ...] = ()


class ArmyView(_V):
    """An Army token and its (face-up) Army Stack, top card first."""

    id: int
    owner: int
    token: int
    q: int
    r: int
    label: str
    cards: tuple[CardRef, ...]
    movement: int
    mp_left: float
    done: bool
    heroes: tuple[InventoryView, ...] = ()


class FallenHeroView(_V):
    """A dead Hero lying face down (advanced rule: homm4:advanced-rules.resurrecting-fallen-heroes):
    on ``label`` under Object token ``token``, or carried by Army ``army``."""

    hero: CardRef
    seat: int
    label: str
    army: int | None
    token: int


class PlayerView(_V):
    """One seat's public summary (the strip under the board)."""

    seat: int
    name: str
    hand_size: int
    risk_size: int
    deck_size: int
    discard: tuple[CardRef, ...]
    free_town: CardRef | None
    towns: int
    armies: int
    eliminated: bool


class CreatureView(_V):
    """A Creature Stack on the battlefield with its current values (modifiers applied)."""

    id: int
    side: Literal[0, 1]
    line: Literal["melee", "ranged"]
    cards: tuple[CardRef, ...]
    hero: bool
    phase: int
    melee: int
    ranged: int
    defense: int
    acted: bool
    grouped: bool
    defending: bool
    countered: bool
    support: int


class AttackView(_V):
    """The last attack: who, at whom, value + die = total against defense, cards killed."""

    attacker: int
    targets: tuple[int, ...]
    mode: str
    attack_value: int
    roll: int
    total: int
    defense: int
    killed: int
    walls: bool


class BattleView(_V):
    """The battle in progress (homm4:battles)."""

    label: str
    attacker: int
    defender: int
    defender_kind: Literal["army", "guard", "town"]
    town: CardRef | None
    walls: Literal["none", "intact", "breach", "sack"]
    stage: str
    round: int
    phase: int
    to_act: Literal[0, 1]
    creatures: tuple[CreatureView, ...]
    last_attack: AttackView | None


class PublicView(_V):
    """Everything everyone may see. ``rules`` lists the advanced rules and variants in
    effect (`Homm4Options.summary`), ``teams`` the Team Play teams."""

    ruleset: Literal["homm4"] = "homm4"
    version: int
    players: tuple[PlayerView, ...]
    phase: str
    active: int
    turn: int
    round: int
    hexes: tuple[HexView, ...]
    sites: tuple[SiteView, ...]
    armies: tuple[ArmyView, ...]
    last_move: tuple[str, ...] = ()
    last_move_owner: int | None = None
    battle: BattleView | None = None
    pending: tuple[Decision, ...] = ()
    result: Result
    rules: tuple[str, ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()
    fallen: tuple[FallenHeroView, ...] = ()


class SeatView(PublicView):
    """The public view plus what one seat alone may see: its Hand and Risk Stack."""

    seat: int
    hand: tuple[CardRef, ...]
    risk: tuple[CardRef, ...]
