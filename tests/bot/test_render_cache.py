"""The picture cache of `bot.render`: reuse by key, least recently used out, one drawing
per key even when several threads ask at once, errors passed to every waiter."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

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
    from bot.render import Homm4Renderer
    from rendering.homm4 import render_battle, render_board, render_hand
    from tests.rendering import samples

    board, battle = samples.public_view(), samples.public_view(with_battle=True)
    hand = samples.seat_view(board)
    renderer = Homm4Renderer()
    assert renderer.board(board) == render_board(board)
    assert renderer.battle(battle) == render_battle(battle)
    assert renderer.hand(hand) == render_hand(hand)
    assert renderer.board(board) == render_board(board)
    assert (renderer.cache.hits, renderer.cache.misses) == (1, 3)


@pytest.mark.slow
def test_worker_processes_draw_the_same_pictures() -> None:
    from bot.render import Homm4Renderer
    from rendering.homm4 import render_board, render_card
    from tests.rendering import samples

    board = samples.public_view()
    card = next(iter(samples.pool().cards))
    renderer = Homm4Renderer(processes=1)
    try:
        assert renderer.board(board) == render_board(board)
        assert renderer.card(card, 17) == render_card(card, 17)
    finally:
        renderer.close()
