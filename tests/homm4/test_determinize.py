"""homm4: what a seat may know (issue 19): `Homm4Ruleset.information_set` and `determinize`.

Rule sections: homm4:card-types (Hands, Risk Stacks and draw decks are face down),
homm4:setup (deck orders and the face-down Terrain Map Sections are unknown to all),
homm4:start-of-the-game (the top section is revealed to be attached).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from engine.core.ruleset import get_ruleset
from engine.homm4.state import Homm4State
from tests.core.determinize_checks import check_position, dump, play_out, positions

RULES = get_ruleset("homm4")
ADVANCED: dict[str, Any] = {
    "assembly": "manual",
    "underground": 2,
    "diplomacy": True,
    "resurrection": True,
    "morale": True,
}


def _states(players: int, seed: int, options: dict[str, Any] | None = None) -> list[Homm4State]:
    found = positions(RULES, options or {}, players, seed, every=9, limit=400)
    return [s for s in found if isinstance(s, Homm4State)]


def _info(state: Homm4State, seat: int) -> str:
    return dump(RULES, RULES.information_set(state, seat))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", [{}, ADVANCED], ids=["base", "advanced"])
def test_every_position_passes_the_shared_checks(players: int, options: dict[str, Any]) -> None:
    """homm4:card-types: over computer-played games the worlds keep the seat's view, have
    its information set, pass the audit and are a function of the generator."""
    checked = 0
    for seed in (1, 2) if players < 5 else (1,):
        for state in _states(players, seed, options):
            for seat in sorted({0, players // 2, players - 1}):
                check_position(RULES, state, seat, seed)
                checked += 1
    assert checked >= 3


def _with_hidden_hand(players: int) -> tuple[Homm4State, int, int]:
    """A position where seat ``other`` holds two Hand cards and a deck, for ``seat``."""
    for seed in (1, 2, 3, 4):
        for state in _states(players, seed):
            for other in range(1, players):
                player = state.players_state[other]
                if len(player.hand) >= 2 and len(player.deck) >= 2:
                    return state, 0, other
    raise AssertionError("no position with a Hand of two cards")


@pytest.mark.parametrize("players", [2, 4])
def test_permuting_hidden_cards_keeps_the_information_set(players: int) -> None:
    """homm4:card-types: another seat's Hand cards traded with its deck's, its deck
    shuffled, every deck's order changed and two of its hidden cards relabelled: the
    seat cannot tell, and its information set is the same."""
    state, seat, other = _with_hidden_hand(players)
    changed = state.model_copy(deep=True)
    them = changed.players_state[other]
    them.hand[0], them.deck[0] = them.deck[0], them.hand[0]
    them.hand[0], them.hand[1] = them.hand[1], them.hand[0]
    random.Random(7).shuffle(them.deck)
    changed.players_state[seat].deck.reverse()
    a, b = them.hand[0], them.deck[-1]
    changed.card_defs[a], changed.card_defs[b] = changed.card_defs[b], changed.card_defs[a]
    changed.rng.seed += 1
    changed.seed += 1
    assert dump(RULES, changed) != dump(RULES, state)
    assert RULES.view(changed, seat) == RULES.view(state, seat)
    assert _info(changed, seat) == _info(state, seat)
    # the other seat sees its own Hand: for it the two states differ
    if state.card_defs[a] != state.card_defs[b] or them.hand != state.players_state[other].hand:
        assert _info(changed, other) != _info(state, other)


@pytest.mark.parametrize("players", [2, 3])
def test_what_the_seat_sees_changes_the_information_set(players: int) -> None:
    """homm4:card-types: a card of the seat's own Hand traded with its deck, or another
    seat's Hand one card larger, is seen, and changes the information set."""
    state, seat, other = _with_hidden_hand(players)
    own = state.model_copy(deep=True)
    mine = own.players_state[seat]
    assert mine.hand and mine.deck
    mine.hand[0], mine.deck[0] = mine.deck[0], mine.hand[0]
    assert _info(own, seat) != _info(state, seat)
    larger = state.model_copy(deep=True)
    them = larger.players_state[other]
    them.hand.append(them.deck.pop())
    assert _info(larger, seat) != _info(state, seat)


def test_the_information_set_hides_the_order_and_the_seed() -> None:
    """homm4:setup: the information set keeps the seat's own Hand and the sizes of every
    zone, and sorts the decks; its generator is the canonical one."""
    state, seat, _ = _with_hidden_hand(2)
    info = RULES.information_set(state, seat)
    assert isinstance(info, Homm4State)
    assert info.players_state[seat].hand == state.players_state[seat].hand
    for got, had in zip(info.players_state, state.players_state, strict=True):
        assert (len(got.deck), len(got.hand), len(got.risk)) == (
            len(had.deck),
            len(had.hand),
            len(had.risk),
        )
        assert got.deck == sorted(got.deck)
    assert (info.seed, info.rng.seed, info.rng.counter) == (0, 0, 0)
    worlds = {dump(RULES, RULES.determinize(info, seat, random.Random(n))) for n in range(4)}
    assert len(worlds) == 4


def test_the_revealed_section_stays_on_top() -> None:
    """homm4:start-of-the-game: during manual assembly the top section is revealed to be
    attached; the rest of the face-down pile is drawn afresh from the unused sections."""
    state, _ = RULES.new_game(RULES.parse_options({"assembly": "manual"}), 2, 3)
    assert state.phase == "assemble" and len(state.section_pile) >= 3
    info = RULES.information_set(state, 1)
    assert isinstance(info, Homm4State)
    assert info.section_pile[0] == state.section_pile[0]
    assert len(info.section_pile) == len(state.section_pile)
    tops = set()
    for n in range(6):
        world = RULES.determinize(info, 1, random.Random(n))
        assert isinstance(world, Homm4State)
        assert world.section_pile[0] == state.section_pile[0]
        tops.add(tuple(world.section_pile[1:]))
    assert len(tops) > 1


@pytest.mark.parametrize("players", [2, 3])
def test_a_world_plays_to_its_end(players: int) -> None:
    """homm4:victory: a random playout from a determinized world finishes."""
    state = _states(players, 2)[-2]
    world = check_position(RULES, state, 0, 2, worlds=1)[0]
    end = play_out(RULES, world, 2, 5000)
    assert RULES.result(end).finished
