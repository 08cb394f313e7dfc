"""A card command naming a field its card does not use is refused, naming the field and what
the card takes, and changes nothing (house rule 5)."""

from __future__ import annotations

import ast
import inspect

import pytest

from engine.core.errors import InvalidInput
from engine.homm3 import cardplay
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
    assert str(refused.value) == (
        "'power' (Empower cards) does not apply to Attack; it takes 'unit' (a unit's number). "
        "Option 0: +1 Attack to one of your units."
    )
    with pytest.raises(InvalidInput) as refused:
        apply(state, 0, {"type": "play", "card": attack, "unit": 1, "hex": "E6"})
    assert str(refused.value).startswith("'hex' (a hex) does not apply to Attack; it takes 'unit'")
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
    assert str(refused.value) == (
        "'discard' (cards discarded as a cost) does not apply to Magic Arrow; it takes 'unit' "
        "(a unit's number), 'power' (Empower cards), 'school' (the School of a Spell of any "
        "School). Option 0: The chosen unit suffers 1 / 2 / 3 damage."
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


def test_the_field_table_matches_what_each_card_effect_reads() -> None:
    # A handler reading a target or cost field that `_EFFECT_FIELDS` does not list would be
    # refused wrongly; one listed but not read would be ignored again. Read the source.
    tree = ast.parse(inspect.getsource(cardplay))
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    skip = {"_pay_power", "_check_fields", "_fields", "_prepare", "_commit", "play", "allowed"}

    def reads(name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        found: set[str] = set()
        for node in ast.walk(funcs[name]):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "cmd"
                and node.attr in cardplay._FIELDS
            ):
                found.add(node.attr)
            if isinstance(node, ast.Name) and node.id in funcs and node.id not in seen | skip:
                found |= reads(node.id, seen | {name, node.id})
        return found

    for effect, handler in cardplay._HANDLERS.items():
        name = handler.__name__ if handler.__name__ in funcs else handler.__qualname__.split(".")[0]
        assert reads(name) == set(cardplay._EFFECT_FIELDS.get(effect, ())), effect
