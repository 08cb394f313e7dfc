"""A card command naming a field its card does not use is refused, naming the field and what
the card takes, and changes nothing (house rule 5)."""

from __future__ import annotations

import pytest

from engine.core.errors import InvalidInput
from tests.homm3.helpers import apply, battle, card


def _dump(state: object) -> str:
    return state.model_dump_json()  # type: ignore[attr-defined]


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic")
def test_power_on_a_card_without_empower_is_refused() -> None:
    # Attack (a Statistic card) takes no Empower: 'power' used to be ignored and the Power
    # card stayed in the hand unspent.
    state = battle(
        [(0, "crusaders", False, "E5"), (1, "skeletons", False, "F5")],
        hands={0: ["attack", "power"]},
        token=0,
    )
    attack, power = card(state, 0, "attack"), card(state, 0, "power")
    before = _dump(state)
    with pytest.raises(InvalidInput) as refused:
        apply(state, 0, {"type": "play", "card": attack, "unit": 1, "power": [power]})
    message = str(refused.value)
    assert message.startswith("'power' (Empower cards) does not apply to Attack; it takes none")
    assert "Option 0:" in message
    assert _dump(state) == before
    state, _ = apply(state, 0, {"type": "play", "card": attack, "unit": 1})  # without it: fine
    assert power in state.player(0).hand


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic")
def test_discard_on_a_spell_without_a_discard_cost_is_refused() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "skeletons", True, "L5")],
        hands={0: ["magic_arrow", "power"]},
    )
    arrow, power = card(state, 0, "magic_arrow"), card(state, 0, "power")
    before = _dump(state)
    with pytest.raises(InvalidInput) as refused:
        apply(state, 0, {"type": "play", "card": arrow, "unit": 2, "discard": [power]})
    assert str(refused.value).startswith(
        "'discard' (cards discarded as a cost) does not apply to Magic Arrow; "
        "it takes 'power' (Empower cards), 'school' (the School of a Spell of any School)."
    )
    assert _dump(state) == before


@pytest.mark.rule("homm3turn:spending-positive-morale")
def test_discard_on_the_positive_token_draw_is_refused() -> None:
    state = battle(
        [(0, "griffins", False, "B5"), (1, "zombies", False, "L5")], hands={0: ["attack"]}
    )
    state.player(0).positive_token = True
    some = state.player(0).hand[0]
    before = _dump(state)
    with pytest.raises(InvalidInput, match="'discard' does not apply to the token's option 0"):
        apply(state, 0, {"type": "morale", "option": 0, "discard": [some]})
    with pytest.raises(InvalidInput, match="'unit' does not apply to the Positive Morale token"):
        apply(state, 0, {"type": "morale", "option": 0, "unit": 1})
    assert _dump(state) == before
