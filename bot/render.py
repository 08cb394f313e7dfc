"""The images the service posts, behind one small interface so tests can watch or skip them.

`Renderer.draw` (ruleset, kind, view) -> `Picture` is what the adapters call (always off
the event loop, through ``asyncio.to_thread``: Pillow work never runs on it). The kinds
and their drawing functions are each ruleset's own, in the registry `rendering.pictures`
(``rendering/<game>/pictures.py``); this module names no ruleset. `PictureRenderer` serves
every game alike: it keeps the last pictures in a `PictureCache`, keyed by
``(ruleset, kind, digest of the view JSON)`` (of the fields the picture draws, when its
kind names them: `rendering.pictures.PictureKind.drawn`) and sized by the active games
(`PictureRenderer.fit`: `PICTURES_PER_GAME` for each, within `CACHE_BYTES`), and draws in
worker processes when asked (the bot asks for ``HEROES_RENDER_PROCESSES``, default 2). A
public picture is keyed and drawn from the public part of its view only; a private one
(``hand``) from the seat's own view, sent by DM.

The pictures of one game go to one worker process (`for_game`: the caller names the game;
`PictureRenderer` picks its worker by it), so what a worker keeps between pictures serves
that game's next ones: the whole drawing a focus picture is cut from
(`rendering.pictures.render_json`), the game's text sprites and tiles, and its static
parts laid out once (`rendering.canvas.drawn_once`: terrain, hexes, legends). A game's worker
that is busier than the least busy one by more than `AFFINITY_SLACK` pictures, or that
died, leaves the picture to another.

The worker processes (and the multiprocessing fork server that starts them) end with the
bot, even when it is killed without a word (SIGKILL): each worker watches a pipe whose only
writer is the bot and exits when it closes, so none lives on holding the bot's output
pipes. They ignore SIGINT: a Ctrl-C in the terminal reaches the whole process group, and
the bot itself shuts the pool down.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import logging
import multiprocessing
import os
import signal
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from bot.outbox import Image
from rendering import pictures

log = logging.getLogger(__name__)

T = TypeVar("T")

Picture = Image
"""A drawn picture: its file name, encoded bytes (PNG) and alt text."""


class Renderer(Protocol):
    """Turns views into pictures."""

    def draw(self, ruleset: str, kind: str, view: BaseModel) -> Picture:
        """Picture ``kind`` of ``ruleset`` drawn from ``view`` (a public view for a public
        picture, a seat's own view for ``hand``; a `rendering.pictures.CardFace` for
        ``card``), under the file name and alt text its ruleset registered.

        :raises KeyError: when the ruleset has no such picture.
        :raises TypeError: when ``view`` is not the view that picture draws.
        :raises ValueError: when there is nothing to draw (no board yet, no battle).
        """


PICTURES_PER_GAME = 6
"""Pictures kept per active game: about two rounds' worth (a board, a battlefield and the
hands of the seats to act; /game status and the move's own post share one)."""

MIN_CACHE_PICTURES = 48
"""The cache holds at least this many pictures, however few games are active."""

REFIT_SECONDS = 60.0
"""How often the bot refits the picture cache to the games active then (`keep_fitted`)."""

CACHE_BYTES = 192 * 2**20
"""The most encoded picture bytes the cache holds (192 MiB: about 2,700 pictures of the
homm4 board's mean 70 kB, or the pictures of some 450 active games)."""


