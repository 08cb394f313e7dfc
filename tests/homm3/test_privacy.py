"""Private information: a hand, deck, set-aside card, Spell Scroll, Adventure hand or card
being looked at reaches only its owner (DESIGN: Private information)."""

from __future__ import annotations

import random
import re

import pytest

from engine.homm3.state import Homm3State
from tests.homm3.helpers import RULES, apply, new

PUBLIC_KINDS_NAMING_FACE_UP = {"play", "empower", "recall", "morale", "vortex"}
"""Events naming cards that are face up at that moment (a played card, a Morale card, the
card discarded to the Mana Vortex before its pile is shuffled into the deck)."""


def _hidden(state: Homm3State) -> set[int]:
    hidden: set[int] = set()
    for p in state.seats:
        hidden |= set(p.deck) | set(p.hand) | set(p.aside) | set(p.scroll) | set(p.adventure_hand)
    for cards in state.looking.values():
        hidden |= set(cards)
    hidden |= (
        set(state.ability_deck)
        | set(state.artifact_deck)
        | set(state.spell_deck)
        | set(state.adventure_deck)
    )
    hidden |= set(state.positive_deck) | set(state.negative_deck)
    return hidden


def _numbers(value: object) -> set[int]:
    found: set[int] = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= _numbers(item)
    elif isinstance(value, list):
        for item in value:
            found |= _numbers(item)
    elif isinstance(value, int):
        found.add(value)
    return found


def _check(state: Homm3State, events: list) -> None:  # type: ignore[type-arg]
    hidden = _hidden(state)
    view = RULES.public_view(state).model_dump()
    shown = {ref["number"] for ref in _refs(view)}
    assert not (shown & hidden), f"public view shows hidden cards {shown & hidden}"
    for seat in range(2):
        mine = RULES.view(state, seat)
        own = set(state.player(seat).hand)
        assert {c.number for c in mine.hand} == own
        assert not ({c.number for c in mine.hand} & set(state.player(1 - seat).hand))
    for event in events:
        if event.kind in PUBLIC_KINDS_NAMING_FACE_UP:
            continue
        for number in re.findall(r"#(\d+)", event.text):
            assert int(number) not in hidden, f"{event.kind}: {event.text!r} names a hidden card"
        for key in ("card", "cards"):
            if key in event.data:
                assert not (_numbers(event.data[key]) & hidden), (
                    f"{event.kind} data names a hidden card"
                )


def _refs(value: object) -> list[dict]:  # type: ignore[type-arg]
    out = []
    if isinstance(value, dict):
        if set(value) == {"number", "id", "name"}:
            return [value]
        for item in value.values():
            out += _refs(item)
    elif isinstance(value, list):
        for item in value:
            out += _refs(item)
    return out


@pytest.mark.parametrize("options", [{}, {"mode": "adventure"}, {"size": "large", "siege": True}])
@pytest.mark.slow
def test_no_hidden_card_reaches_the_public(options: dict[str, object]) -> None:
    for seed in (3, 4):
        state, events = RULES.new_game(RULES.parse_options(options), 2, seed)
        _check(state, events)
        rng = random.Random(seed)
        while not RULES.result(state).finished:
            decision = RULES.pending(state)[0]
            state, events = apply(state, decision.seat, RULES.ai_command(state, decision.seat, rng))
            _check(state, events)


def test_a_private_choice_shows_its_options_to_its_seat_only() -> None:
    state = new(mode="adventure", heroes=("catherine", "mutare"))
    starter = state.first
    assert RULES.view(state, starter).choice is not None
    assert RULES.view(state, 1 - starter).choice is None
    assert "options" not in str(RULES.public_view(state).prompts)
    prompt = RULES.pending(state)[0].prompt
    for option in state.choice[starter].options:
        assert option not in prompt
