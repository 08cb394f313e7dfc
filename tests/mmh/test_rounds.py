"""Rounds, action cards, week cards and the end of the game."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, WrongPhase
from engine.mmh import score
from engine.mmh.board import board_of
from tests.mmh.helpers import C, R, apply, new_game, texts


def _pass_all(state, seat):  # type: ignore[no-untyped-def]
    card = next(c for c in state.seats[seat].cards if not c.used)
    return apply(state, seat, {"type": "play_action", "card": card.number, "action": "pass"})


@pytest.mark.rule("mmh:course-of-play.playing-action-cards")
def test_one_card_per_turn_clockwise_and_the_round_ends_when_all_are_used() -> None:
    state = new_game(3)
    first = state.start_player
    order = []
    for _ in range(9):
        seat = R.pending(state)[0].seat
        order.append(seat)
        state, _ = _pass_all(state, seat)
    assert order == [(first + i) % 3 for i in range(9)]
    assert state.round == 2
    assert state.start_player == (first + 1) % 3  # the marker passes to the left
    assert all(not c.used for s in state.seats for c in s.cards)


@pytest.mark.rule("mmh:course-of-play.playing-action-cards")
def test_a_card_offers_two_actions_or_a_pass() -> None:
    state = new_game(2)
    seat = state.active
    with pytest.raises(IllegalMove, match="offers"):
        apply(state, seat, {"type": "play_action", "card": 1, "action": "recruit"})
    state, _events = apply(state, seat, {"type": "play_action", "card": 1, "action": "build"})
    assert state.action is not None and state.action.kind == "build"
    with pytest.raises(WrongPhase):  # one card per turn: the Build action is under way
        apply(state, seat, {"type": "play_action", "card": 2, "action": "hero"})


@pytest.mark.rule("mmh:course-of-play.revealing-the-week-card")
def test_week_card_revealed_from_round_two_only() -> None:
    state = new_game(2)
    assert state.week is None
    top = state.week_stack[0]
    for _ in range(6):
        state, events = _pass_all(state, R.pending(state)[0].seat)
    assert state.round == 2 and state.week == top
    assert C.week(top).name in texts(events)


@pytest.mark.rule("mmh:course-of-play.revealing-the-week-card")
def test_reveal_gains_are_paid() -> None:
    state = new_game(2)
    state.week_stack[0] = "week_of_the_gold_rush"
    state.week_box.remove(
        "week_of_the_gold_rush"
    ) if "week_of_the_gold_rush" in state.week_box else None
    gold = [s.gold for s in state.seats]
    for _ in range(6):
        state, _ = _pass_all(state, R.pending(state)[0].seat)
    assert [s.gold for s in state.seats] == [g + 2 for g in gold]


@pytest.mark.rule("mmh:game-end")
def test_the_game_ends_after_the_last_week_with_most_vp() -> None:
    state = new_game(2, length="quick")
    board = board_of(state)
    mine = next(s.index for s in board.spaces if s is not None and s.location == "mine")
    state.control[mine] = 1
    rounds = 0
    while not R.result(state).finished:
        state, _ = _pass_all(state, R.pending(state)[0].seat)
        rounds = state.round
    assert rounds == 10  # round 1 and 9 week cards
    result = R.result(state)
    assert result.winners == (1,) and "most victory points" in result.reason


@pytest.mark.rule("mmh:game-end")
def test_tie_break_gold_and_resources_then_a_draw() -> None:
    state = new_game(2, length="quick")
    state.week_stack = []
    state.round = 5
    state.seats[0].gold, state.seats[1].gold = 9, 7
    score.finish_by_weeks(state)
    assert state.winners == [0]
    state = new_game(2, length="quick")
    state.seats[0].gold = state.seats[1].gold = 7
    state.seats[0].resources = state.seats[1].resources = 5
    score.finish_by_weeks(state)
    assert R.result(state).finished and R.result(state).winners == ()
    assert "draw" in R.result(state).reason


@pytest.mark.rule("mmh:game-goal")
@pytest.mark.parametrize(("players", "needed"), [(2, 12), (3, 14), (4, 16)])
def test_victory_at_once_at_the_threshold(players: int, needed: int) -> None:
    state = new_game(players)
    seat = state.active
    state.seats[seat].vp_bonus = needed - 1
    assert not score.check_victory(state)
    state.seats[seat].vp_bonus = needed
    state, _ = _pass_all(state, seat)
    assert R.result(state).finished and R.result(state).winners == (seat,)
    assert f"{needed} victory points" in R.result(state).reason


@pytest.mark.rule("mmh:game-goal")
def test_vp_counts_locations_artefacts_and_buildings() -> None:
    state = new_game(2)
    board = board_of(state)
    nexus = next(s.index for s in board.spaces if s is not None and s.location == "dragon_nexus")
    sawmill = next(s.index for s in board.spaces if s is not None and s.location == "sawmill")
    state.control[nexus] = 0
    state.control[sawmill] = 0
    hero = state.heroes[state.seats[0].heroes[0]]
    hero.artefacts.append(state.artefact_deck.pop(0))
    state.seats[0].buildings.append("temple_of_asha")
    assert score.vp(state, 0) == 4 + 1 + 1 + 3
