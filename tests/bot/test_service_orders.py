"""Standing orders: a seat's battle decisions answered by the service, stored durably."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import BadOption
from bot.service import GameService
from engine.homm4 import RULESET as HOMM4
from storage.records import GameStatus, LogKind
from tests.bot.service_helpers import click_choice, current, make_service, person, started_game

ALL_AUTOMATIC = {
    "deploy": "auto",
    "attack": "weakest",
    "counter": "always",
    "fill": "auto",
    "retreat": "never",
    "surrender": "never",
    "answer": "reject",
}


async def test_orders_are_validated_shown_and_cleared_by_ask(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=2)
        with pytest.raises(BadOption, match="counter orders are one of"):
            await service.set_orders(person(1), game.channel_id, counter="sometimes")
        out = await service.run(
            person(1),
            ("battle", "orders"),
            {"counter": "always", "retreat": "never"},
            channel_id=game.channel_id,
        )
        assert out.reply is not None and "counter: always" in out.reply.text
        assert await repo.standing_orders(game.id) == {0: {"counter": "always", "retreat": "never"}}
        await service.set_orders(person(1), game.channel_id, counter="ask")
        assert await repo.standing_orders(game.id) == {0: {"retreat": "never"}}
        restarted = GameService(repo, renderer=None)
        shown = await restarted.set_orders(person(1), game.channel_id)
        assert shown.reply is not None and "retreat: never" in shown.reply.text
        assert (
            "Set one with /battle orders and any of: deploy ask|auto; attack ask|weakest|strongest"
            in shown.reply.text
        )
        assert "Set one" not in (out.reply.text if out.reply else "")
    finally:
        await repo.close()


@pytest.mark.rule("homm4:battles")
async def test_standing_orders_fight_whole_battles_without_asking(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, seed=23)
        await service.set_orders(person(1), game.channel_id, **ALL_AUTOMATIC)
        asked_in_battle = 0
        for _ in range(3000):
            row, state = await current(service, game.id)
            if row.status is not GameStatus.ACTIVE:
                break
            owed = HOMM4.pending(state)[0]
            if owed.kind.startswith("battle_"):
                asked_in_battle += 1
            await click_choice(service, game.id, person(1), 0)
        log = await repo.read_log_unredacted(game.id, limit=1000)
        by_orders = [
            e
            for e in log.entries
            if e.kind is LogKind.COMMAND and e.seat == 0 and e.reason == "standing orders"
        ]
        kinds = {e.command["type"] for e in by_orders if e.command}
        assert asked_in_battle == 0
        assert {"deploy", "attack"} <= kinds
        battle_ends = [ev for e in log.entries for ev in e.events if "wins the battle" in ev.text]
        assert battle_ends
    finally:
        await repo.close()
