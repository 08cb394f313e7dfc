"""mmh: what a seat may know (issue 19): `MmhRuleset.information_set` and `determinize`.

Rule sections: mmh:game-setup.preparing-card-decks (decks face down, the week stack by
moon phase), mmh:game-setup.setting-up-the-game-board (the next map tile is turned up),
mmh:other-game-rules.using-card-effects (scrolls are held face down).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from engine.core.ruleset import get_ruleset
from engine.mmh.common import content
from engine.mmh.state import MmhState
from tests.core.determinize_checks import check_position, dump, play_out, positions

RULES = get_ruleset("mmh")
QUICK: dict[str, Any] = {"length": "quick"}
MANUAL: dict[str, Any] = {"length": "quick", "assembly": "manual"}


def _states(players: int, seed: int, options: dict[str, Any], every: int = 40) -> list[MmhState]:
    found = positions(RULES, options, players, seed, every=every, limit=700)
    return [s for s in found if isinstance(s, MmhState)]


def _info(state: MmhState, seat: int) -> str:
    return dump(RULES, RULES.information_set(state, seat))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", [QUICK, MANUAL], ids=["quick", "manual"])
def test_every_position_passes_the_shared_checks(players: int, options: dict[str, Any]) -> None:
    """mmh:game-setup.preparing-card-decks: over computer-played games the worlds keep the
    seat's view, have its information set, pass the audit and follow the generator."""
    checked = 0
    for seed in (1, 2):
        for state in _states(players, seed, options, every=90 if players > 2 else 50):
            for seat in sorted({0, players - 1}):
                check_position(RULES, state, seat, seed)
                checked += 1
    assert checked >= 4


def _with_scrolls(players: int) -> tuple[MmhState, int, int, str]:
    """A position where seat ``other``'s hero ``hero`` holds a scroll, for seat ``seat``."""
    for seed in range(1, 8):
        for state in _states(players, seed, QUICK, every=15):
            for hero in state.heroes.values():
                if hero.scrolls and state.scroll_deck and state.scroll_discard:
                    return state, (hero.owner + 1) % players, hero.owner, hero.id
    raise AssertionError("no position where a hero holds a scroll")


@pytest.mark.parametrize("players", [2, 3])
def test_permuting_hidden_cards_keeps_the_information_set(players: int) -> None:
    """mmh:other-game-rules.using-card-effects: another seat's held scroll traded with the
    scroll deck's, the decks, discard piles and week stack reordered (within a moon phase),
    a week card traded with the box's: the seat cannot tell, its information set is the
    same."""
    state, seat, other, hero = _with_scrolls(players)
    changed = state.model_copy(deep=True)
    held = changed.heroes[hero].scrolls
    held[0], changed.scroll_deck[0] = changed.scroll_deck[0], held[0]
    changed.scroll_deck[-1], changed.scroll_discard[0] = (
        changed.scroll_discard[0],
        changed.scroll_deck[-1],
    )
    for record in changed.seats:
        random.Random(record.seat).shuffle(record.might_deck)
        record.magic_deck.reverse()
    random.Random(3).shuffle(changed.artefact_deck)
    random.Random(4).shuffle(changed.treasure_deck)
    moons = {w.id: w.moon for w in content().weeks}
    for i, card in enumerate(changed.week_box):
        j = next((k for k, w in enumerate(changed.week_stack) if moons[w] == moons[card]), None)
        if j is not None:
            changed.week_box[i], changed.week_stack[j] = changed.week_stack[j], card
            break
    changed.encounter_box.reverse()
    changed.rng.counter += 5
    changed.seed += 1
    assert dump(RULES, changed) != dump(RULES, state)
    assert RULES.view(changed, seat) == RULES.view(state, seat)
    assert _info(changed, seat) == _info(state, seat)
    if held != state.heroes[hero].scrolls:
        assert _info(changed, other) != _info(state, other)


def test_what_the_seat_sees_changes_the_information_set() -> None:
    """mmh:other-game-rules.using-card-effects: the seat's own held scroll traded with the
    deck's is seen; so is a hero's army or a seat's gold."""
    state, _, owner, hero = _with_scrolls(2)
    own = state.model_copy(deep=True)
    held = own.heroes[hero].scrolls
    card = next(s for s in own.scroll_deck if s not in held)
    index = own.scroll_deck.index(card)
    held[0], own.scroll_deck[index] = card, held[0]
    assert RULES.view(own, owner) != RULES.view(state, owner)
    assert _info(own, owner) != _info(state, owner)
    richer = state.model_copy(deep=True)
    richer.seats[1 - owner].gold += 1
    assert _info(richer, owner) != _info(state, owner)


def test_the_turned_up_tile_stays_on_top() -> None:
    """mmh:game-setup.setting-up-the-game-board: while the map is laid by hand the next
    tile is turned up; the rest of the stack is dealt afresh."""
    state, _ = RULES.new_game(RULES.parse_options(MANUAL), 3, 5)
    assert isinstance(state, MmhState) and state.phase == "tiles"
    info = RULES.information_set(state, 1)
    assert isinstance(info, MmhState)
    assert info.tile_stack[0] == state.tile_stack[0]
    assert info.tile_stack[1:] == sorted(state.tile_stack[1:])
    rests = set()
    for n in range(5):
        world = RULES.determinize(info, 1, random.Random(n))
        assert isinstance(world, MmhState)
        assert world.tile_stack[0] == state.tile_stack[0]
        rests.add(tuple(world.tile_stack[1:]))
    assert len(rests) > 1


def test_a_world_plays_to_its_end() -> None:
    """mmh:game-end: a random playout from a determinized world finishes."""
    state = _states(2, 3, QUICK)[-2]
    world = check_position(RULES, state, 1, 3, worlds=1)[0]
    end = play_out(RULES, world, 3, 8000)
    assert RULES.result(end).finished
