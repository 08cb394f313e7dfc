"""Whole homm4 games through the GameService: people played by the test (clicks and slash
commands choosing legal moves), computer seats played by the service, up to the victory;
and the check that no private card ever reaches the channel."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.homm4 import adapter
from storage.records import GameStatus
from tests.bot.service_helpers import (
    RecordingRenderer,
    channel_texts,
    click_choice,
    current,
    make_service,
    named_cards,
    person,
    slash_choice,
    started_game,
)

MAX_ACTIONS = 4000


@pytest.mark.rule("homm4:victory")
async def test_two_people_play_a_whole_game_by_clicks_and_slash_commands(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=2, ai=0, seed=5)
        seats = {s.seat: s for s in await repo.seats(game.id)}
        actions = 0
        while actions < MAX_ACTIONS:
            row, state = await current(service, game.id)
            if row.status is not GameStatus.ACTIVE:
                break
            owed = HOMM4_pending_seat(state)
            actor = person(seats[owed].user_id or 0)
            if owed == 0:
                out = await click_choice(service, game.id, actor, owed)
            else:
                out = await slash_choice(service, game.id, actor, owed)
            assert out.reply is not None and out.reply.text.startswith("✅")
            actions += 1
        row, state = await current(service, game.id)
        assert row.status is GameStatus.FINISHED
        assert row.result is not None and row.result["finished"] is True
        assert len(row.result["winners"]) == 1
        assert state.phase == "over"
        alive = [p.seat for p in state.players_state if not p.eliminated]
        assert alive == list(row.result["winners"])
        verdict = await service.mod_verify(person(9, moderator=True), row.channel_id)
        assert "exactly the stored position" in verdict.posts[0].text
    finally:
        await repo.close()


def HOMM4_pending_seat(state: object) -> int:
    from engine.homm4 import RULESET

    pending = RULESET.pending(state)  # type: ignore[arg-type]
    assert pending, "the game waits for nobody"
    return pending[0].seat


@pytest.mark.rule("homm4:card-types")
async def test_no_private_card_reaches_the_channel_in_a_game_against_the_computer(
    tmp_path: Path,
) -> None:
    renderer = RecordingRenderer()
    repo, service = await make_service(tmp_path, renderer=renderer)
    try:
        game = await started_game(service, humans=1, ai=1, seed=23)
        actions = 0
        pictures = 0
        battles = 0
        while actions < MAX_ACTIONS:
            row, _ = await current(service, game.id)
            if row.status is not GameStatus.ACTIVE:
                break
            renderer.shown.clear()
            out = await click_choice(service, game.id, person(1), 0)
            _, after = await current(service, game.id)
            hidden = adapter.private_cards(after)
            leaked = named_cards(channel_texts(out)) & hidden
            assert not leaked, f"channel named hidden cards {leaked}: {channel_texts(out)}"
            for kind, instances in renderer.shown:
                assert not instances & hidden, f"the {kind} picture showed hidden cards"
                pictures += 1
                battles += kind == "battle"
            for dm in out.dms:
                assert dm.user_id == 1
            actions += 1
        row, _ = await current(service, game.id)
        assert row.status is GameStatus.FINISHED
        assert pictures > 5 and battles >= 1
        log = await repo.read_log(game.id, limit=1000)
        for entry in log.entries:
            assert entry.command_json is None
            assert all(not e.private for e in entry.events)
    finally:
        await repo.close()
