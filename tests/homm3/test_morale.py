"""Morale: the Positive and Negative Morale decks, the tokens, and Necropolis."""

from __future__ import annotations

import pytest

from engine.homm3 import morale
from tests.homm3.helpers import apply, battle, new


def _state(heroes: tuple[str, str] = ("catherine", "mutare")):  # type: ignore[no-untyped-def]
    return new(heroes=heroes, mode="adventure")


@pytest.mark.rule("homm3bf:battlefield-setup.morale-deck.positive-morale-deck")
def test_gaining_searches_two_and_keeps_one_face_up() -> None:
    state = _state()
    top = state.positive_deck[:2]
    morale.gain(state, 0)
    assert state.choice[0].kind == "morale_search" and state.choice[0].private
    assert state.looking[0] == top
    state, _ = apply(state, 0, {"type": "choose", "option": 1})
    assert state.player(0).positive == [top[1]]
    assert state.positive_deck[-1] == top[0]  # the other card goes to the bottom


@pytest.mark.rule("homm3turn:morale-cards-battlefield")
def test_at_most_two_positive_cards() -> None:
    state = _state()
    state.player(0).positive = [state.positive_deck.pop(0), state.positive_deck.pop(0)]
    events = morale.gain(state, 0)
    assert "already holds 2" in events[0].text and len(state.player(0).positive) == 2


@pytest.mark.rule("homm3turn:gaining-morale")
def test_gaining_discards_a_negative_card_first() -> None:
    state = _state()
    bad = state.negative_deck.pop(0)
    state.player(0).negative = [bad]
    morale.gain(state, 0)
    assert state.player(0).negative == [] and state.negative_deck[-1] == bad
    assert not state.player(0).positive


@pytest.mark.rule("homm3turn:losing-morale")
def test_losing_discards_a_positive_card_else_draws_a_negative() -> None:
    state = _state()
    good = state.positive_deck.pop(0)
    state.player(0).positive = [good]
    morale.lose(state, 0)
    assert state.player(0).positive == [] and state.positive_deck[-1] == good
    top = state.negative_deck[0]
    morale.lose(state, 0)
    morale.lose(state, 0)
    assert state.player(0).negative[0] == top and len(state.player(0).negative) == 2  # no limit


@pytest.mark.rule("homm3turn:two-negative-tokens")
@pytest.mark.rule(
    "homm3bf:battlefield-in-regular-games.changes-to-combat-rules.morale-decks-in-regular-games"
)
def test_tokens_when_the_decks_run_out() -> None:
    state = _state()
    state.negative_deck.clear()
    morale.lose(state, 0)
    assert state.player(0).negative_token and not state.player(0).discard_hand
    morale.lose(state, 0)
    assert state.player(0).negative_token and state.player(0).discard_hand
    state.positive_deck.clear()
    morale.gain(state, 0)
    assert not state.player(0).negative_token
    morale.gain(state, 0)
    assert state.player(0).positive_token
    morale.gain(state, 0)
    assert state.player(0).positive_token  # still one


@pytest.mark.rule("homm3turn:necropolis")
def test_necropolis_ignores_morale() -> None:
    state = _state(("tamika", "mutare"))
    assert morale.ignores(state, 0)
    before = state.choice.get(0)
    morale.gain(state, 0)
    morale.lose(state, 0)
    player = state.player(0)
    assert (
        not player.positive
        and not player.negative
        and not player.positive_token
        and not player.negative_token
    )
    assert state.choice.get(0) == before  # no Search of the Positive deck


@pytest.mark.rule("homm3turn:spending-positive-morale")
def test_positive_token_draws_a_card_in_combat() -> None:
    state = battle([(0, "griffins", False, "B5"), (1, "zombies", False, "L5")])
    state.player(0).positive_token = True
    before = len(state.player(0).hand)
    state, _ = apply(state, 0, {"type": "morale", "option": 0})
    assert len(state.player(0).hand) == before + 1 and not state.player(0).positive_token


@pytest.mark.rule("homm3bf:battlefield-setup.morale-deck.negative-morale-deck")
def test_negative_card_resolves_when_its_situation_comes() -> None:
    state = battle([(0, "griffins", False, "B5"), (1, "zombies", False, "L5")], token=0)
    gloom = next(c for c in state.negative_deck if state.cards[c] == "gloom")
    state.negative_deck.remove(gloom)
    state.player(0).negative = [gloom]
    before = len(state.player(0).hand)
    state, _ = apply(state, 0, {"type": "defend"})
    state, _ = apply(state, 1, {"type": "defend"})
    assert len(state.player(0).hand) == before + 1  # 2 less 1
    assert state.player(0).negative == [] and state.negative_deck[-1] == gloom


@pytest.mark.rule("homm3turn:losing-morale")
def test_losing_morale_and_terror_drop_positive_morale_alike() -> None:
    """Losing Morale and Ghost Dragons' Terror both discard the oldest Positive card, then
    the Positive token, in one shared step (`morale.drop_positive`); Terror with neither
    does nothing, where losing Morale draws a Negative card."""
    from engine.homm3 import combat_flow

    state = _state()
    first, second = state.positive_deck.pop(0), state.positive_deck.pop(0)
    state.player(0).positive = [first, second]
    state.player(0).positive_token = True
    lost = morale.lose(state, 0)
    assert lost[0].text == (
        f"Red loses Morale and discards {morale.card_name(state, first)} (Positive Morale)."
    )
    terror = combat_flow._terror(state, 0)
    assert terror[0].text == (
        f"Red suffers Terror and discards {morale.card_name(state, second)} (Positive Morale)."
    )
    assert state.positive_deck[-2:] == [first, second] and state.player(0).positive == []
    terror = combat_flow._terror(state, 0)
    assert terror[0].text == "Red suffers Terror and discards the Positive Morale token."
    assert not state.player(0).positive_token
    assert combat_flow._terror(state, 0) == [] and state.player(0).negative == []
    morale.lose(state, 0)
    assert len(state.player(0).negative) == 1
