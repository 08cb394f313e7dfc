"""The public rendering API for homm3: view in, image (or `Drawing`) out.

Rule sections: see `rendering.homm3.battle`, `rendering.homm3.adventure` and
`rendering.homm3.hand`. The Battlefield and Adventure pictures take a `PublicView`
(a `SeatView` is reduced to its public part first, so no hidden card can be drawn); the hand
picture takes a `SeatView` and is for that seat's DM only.
"""

from __future__ import annotations

from engine.homm3.views import PublicView, SeatView
from rendering.canvas import Drawing
from rendering.encode import DEFAULT_FORMAT, ImageFormat, encode
from rendering.homm3.adventure import draw_adventure as _draw_adventure
from rendering.homm3.battle import draw_battle as _draw_battle
from rendering.homm3.hand import draw_hand as _draw_hand
from rendering.homm3.map import draw_focus as _draw_focus
from rendering.homm3.map import draw_map as _draw_map


def public_only(view: PublicView) -> PublicView:
    """The public part of any view (a `SeatView` loses its hidden cards)."""
    if isinstance(view, SeatView):
        return PublicView.model_validate(view.model_dump(include=set(PublicView.model_fields)))
    return view


def draw_battle(view: PublicView) -> Drawing:
    """The Battlefield picture. :raises ValueError: when no Combat is running."""
    return _draw_battle(public_only(view))


def draw_adventure(view: PublicView) -> Drawing:
    """The Adventure (Towns, armies, round tracker) picture."""
    return _draw_adventure(public_only(view))


def draw_hand(view: SeatView) -> Drawing:
    """One seat's private cards. **DM only.**"""
    return _draw_hand(view)


def draw_board(view: PublicView) -> Drawing:
    """The picture of the current position: the Battlefield during the Combat, else the
    map (map game) or the Adventure state."""
    public = public_only(view)
    if public.combat is not None and (public.phase in ("combat", "over") or public.map is not None):
        return _draw_battle(public)
    if public.map is not None:
        return _draw_map(public)
    return _draw_adventure(public)


def draw_map(view: PublicView) -> Drawing:
    """The map game's whole map (``mode: map``). :raises ValueError: for another mode (no
    map to draw)."""
    public = public_only(view)
    if public.map is None:
        raise ValueError("no map: the game is not a map game")
    return _draw_map(public)


def draw_focus(view: PublicView) -> Drawing:
    """The acting hero's surroundings on the map, 400 px wide (``mode: map``)."""
    return _draw_focus(public_only(view))


def render_battle(view: PublicView, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_battle` encoded."""
    return encode(draw_battle(view).image, fmt)


def render_adventure(view: PublicView, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_adventure` encoded."""
    return encode(draw_adventure(view).image, fmt)


def render_board(view: PublicView, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_board` encoded."""
    return encode(draw_board(view).image, fmt)


def render_hand(view: SeatView, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_hand` encoded. **DM only.**"""
    return encode(draw_hand(view).image, fmt)
