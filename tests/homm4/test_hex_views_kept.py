"""`engine.homm4.viewing.hex_views` keeps each board's hex views: a view built from the
kept tuple is the view built afresh, and two boards never share one (homm4:terrain-map-sections)."""

from __future__ import annotations

import random

from engine.core.ruleset import get_ruleset
from engine.homm4 import viewing


def _game(seed: int, moves: int):  # type: ignore[no-untyped-def]
    rules = get_ruleset("homm4")
    state, _ = rules.new_game(rules.parse_options({}), 2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = rules.pending(state)[0].seat
        state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))
    return rules, state


def test_kept_hex_views_equal_fresh_ones_and_follow_each_board() -> None:
    """Section: homm4:terrain-map-sections."""
    rules, first = _game(3, 40)
    _, other = _game(4, 40)
    viewing._HEXES.clear()
    fresh = rules.public_view(first).model_dump_json()
    kept = rules.public_view(first)
    assert kept.model_dump_json() == fresh
    again = rules.public_view(first).hexes  # the same hex views, not built again
    assert len(again) == 148 and all(a is b for a, b in zip(again, kept.hexes, strict=True))
    theirs = rules.public_view(other)
    assert not any(a is b for a, b in zip(theirs.hexes, kept.hexes, strict=False))
    viewing._HEXES.clear()
    assert rules.public_view(other).model_dump_json() == theirs.model_dump_json()
    assert {(h.q, h.r, h.terrain) for h in theirs.hexes} != {
        (h.q, h.r, h.terrain) for h in kept.hexes
    }
