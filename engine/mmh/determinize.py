"""What one seat may know of an mmh game: its information set and the worlds behind it.

Rule sections: mmh:game-setup.preparing-card-decks (every deck is shuffled face down; the
week stack holds a number of cards of each moon phase, the rest go back to the box),
mmh:game-setup.setting-up-the-game-board (the map tiles are shuffled; the next one is
turned up to be placed), mmh:other-game-rules.using-card-effects (a hero's scrolls are
held face down; cards drawn to keep one are seen by their drawer only).

Hidden from ``seat`` (`engine.mmh.views` lists what is public): the order and contents of
the scroll, artefact and treasure decks and of their discard piles (only sizes are shown;
a seat searching a Dragon Vein sees the three discard piles), every seat's might and
magic skill decks and discard piles, the scrolls of the other seats' heroes, the cards
another seat has drawn to keep one, the week cards still in the stack or back in the box
(per moon phase), the map tiles still face down, the order of the encounter box, and the
seed and generator. Each kind of card is pooled with the places it could be in (a might
skill of Haven only among Haven's might deck, might discard and Haven's drawn might
cards) and dealt back sorted (information set) or shuffled (determinization).
"""

from __future__ import annotations

import random

from engine.core.hidden import (
    Slot,
    canonical_deal,
    canonical_generator,
    fresh_generator,
    random_deal,
    slots_of,
)
from engine.mmh.common import content
from engine.mmh.state import DragonVein, KeepCard, MmhState


def _keeps(state: MmhState, seat: int, pile: str) -> list[KeepCard]:
    """The other seats' draw-N-keep-1 choices from ``pile`` (their cards are hidden)."""
    return [p for p in state.queue if isinstance(p, KeepCard) and p.pile == pile and p.seat != seat]


def _searching(state: MmhState, seat: int) -> bool:
    """Whether ``seat`` is searching a Dragon Vein now (it sees the discard piles)."""
    return (
        bool(state.queue)
        and isinstance(state.queue[0], DragonVein)
        and (state.queue[0].seat == seat)
    )


def hidden_groups(state: MmhState, seat: int) -> list[list[Slot]]:
    """The slots hidden from ``seat``, one group per kind of card that may trade places
    (mmh:game-setup.preparing-card-decks), in a fixed order."""
    sees_discards = _searching(state, seat)
    groups: list[list[Slot]] = []
    for pile, deck, discard in (
        ("scroll", state.scroll_deck, state.scroll_discard),
        ("artefact", state.artefact_deck, state.artefact_discard),
        ("treasure", state.treasure_deck, state.treasure_discard),
    ):
        if sees_discards:
            groups.append(slots_of(deck))
            group: list[Slot] = []
        else:
            group = slots_of(deck) + slots_of(discard)
        if pile == "scroll":
            for record in state.seats:
                if record.seat != seat:
                    for hero in record.heroes:
                        group += slots_of(state.heroes[hero].scrolls)
        for keep in _keeps(state, seat, pile):
            group += slots_of(keep.cards)
        groups.append(group)
    for record in state.seats:
        for school, deck, discard in (
            ("might", record.might_deck, record.might_discard),
            ("magic", record.magic_deck, record.magic_discard),
        ):
            group = slots_of(deck) + slots_of(discard)
            for keep in _keeps(state, seat, school):
                if keep.seat == record.seat:
                    group += slots_of(keep.cards)
            groups.append(group)
    groups += _week_groups(state)
    groups.append(slots_of(state.encounter_box))
    shown = 1 if state.phase == "tiles" else 0
    groups.append(slots_of(state.tile_stack)[shown:])
    return [g for g in groups if g]


def _week_groups(state: MmhState) -> list[list[Slot]]:
    """The week cards still in the stack or back in the box, one group per moon phase
    (the stack is crescent cards first, then half, then full moon)."""
    moon = {w.id: w.moon for w in content().weeks}
    slots = slots_of(state.week_stack) + slots_of(state.week_box)
    groups: dict[str, list[Slot]] = {}
    for pile, index in slots:
        groups.setdefault(moon[pile[index]], []).append((pile, index))
    return [groups[m] for m in sorted(groups)]


def information_set(state: MmhState, seat: int) -> MmhState:
    """``state`` as ``seat`` may know it: every hidden group dealt back sorted, and a
    canonical generator (see the module docstring; mmh:game-setup.preparing-card-decks).
    Pure: returns a copy."""
    info = state.model_copy(deep=True)
    for group in hidden_groups(info, seat):
        canonical_deal(group)
    canonical_generator(info)
    return info


def determinize(info: MmhState, seat: int, rng: random.Random) -> MmhState:
    """One full game consistent with ``info`` (from `information_set` for ``seat``): every
    hidden group shuffled over its slots, and a fresh generator, from ``rng``. Pure:
    returns a copy (``rng`` advances). Rule: mmh:game-setup.preparing-card-decks."""
    world = info.model_copy(deep=True)
    for group in hidden_groups(world, seat):
        random_deal(group, rng)
    fresh_generator(world, rng)
    return world
