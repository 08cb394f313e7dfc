"""Helpers for `Ruleset.information_set` and `Ruleset.determinize`: what a seat may know.

A ruleset lists the places of a state that hold cards hidden from a seat as *slots*
(``(pile, index)``: one position of a mutable list inside a working copy of the state),
grouped so that cards only move between slots where the rules could have put them (a
card of Red's deck never lands in Blue's Hand). `canonical_deal` refills each group in
sorted order (the information set: a function of what the seat sees), `random_deal`
refills it in a uniformly random order (one determinization). Every helper mutates the
lists it is given, so callers work on a copy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from typing import Any, TypeVar

from engine.core.model import GameState
from engine.core.rng import Rng

T = TypeVar("T")

Slot = tuple[MutableSequence[Any], int]
"""One hidden position: a mutable list (a pile inside a state copy) and an index in it."""

CANONICAL_SEED = 0
"""The generator seed of every information set: a seat never knows the game's seed or the
generator's counter (future dice and shuffles are hidden), so all information sets share
this one."""


def slots_of(pile: MutableSequence[Any]) -> list[Slot]:
    """Every position of ``pile``, in order (the whole pile is hidden)."""
    return [(pile, index) for index in range(len(pile))]


def contents(slots: Sequence[Slot]) -> list[Any]:
    """The items in ``slots``, in slot order."""
    return [pile[index] for pile, index in slots]


def deal(slots: Sequence[Slot], items: Sequence[Any]) -> None:
    """Put ``items`` into ``slots``, one each, in order.

    :raises ValueError: when there are not exactly as many items as slots.
    """
    if len(items) != len(slots):
        raise ValueError(f"{len(items)} items cannot fill {len(slots)} hidden slots")
    for (pile, index), item in zip(slots, items, strict=True):
        pile[index] = item


def canonical_deal(slots: Sequence[Slot], key: Callable[[Any], Any] | None = None) -> None:
    """Refill ``slots`` with their own items sorted (by ``key`` when given): the same
    result for every arrangement of the same items."""
    deal(slots, sorted(contents(slots), key=key))


def random_deal(slots: Sequence[Slot], rng: random.Random) -> None:
    """Refill ``slots`` with their own items in a uniformly random order drawn from ``rng``."""
    items = contents(slots)
    rng.shuffle(items)
    deal(slots, items)


def group_slots(slots: Iterable[Slot], key: Callable[[Any], Any]) -> list[list[Slot]]:
    """Split ``slots`` by ``key`` of the item each holds (cards may only trade places with
    cards of the same key), groups ordered by key, slots kept in order within a group."""
    groups: dict[Any, list[Slot]] = {}
    for slot in slots:
        groups.setdefault(key(slot[0][slot[1]]), []).append(slot)
    return [groups[k] for k in sorted(groups)]


def canonical_generator(state: GameState) -> None:
    """Replace ``state``'s seed and generator by `CANONICAL_SEED` at counter 0 (the seat
    knows neither the seed nor the future dice)."""
    state.seed = CANONICAL_SEED
    state.rng = Rng(seed=CANONICAL_SEED, counter=0)


def fresh_generator(state: GameState, rng: random.Random) -> None:
    """Give ``state`` a new seed drawn from ``rng`` (63 bits), generator at counter 0."""
    seed = rng.getrandbits(63)
    state.seed = seed
    state.rng = Rng(seed=seed, counter=0)
