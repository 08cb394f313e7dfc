"""The public rendering API for mmh: view in, image (or `Drawing`) out.

Rule sections: see `rendering.mmh.board`, `rendering.mmh.track`, `rendering.mmh.sheets`.
Board, track and capital pictures are public. A hero sheet drawn from its owner's
`SeatView` names the held scrolls: send it by DM only (`render_hero` from a `PublicView`
never does).
"""

from __future__ import annotations

from engine.mmh.views import PublicView, SeatView
from rendering.canvas import Drawing
from rendering.encode import DEFAULT_FORMAT, ImageFormat, encode
from rendering.mmh import board as _board
from rendering.mmh import sheets as _sheets
from rendering.mmh import track as _track


def public_only(view: PublicView) -> PublicView:
    """The public part of any view (a `SeatView` loses its scrolls and choices); a
    `PublicView` itself is already that, and is returned as it is (no copy: reading it
    again cost a third of drawing the initiative track)."""
    if type(view) is PublicView:
        return view
    return PublicView.model_validate(view.model_dump(include=set(PublicView.model_fields)))


def draw_board(view: PublicView) -> Drawing:
    """The board picture and its marks. :raises ValueError: before any tile is laid."""
    return _board.draw_board(public_only(view))


def draw_track(view: PublicView) -> Drawing:
    """The initiative track. :raises ValueError: if no battle is in progress."""
    return _track.draw_track(public_only(view))


def draw_capital(view: PublicView, seat: int) -> Drawing:
    """The capital board of ``seat``. :raises IndexError: for an unknown seat."""
    return _sheets.draw_capital(public_only(view), seat)


def draw_hero(view: PublicView, hero: str) -> Drawing:
    """The hero sheet (scrolls named only from the owner's own `SeatView`).

    :raises KeyError: for a hero not in play.
    """
    return _sheets.draw_hero(view, hero)


def draw_heroes(view: SeatView, *, capital: bool = False) -> Drawing:
    """All of a seat's hero sheets with their scrolls named, under its capital board when
    ``capital`` (DM only).

    :raises ValueError: when there is nothing to draw yet.
    """
    return _sheets.draw_heroes(view, capital=capital)


def render_heroes(
    view: SeatView, fmt: ImageFormat = DEFAULT_FORMAT, *, capital: bool = False
) -> bytes:
    """`draw_heroes` encoded in ``fmt`` (a private picture)."""
    return encode(draw_heroes(view, capital=capital).image, fmt)


def render_board(view: PublicView, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_board` encoded in ``fmt``."""
    return encode(draw_board(view).image, fmt)


def render_track(view: PublicView, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_track` encoded in ``fmt``."""
    return encode(draw_track(view).image, fmt)


def render_capital(view: PublicView, seat: int, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_capital` encoded in ``fmt``."""
    return encode(draw_capital(view, seat).image, fmt)


def render_hero(view: PublicView, hero: str, fmt: ImageFormat = DEFAULT_FORMAT) -> bytes:
    """`draw_hero` encoded in ``fmt``."""
    return encode(draw_hero(view, hero).image, fmt)
