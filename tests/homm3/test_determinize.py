"""homm3: what a seat may know (issue 19): `Homm3Ruleset.information_set` and `determinize`.

Rule sections: homm3bf:battlefield-setup (decks face down, discard piles face up),
homm3turn:refresh-your-hand (a seat's draws are its own), homm3bf:adventure-mode (the
Adventure hand and set-aside cards are held face down).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from engine.core.ruleset import get_ruleset
from engine.homm3.content import load_content
from engine.homm3.state import Homm3State
from tests.core.determinize_checks import check_position, dump, play_out, positions

RULES = get_ruleset("homm3")
MODES: list[dict[str, Any]] = [
    {},
    {"mode": "adventure"},
    {"size": "large", "siege": True},
    {"mode": "adventure", "siege": True},
]


def _states(seed: int, options: dict[str, Any], every: int = 6) -> list[Homm3State]:
    found = positions(RULES, options, 2, seed, every=every, limit=400)
    return [s for s in found if isinstance(s, Homm3State)]


def _info(state: Homm3State, seat: int) -> str:
    return dump(RULES, RULES.information_set(state, seat))


@pytest.mark.parametrize(
    "options", MODES, ids=["skirmish", "adventure", "large-siege", "adv-siege"]
)
def test_every_position_passes_the_shared_checks(options: dict[str, Any]) -> None:
    """homm3bf:battlefield-setup: over computer-played games (both seats) the worlds keep
    the seat's view, have its information set, pass the audit and follow the generator."""
    checked = 0
    for seed in (1, 2):
        for state in _states(seed, options, every=8):
            for seat in (0, 1):
                check_position(RULES, state, seat, seed)
                checked += 1
    assert checked >= 8


def _kind(state: Homm3State, instance: int) -> str:
    return load_content().cards[state.cards[instance]].kind


def _combat_with_hands() -> tuple[Homm3State, int, int]:
    """A position where the other seat holds two cards and a deck with a card of the
    kind of its first hand card."""
    for seed in range(1, 9):
        for state in _states(seed, {}, every=3):
            for seat, other in ((0, 1), (1, 0)):
                them = state.player(other)
                if len(them.hand) >= 2 and any(
                    _kind(state, d) == _kind(state, them.hand[0]) for d in them.deck
                ):
                    return state, seat, other
    raise AssertionError("no position with two hand cards")


def test_permuting_hidden_cards_keeps_the_information_set() -> None:
    """homm3turn:refresh-your-hand: another seat's two hand cards swapped, its hand card
    traded with its deck's, its deck and the shared decks shuffled, two hidden cards'
    faces exchanged: the seat cannot tell, its information set is the same."""
    state, seat, other = _combat_with_hands()
    changed = state.model_copy(deep=True)
    them = changed.player(other)
    j = next(k for k, d in enumerate(them.deck) if _kind(state, d) == _kind(state, them.hand[0]))
    them.hand[0], them.deck[j] = them.deck[j], them.hand[0]
    them.hand[0], them.hand[1] = them.hand[1], them.hand[0]
    random.Random(5).shuffle(them.deck)
    random.Random(6).shuffle(changed.spell_deck)
    random.Random(7).shuffle(changed.player(seat).deck)
    a, b = them.hand[0], them.deck[0]
    if _kind(state, a) == _kind(state, b):
        changed.cards[a], changed.cards[b] = changed.cards[b], changed.cards[a]
    changed.rng.counter += 9
    changed.seed += 1
    assert dump(RULES, changed) != dump(RULES, state)
    assert RULES.view(changed, seat) == RULES.view(state, seat)
    assert _info(changed, seat) == _info(state, seat)
    assert _info(changed, other) != _info(state, other)


