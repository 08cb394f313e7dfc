"""The picture cache of `bot.render`: reuse by key, least recently used out, one drawing
per key even when several threads ask at once, errors passed to every waiter; and the one
renderer (`bot.render.PictureRenderer.draw`) serving every ruleset's pictures with the
bytes of that game's own drawing functions, in threads and in worker processes."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.outbox import Image
from bot.render import PictureCache


def test_a_key_is_drawn_once_then_served_from_the_cache() -> None:
    cache = PictureCache(size=2)
    calls: list[str] = []

    def draw(name: str) -> bytes:
        calls.append(name)
        return name.encode()

    assert cache.get("a", lambda: draw("a")) == b"a"
    assert cache.get("a", lambda: draw("a")) == b"a"
    assert calls == ["a"] and (cache.hits, cache.misses) == (1, 1)


def test_the_least_recently_used_picture_leaves_first() -> None:
    cache = PictureCache(size=2)
    drawn: list[str] = []
    for key in ("a", "b", "a", "c", "b", "a"):
        cache.get(key, lambda k=key: drawn.append(k) or k.encode())
    # "c" pushes out "b" (used less recently than "a"); "b" then pushes out "a"
    assert drawn == ["a", "b", "c", "b", "a"]


def test_threads_asking_for_a_picture_being_drawn_wait_for_that_drawing() -> None:
    cache = PictureCache()
    started = threading.Event()
    calls = 0

    def slow() -> bytes:
        nonlocal calls
        calls += 1
        started.set()
        # The drawing lasts until the three other threads wait for it (each counts a hit)
        # or one of them draws too: an event waited for, never a time.
        while cache.hits < 3 and calls == 1:
            time.sleep(0.001)
        return b"board"

    with ThreadPoolExecutor(4) as pool:
        first = pool.submit(cache.get, "k", slow)
        started.wait()
        others = [pool.submit(cache.get, "k", slow) for _ in range(3)]
        results = [first.result(), *(f.result() for f in others)]
    assert results == [b"board"] * 4 and calls == 1
    assert (cache.hits, cache.misses) == (3, 1)


def test_an_error_reaches_every_waiter_and_is_not_cached() -> None:
    cache = PictureCache()

    def broken() -> bytes:
        raise ValueError("no battle")

    with pytest.raises(ValueError, match="no battle"):
        cache.get("battle", broken)
    assert cache.get("battle", lambda: b"drawn") == b"drawn"


def test_pictures_drawn_from_the_views_json_equal_the_direct_drawing() -> None:
    from bot.render import PictureRenderer
    from rendering.homm4 import render_battle, render_board, render_hand
    from tests.rendering import samples

    board, battle = samples.public_view(), samples.public_view(with_battle=True)
    hand = samples.seat_view(board)
    renderer = PictureRenderer()
    assert renderer.draw("homm4", "board", board).data == render_board(board)
    assert renderer.draw("homm4", "battle", battle).data == render_battle(battle)
    assert renderer.draw("homm4", "hand", hand) == Image(
        "hand.png", render_hand(hand), "Your Hand and Risk Stack"
    )
    assert renderer.draw("homm4", "board", board).data == render_board(board)
    assert (renderer.cache.hits, renderer.cache.misses) == (1, 3)


def test_a_hand_is_keyed_by_what_it_draws_so_a_move_elsewhere_reuses_it() -> None:
    """homm4's Hand draws the seat, its Hand, its Risk Stack and the round
    (`PictureKind.drawn`): a view that differs elsewhere (another version, the board)
    is served the cached picture; another Hand is drawn."""
    from bot.render import PictureRenderer
    from tests.rendering import samples

    hand = samples.seat_view(samples.public_view())
    moved = hand.model_copy(update={"version": hand.version + 7, "hexes": hand.hexes[1:]})
    renderer = PictureRenderer()
    first = renderer.draw("homm4", "hand", hand)
    assert renderer.draw("homm4", "hand", moved) == first
    assert (renderer.cache.hits, renderer.cache.misses) == (1, 1)
    fewer = hand.model_copy(update={"hand": hand.hand[1:]})
    assert renderer.draw("homm4", "hand", fewer).data != first.data
    assert (renderer.cache.hits, renderer.cache.misses) == (1, 2)


def _position(ruleset: str, seed: int, moves: int) -> Any:
    """A 2-player ``ruleset`` game after ``moves`` commands of its AI."""
    import importlib
    import random

    from engine.core.ruleset import get_ruleset

    importlib.import_module(f"engine.{ruleset}")  # registers the ruleset
    rules = get_ruleset(ruleset)
    state, _ = rules.new_game(rules.parse_options({}), 2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = rules.pending(state)[0].seat
        state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))
    return state


def _direct(ruleset: str, state: Any) -> dict[str, tuple[Any, bytes]]:
    """``{kind: (view, bytes)}`` of every picture of ``state``, drawn by the game's own
    rendering functions (what the adapters called before the shared renderer)."""
    from engine.core.ruleset import get_ruleset

    rules = get_ruleset(ruleset)
    public, seat = rules.public_view(state), rules.view(state, 0)
    if ruleset == "mmh":
        from rendering import mmh

        return {
            "board": (public, mmh.render_board(public)),
            "hand": (seat, mmh.render_heroes(seat, capital=True)),
        }
    if ruleset == "homm3":
        from rendering import homm3

        return {
            "adventure": (public, homm3.render_adventure(public)),
            "hand": (seat, homm3.render_hand(seat)),
        }
    from rendering import heroforge

    return {
        "board": (public, heroforge.render_board(public)),
        "hand": (seat, heroforge.render_inventory(seat, seat.seat)),
    }


@pytest.mark.parametrize("ruleset", ["mmh", "homm3", "heroforge"])
def test_every_game_is_drawn_through_the_shared_renderer_with_the_same_bytes(
    ruleset: str,
) -> None:
    from bot.render import PictureRenderer

    state = _position(ruleset, seed=11, moves=12)
    renderer = PictureRenderer()
    direct = _direct(ruleset, state)
    for kind, (view, data) in direct.items():
        assert renderer.draw(ruleset, kind, view).data == data, kind
    for kind, (view, data) in direct.items():  # the second time from the cache
        assert renderer.draw(ruleset, kind, view).data == data, kind
    assert (renderer.cache.hits, renderer.cache.misses) == (2, 2)


def test_a_public_picture_of_a_seat_view_is_keyed_and_drawn_by_its_public_part() -> None:
    from bot.render import PictureRenderer
    from engine.core.ruleset import get_ruleset

    rules = get_ruleset("mmh")
    state = _position("mmh", seed=3, moves=6)
    renderer = PictureRenderer()
    public = renderer.draw("mmh", "board", rules.public_view(state))
    from_seat = renderer.draw("mmh", "board", rules.view(state, 1))
    assert from_seat == public == Image("board.png", public.data, "The map of Ashan")
    assert (renderer.cache.hits, renderer.cache.misses) == (1, 1)


def test_a_private_picture_refuses_a_public_view_and_an_unknown_kind_is_named() -> None:
    from bot.render import PictureRenderer
    from engine.core.ruleset import get_ruleset

    rules = get_ruleset("homm3")
    state = _position("homm3", seed=5, moves=4)
    renderer = PictureRenderer()
    with pytest.raises(TypeError, match="homm3 hand picture draws a SeatView, not a PublicView"):
        renderer.draw("homm3", "hand", rules.public_view(state))
    with pytest.raises(
        KeyError,
        match=r"homm3 has no 'board' picture \(its pictures: "
        r"adventure, adventure-focus, battle, battle-focus, hand, map, map-focus\)",
    ):
        renderer.draw("homm3", "board", rules.public_view(state))
    assert (renderer.cache.hits, renderer.cache.misses) == (0, 0)


@pytest.mark.slow
def test_worker_processes_draw_the_same_pictures() -> None:
    from bot.render import PictureRenderer
    from rendering.homm4 import render_board, render_card
    from rendering.pictures import CardFace
    from tests.rendering import samples

    board = samples.public_view()
    card = next(iter(samples.pool().cards))
    state = _position("mmh", seed=11, moves=12)
    renderer = PictureRenderer(processes=1)
    try:
        assert renderer.draw("homm4", "board", board).data == render_board(board)
        face = renderer.draw("homm4", "card", CardFace(card=card, instance=17))
        assert face.data == render_card(card, 17)
        for kind, (view, data) in _direct("mmh", state).items():
            assert renderer.draw("mmh", kind, view).data == data, kind
    finally:
        renderer.close()


def test_the_cache_is_sized_by_the_active_games_and_bounded_in_bytes() -> None:
    from bot.render import MIN_CACHE_PICTURES, PICTURES_PER_GAME, PictureRenderer

    renderer = PictureRenderer()
    renderer.fit(3)
    assert renderer.cache.size == MIN_CACHE_PICTURES
    renderer.fit(500)
    assert renderer.cache.size == 500 * PICTURES_PER_GAME
    cache = PictureCache(size=10, max_bytes=250)
    for key in "abcd":
        cache.get(key, lambda: b"x" * 100)
    assert (len(cache._done), cache.bytes) == (2, 200)  # "a" and "b" left for the bytes
    assert cache.get("c", lambda: b"new") == b"x" * 100
    cache.resize(1)
    assert list(cache._done) == ["c"] and cache.bytes == 100
    with pytest.raises(ValueError, match="at least 1"):
        cache.resize(0)


async def test_the_bot_sizes_its_cache_for_the_games_active_at_start(tmp_path: Any) -> None:
    from bot.app import open_service
    from bot.render import PICTURES_PER_GAME, PictureRenderer
    from storage.sqlite import open_repository
    from tests.storage.helpers import started_game

    path = tmp_path / "games.db"
    repo = await open_repository(path)
    for channel in range(10):
        await started_game(repo, channel)
    await repo.create_game(99, ruleset="dice_race")  # a lobby: not active
    assert await repo.count_active_games() == 10
    await repo.close()
    service, closers = await open_service(path)
    try:
        assert isinstance(service.renderer, PictureRenderer)
        assert service.renderer.cache.size == max(48, 10 * PICTURES_PER_GAME)
    finally:
        for close in reversed(closers):
            await close()


async def test_the_bot_refits_the_cache_to_the_active_games_as_they_change() -> None:
    """`keep_fitted` reads the count at every tick of its clock (no real sleep): 10
    games, then 100, then a failing read (the size stays), then 3 (back to the floor)."""
    import asyncio

    from bot.render import MIN_CACHE_PICTURES, PICTURES_PER_GAME, PictureRenderer, keep_fitted

    renderer = PictureRenderer()
    counts: list[int | Exception] = [10, 100, RuntimeError("database is locked"), 3]
    ticks: asyncio.Queue[None] = asyncio.Queue()
    sizes: list[int] = []
    waited: list[float] = []

    async def tick(seconds: float) -> None:
        waited.append(seconds)
        sizes.append(renderer.cache.size)
        await ticks.get()

    async def count() -> int:
        found = counts.pop(0)
        if isinstance(found, Exception):
            raise found
        return found

    task = asyncio.create_task(keep_fitted(renderer, count, every=60.0, sleep=tick))
    for ticked in range(1, 5):
        ticks.put_nowait(None)
        while len(sizes) < ticked + 1:  # the loop counted, refitted and sleeps again
            await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert waited == [60.0] * 5
    assert sizes == [
        MIN_CACHE_PICTURES,  # before the first tick: as built
        10 * PICTURES_PER_GAME,
        100 * PICTURES_PER_GAME,
        100 * PICTURES_PER_GAME,  # the count failed: unchanged
        MIN_CACHE_PICTURES,  # 3 games: the floor
    ]
