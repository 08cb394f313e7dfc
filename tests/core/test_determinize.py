"""`Ruleset.information_set` and `Ruleset.determinize` (issue 19): the defaults, the
helpers of `engine.core.hidden`, and the shared checks over every shipped ruleset and
seat count (each game's own test, tests/<game>/test_determinize.py, goes further)."""

from __future__ import annotations

import random

import pytest

import engine.rulesets
from engine.core.errors import InvalidInput
from engine.core.hidden import (
    CANONICAL_SEED,
    canonical_deal,
    contents,
    deal,
    group_slots,
    random_deal,
    slots_of,
)
from engine.core.ruleset import get_ruleset
from tests.core.determinize_checks import check_position, dump, positions
from tests.core.test_ruleset import RACE, RaceOptions


def test_the_defaults_hide_only_the_seed_and_the_generator() -> None:
    """A game without hidden cards (the dice race): the information set is the state with
    the canonical seed and generator; a determinization reseeds it from the given
    generator, the same one giving the same world."""
    state, _ = RACE.new_game(RaceOptions(goal=30), 3, seed=99)
    for _ in range(4):
        state, _ = RACE.apply(state, state.active, {"type": "roll"})
    before = dump(RACE, state)
    info = RACE.information_set(state, 1)
    assert dump(RACE, state) == before
    assert (info.seed, info.rng.seed, info.rng.counter) == (CANONICAL_SEED, 0, 0)
    assert info.scores == state.scores and info.version == state.version
    other = state.model_copy(deep=True)
    other.rng.counter += 7
    other.seed = 5
    assert dump(RACE, RACE.information_set(other, 1)) == dump(RACE, info)
    one = RACE.determinize(info, 1, random.Random(3))
    two = RACE.determinize(info, 1, random.Random(3))
    three = RACE.determinize(info, 1, random.Random(4))
    assert dump(RACE, one) == dump(RACE, two) != dump(RACE, three)
    assert one.rng.seed == one.seed and one.rng.counter == 0 and one.scores == state.scores
    assert dump(RACE, info) == dump(RACE, RACE.information_set(state, 1))


@pytest.mark.parametrize("seat", [-1, 3])
def test_a_seat_not_in_the_game_is_refused(seat: int) -> None:
    """Bad input: a clear message naming the seats, nothing changed."""
    state, _ = RACE.new_game(RaceOptions(), 3, seed=1)
    with pytest.raises(InvalidInput, match="no seat"):
        RACE.information_set(state, seat)
    with pytest.raises(InvalidInput, match="no seat"):
        RACE.determinize(state, seat, random.Random(1))


def test_the_slot_helpers_deal_sorted_or_shuffled_within_groups() -> None:
    """`canonical_deal` sorts a pile set whatever its arrangement, `random_deal` keeps its
    sizes and items, `group_slots` keeps keys apart, `deal` refuses a wrong count."""
    hand, deck = [9, 2], [7, 4, 1]
    slots = slots_of(hand) + slots_of(deck)
    canonical_deal(slots)
    assert (hand, deck) == ([1, 2], [4, 7, 9])
    random_deal(slots, random.Random(2))
    assert sorted(hand + deck) == [1, 2, 4, 7, 9] and (len(hand), len(deck)) == (2, 3)
    odd, even = group_slots(slots, key=lambda n: n % 2 == 0)
    assert sorted(contents(odd)) == [1, 7, 9] and sorted(contents(even)) == [2, 4]
    with pytest.raises(ValueError, match="cannot fill"):
        deal(slots, [1, 2])


def _cases() -> list[tuple[str, int]]:
    found = []
    for ruleset_id in engine.rulesets.SHIPPED:
        rules = get_ruleset(ruleset_id)
        for players in range(rules.min_players, min(rules.max_players, 4) + 1):
            try:
                rules.new_game(rules.parse_options({}), players, 1)
            except InvalidInput:  # homm3's default modes are two-player games
                continue
            found.append((ruleset_id, players))
    return found


@pytest.mark.parametrize(("ruleset_id", "players"), _cases())
def test_every_ruleset_passes_the_shared_checks(ruleset_id: str, players: int) -> None:
    """At the start and in the opening of a computer-played game, for every seat: each
    world keeps the seat's view and information set, passes the audit, offers legal
    commands and follows the generator; the information set never keeps the seed."""
    rules = get_ruleset(ruleset_id)
    for state in positions(rules, {}, players, seed=11, every=12, limit=60):
        for seat in range(players):
            info = rules.information_set(state, seat)
            assert (info.seed, info.rng.seed, info.rng.counter) == (CANONICAL_SEED, 0, 0)
            check_position(rules, state, seat, seed=11, worlds=1)
