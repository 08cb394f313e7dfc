"""A game's pictures go to one drawing process (`bot.render.for_game`, issue 17), so what a
worker keeps between pictures (the whole drawing a focus picture is cut from, the game's
text sprites) serves that game; a busy or dead worker leaves the picture to another."""

from __future__ import annotations

import asyncio
import os
import signal

from bot.render import _GAME, PictureRenderer, for_game


def _pid() -> int:
    return os.getpid()


def test_a_games_pictures_go_to_one_worker_and_a_busy_one_leaves_them_to_another() -> None:
    renderer = PictureRenderer(processes=2)
    try:
        first = {renderer._run(0, _pid) for _ in range(4)}
        second = {renderer._run(1, _pid) for _ in range(4)}
        assert len(first) == 1 and len(second) == 1
        assert first != second and os.getpid() not in first | second
        assert renderer._run(2, _pid) in first  # home 2 of 2 workers: the first one
        workers = renderer._workers_
        assert workers is not None
        workers[0].pending += 2  # two pictures waiting there: more than AFFINITY_SLACK
        try:
            assert renderer._run(0, _pid) in second
        finally:
            workers[0].pending -= 2
        workers[0].pending += 1  # one: it stays home
        try:
            assert renderer._run(0, _pid) in first
        finally:
            workers[0].pending -= 1
        assert [w.pending for w in workers] == [0, 0]
    finally:
        renderer.close()


def test_a_dead_worker_is_replaced_and_its_picture_drawn_in_the_calling_thread() -> None:
    renderer = PictureRenderer(processes=2)
    try:
        dead = renderer._run(0, _pid)
        other = renderer._run(1, _pid)
        os.kill(dead, signal.SIGKILL)
        assert renderer._run(0, _pid) in (os.getpid(), other)  # drawn anyway
        new = renderer._run(0, _pid)
        assert new not in (dead, os.getpid())
        assert renderer._run(1, _pid) == other
    finally:
        renderer.close()


async def test_for_game_reaches_the_drawing_thread_and_ends_with_its_block() -> None:
    with for_game(("homm4", 7)):
        assert await asyncio.to_thread(_GAME.get) == ("homm4", 7)
    assert await asyncio.to_thread(_GAME.get) is None


def test_an_idle_worker_warms_the_card_faces_after_its_first_picture_only_when_asked() -> None:
    from engine.homm4.cards import load_card_pool
    from rendering.homm4.pictures import FACES_PER_STEP
    from rendering.pictures import picture_kind, render_json
    from tests.rendering import samples

    public = samples.public_view()
    hand = samples.seat_view(public)
    direct = render_json(
        "homm4", "hand", picture_kind("homm4", "hand").prepare(hand).model_dump_json()
    )
    quiet = PictureRenderer(processes=1)
    try:
        quiet.draw("homm4", "board", public)
        workers = quiet._workers_
        assert workers is not None
        assert (workers[0].warm_next, workers[0].warming) == (0, False)  # nothing started
    finally:
        quiet.close()
    renderer = PictureRenderer(processes=1, warm_when_idle=True)
    try:
        workers = renderer._workers_
        assert workers is None  # no worker before the first picture
        renderer.draw("homm4", "board", public)
        workers = renderer._workers_
        assert workers is not None
        assert workers[0].warmed.wait(300)
        assert workers[0].warm_next is None and workers[0].pending == 0
        faces = len(load_card_pool().cards)
        assert workers[0].warm_steps == -(-faces // FACES_PER_STEP)  # every face, once
        assert renderer.draw("homm4", "hand", hand).data == direct  # the same bytes
    finally:
        renderer.close()
