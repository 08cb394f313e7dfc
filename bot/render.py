"""The images the service posts, behind a small interface so tests can watch or skip them.

`Renderer` is what `GameService` calls (always through ``asyncio.to_thread``: Pillow work
never runs on the event loop). `Homm4Renderer` draws with `rendering.homm4`; public
pictures take only a `PublicView` (a `SeatView` is reduced to its public part by the
rendering layer as well), the hand picture takes the seat's own `SeatView` and goes by DM.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
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


class PictureCache:
    """The last ``size`` pictures, by key; thread-safe. A request for a key being drawn
    in another thread waits for that drawing instead of drawing it again.

    Drawing is a pure function of the view (docs/RENDERING.md), so a picture keyed by its
    view's JSON can be reused: ``/game status`` on an unchanged position, or at the same
    time as the move that produced it, costs no drawing and no encoding.
    """

    def __init__(self, size: int = 48) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._done: OrderedDict[Hashable, bytes] = OrderedDict()
        self._drawing: dict[Hashable, Future[bytes]] = {}

    def get(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        """The picture under ``key``, drawn by ``draw()`` unless cached or being drawn.

        :raises Exception: whatever ``draw`` raised (also in the threads that waited).
        """
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
                self.hits += 1
                return found
            pending = self._drawing.get(key)
            if pending is not None:
                self.hits += 1
            else:
                mine: Future[bytes] = Future()
                self._drawing[key] = mine
                self.misses += 1
        if pending is not None:
            return pending.result()
        try:
            data = draw()
        except BaseException as error:
            with self._lock:
                del self._drawing[key]
            mine.set_exception(error)
            raise
        with self._lock:
            del self._drawing[key]
            self._done[key] = data
            while len(self._done) > self.size:
                self._done.popitem(last=False)
        mine.set_result(data)
        return data


class Homm4Renderer:
    """`Renderer` on `rendering.homm4` (palette PNG, at most 1600 px wide), with a
    `PictureCache` keyed by each view's JSON (a hand's key is that seat's own view, so a
    cached hand only ever goes back to the seat it shows)."""

    def __init__(self, cache_size: int = 48) -> None:
        self.cache = PictureCache(cache_size)

    def board(self, view: PublicView) -> bytes:
        """See `Renderer.board`."""
        from rendering.homm4 import public_only, render_board

        public = public_only(view)
        return self.cache.get(("board", public.model_dump_json()), lambda: render_board(public))

    def battle(self, view: PublicView) -> bytes:
        """See `Renderer.battle`."""
        from rendering.homm4 import public_only, render_battle

        public = public_only(view)
        return self.cache.get(("battle", public.model_dump_json()), lambda: render_battle(public))

    def hand(self, view: SeatView) -> bytes:
        """See `Renderer.hand`."""
        from rendering.homm4 import render_hand

        return self.cache.get(("hand", view.model_dump_json()), lambda: render_hand(view))

    def card(self, card_id: str, instance: int | None = None) -> bytes:
        """See `Renderer.card`."""
        from rendering.homm4 import render_card

        return self.cache.get(("card", card_id, instance), lambda: render_card(card_id, instance))


DEFAULT_RENDERER: Renderer = Homm4Renderer()
"""The renderer `GameService` uses unless told otherwise."""