class PictureCache:
    """The last ``size`` pictures by key, holding at most ``max_bytes`` of them (the least
    recently used leave first); thread-safe. A request for a key being drawn in another
    thread waits for that drawing instead of drawing it again.

    Drawing is a pure function of the view (docs/RENDERING.md), so a picture keyed by its
    view can be reused: ``/game status`` on an unchanged position, or at the same time as
    the move that produced it, costs no drawing and no encoding.
    """

    def __init__(self, size: int = MIN_CACHE_PICTURES, max_bytes: int = CACHE_BYTES) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._done: OrderedDict[Hashable, bytes] = OrderedDict()
        self._drawing: dict[Hashable, Future[bytes]] = {}

    def resize(self, size: int) -> None:
        """Hold at most ``size`` pictures from now on (the least recently used leave now
        when there are more). :raises ValueError: if ``size`` is below 1."""
        if size < 1:
            raise ValueError(f"the picture cache holds at least 1 picture, not {size}")
        with self._lock:
            self.size = size
            self._trim()

    def _trim(self) -> None:
        while self._done and (len(self._done) > self.size or self.bytes > self.max_bytes):
            _, data = self._done.popitem(last=False)
            self.bytes -= len(data)

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
            self.bytes += len(data)
            self._trim()
        mine.set_result(data)
        return data


AFFINITY_SLACK = 1
"""A game's pictures go to another worker when its own has more than this many pictures
waiting or being drawn beyond the least busy worker's (one picture being drawn there does
not send the next one elsewhere)."""

_GAME: contextvars.ContextVar[Hashable | None] = contextvars.ContextVar(
    "picture_game", default=None
)


@contextmanager
def for_game(game: Hashable) -> Iterator[None]:
    """Within this block (and the threads ``asyncio.to_thread`` starts in it: they copy
    the context), pictures are drawn for ``game`` (any hashable that names one game, e.g.
    its ruleset and seed): `PictureRenderer` sends them to that game's worker process.
    Without it a picture goes to the worker its view's digest picks (a focus picture and
    its whole picture, drawn from the same view, still meet)."""
    token = _GAME.set(game)
    try:
        yield
    finally:
        _GAME.reset(token)


def _draw(ruleset: str, kind: str, payload: str) -> bytes:
    """Draw and encode one picture from its view's JSON (`rendering.pictures.render_json`).

    Module level, so a worker process can run it: the view travels as its JSON, which
    round-trips exactly, and is the cache key already.
    """
    return pictures.render_json(ruleset, kind, payload)


def _exit_with_the_bot(bot_alive: Connection) -> None:
    """Wait until the bot's end of ``bot_alive`` closes (the bot stopped or was killed),
    then end this worker process at once."""
    try:
        while True:
            bot_alive.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(0)


def _start_worker(bot_alive: Connection, rulesets: Sequence[str]) -> None:
    """A new worker process: ignore SIGINT (the bot handles Ctrl-C and shuts the pool
    down), end with the bot (a thread watching ``bot_alive``), and load the fonts and
    pictures of ``rulesets`` before the first picture."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch = threading.Thread(
        target=_exit_with_the_bot, args=(bot_alive,), name="exit-with-the-bot", daemon=True
    )
    watch.start()
    for ruleset in rulesets:
        pictures.warm(ruleset)


def _idle_warm(index: int) -> bool:
    """Step ``index`` of every ruleset's idle warm-up in this worker
    (`rendering.pictures.idle_warm`); whether another step remains."""
    return pictures.idle_warm(_rulesets(), index)


def _started() -> None:
    """Nothing: one is submitted per worker when the pool opens, so all start at once."""


def _rulesets() -> list[str]:
    """Every registered ruleset (the worker processes load their pictures when they start)."""
    from engine.core.ruleset import registered

    return list(registered())


class _Worker:
    """One worker process (a single-process pool) and the pictures sent to it that have
    not come back (`PictureRenderer` picks the worker by them)."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self.pool = pool
        self.pending = 0
        self.warm_next: int | None = 0
        """The next step of the idle warm-up (None: done or given up)."""
        self.warming = False
        self.warm_steps = 0
        """How many idle warm-up steps it ran."""
        self.warmed = threading.Event()
        """Set once the idle warm-up has ended (done, failed or cancelled)."""


