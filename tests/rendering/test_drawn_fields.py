"""A picture kind that names its `drawn` fields depends on those alone (the picture cache
keys it by them, `bot.render`): the same picture whatever the view's other fields hold.

For each such kind of each ruleset, views from a computer game are paired with views of
other moments; a view made of one moment's drawn fields and the other's remaining fields
draws exactly the pixels of the first."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from engine.core.ruleset import get_ruleset, registered
from rendering import pictures

PAIRS = 6


def _kinds_with_drawn() -> list[tuple[str, str]]:
    return [
        (ruleset, kind)
        for ruleset in registered()
        if pictures.load(ruleset)
        for kind in pictures.kinds(ruleset)
        if pictures.picture_kind(ruleset, kind).drawn is not None
    ]


def _views(ruleset: str, kind: str, seed: int, wanted: int) -> list[Any]:
    """Up to ``wanted`` distinct prepared views the kind draws, from one computer game."""
    rules: Any = get_ruleset(ruleset)
    spec = pictures.picture_kind(ruleset, kind)
    state, _ = rules.new_game(rules.parse_options({}), 2, seed)
    rng = random.Random(seed)
    found: list[Any] = []
    keys: set[str] = set()
    for _ in range(3000):
        if len(found) >= wanted or rules.result(state).finished:
            break
        seat = rules.pending(state)[0].seat
        state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))
        view = spec.prepare(rules.view(state, 0) if spec.private else rules.public_view(state))
        key = spec.key_json(view)
        if key in keys:
            continue
        try:
            spec.draw(view)
        except ValueError:  # nothing to draw at this moment (no battle)
            continue
        keys.add(key)
        found.append(view)
    return found


def test_homm4_names_the_fields_of_its_hand_and_battle() -> None:
    assert pictures.picture_kind("homm4", "hand").drawn == {"seat", "hand", "risk", "round"}
    assert pictures.picture_kind("homm4", "battle").drawn == {"battle", "armies", "result"}
    assert pictures.picture_kind("homm4", "board").drawn is None


@pytest.mark.parametrize(("ruleset", "kind"), _kinds_with_drawn())
def test_a_picture_depends_on_its_drawn_fields_alone(ruleset: str, kind: str) -> None:
    spec = pictures.picture_kind(ruleset, kind)
    assert spec.drawn is not None
    views = _views(ruleset, kind, seed=3, wanted=PAIRS + 1)
    assert len(views) == PAIRS + 1, "the game gave too few distinct pictures to compare"
    for shown, other in zip(views, views[1:] + views[:1], strict=True):
        mixed = other.model_copy(update={name: getattr(shown, name) for name in spec.drawn})
        assert type(mixed).model_validate_json(mixed.model_dump_json()) == mixed
        assert spec.key_json(mixed) == spec.key_json(shown)
        assert mixed.model_dump_json() != shown.model_dump_json()  # other fields differ
        assert spec.draw(mixed).image.tobytes() == spec.draw(shown).image.tobytes()
