"""What one seat may know of a homm4 game: its information set and the worlds behind it.

Rule sections: homm4:card-types (Hands, Risk Stacks and draw decks are face down; every
other card is face up), homm4:setup (a draw deck's order is unknown to everyone, its owner
included; the Terrain Map Sections are shuffled face down), homm4:start-of-the-game (the
section on top of the pile is revealed to be attached during manual assembly; the Starting
Forces are announced openly), homm4:battles.surrender (the cards a surrender offer would pay
are not named).

Hidden from ``seat``: every draw deck (order and, for another seat's deck, which of its
cards), the other seats' Hands and Risk Stacks, the Terrain Map Sections still face down,
the Hand cards another seat's surrender offer names, and the seed and generator. The
hidden card instances are grouped by the seat whose deck they came from (`card_owner`:
a card only ever lies in its owner's deck, Hand, Risk Stack or discard pile), and within
a group the instances are dealt back sorted (information set) or shuffled
(determinization). For another seat's cards the instance numbers carry no knowledge
either: their pool card ids are dealt back sorted over the sorted instance numbers. A
seat knows which of its own cards are in its own deck (it may choose among them when
developing Heroes), so its own cards keep their ids.
"""

from __future__ import annotations

import random

from engine.core.hidden import (
    Slot,
    canonical_deal,
    canonical_generator,
    contents,
    fresh_generator,
    group_slots,
    random_deal,
    slots_of,
)
from engine.homm4 import board
from engine.homm4.state import Homm4State


def hidden_card_slots(state: Homm4State, seat: int) -> list[Slot]:
    """Every position of a card instance hidden from ``seat``: each draw deck, the other
    seats' Hands and Risk Stacks (homm4:card-types), in seat order."""
    slots: list[Slot] = []
    for player in state.players_state:
        slots += slots_of(player.deck)
        if player.seat != seat:
            slots += slots_of(player.hand)
            slots += slots_of(player.risk)
    return slots


def _card_groups(state: Homm4State, seat: int) -> list[list[Slot]]:
    """The hidden slots grouped by the owner of the card each holds (homm4:setup)."""
    return group_slots(hidden_card_slots(state, seat), key=lambda i: state.card_owner[i])


def _hide_surrender_pay(state: Homm4State, seat: int) -> None:
    """Forget the Hand cards a pending surrender offer names unless they are ``seat``'s own:
    an empty list lets the engine choose them on acceptance (homm4:battles.surrender)."""
    battle = state.battle
    if battle is None or not battle.surrender_pay:
        return
    own = set(state.players_state[seat].hand)
    if not set(battle.surrender_pay) <= own:
        battle.surrender_pay = []


def _section_split(state: Homm4State) -> tuple[list[str], list[str], int]:
    """The face-down part of the section pile, as (revealed top, unknown surface sections,
    number of unknown underground sections in the pile)."""
    pile = state.section_pile
    known = pile[:1] if state.phase == "assemble" else []
    rest = pile[len(known) :]
    under = sum(1 for s in rest if board.is_underground(s))
    return known, rest, under


def _unused_sections(state: Homm4State, known: list[str]) -> tuple[list[str], list[str]]:
    """The sections neither on the board nor revealed (sorted surface, sorted underground):
    the pool the face-down pile was shuffled from (homm4:setup)."""
    taken = {p.section for p in state.sections} | set(known)
    every = board.map_data().sections
    free = sorted(k for k in every if k not in taken)
    return [k for k in free if not every[k].underground], [k for k in free if every[k].underground]


def _canonical_sections(state: Homm4State) -> None:
    known, rest, under = _section_split(state)
    if not rest:
        return
    surface, below = _unused_sections(state, known)
    state.section_pile = known + sorted(surface[: len(rest) - under] + below[:under])


def _random_sections(state: Homm4State, rng: random.Random) -> None:
    known, rest, under = _section_split(state)
    if not rest:
        return
    surface, below = _unused_sections(state, known)
    top = rng.sample(surface, len(rest) - under)
    deep = rng.sample(below, under)
    pile = top + deep
    if state.options.assembly == "manual":
        rng.shuffle(pile)
    state.section_pile = known + pile


def information_set(state: Homm4State, seat: int) -> Homm4State:
    """``state`` as ``seat`` may know it: hidden cards dealt back sorted per owner, another
    seat's hidden cards relabelled in sorted order, the face-down sections the first of the
    unused ones, a surrender payment of another seat forgotten, and a canonical generator
    (see the module docstring; homm4:card-types). Pure: returns a copy."""
    info = state.model_copy(deep=True)
    for group in _card_groups(info, seat):
        instances = sorted(contents(group))
        if info.card_owner[instances[0]] != seat:
            defs = sorted(info.card_defs[i] for i in instances)
            for instance, card_id in zip(instances, defs, strict=True):
                info.card_defs[instance] = card_id
        canonical_deal(group)
    _canonical_sections(info)
    _hide_surrender_pay(info, seat)
    canonical_generator(info)
    return info


def determinize(info: Homm4State, seat: int, rng: random.Random) -> Homm4State:
    """One full game consistent with ``info`` (from `information_set` for ``seat``): the
    hidden cards of each owner shuffled over that owner's hidden slots, the face-down
    sections drawn afresh from the unused ones, and a fresh generator, all from ``rng``.
    Pure: returns a copy (``rng`` advances). Rule: homm4:card-types."""
    world = info.model_copy(deep=True)
    for group in _card_groups(world, seat):
        random_deal(group, rng)
    _random_sections(world, rng)
    _hide_surrender_pay(world, seat)
    fresh_generator(world, rng)
    return world