class PictureRenderer:
    """`Renderer` for every ruleset (`rendering.pictures`), with a `PictureCache` keyed by
    ``(ruleset, kind, view digest)``: the BLAKE2b digest (16 bytes) of the JSON of the view
    the picture draws (only its `drawn` fields, when the kind names them), which holds the
    game's position at its version, so the same game at the same version is one entry and
    the key does not keep the JSON in memory (a hand's view is that seat's own, so a cached
    hand only ever goes back to the seat it shows). `fit` sizes the cache by the active
    games.

    With ``processes`` > 0 the pictures are drawn in that many worker processes (started
    with the first picture): drawing is Python work that holds the GIL, so in threads it
    competes with the bot's event loop (late acknowledgements) and uses one core at most.
    A game's pictures go to one worker (`for_game`; see the module docstring). A worker
    that dies is replaced by a new one; the picture it was drawing is drawn in the calling
    thread. The workers end when this process ends, however it ends (see the module
    docstring). Call `close` when done.
    """

    def __init__(
        self,
        cache_size: int = MIN_CACHE_PICTURES,
        processes: int = 0,
        warm_when_idle: bool = False,
    ) -> None:
        """:param warm_when_idle: after its first picture, a worker with nothing to draw
        runs the rulesets' idle warm-ups a step at a time
        (`rendering.pictures.register_idle_warm_up`: every card face's text, so a Hand
        of cards that worker has not drawn yet costs no new sprites); the bot asks for
        it, tests that start workers for a few pictures need not."""
        self.cache = PictureCache(cache_size)
        self.processes = processes
        self.warm_when_idle = warm_when_idle
        self._workers_: list[_Worker] | None = None
        self._alive: tuple[Connection, Connection] | None = None
        self._pool_lock = threading.RLock()

    def fit(self, active_games: int) -> None:
        """Size the cache for ``active_games`` games: `PICTURES_PER_GAME` pictures each,
        at least `MIN_CACHE_PICTURES` (and never more than `CACHE_BYTES` of them)."""
        self.cache.resize(max(MIN_CACHE_PICTURES, PICTURES_PER_GAME * active_games))

    def draw(self, ruleset: str, kind: str, view: BaseModel) -> Picture:
        """See `Renderer.draw`. Drawn in the worker of the game named by `for_game`."""
        spec = pictures.picture_kind(ruleset, kind)
        prepared = spec.prepare(view)
        payload = prepared.model_dump_json()
        key = payload if spec.drawn is None else spec.key_json(prepared)
        digest = hashlib.blake2b(key.encode(), digest_size=16).digest()
        game = _GAME.get()
        home = hash(game) if game is not None else hash(payload)
        data = self.cache.get(
            (ruleset, kind, digest), lambda: self._run(home, _draw, ruleset, kind, payload)
        )
        return Picture(spec.filename, data, spec.description)

    def compute(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process (the least busy of the pictures' workers: a
        computer player's search, issue 19), or in the calling thread when there are no
        workers or the worker died. ``fn`` and ``args`` must pickle (a module-level
        function, plain values). Blocks the calling thread: call it through
        ``asyncio.to_thread``."""
        return self._run(None, fn, *args)

    def _run(self, home: int | None, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker ``home`` picks (the least busy one when None or
        when that one is busier by more than `AFFINITY_SLACK`), or in this thread."""
        with self._pool_lock:
            workers = self._started()
            if workers is None:
                worker = None
            else:
                least = min(workers, key=lambda w: w.pending)
                worker = least
                if home is not None:
                    own = workers[home % len(workers)]
                    if own.pending <= least.pending + AFFINITY_SLACK:
                        worker = own
                worker.pending += 1
        if worker is None:
            return fn(*args)
        try:
            return worker.pool.submit(fn, *args).result()
        except BrokenProcessPool:
            log.warning("A worker process died; starting a new one")
            with self._pool_lock:
                if self._workers_ is not None and worker in self._workers_:
                    self._workers_[self._workers_.index(worker)] = self._new_worker()
            return fn(*args)
        finally:
            with self._pool_lock:
                worker.pending -= 1
                self._when_idle(worker)

    def _when_idle(self, worker: _Worker) -> None:
        """Start the next idle warm-up step in ``worker`` if it has nothing else to do
        (``_pool_lock`` held); each step that ends starts the next while it stays idle."""
        if (
            not self.warm_when_idle
            or worker.pending
            or worker.warming
            or worker.warm_next is None
            or self._workers_ is None
            or worker not in self._workers_
        ):
            return
        worker.warming = True
        worker.pending += 1
        try:
            future = worker.pool.submit(_idle_warm, worker.warm_next)
        except (BrokenProcessPool, RuntimeError):  # dead or shut down: no more warming
            worker.warming = False
            worker.pending -= 1
            worker.warm_next = None
            worker.warmed.set()
            return
        future.add_done_callback(lambda done: self._warmed(worker, done))

    def _warmed(self, worker: _Worker, done: Future[bool]) -> None:
        with self._pool_lock:
            worker.warming = False
            worker.pending -= 1
            if done.cancelled() or done.exception() is not None:
                if not done.cancelled():
                    log.warning(
                        "A drawing process's idle warm-up failed", exc_info=done.exception()
                    )
                worker.warm_next = None
                worker.warmed.set()
                return
            more = done.result()
            worker.warm_steps += 1
            worker.warm_next = (
                None if not more or worker.warm_next is None else worker.warm_next + 1
            )
            if worker.warm_next is None:
                worker.warmed.set()
            self._when_idle(worker)

    def _new_worker(self) -> _Worker:
        """Start one worker process (it loads every ruleset's pictures at once). Called
        with ``_pool_lock`` held and ``_alive`` open."""
        assert self._alive is not None
        rulesets = _rulesets()
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(
            ["bot.render", "rendering.pictures"]
            + [f"rendering.{ruleset}.pictures" for ruleset in rulesets]
        )
        pool = ProcessPoolExecutor(
            1, mp_context=context, initializer=_start_worker, initargs=(self._alive[0], rulesets)
        )
        pool.submit(_started)  # start (and warm) it now
        return _Worker(pool)

    def _started(self) -> list[_Worker] | None:
        """The workers, started if not yet (None without any). ``_pool_lock`` held."""
        if self.processes <= 0:
            return None
        if self._workers_ is None:
            # Workers get the reading end (a worker started later too); only this
            # process ever holds the writing end.
            self._alive = multiprocessing.get_context("forkserver").Pipe(duplex=False)
            self._workers_ = [self._new_worker() for _ in range(self.processes)]
        return self._workers_

    def _close_alive(self) -> None:
        """Close this process's end of the workers' pipe: the workers still running exit."""
        if self._alive is not None:
            for end in self._alive:
                end.close()
            self._alive = None

    def close(self) -> None:
        """Stop the worker processes (pictures being drawn are abandoned)."""
        with self._pool_lock:
            workers, self._workers_ = self._workers_, None
        for worker in workers or ():
            worker.pool.shutdown(wait=True, cancel_futures=True)
        with self._pool_lock:
            if self._workers_ is None:
                self._close_alive()


async def keep_fitted(
    renderer: PictureRenderer,
    count_active_games: Callable[[], Awaitable[int]],
    every: float = REFIT_SECONDS,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Refit ``renderer``'s cache (`PictureRenderer.fit`) to ``count_active_games()``
    every ``every`` seconds, until cancelled: games start and end while the bot runs, and
    the count is one read of the index of the open games (no game is loaded), so a minute
    late is the whole cost of not hooking every place a game starts or ends. A count that
    fails (the database busy or closing) is logged and tried again at the next tick; the
    cache keeps its size meanwhile. ``sleep`` is the clock (tests pass their own).
    """
    while True:
        await sleep(every)
        try:
            active = await count_active_games()
        except Exception:  # a failed read must not end the loop (nor the bot)
            log.warning("Could not count the active games to size the picture cache", exc_info=True)
            continue
        renderer.fit(active)


DEFAULT_RENDERER: Renderer = PictureRenderer()
"""The renderer `GameService` uses unless told otherwise."""
