"""Campaign Heroes (schema 4): a finished game's surviving Heroes are kept per channel,
replaced by the next finished game, survive a reopen, and need a real game."""

from __future__ import annotations

import pytest

from storage.errors import GameNotFound
from storage.repository import Repository
from tests.storage.conftest import OpenStore

ASHKARA = {"hero": "ashkara", "skills": ["chaos_magic_basic"], "spells": ["magic_arrow"]}
ALDRIC = {"hero": "sir_aldric", "skills": [], "artifacts": ["crown_of_command"]}


async def test_heroes_are_saved_per_channel_and_replaced(repo: Repository) -> None:
    game = await repo.create_game(10, ruleset="homm4", host_user_id=1)
    assert await repo.campaign_heroes(10) == []
    await repo.save_campaign_heroes(10, game.id, [(1, ASHKARA), (2, ALDRIC)])
    saved = await repo.campaign_heroes(10)
    assert [(h.user_id, h.hero, h.game_id, h.channel_id) for h in saved] == [
        (1, ASHKARA, game.id, 10),
        (2, ALDRIC, game.id, 10),
    ]
    assert await repo.campaign_heroes(11) == []
    await repo.save_campaign_heroes(10, game.id, [(2, ASHKARA)])
    assert [(h.user_id, h.hero) for h in await repo.campaign_heroes(10)] == [(2, ASHKARA)]
    await repo.save_campaign_heroes(10, game.id, [])
    assert await repo.campaign_heroes(10) == []


async def test_saving_needs_a_game(repo: Repository) -> None:
    with pytest.raises(GameNotFound):
        await repo.save_campaign_heroes(10, 999, [(1, ASHKARA)])


async def test_heroes_survive_a_reopen(open_store: OpenStore) -> None:
    repo = await open_store()
    game = await repo.create_game(20, ruleset="homm4", host_user_id=1)
    await repo.save_campaign_heroes(20, game.id, [(3, ALDRIC)])
    await repo.close()
    again = await open_store()
    try:
        assert [h.hero for h in await again.campaign_heroes(20)] == [ALDRIC]
    finally:
        await again.close()
