"""The public rendering API for homm4: view in, image (or `Drawing`) out.

Rule sections: see `rendering.homm4.board`, `.battle`, `.hand`, `.cardface`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.homm4.cards import CardPool, load_card_pool
from engine.homm4.maps import Terrain, load_maps
from engine.homm4.views import PublicView, SeatView
from rendering.canvas import Canvas, Drawing
from rendering.encode import DEFAULT_FORMAT, ImageFormat, encode
from rendering.homm4 import battle as _battle
from rendering.homm4 import board as _board
from rendering.homm4 import hand as _hand
from rendering.homm4.cardface import card_height, draw_card_face
from rendering.homm4.palette import PAGE

CARD_WIDTH = 480
"""Width in px of a `/card` image (its height is 1.4 times that plus a margin)."""


def public_only(view: PublicView) -> PublicView:
    """Return the public part of ``view``: a `SeatView` loses its Hand and Risk Stack.

    Every public picture goes through this, so a private card cannot reach a channel
    image even if a caller passes a seat's view by mistake (homm4:card-types).
    """
    if type(view) is PublicView:
        return view
    return PublicView(**{name: getattr(view, name) for name in PublicView.model_fields})


def _pool(pool: CardPool | None) -> CardPool:
    return pool if pool is not None else load_card_pool()


def _legend(legend: Mapping[str, Terrain] | None) -> Mapping[str, Terrain]:
    return legend if legend is not None else load_maps().terrain


def draw_board(
    view: PublicView, *, pool: CardPool | None = None, legend: Mapping[str, Terrain] | None = None
) -> Drawing:
    """The Game Board picture of ``view`` (its public part) with its layout marks.

    About 1100-1600 px wide; height grows with the board. ``pool``/``legend`` default to
    the shipped card pool and terrain legend.
    :raises ValueError: if the board has no hexes yet.
    """
    return _board.draw_board(public_only(view), _pool(pool), _legend(legend))


def draw_battle(view: PublicView, *, pool: CardPool | None = None) -> Drawing:
    """The battlefield picture of ``view.battle`` (1300 px wide) with its layout marks.

    :raises ValueError: if no battle is in progress.
    """
    return _battle.draw_battle(public_only(view), _pool(pool))


def draw_hand(view: SeatView, *, pool: CardPool | None = None) -> Drawing:
    """The private Hand + Risk Stack picture of ``view.seat`` (1300 px wide).

    :raises KeyError: if a card id is not in the pool.
    """
    return _hand.draw_hand(view, _pool(pool))


def draw_card(
    card_id: str,
    instance: int | None = None,
    *,
    pool: CardPool | None = None,
    width: int = CARD_WIDTH,
) -> Drawing:
    """One card face, ``width`` px wide (plus a 12 px margin), from the pool's ``card_id``.

    ``instance`` adds the ``#17`` badge the commands accept.
    :raises KeyError: if ``card_id`` is not in the pool.
    """
    cards = _pool(pool)
    card = cards.cards.get(card_id)
    if card is None:
        raise KeyError(f"no card {card_id!r} in the card pool")
    margin = 12
    canvas = Canvas(width + 2 * margin, card_height(width) + 2 * margin, PAGE)
    draw_card_face(canvas, margin, margin, width, card, cards, instance)
    return canvas.finish()


def render_board(
    view: PublicView,
    fmt: ImageFormat = DEFAULT_FORMAT,
    *,
    pool: CardPool | None = None,
    legend: Mapping[str, Terrain] | None = None,
) -> bytes:
    """Encoded board image (see `draw_board`): at most 1600 px wide, under 1 MB."""
    return encode(draw_board(view, pool=pool, legend=legend).image, fmt)


def render_battle(
    view: PublicView, fmt: ImageFormat = DEFAULT_FORMAT, *, pool: CardPool | None = None
) -> bytes:
    """Encoded battlefield image (see `draw_battle`). :raises ValueError: if no battle."""
    return encode(draw_battle(view, pool=pool).image, fmt)


def render_hand(
    view: SeatView, fmt: ImageFormat = DEFAULT_FORMAT, *, pool: CardPool | None = None
) -> bytes:
    """Encoded private hand image (see `draw_hand`). Send it by DM only."""
    return encode(draw_hand(view, pool=pool).image, fmt)


def render_card(
    card_id: str,
    instance: int | None = None,
    fmt: ImageFormat = DEFAULT_FORMAT,
    *,
    pool: CardPool | None = None,
    width: int = CARD_WIDTH,
) -> bytes:
    """Encoded card face (see `draw_card`). :raises KeyError: for an unknown card id."""
    return encode(draw_card(card_id, instance, pool=pool, width=width).image, fmt)
