"""The images the service posts, behind a small interface so tests can watch or skip them.

`Renderer` is what `GameService` calls (always through ``asyncio.to_thread``: Pillow work
never runs on the event loop). `Homm4Renderer` draws with `rendering.homm4`, in worker
processes when asked (the bot asks for ``HEROES_RENDER_PROCESSES``, default 2), and keeps
the last pictures in a `PictureCache`; public pictures take only a `PublicView` (a
`SeatView` is reduced to its public part by the rendering layer as well), the hand picture
takes the seat's own `SeatView` and goes by DM.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

from engine.homm4.views import PublicView, SeatView

log = logging.getLogger(__name__)


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


def _draw(kind: str, payload: str) -> bytes:
    """Draw and encode one picture from its view's JSON (or a card's ``id:instance``).

    Module level, so a worker process can run it: the view travels as its JSON, which
    round-trips exactly, and is the cache key already.
    """
    from rendering.homm4 import render_battle, render_board, render_card, render_hand

    if kind == "board":
        return render_board(PublicView.model_validate_json(payload))
    if kind == "battle":
        return render_battle(PublicView.model_validate_json(payload))
    if kind == "hand":
        return render_hand(SeatView.model_validate_json(payload))
    card_id, _, instance = payload.partition(":")
    return render_card(card_id, int(instance) if instance else None)


def _warm_worker() -> None:
    """Load the fonts and the card pool in a new worker process before its first picture."""
    from engine.homm4.cards import load_card_pool

    pool = load_card_pool()
    _draw("card", next(iter(pool.cards)))


def _started() -> None:
    """Nothing: one is submitted per worker when the pool opens, so all start at once."""


class Homm4Renderer:
    """`Renderer` on `rendering.homm4` (palette PNG, at most 1600 px wide), with a
    `PictureCache` keyed by each view's JSON (a hand's key is that seat's own view, so a
    cached hand only ever goes back to the seat it shows).

    With ``processes`` > 0 the pictures are drawn in that many worker processes (started
    with the first picture): drawing is Python work that holds the GIL, so in threads it
    competes with the bot's event loop (late acknowledgements) and uses one core at most.
    A worker that dies is replaced by a new pool; the picture it was drawing is drawn in
    the calling thread. Call `close` when done.
    """

    def __init__(self, cache_size: int = 48, processes: int = 0) -> None:
        self.cache = PictureCache(cache_size)
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def board(self, view: PublicView) -> bytes:
        """See `Renderer.board`."""
        from rendering.homm4 import public_only

        return self._picture("board", public_only(view).model_dump_json())

    def battle(self, view: PublicView) -> bytes:
        """See `Renderer.battle`."""
        from rendering.homm4 import public_only

        return self._picture("battle", public_only(view).model_dump_json())

    def hand(self, view: SeatView) -> bytes:
        """See `Renderer.hand`."""
        return self._picture("hand", view.model_dump_json())

    def card(self, card_id: str, instance: int | None = None) -> bytes:
        """See `Renderer.card`."""
        return self._picture("card", f"{card_id}:{'' if instance is None else instance}")

    def _picture(self, kind: str, payload: str) -> bytes:
        return self.cache.get((kind, payload), lambda: self._render(kind, payload))

    def _render(self, kind: str, payload: str) -> bytes:
        pool = self._workers()
        if pool is None:
            return _draw(kind, payload)
        try:
            return pool.submit(_draw, kind, payload).result()
        except BrokenProcessPool:
            log.warning("A rendering process died; starting new ones")
            with self._pool_lock:
                if self._pool is pool:
                    self._pool = None
            return _draw(kind, payload)

    def _workers(self) -> ProcessPoolExecutor | None:
        if self.processes <= 0:
            return None
        with self._pool_lock:
            if self._pool is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["bot.render", "rendering.homm4"])
                self._pool = ProcessPoolExecutor(
                    self.processes, mp_context=context, initializer=_warm_worker
                )
                for _ in range(self.processes):  # start (and warm) every worker now
                    self._pool.submit(_started)
            return self._pool

    def close(self) -> None:
        """Stop the worker processes (pictures being drawn are abandoned)."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


DEFAULT_RENDERER: Renderer = Homm4Renderer()
"""The renderer `GameService` uses unless told otherwise."""
