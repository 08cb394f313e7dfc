"""The adapters' picture hooks post a focus picture first, then the whole one (issue 16,
"Pictures a phone can read"), for every kind of channel picture of the four games, and a
focus is a channel picture: drawn from the public part of the view only."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters import adapter_for
from bot.render import PictureRenderer
from rendering import pictures
from tests.bot.discord_helpers import RecordingRenderer


def _positions() -> dict[str, tuple[str, str, Any, Any]]:
    """name -> (ruleset, picture kind asked for, public view, a seat's own view of it)."""
    from engine.core.ruleset import get_ruleset
    from rendering.cli import simulate
    from rendering.homm3.cli import snapshots as homm3_snapshots

    homm4 = simulate(9, 3, 3)
    adventure, battlefield, hands = homm3_snapshots(11, 3, False)
    found: dict[str, tuple[str, str, Any, Any]] = {
        "homm4-board": ("homm4", "board", homm4.board, homm4.hand),
        "homm3-battle": ("homm3", "battle", battlefield, hands[0]),
        "homm3-adventure": ("homm3", "adventure", adventure, None),
    }
    if homm4.battle is not None:
        found["homm4-battle"] = ("homm4", "battle", homm4.battle, None)
    from rendering.mmh.cli import snapshots as mmh_snapshots

    _, track = mmh_snapshots(4, 3, 4)
    found["mmh-battle"] = ("mmh", "battle", track, None)
    for ruleset, seed in (("mmh", 4), ("heroforge", 7)):
        rules: Any = get_ruleset(ruleset)
        import random

        rng = random.Random(seed)
        state, _ = rules.new_game(rules.parse_options({}), 2, seed)
        for _ in range(60):
            seat = rules.pending(state)[0].seat
            state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))
        found[f"{ruleset}-board"] = (
            ruleset,
            "board",
            rules.public_view(state),
            rules.view(state, 0),
        )
    return found


POSITIONS = _positions()


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_adapter_posts_the_focus_first_then_the_whole_picture(name: str) -> None:
    ruleset, kind, public, _ = POSITIONS[name]
    renderer = PictureRenderer()
    try:
        posted = adapter_for(ruleset).pictures(renderer, kind, public)
        whole = adapter_for(ruleset).picture(renderer, kind, public)
    finally:
        renderer.close()
    assert whole is not None
    stem = whole.filename.removesuffix(".png")
    assert [p.filename for p in posted] == [f"{stem}-focus.png", whole.filename]
    assert posted[1] == whole  # the same whole picture as before
    focus_kind = pictures.focus_of(ruleset, kind)
    assert focus_kind is not None
    assert posted[0].description == pictures.picture_kind(ruleset, focus_kind).description
    assert posted[0].data[:4] == b"\x89PNG" and posted[0].data != whole.data


@pytest.mark.parametrize("name", [n for n in sorted(POSITIONS) if POSITIONS[n][3] is not None])
def test_a_focus_from_a_seat_view_is_drawn_from_its_public_part(name: str) -> None:
    """Given a seat's own view by mistake, the focus is drawn from the public view (the
    same bytes, the view class drawn is the public one) and names no card of that seat's
    hidden cards."""
    ruleset, kind, public, seat_view = POSITIONS[name]
    renderer = RecordingRenderer()
    adapter = adapter_for(ruleset)
    from_seat = adapter.pictures(renderer, kind, seat_view)
    from_public = adapter.pictures(renderer, kind, public)
    assert [p.data for p in from_seat] == [p.data for p in from_public]
    hidden = {c.id for c in getattr(seat_view, "hand", ()) if hasattr(c, "id")}
    hidden |= {c.id for c in getattr(seat_view, "risk", ()) if hasattr(c, "id")}
    for picture in from_seat:
        origin = renderer.origin(picture.data)
        assert origin is not None
        drawn_kind, view_class, instances = origin
        assert view_class == "PublicView", drawn_kind
        assert not instances & hidden, drawn_kind
