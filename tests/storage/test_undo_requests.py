"""A player's waiting ``/undo`` request (schema 7, ``undo_requests``): stored for the
version it was asked at, agreed to seat by seat, dropped; refused when stale."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from engine.core import StaleState
from storage.errors import NothingToUndo
from storage.records import UndoRequest
from storage.repository import Repository
from tests.storage.helpers import play_one, player, started_game

WHEN = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


async def test_a_request_is_stored_agreed_to_and_dropped(repo: Repository) -> None:
    game = await started_game(repo, 1, players=3)
    entry = await play_one(repo, game.id, random.Random(1))
    request = UndoRequest(
        game.id, entry.version_after, entry.seat or 0, player(0), entry.seq, (1, 2), (), WHEN
    )
    await repo.save_undo_request(request)
    assert await repo.undo_request(game.id) == request
    assert request.waiting_for == (1, 2)

    once = await repo.agree_to_undo(game.id, version=entry.version_after, seat=2)
    twice = await repo.agree_to_undo(game.id, version=entry.version_after, seat=2)
    assert once == twice and once.agreed == (2,) and once.waiting_for == (1,)
    assert (await repo.undo_request(game.id)) == once
    with pytest.raises(NothingToUndo):  # seat 0 is the asker, not one of those needed
        await repo.agree_to_undo(game.id, version=entry.version_after, seat=0)
    with pytest.raises(NothingToUndo):  # no request was made at another version
        await repo.agree_to_undo(game.id, version=entry.version_after - 1, seat=1)

    assert not await repo.drop_undo_request(game.id, version=entry.version_after + 1)
    assert await repo.drop_undo_request(game.id, version=entry.version_after)
    assert await repo.undo_request(game.id) is None
    assert not await repo.drop_undo_request(game.id)


async def test_a_request_for_an_older_version_is_refused(repo: Repository) -> None:
    game = await started_game(repo, 2, players=2)
    first = await play_one(repo, game.id, random.Random(2))
    await play_one(repo, game.id, random.Random(3))
    stale = UndoRequest(game.id, first.version_after, 0, player(0), first.seq, (1,), (), WHEN)
    with pytest.raises(StaleState):
        await repo.save_undo_request(stale)
    assert await repo.undo_request(game.id) is None
