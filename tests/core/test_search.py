"""The searching computer players (`engine.core.search`, issue 19): they see only their
seat's information set, choose reproducibly with an iteration budget, play legal commands,
and the levels and budgets are read and checked."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers every shipped ruleset)
from engine.core.errors import InvalidInput, NotYourDecision
from engine.core.model import Command, GameState
from engine.core.ruleset import Ruleset, get_ruleset
from engine.core.search import (
    LEVELS,
    SAME_REWARDS,
    Budget,
    Level,
    _Node,
    _overturn,
    choose,
    material_share,
    paired_search,
    parse_level,
    search,
)
from tests.core.determinize_checks import positions

RULESETS = ("homm4", "heroforge", "homm3", "mmh")
SMALL = Budget(iterations=6, seconds=None, rollout_commands=8)


def _choices(rules: Ruleset[Any], seed: int, count: int) -> list[tuple[GameState, int]]:
    """``count`` positions of a computer-played game where the seat to move has several
    legal commands (the seat: the first decision owed)."""
    found = []
    for state in positions(rules, {}, 2, seed, every=5, limit=150):
        pending = rules.pending(state)
        if rules.result(state).finished or not pending:
            continue
        seat = pending[0].seat
        if len(rules.legal_commands(state, seat)) > 1:
            found.append((state, seat))
        if len(found) == count:
            break
    assert found, "the game gave no position with a choice"
    return found


@pytest.mark.parametrize("level", ["hard", "normal"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_search_does_not_change_when_hidden_cards_are_dealt_otherwise(
    ruleset: str, level: Level
) -> None:
    """Permuting what the seat cannot see (another deal of the hidden cards consistent
    with its view, and another generator: `Ruleset.determinize` of its information set)
    leaves hard's and normal's choice unchanged given the same seed; and it is legal."""
    rules = get_ruleset(ruleset)
    for state, seat in _choices(rules, seed=3, count=3):
        info = rules.information_set(state, seat)
        other = rules.determinize(info, seat, random.Random(99))
        assert rules.dump_state(rules.information_set(other, seat)) == rules.dump_state(info)
        mine = choose(rules, state, seat, level, random.Random(11), SMALL)
        theirs = choose(rules, other, seat, level, random.Random(11), SMALL)
        assert mine == theirs
        assert mine in rules.legal_commands(state, seat)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_normal_is_legal_and_reproducible(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    budget = Budget(iterations=8, seconds=None, rollout_commands=6)
    for state, seat in _choices(rules, seed=5, count=2):
        first = choose(rules, state, seat, "normal", random.Random(2), budget)
        assert first == choose(rules, state, seat, "normal", random.Random(2), budget)
        assert first in rules.legal_commands(state, seat)


@pytest.mark.rule("mmh:game-setup.choosing-the-starting-hero")
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_seat_searches_its_own_decision_when_another_seat_owes_one_first(level: Level) -> None:
    """mmh's players choose their starting heroes at the same time, each one of the three
    of their faction: Blue's search is over Blue's own three although Red's decision comes
    first (it used to search Red's and find none of Blue's: ValueError from max)."""
    rules = get_ruleset("mmh")
    state = next(
        s
        for s in positions(rules, {"length": "quick"}, 2, 7, every=1, limit=20)
        if [d.kind for d in rules.pending(s)] == ["choose_hero", "choose_hero"]
    )
    assert [d.seat for d in rules.pending(state)] == [0, 1]
    blue = rules.legal_commands(state, 1)
    assert len(blue) == 3 and not set(map(str, blue)) & set(
        map(str, rules.legal_commands(state, 0))
    )
    assert choose(rules, state, 1, level, random.Random(3), SMALL) in blue


def test_homm4_hidden_deck_order_does_not_reach_the_search() -> None:
    """homm4 (homm4:card-types): the other seat's deck reversed and its Hand swapped
    with the top of its deck — cards the searching seat never saw — change nothing."""
    rules = get_ruleset("homm4")
    for state, seat in _choices(rules, seed=8, count=2):
        other_seat = 1 - seat
        changed = state.model_copy(deep=True)
        them = changed.players_state[other_seat]  # type: ignore[attr-defined]
        cards = them.hand + them.deck
        cards.reverse()
        them.hand, them.deck = cards[: len(them.hand)], cards[len(them.hand) :]
        changed.rng.counter += 17
        assert rules.view(changed, seat) == rules.view(state, seat)
        assert choose(rules, state, seat, "hard", random.Random(4), SMALL) == choose(
            rules, changed, seat, "hard", random.Random(4), SMALL
        )


def test_a_single_legal_command_is_played_without_a_search() -> None:
    rules = get_ruleset("heroforge")
    state, _ = rules.new_game(rules.parse_options({}), 2, 1)
    for state_seat in range(2):
        legal = rules.legal_commands(state, state_seat)
        if len(legal) == 1:
            info = rules.information_set(state, state_seat)
            assert search(rules, info, state_seat, random.Random(0), SMALL) == legal[0]


def test_a_seat_that_owes_nothing_is_refused() -> None:
    rules = get_ruleset("homm4")
    state, _ = rules.new_game(rules.parse_options({}), 2, 1)
    idle = [s for s in range(2) if not rules.legal_commands(state, s)]
    for seat in idle:
        with pytest.raises(NotYourDecision, match="owes no decision"):
            choose(rules, state, seat, "hard", random.Random(0), SMALL)


def test_levels_are_read_and_checked() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    assert parse_level(" Hard ") == "hard"
    with pytest.raises(InvalidInput, match="Levels: easy, normal, hard"):
        parse_level("expert")


def test_a_budget_must_allow_something_and_stop() -> None:
    with pytest.raises(InvalidInput, match="iterations or seconds"):
        Budget(iterations=None, seconds=None)
    with pytest.raises(InvalidInput, match="at least 1 iteration"):
        Budget(iterations=0)
    with pytest.raises(InvalidInput, match="more than 0 seconds"):
        Budget(seconds=0)
    assert Budget(iterations=10, seconds=1.0).share(4) == Budget(iterations=2, seconds=0.25)


def test_the_material_share() -> None:
    assert material_share([3.0, 1.0], 0) == 0.75
    assert material_share([0.0, 0.0, 0.0], 2) == pytest.approx(1 / 3)
    assert material_share([-1.0, 2.0], 1) == 1.0


def _child(rewards: list[float]) -> _Node:
    node = _Node(actor=0)
    for reward in rewards:
        node.visits += 1
        node.total += reward
        node.squares += reward * reward
    return node


def test_the_policy_move_stays_unless_another_is_ahead_by_more_than_its_noise() -> None:
    """The root keeps the play-out policy's command (index 0 here): differences of
    +0.07, -0.03, +0.07, -0.03 on the same deals (mean 0.02, sample variance 0.01/3, a
    standard error of sqrt(0.01/3/4) = 0.029) are within one standard error, let alone
    two; differences of 0.15, 0.25, 0.15, 0.25 (mean 0.2, standard error 0.029) are
    ahead by 6.9 and win; one pair is never enough; of two ahead, the further wins."""
    close = _child([0.07, -0.03, 0.07, -0.03])
    assert math.sqrt(close.variance_of_mean()) == pytest.approx(math.sqrt(0.01 / 3 / 4))
    assert _overturn(0, {1: close}) == 0
    ahead = _child([0.15, 0.25, 0.15, 0.25])
    assert ahead.mean() / math.sqrt(ahead.variance_of_mean()) == pytest.approx(6.93, abs=0.01)
    assert _overturn(0, {1: close, 2: ahead}) == 2
    assert _overturn(0, {1: _child([1.0])}) == 0
    further = _child([0.35, 0.45, 0.35, 0.45])
    assert _overturn(0, {1: further, 2: ahead}) == 1


def test_normal_compares_each_command_with_the_policys_on_the_same_deal_and_dice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Common random numbers: an evaluation that only sees which command was played
    (0.3 more after any command but the policy's, in every world: play-outs of 0
    commands) makes every difference 0.3, far more than 2 standard errors above 0:
    normal plays another command. With every reward equal it keeps the policy's."""
    rules = get_ruleset("heroforge")
    state, seat = _choices(rules, seed=3, count=3)[-1]  # heroes chosen
    info = rules.information_set(state, seat)
    legal = rules.legal_commands(info, seat)
    budget = Budget(iterations=12, seconds=None, rollout_commands=0)
    kept = paired_search(rules, info, seat, random.Random(5), budget)
    played: list[Command] = []
    original = rules._apply

    def remembering(world: GameState, actor: int, command: Command) -> Any:
        played.append(command)
        return original(world, actor, command)

    monkeypatch.setattr(rules, "_apply", remembering)
    monkeypatch.setattr(rules, "evaluate", lambda world, s: 0.8 if played[-1] != kept else 0.5)
    other = paired_search(rules, info, seat, random.Random(5), budget)
    assert other != kept and other in legal
    monkeypatch.setattr(rules, "evaluate", lambda world, s: 0.5)
    assert paired_search(rules, info, seat, random.Random(5), budget) == kept


def test_a_search_whose_play_outs_all_end_alike_stops_early(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No real choice: when every play-out ends with the same reward, the search stops
    after SAME_REWARDS iterations of a budget of 50 (one world dealt for the policy's
    command, then two a pair) and plays the policy's command."""
    rules = get_ruleset("heroforge")
    state, seat = _choices(rules, seed=3, count=1)[0]
    info = rules.information_set(state, seat)
    dealt = []
    original = rules.determinize

    def counting(info: GameState, seat: int, rng: random.Random) -> GameState:
        dealt.append(seat)
        return original(info, seat, rng)

    monkeypatch.setattr(rules, "determinize", counting)
    monkeypatch.setattr(rules, "evaluate", lambda state, seat: 0.5)
    budget = Budget(iterations=50, seconds=None, rollout_commands=0)
    chosen = search(rules, info, seat, random.Random(1), budget)
    assert SAME_REWARDS == 4 and len(dealt) == 1 + 2 * 4
    assert chosen in rules.legal_commands(state, seat)