def test_what_the_seat_sees_changes_the_information_set() -> None:
    """homm3bf:battlefield-setup: the seat's own hand card traded with its deck's, another
    seat's hand one card larger, or its discard pile changed, is seen."""
    state, seat, other = _combat_with_hands()
    own = state.model_copy(deep=True)
    mine = own.player(seat)
    if mine.hand and mine.deck:
        mine.hand[0], mine.deck[0] = mine.deck[0], mine.hand[0]
        assert _info(own, seat) != _info(state, seat)
    larger = state.model_copy(deep=True)
    them = larger.player(other)
    them.hand.append(them.deck.pop())
    assert _info(larger, seat) != _info(state, seat)
    shown = state.model_copy(deep=True)
    them = shown.player(other)
    them.discard.append(them.hand.pop())
    assert _info(shown, seat) != _info(state, seat)


def test_the_seats_own_cards_and_the_discard_piles_stay() -> None:
    """homm3bf:battlefield-setup: the information set keeps the seat's hand and deck
    contents and every face-up card; the others' hidden cards are dealt afresh."""
    state, seat, other = _combat_with_hands()
    info = RULES.information_set(state, seat)
    assert isinstance(info, Homm3State)
    mine, had = info.player(seat), state.player(seat)
    assert [info.cards[c] for c in mine.hand] == [state.cards[c] for c in had.hand]
    assert sorted(info.cards[c] for c in mine.deck) == sorted(state.cards[c] for c in had.deck)
    for p, q in zip(info.seats, state.seats, strict=True):
        assert [info.cards[c] for c in p.discard] == [state.cards[c] for c in q.discard]
    faces = set()
    for n in range(6):
        world = RULES.determinize(info, seat, random.Random(n))
        assert isinstance(world, Homm3State)
        faces.add(tuple(world.cards[c] for c in world.player(other).hand))
    assert len(faces) > 1


def test_a_world_plays_to_its_end() -> None:
    """homm3bf:skirmish-mode.victory-condition: a random playout from a determinized world
    finishes."""
    state = _states(2, {"mode": "adventure"})[-2]
    world = check_position(RULES, state, 0, 2, worlds=1)[0]
    assert RULES.result(play_out(RULES, world, 2, 5000)).finished


@pytest.mark.parametrize("players", [2, 3])
def test_map_positions_pass_the_shared_checks(players: int) -> None:
    """homm3core:placing-and-discovering-tiles: over computer-played map games, Combats on
    the Battlefield included, every world passes the shared checks for every seat."""
    fights = 0
    for seed in (1, 2):
        for state in positions(RULES, {"mode": "map"}, players, seed, every=40, limit=700):
            assert isinstance(state, Homm3State)
            fights += state.board is not None
            for seat in range(players):
                check_position(RULES, state, seat, seed, worlds=1)
    assert fights


def test_face_down_tiles_and_pools_are_hidden() -> None:
    """homm3core:placing-and-discovering-tiles: only a face-down tile's kind shows; a Far
    tile traded between a position and a seat's pool, or two pools, keeps the
    information set, and the worlds deal them afresh."""
    state = next(
        s
        for s in positions(RULES, {"mode": "map"}, 3, 4, every=1, limit=60)
        if isinstance(s, Homm3State)
        and s.map is not None
        and any(not t.revealed and t.kind == "far" for t in s.map.tiles)
        and sum(len(p) for p in s.map.pools.values()) >= 2
    )
    assert state.map is not None
    changed = state.model_copy(deep=True)
    assert changed.map is not None
    tile = next(t for t in changed.map.tiles if not t.revealed and t.kind == "far")
    pool = next(p for _, p in sorted(changed.map.pools.items()) if p)
    tile.tile, pool[0] = pool[0], tile.tile
    assert dump(RULES, changed) != dump(RULES, state)
    assert RULES.view(changed, 0) == RULES.view(state, 0)
    assert _info(changed, 0) == _info(state, 0)
    info = RULES.information_set(state, 0)
    deals = set()
    for n in range(6):
        world = RULES.determinize(info, 0, random.Random(n))
        assert isinstance(world, Homm3State) and world.map is not None
        deals.add(tuple(t.tile for t in world.map.tiles if not t.revealed))
    assert len(deals) > 1
