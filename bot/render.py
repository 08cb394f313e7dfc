"""The images the service posts, behind a small interface so tests can watch or skip them.

`Renderer` is what `GameService` calls (always through ``asyncio.to_thread``: Pillow work
never runs on the event loop). `Homm4Renderer` draws with `rendering.homm4`; public
pictures take only a `PublicView` (a `SeatView` is reduced to its public part by the
rendering layer as well), the hand picture takes the seat's own `SeatView` and goes by DM.
"""

from __future__ import annotations

from typing import Protocol

from engine.homm4.views import PublicView, SeatView


class Renderer(Protocol):
    """Turns views into encoded images (PNG bytes)."""

    def board(self, view: PublicView) -> bytes:
        """The Game Board. :raises ValueError: if the board has no hexes yet."""

    def battle(self, view: PublicView) -> bytes:
        """The battlefield. :raises ValueError: if no battle is in progress."""

    def hand(self, view: SeatView) -> bytes:
        """One seat's Hand and Risk Stack (private)."""

    def card(self, card_id: str, instance: int | None = None) -> bytes:
        """One card face. :raises KeyError: for an unknown card id."""


class Homm4Renderer:
    """`Renderer` on `rendering.homm4` (palette PNG, at most 1600 px wide)."""

    def board(self, view: PublicView) -> bytes:
        """See `Renderer.board`."""
        from rendering.homm4 import public_only, render_board

        return render_board(public_only(view))

    def battle(self, view: PublicView) -> bytes:
        """See `Renderer.battle`."""
        from rendering.homm4 import public_only, render_battle

        return render_battle(public_only(view))

    def hand(self, view: SeatView) -> bytes:
        """See `Renderer.hand`."""
        from rendering.homm4 import render_hand

        return render_hand(view)

    def card(self, card_id: str, instance: int | None = None) -> bytes:
        """See `Renderer.card`."""
        from rendering.homm4 import render_card

        return render_card(card_id, instance)


DEFAULT_RENDERER: Renderer = Homm4Renderer()
"""The renderer `GameService` uses unless told otherwise."""
